/* timing.c: median time of an in-process operation over ~1 ms batches,
 * bounded by a deadline (used for the bare kernels and OpenSSL). Batches
 * are timed in this thread's CPU time, so a shared machine's preemption
 * does not inflate the result: it is the operation's cost on one core.
 * Nothing here is secret. */
#include <stdlib.h>
#include <time.h>

#include "vgload.h"

#define BATCH_NS 1000000u
#define MAX_BATCHES 4096

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double vgl_time_median(int (*fn)(void *arg), void *arg, uint64_t deadline_ns)
{
	static double per[MAX_BATCHES];
	/* The first call is cold (OpenSSL fetches its algorithms then); the
	 * second, warm one sizes the batches. */
	if (fn(arg) < 0)
		return -1;
	uint64_t t0 = cpu_ns();
	if (fn(arg) < 0)
		return -1;
	uint64_t one = cpu_ns() - t0;
	uint64_t batch = one ? BATCH_NS / one : BATCH_NS;
	if (batch < 1)
		batch = 1;
	int n = 0;
	while (n < MAX_BATCHES) {
		/* Stop when one more batch would pass the (wall-clock) deadline. */
		if (vgl_now_ns() + batch * one > deadline_ns)
			break;
		uint64_t s = cpu_ns();
		for (uint64_t i = 0; i < batch; i++)
			if (fn(arg) < 0)
				return -1;
		per[n++] = (double)(cpu_ns() - s) / 1e9 / (double)batch;
	}
	if (n == 0)
		return (double)one / 1e9; /* no time for a batch: the single call */
	qsort(per, (size_t)n, sizeof(per[0]), cmp_double);
	return n % 2 ? per[n / 2] : (per[n / 2 - 1] + per[n / 2]) / 2;
}
