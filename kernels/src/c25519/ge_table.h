/* ge_table.h: precomputed multiples of the Ed25519 base point B. The
 * definitions are generated at build time by gen_table.c into
 * ge_base_table.c (meson custom_target). Public constants. */
#ifndef VG_GE_TABLE_H
#define VG_GE_TABLE_H

#include "ge.h"

/* Comb for the constant-time fixed-base multiplication (ge_base.c):
 * vg_ge_base_comb[i][j] = (j + 1) * 256^i * B, for i < 32, j < 8. */
extern const vg_ge_niels vg_ge_base_comb[32][8];

/* The radix-32 comb of the x86-64 base and adx tiers (ge4_table.c,
 * ge4_tier.asm): vg_ge_base_comb32[i][j] = (j + 1) * 32^i * B, for
 * i < 52, j < 16 (a row per digit). */
extern const vg_ge_niels vg_ge_base_comb32[52][16];

/* The radix-64 comb of the same tiers when the CPU has AVX:
 * vg_ge_base_comb64[i][j] = (j + 1) * 64^i * B, for i < 43, j < 32. */
extern const vg_ge_niels vg_ge_base_comb64[43][32];

/* Odd multiples for the variable-time verification (ge_vartime.c):
 * vg_ge_base_odd[j] = (2j + 1) * B, for j < 64 (width-8 NAF digits). */
extern const vg_ge_niels vg_ge_base_odd[64];

#endif
