/* welch.c: see welch.h. */
#include "welch.h"

#include <math.h>
#include <stdlib.h>

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
