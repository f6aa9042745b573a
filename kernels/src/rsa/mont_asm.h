/* mont_asm.h: the assembly Montgomery multiplications and squarings
 * (kernels/x86_64/rsa/), the functions of the base, adx and ifma rows of
 * the RSA family (rsa_impls.c). Each has the vg_mont_mul_fn contract of
 * mont.h for one fixed limb count (the n argument is ignored); the
 * squarings are called with b == a and need a < m. Defined only when the
 * build has assembly (VG_HAVE_ASM). Secret: as in mont.h, the modulus,
 * m0inv and the operands. */
#ifndef VG_RSA_MONT_ASM_H
#define VG_RSA_MONT_ASM_H

#include "rsa/mont.h"

vg_mont_mul_fn vg_mont_mul_base_16, vg_mont_mul_base_24, vg_mont_mul_base_32;
vg_mont_mul_fn vg_mont_mul_base_48, vg_mont_mul_base_64;
vg_mont_mul_fn vg_mont_mul_adx_16, vg_mont_mul_adx_24, vg_mont_mul_adx_32;
vg_mont_mul_fn vg_mont_mul_adx_48, vg_mont_mul_adx_64;
vg_mont_mul_fn vg_mont_sqr_adx_16, vg_mont_sqr_adx_24, vg_mont_sqr_adx_32;
vg_mont_mul_fn vg_mont_sqr_adx_48, vg_mont_sqr_adx_64;
vg_mont_mul_fn vg_mont_sqr_base_16, vg_mont_sqr_base_24, vg_mont_sqr_base_32;
vg_mont_mul_fn vg_mont_sqr_base_48, vg_mont_sqr_base_64;

#endif
