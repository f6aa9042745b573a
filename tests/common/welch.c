/* welch.c: see welch.h. */
#include "welch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vgt_welch_add(vgt_welch *w, int cls, double x)
{
	w->n[cls] += 1;
	double d = x - w->mean[cls];
	w->mean[cls] += d / w->n[cls];
	w->m2[cls] += d * (x - w->mean[cls]);
}

double vgt_welch_t(const vgt_welch *w)
{
	if (w->n[0] < 2 || w->n[1] < 2)
		return 0;
	double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
	return (w->mean[0] - w->mean[1]) / sqrt(v0 / w->n[0] + v1 / w->n[1] + 1e-30);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void vgt_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_u64);
}

double vgt_welch_cropped(const uint64_t *cycles, const int *cls, size_t n)
{
	static const double crops[] = {1.0, 0.9, 0.75, 0.5};
	uint64_t *sorted = malloc(n * sizeof(*sorted));
	if (!sorted || n == 0) {
		free(sorted);
		return -1;
	}
	memcpy(sorted, cycles, n * sizeof(*sorted));
	vgt_sort_u64(sorted, n);
	double worst = 0;
	for (size_t k = 0; k < sizeof(crops) / sizeof(crops[0]); k++) {
		uint64_t limit = sorted[(size_t)(crops[k] * (double)(n - 1))];
		vgt_welch w;
		memset(&w, 0, sizeof(w));
		for (size_t i = 0; i < n; i++)
			if (cycles[i] <= limit)
				vgt_welch_add(&w, cls[i], (double)cycles[i]);
		double t = vgt_welch_t(&w);
		printf("crop %.2f: n = %.0f/%.0f, mean %.0f/%.0f cycles, t = %.2f\n", crops[k],
		       w.n[0], w.n[1], w.mean[0], w.mean[1], t);
		if (fabs(t) > worst)
			worst = fabs(t);
	}
	free(sorted);
	return worst;
}
