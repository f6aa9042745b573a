/* welch.h: Welch's t-test over two classes of timings, accumulated
 * online (Welford), for the dudect-style constant-time tests. Nothing
 * here is secret. */
#ifndef VGT_WELCH_H
#define VGT_WELCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	double n[2], mean[2], m2[2];
} vgt_welch;

/* Add sample x to class cls (0 or 1). */
void vgt_welch_add(vgt_welch *w, int cls, double x);
/* t statistic of class 0 against class 1; 0 until each has 2 samples. A
 * zero variance gives an unbounded |t| when the means differ. */
double vgt_welch_t(const vgt_welch *w);
/* Sort timings ascending (to find crop points). */
void vgt_sort_u64(uint64_t *v, size_t n);
/* The dudect tests' verdict: Welch's t of class 0 against class 1 over
 * the n timings cycles[i] of class cls[i], on all of them and on those
 * below the pooled 90th, 75th and 50th percentiles (cropping interrupts
 * and a shared machine's noise); prints one line per crop and returns
 * the largest |t|, or -1 if out of memory. */
double vgt_welch_cropped(const uint64_t *cycles, const int *cls, size_t n);

#endif
