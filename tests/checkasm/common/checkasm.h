/* checkasm.h: harness for testing assembly functions against their C
 * reference (checkasm style). Nothing here is secret.
 *
 * Each family's test walks the family's table of variants (dispatch.h):
 * for every row the CPU can run (vg_checkasm_row), each function of the
 * row against the same slot of row 0, the C reference; see
 * tests/checkasm/rsa/checkasm_rsa.c. Assembly building blocks that are
 * not in a table (field arithmetic) are checked by name, tier by tier:
 *
 * HOW TO ADD A FUNCTION (see tests/checkasm/c25519/ for a full example):
 *
 *   int main(int argc, char **argv)
 *   {
 *       vg_checkasm_init("rsa", argc, argv);       // seed; prints it
 *       if (vg_checkasm_tier("adx", VG_TIER_ADX)) { // 0: CPU lacks it, skipped
 *           vg_checkasm_func("vg_mont_mul_adx");    // starts one function
 *           for (int i = 0; i < 10000; i++) {
 *               uint8_t raw[VG_CHECKASM_OUT(64)];   // sentinel-guarded output
 *               uint8_t *out = vg_checkasm_guard(raw, 64);
 *               ... random inputs with vg_checkasm_rand_bytes()/rand64() ...
 *               vg_checkasm_call(vg_mont_mul_adx, out, a, b, m);
 *               ref_c(want, a, b, m);
 *               if (!vg_checkasm_eq(out, want, 64, "i=%d", i)) break;
 *               if (!vg_checkasm_guard_ok(raw, 64)) break;
 *           }
 *           vg_checkasm_func_done();                // reports ok/FAILED
 *       }
 *       return vg_checkasm_finish();                // nonzero on failure, or
 *   }                                               // if nothing was checked
 *
 * vg_checkasm_call(fn, args...) calls fn through the nasm trampoline
 * (checkasm_call.asm): up to 8 integer/pointer arguments (no floating point,
 * no structs by value), result as uint64_t. It loads random values into
 * rbx, rbp, r12-r15 and checks they survive, checks the direction flag and
 * the stack alignment; a failure is reported against the current function.
 * The call also type-checks the arguments against fn's prototype (the
 * call expression is compiled but never executed).
 *
 * Link with checkasm_dep (tests/checkasm/common/meson.build). */
#ifndef VG_CHECKASM_H
#define VG_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "vg/cpu.h"

typedef void (*vg_checkasm_fn)(void);

/* The trampoline (asm) and its post-call check (C). */
uint64_t vg_checkasm_call_raw(vg_checkasm_fn fn, ...);
uint64_t vg_checkasm_after_call(uint64_t ret);
#define vg_checkasm_call(fn, ...)                                                          \
	(0 ? ((void)(fn)(__VA_ARGS__), (uint64_t)0)                                        \
	   : vg_checkasm_after_call(vg_checkasm_call_raw((vg_checkasm_fn)(fn), __VA_ARGS__)))

/* Seeds the generator from $CHECKASM_SEED or --seed=N (else the clock) and
 * prints the seed so a failure can be replayed. family names the output. */
void vg_checkasm_init(const char *family, int argc, char **argv);

/* Number of random iterations per function: 10000 by default,
 * $CHECKASM_ITERS overrides (never below 10000 unless --quick is given). */
int vg_checkasm_iters(void);

/* 1 if the CPU (after VG_CPU_FEATURES) has every feature of the tier:
 * subsequent vg_checkasm_func() calls belong to it. 0 prints
 * "tier NAME: skipped (CPU lacks features)". */
int vg_checkasm_tier(const char *name, uint32_t features);

/* vg_checkasm_tier for a row of a family table: its name and features. */
int vg_checkasm_row(const struct vg_variant *row);

void vg_checkasm_func(const char *name); /* start checking one function */
void vg_checkasm_func_done(void);        /* print its verdict */
/* Record a failure of the current function (printf format). */
void vg_checkasm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 while the current function has no failure. */
int vg_checkasm_ok(void);
/* 0 if every function passed and at least one was checked, else 1. */
int vg_checkasm_finish(void);

uint64_t vg_checkasm_rand64(void);
void vg_checkasm_rand_bytes(void *p, size_t n);

/* Compare n bytes; on mismatch print both in hex with the context, record
 * a failure, return 0. */
int vg_checkasm_eq(const void *got, const void *want, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Sentinel-guarded output buffers: VG_CHECKASM_GUARD bytes of a known
 * pattern on both sides of n bytes; vg_checkasm_guard() fills the whole
 * raw buffer (the output too, so unwritten output bytes show up as wrong
 * results) and returns the output pointer (raw + VG_CHECKASM_GUARD).
 * vg_checkasm_guard_ok() checks both guards and records a failure. */
#define VG_CHECKASM_GUARD 64
#define VG_CHECKASM_OUT(n) ((n) + 2 * VG_CHECKASM_GUARD)
uint8_t *vg_checkasm_guard(uint8_t *raw, size_t n);
int vg_checkasm_guard_ok(const uint8_t *raw, size_t n);

#endif
