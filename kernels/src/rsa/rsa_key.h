/* rsa_key.h: the internal layout of RSA keys, shared by the rsa/ sources and
 * white-box tests (fault injection, valgrind secret marking). Secret: every
 * limb array and m0inv of struct vg_rsa_crt, and qinv. Public: the whole
 * public key, and the bit and limb lengths of p and q (as in BearSSL, the
 * lengths of the factors are not treated as secret). */
#ifndef VG_RSA_KEY_H
#define VG_RSA_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "rsa/bn.h"
#include "rsa/rsa52.h"
#include "vg/rsa.h"

/* Limb arrays are little-endian, zero above their used length. */
struct vg_rsa_public_key {
	size_t bits;                   /* modulus length in bits */
	size_t bytes;                  /* k = ceil(bits / 8) */
	size_t limbs;                  /* ceil(bits / 64) */
	uint64_t e;                    /* odd, 3 <= e < 2^64 */
	uint64_t n0inv;                /* -n^-1 mod 2^64 */
	uint64_t n[VG_BN_MAX_LIMBS];   /* the modulus */
	uint64_t rr[VG_BN_MAX_LIMBS];  /* R^2 mod n, R = 2^(64 limbs) */
	struct vg_rsa52_pub r52;       /* radix-2^52 constants (ifma tier) */
};

/* One CRT half: a prime factor and what exponentiation modulo it needs. */
struct vg_rsa_crt {
	size_t bits;                    /* public: bit length of the prime */
	size_t limbs;                   /* public: ceil(bits / 64) */
	uint64_t m0inv;                 /* secret: -prime^-1 mod 2^64 */
	uint64_t prime[VG_BN_MAX_LIMBS]; /* secret: p (or q) */
	uint64_t exp[VG_BN_MAX_LIMBS];  /* secret: d mod (prime - 1), < 2^bits */
	uint64_t rr[VG_BN_MAX_LIMBS];   /* secret: R^2 mod prime */
	uint64_t rrr[VG_BN_MAX_LIMBS];  /* secret: R^3 mod prime (vg_mont's rrr) */
};

/* d itself is not kept: it is checked against dp and dq at load and the
 * CRT never needs it. p and q keep the order of the key file; qinv is
 * q^-1 mod p for that order, so p < q works as well as p > q. */
struct vg_rsa_key {
	struct vg_rsa_public_key pub;
	struct vg_rsa_crt p, q;
	uint64_t qinv[VG_BN_MAX_LIMBS]; /* secret: q^-1 mod p, p.limbs limbs */
	uint64_t qinv_r[VG_BN_MAX_LIMBS]; /* secret: qinv R mod p (Garner of vg_rsa_crt_52) */
	struct vg_rsa52 r52;            /* radix-2^52 constants (ifma tier) */
};

/* vg_rsa_key_init_why with mr_rounds Miller-Rabin rounds per prime
 * instead of VG_RSA_MR_ROUNDS: key generation (rsa_gen.c) loads the key
 * it made with 0, its primes having just passed FIPS 186-5's rounds; every
 * other check (n = p q, dp, dq, qinv, the signature checked with e) runs
 * as for a key file. */
VG_MUST_CHECK int vg_rsa_key_load(vg_rsa_key *key, const vg_rsa_key_parts *parts,
				  unsigned mr_rounds, const char **why);

#endif
