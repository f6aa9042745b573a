/* p256_params.h: the NIST P-256 (secp256r1) domain parameters, typed from
 * FIPS 186-4 D.1.2.3 / SEC 2 v2 2.4.2, as little-endian 64-bit limbs, and
 * the two Montgomery constants -p^-1 and -n^-1 mod 2^64. Everything else
 * (R^2, b and G in Montgomery form, the tables) is derived from these at
 * build time by ec_gen_table.c, which also recomputes both inverses and
 * refuses to build if they differ. Public data. */
#ifndef VG_EC_P256_PARAMS_H
#define VG_EC_P256_PARAMS_H

#include <stdint.h>

/* Not every includer reads every parameter (p256.c needs only p and n). */
#ifndef VG_EC_PARAM
#define VG_EC_PARAM static const __attribute__((unused))
#endif

#define VG_P256_LIMBS 4
/* p = 2^256 - 2^224 + 2^192 + 2^96 - 1 = -1 mod 2^64, so -p^-1 = 1. */
#define VG_P256_P0INV UINT64_C(1)
#define VG_P256_N0INV UINT64_C(0xccd1c8aaee00bc4f)

VG_EC_PARAM uint64_t vg_p256_p[VG_P256_LIMBS] = {
	0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001,
};
VG_EC_PARAM uint64_t vg_p256_n[VG_P256_LIMBS] = {
	0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000,
};
VG_EC_PARAM uint64_t vg_p256_b[VG_P256_LIMBS] = {
	0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7,
};
VG_EC_PARAM uint64_t vg_p256_gx[VG_P256_LIMBS] = {
	0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247,
};
VG_EC_PARAM uint64_t vg_p256_gy[VG_P256_LIMBS] = {
	0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b,
};

#endif
