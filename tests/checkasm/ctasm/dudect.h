/* dudect.h: the statistical timing test (dudect, Reparaz-Balasch-
 * Verbauwhede 2017) shared by dudect_c25519.c and dudect_ec.c, for the
 * assembly that valgrind cannot run. A target runs on inputs of two
 * classes, an all-zero secret and random secrets, interleaved in random
 * order; the cycle counts of the classes are compared with Welch's t-test
 * on all samples and below several percentiles (cropping tames interrupts
 * and the other processes on a shared machine). Secret (in the model): the
 * input bytes. */
#ifndef VGT_DUDECT_H
#define VGT_DUDECT_H

#include <stddef.h>
#include <stdint.h>

/* |t| above this is a leak. dudect uses 4.5 on long quiet runs; the
 * control gives |t| in the hundreds within a second, while constant-time
 * code stays within a few units even on a loaded host, so 10 separates
 * them without false alarms from noise. */
#define VGT_DUDECT_LEAK 10.0
#define VGT_DUDECT_MAX_IN 128 /* input bytes a target may take */

typedef void (*vgt_dudect_fn)(const uint8_t *in);

/* Runs fn on inlen-byte inputs for about `seconds`, prints the t
 * statistics under name and returns the largest |t|. */
double vgt_dudect(const char *name, vgt_dudect_fn fn, size_t inlen, double seconds);

/* The verdict on fn: 1 (a leak) when vgt_dudect finds |t| above
 * VGT_DUDECT_LEAK twice running, on fresh samples; 0 otherwise. A leak
 * this test can see shows in every run (the control's |t| is in the
 * hundreds); a shared machine's noise has put one run of constant-time
 * code just past the threshold (|t| 11.1 at the 90th-percentile crop, then
 * 1.7-4.5 in three reruns), and does not do it twice. */
int vgt_dudect_leaks(const char *name, vgt_dudect_fn fn, size_t inlen, double seconds);

/* Runs a deliberately leaky target (an early-exit comparison) for
 * `seconds`; 0 if it was found leaking, as it must be, else 1 (the test
 * has lost its power and fails). */
int vgt_dudect_control(double seconds);

/* The seconds per target: VG_DUDECT_SECONDS, default 2. Prints the
 * header line that explains the t columns. */
double vgt_dudect_start(void);

#endif
