/* mont_asm.h: the assembly Montgomery multiplications (kernels/x86_64/rsa/)
 * and the choice among them. Each has the vg_mont_mul_fn contract of
 * mont.h for one fixed limb count (the n argument is ignored). Secret: as
 * in mont.h, the modulus, m0inv and the operands. */
#ifndef VG_RSA_MONT_ASM_H
#define VG_RSA_MONT_ASM_H

#include <stddef.h>

#include "rsa/mont.h"

/* Defined only when the build has assembly (VG_HAVE_ASM). */
vg_mont_mul_fn vg_mont_mul_base_16, vg_mont_mul_base_24, vg_mont_mul_base_32;
vg_mont_mul_fn vg_mont_mul_base_48, vg_mont_mul_base_64;
vg_mont_mul_fn vg_mont_mul_adx_16, vg_mont_mul_adx_24, vg_mont_mul_adx_32;
vg_mont_mul_fn vg_mont_mul_adx_48, vg_mont_mul_adx_64;
/* Squarings (b ignored, a < m): the vg_mont_mul_fn type for one pointer. */
vg_mont_mul_fn vg_mont_sqr_adx_16, vg_mont_sqr_adx_24, vg_mont_sqr_adx_32;

/* The fastest multiply the usable CPU features (vg_cpu_features(), read on
 * every call so a test's forced tier applies at once) allow for n limbs;
 * vg_mont_mul_c when no assembly covers n. */
vg_mont_mul_fn *vg_mont_pick(size_t n);

/* The squaring for n limbs (called with b == a, a < m): a dedicated one
 * where the tier has it, else the same function as vg_mont_pick(n). */
vg_mont_mul_fn *vg_mont_pick_sqr(size_t n);

/* Name of the tier vg_mont_pick uses for the CRT halves of the common key
 * sizes: "c", "base", "adx" or "ifma". */
const char *vg_mont_tier_name(void);

/* TEST ONLY: when on, vg_mont_pick always returns the portable C multiply,
 * so the reference path of the whole private operation stays tested. */
void vg_mont_force_c_for_tests(int on);

#endif
