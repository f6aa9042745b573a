/* timing.h: interleaved batch timing. Every implementation of one op is
 * timed in turn within each round (A B C, B C A, ...), so a slow phase of
 * a shared, loaded machine hits all of them alike; the result is the
 * median over rounds of each implementation's time per operation. */
#ifndef VG_BENCH_TIMING_H
#define VG_BENCH_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

#define VG_BENCH_MAX_IMPLS 4 /* vgd and up to three peers */

typedef struct {
	uint64_t batch_ns;    /* aim for batches of about this length */
	uint64_t budget_ns;   /* wall time for one op, calibration included */
	unsigned min_rounds;  /* at least this many rounds, even past the budget */
	unsigned max_rounds;  /* at most this many (rounded up to odd) */
} vg_bench_plan;

/* Time op on impls[0..n) (each must have it). med_us[i] receives the
 * median microseconds per operation of impls[i]; *rounds the number of
 * rounds. 0, or negative when an implementation failed (named in why). */
int vg_bench_measure(const vg_bench_impl *const *impls, size_t n, int op,
		     const vg_bench_plan *plan, double *med_us, unsigned *rounds, char *why,
		     size_t whylen);

#endif
