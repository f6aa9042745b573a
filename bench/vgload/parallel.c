/* parallel.c: the bare kernel on K threads at once (same key, each thread
 * its own output buffer), to see how much of K x one core the machine
 * delivers when K cores compute together: SMT siblings, shared caches and
 * power limits all show here, other tenants' preemption does not (thread
 * CPU time). Secret: the outputs of the jobs (wiped); the keys are
 * bare.c's. */
#include <pthread.h>
#include <stdlib.h>

#include "vgload.h"

#define CAP (2 * VGL_SLICE_BATCHES) /* batches per thread: one slice */

/* Holds every thread until all exist, so they compute together; a failed
 * pthread_create opens it with abort instead (a barrier cannot). */
typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state; /* 0 wait, 1 go, -1 abort */
} gate;

typedef struct {
	vgl_bare_job job;
	vgl_sampler s;
	gate *g;
	uint64_t deadline_ns;
	int r;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	pthread_mutex_lock(&w->g->mu);
	while (w->g->state == 0)
		pthread_cond_wait(&w->g->cv, &w->g->mu);
	int go = w->g->state > 0;
	pthread_mutex_unlock(&w->g->mu);
	w->r = go ? vgl_sample(&w->s, vgl_bare_job_run, &w->job, w->deadline_ns) : -1;
	return NULL;
}

double vgl_bare_parallel(const vgl_keys *k, const vgl_op *op, const uint8_t *data, int nthreads,
			 uint64_t deadline_ns)
{
	if (nthreads < 1 || nthreads > VGL_MAX_THREADS)
		return -1;
	worker *w = calloc((size_t)nthreads, sizeof(*w));
	double *per = calloc((size_t)nthreads * CAP, sizeof(*per));
	pthread_t tid[VGL_MAX_THREADS];
	gate g = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	int started = 0, ok = w && per;
	for (int i = 0; ok && i < nthreads; i++) {
		w[i].g = &g;
		w[i].deadline_ns = deadline_ns;
		vgl_sampler_init(&w[i].s, per + (size_t)i * CAP, CAP);
		ok = vgl_bare_job_init(&w[i].job, k, op, data) == 0 &&
		     pthread_create(&tid[i], NULL, work, &w[i]) == 0;
		started += ok;
	}
	pthread_mutex_lock(&g.mu);
	g.state = ok ? 1 : -1;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.mu);
	double rate = 0;
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		double t = vgl_sampler_median(&w[i].s);
		if (w[i].r < 0 || t <= 0)
			ok = 0;
		else
			rate += 1 / t;
	}
	if (w)
		for (int i = 0; i < nthreads; i++)
			vgl_bare_job_wipe(&w[i].job);
	free(w);
	free(per);
	pthread_cond_destroy(&g.cv);
	pthread_mutex_destroy(&g.mu);
	return ok ? rate : -1;
}
