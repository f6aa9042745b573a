/* p384_params.h: the NIST P-384 (secp384r1) domain parameters, typed from
 * FIPS 186-4 D.1.2.4 / SEC 2 v2 2.5.1, as little-endian 64-bit limbs, and
 * the two Montgomery constants -p^-1 and -n^-1 mod 2^64 (checked at build
 * time by ec_gen_table.c, which derives everything else). Public data. */
#ifndef VG_EC_P384_PARAMS_H
#define VG_EC_P384_PARAMS_H

#include <stdint.h>

/* Not every includer reads every parameter (p256.c needs only p and n). */
#ifndef VG_EC_PARAM
#define VG_EC_PARAM static const __attribute__((unused))
#endif

#define VG_P384_LIMBS 6
/* p = 2^384 - 2^128 - 2^96 + 2^32 - 1 = 2^32 - 1 mod 2^64, and
 * (2^32 - 1)(2^32 + 1) = -1 mod 2^64, so -p^-1 = 2^32 + 1. */
#define VG_P384_P0INV UINT64_C(0x100000001)
#define VG_P384_N0INV UINT64_C(0x6ed46089e88fdc45)

VG_EC_PARAM uint64_t vg_p384_p[VG_P384_LIMBS] = {
	0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe,
	0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
};
VG_EC_PARAM uint64_t vg_p384_n[VG_P384_LIMBS] = {
	0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf,
	0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
};
VG_EC_PARAM uint64_t vg_p384_b[VG_P384_LIMBS] = {
	0x2a85c8edd3ec2aef, 0xc656398d8a2ed19d, 0x0314088f5013875a,
	0x181d9c6efe814112, 0x988e056be3f82d19, 0xb3312fa7e23ee7e4,
};
VG_EC_PARAM uint64_t vg_p384_gx[VG_P384_LIMBS] = {
	0x3a545e3872760ab7, 0x5502f25dbf55296c, 0x59f741e082542a38,
	0x6e1d3b628ba79b98, 0x8eb1c71ef320ad74, 0xaa87ca22be8b0537,
};
VG_EC_PARAM uint64_t vg_p384_gy[VG_P384_LIMBS] = {
	0x7a431d7c90ea0e5f, 0x0a60b1ce1d7e819d, 0xe9da3113b5f0b8c0,
	0xf8f41dbd289a147c, 0x5d9e98bf9292dc29, 0x3617de4a96262c6f,
};

#endif
