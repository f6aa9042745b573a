/* timing.c: batch calibration, interleaved rounds and medians for vgbench
 * (CLOCK_MONOTONIC; no cycle counter, whose rate differs from the core
 * clock on this machine kind). Nothing here is secret. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timing.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Nanoseconds for one batch of iters operations, or 0 on failure. */
static uint64_t time_batch(const vg_bench_impl *impl, int op, unsigned iters)
{
	static uint8_t sink[VG_BENCH_OUT_MAX]; /* outputs land here so no call is dead */
	uint64_t t0 = now_ns();
	for (unsigned i = 0; i < iters; i++)
		if (vg_bench_one(impl, op, sink) < 0)
			return 0;
	uint64_t t = now_ns() - t0;
	return t ? t : 1;
}

/* Iterations that fill about batch_ns; also warms caches and clocks. */
static int calibrate(const vg_bench_impl *impl, int op, uint64_t batch_ns, unsigned *iters)
{
	unsigned n = 1;
	for (;;) {
		uint64_t t = time_batch(impl, op, n);
		if (t == 0)
			return -1;
		if (t >= batch_ns / 2 || n >= (1u << 20)) {
			double per = (double)t / n;
			double want = (double)batch_ns / per;
			*iters = want < 1 ? 1 : want > (1u << 20) ? (1u << 20) : (unsigned)want;
			return 0;
		}
		n *= 2;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int vg_bench_measure(const vg_bench_impl *const *impls, size_t n, int op,
		     const vg_bench_plan *plan, double *med_us, unsigned *rounds, char *why,
		     size_t whylen)
{
	unsigned iters[VG_BENCH_MAX_IMPLS];
	if (n == 0 || n > VG_BENCH_MAX_IMPLS || plan->min_rounds == 0 ||
	    plan->max_rounds < plan->min_rounds)
		return -1;
	uint64_t t0 = now_ns();
	for (size_t i = 0; i < n; i++) {
		if (calibrate(impls[i], op, plan->batch_ns, &iters[i]) < 0) {
			snprintf(why, whylen, "%s failed on %s", impls[i]->name, vg_bench_op_name(op));
			return -1;
		}
	}
	/* max is made odd too, so stopping there still leaves a true median. */
	unsigned max = plan->max_rounds | 1, nr;
	double *samples = calloc((size_t)max * n, sizeof(double));
	if (!samples) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	/* Rounds continue until the budget is spent (wall clock: on a loaded
	 * machine a round takes longer than its batches' sum of work), with
	 * at least min_rounds and an odd count: the median is one round. */
	for (nr = 0; nr < max; nr++) {
		if (nr >= plan->min_rounds && nr % 2 == 1 && now_ns() - t0 >= plan->budget_ns)
			break;
		/* Rotate the order each round so no implementation always runs
		 * right after the same neighbour. */
		for (size_t j = 0; j < n; j++) {
			size_t i = (nr + j) % n;
			uint64_t t = time_batch(impls[i], op, iters[i]);
			if (t == 0) {
				snprintf(why, whylen, "%s failed on %s", impls[i]->name,
					 vg_bench_op_name(op));
				free(samples);
				return -1;
			}
			/* per signature on a batch row */
			samples[i * max + nr] =
				(double)t / iters[i] / vg_bench_op_batch(op) / 1000.0;
		}
	}
	for (size_t i = 0; i < n; i++)
		med_us[i] = median(samples + i * max, nr);
	*rounds = nr;
	free(samples);
	return 0;
}
