/* timing.c: the time of an in-process operation over ~1 ms batches,
 * collected in slices bounded by deadlines and pooled in a sampler whose
 * median is the result (used for the bare kernels and OpenSSL). Batches
 * are timed in this thread's CPU time, so a shared machine's preemption
 * does not inflate the result: it is the operation's cost on one core.
 * Nothing here is secret. */
#include <stdlib.h>
#include <time.h>

#include "vgload.h"

#define BATCH_NS 1000000u

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

void vgl_sampler_init(vgl_sampler *s, double *per, size_t cap)
{
	*s = (vgl_sampler){.per = per, .cap = cap, .one_s = -1};
}

int vgl_sample(vgl_sampler *s, int (*fn)(void *arg), void *arg, uint64_t deadline_ns)
{
	if (s->failed)
		return -1;
	/* The first call is cold (OpenSSL fetches its algorithms then, and a
	 * load phase may have just evicted the caches); the second, warm one
	 * sizes the batches. Neither is pooled. */
	if (fn(arg) < 0)
		goto fail;
	uint64_t t1 = cpu_ns();
	if (fn(arg) < 0)
		goto fail;
	uint64_t one = cpu_ns() - t1;
	s->one_s = (double)one / 1e9;
	/* Longer slices get longer batches rather than more of them, so a
	 * long run does not fill the sampler in its first slice. */
	uint64_t now = vgl_now_ns(), batch_ns = BATCH_NS;
	if (deadline_ns > now && (deadline_ns - now) / VGL_SLICE_BATCHES > batch_ns)
		batch_ns = (deadline_ns - now) / VGL_SLICE_BATCHES;
	uint64_t batch = one ? batch_ns / one : batch_ns;
	if (batch < 1)
		batch = 1;
	while (s->n < s->cap) {
		/* Stop when one more batch would pass the (wall-clock) deadline. */
		if (vgl_now_ns() + batch * one > deadline_ns)
			break;
		uint64_t b0 = cpu_ns();
		for (uint64_t i = 0; i < batch; i++)
			if (fn(arg) < 0)
				goto fail;
		s->per[s->n++] = (double)(cpu_ns() - b0) / 1e9 / (double)batch;
	}
	return 0;
fail:
	s->failed = 1;
	return -1;
}

void vgl_sampler_add(vgl_sampler *dst, const vgl_sampler *src)
{
	if (src->failed)
		dst->failed = 1;
	if (dst->one_s < 0)
		dst->one_s = src->one_s;
	for (size_t i = 0; i < src->n && dst->n < dst->cap; i++)
		dst->per[dst->n++] = src->per[i];
}

double vgl_sampler_median(vgl_sampler *s)
{
	if (s->failed || s->one_s < 0)
		return -1;
	if (s->n == 0)
		return s->one_s; /* no time for a batch: the single warm call */
	/* Sorting in place is harmless: the pool has no order. */
	qsort(s->per, s->n, sizeof(s->per[0]), cmp_double);
	size_t n = s->n;
	return n % 2 ? s->per[n / 2] : (s->per[n / 2 - 1] + s->per[n / 2]) / 2;
}
