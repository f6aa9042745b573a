/* impl_sodium.c: the Ed25519 and X25519 operations through libsodium (it
 * has no RSA). libsodium picks its own code paths at sodium_init and
 * cannot be restricted to a tier. Nothing here is secret. */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "bench.h"

/* Owned by this file: set by init, used by run/once. */
static const vg_bench_fixture *fx;
static uint8_t sk[crypto_sign_SECRETKEYBYTES], pk[crypto_sign_PUBLICKEYBYTES];
static char version[64];

static int na_init(const vg_bench_fixture *f, const char *arg, char *why, size_t whylen)
{
	fx = f;
	if (arg) {
		snprintf(why, whylen, "takes no '=%s'", arg);
		return -1;
	}
	snprintf(version, sizeof(version), "libsodium %s", sodium_version_string());
	if (sodium_init() < 0) {
		snprintf(why, whylen, "sodium_init failed");
		return -1;
	}
	if (crypto_sign_seed_keypair(pk, sk, fx->ed_seed) != 0) {
		snprintf(why, whylen, "crypto_sign_seed_keypair failed");
		return -1;
	}
	return 0;
}

/* No RSA and no ECDSA (libsodium has neither), so of the key generation
 * rows only Ed25519's and X25519's. */
static int na_has(int op)
{
	int k = vg_bench_op_keygen(op);
	return vg_bench_op_rsa_index(op) < 0 && vg_bench_op_ec_index(op) < 0 && k <= 0;
}

static int na_one(int op, uint8_t *out)
{
	uint8_t tmp_sk[crypto_sign_SECRETKEYBYTES];
	int r;
	switch (op) {
	case VG_BENCH_ED_KEYGEN:
		r = crypto_sign_keypair(out, tmp_sk);
		sodium_memzero(tmp_sk, sizeof(tmp_sk));
		return r == 0 ? 32 : -1;
	case VG_BENCH_X_KEYGEN: /* a random scalar and its public value */
		r = crypto_box_keypair(out, tmp_sk);
		sodium_memzero(tmp_sk, sizeof(tmp_sk));
		return r == 0 ? 32 : -1;
	case VG_BENCH_ED_KEYPAIR:
		r = crypto_sign_seed_keypair(out, tmp_sk, fx->ed_seed);
		return r == 0 ? 32 : -1;
	case VG_BENCH_ED_SIGN64:
		return crypto_sign_detached(out, NULL, fx->msg, 64, sk) == 0 ? 64 : -1;
	case VG_BENCH_ED_SIGN1K:
		return crypto_sign_detached(out, NULL, fx->msg, 1024, sk) == 0 ? 64 : -1;
	case VG_BENCH_ED_VERIFY:
		out[0] = crypto_sign_verify_detached(fx->ed_sig, fx->msg, VG_BENCH_VERIFY_LEN,
						     fx->ed_pk) == 0;
		return 1;
	case VG_BENCH_X_BASE:
		return crypto_scalarmult_base(out, fx->x_scalar) == 0 ? 32 : -1;
	case VG_BENCH_X_VAR:
		return crypto_scalarmult(out, fx->x_scalar, fx->x_peer) == 0 ? 32 : -1;
	default:
		return -1;
	}
}

static void na_fini(void) { sodium_memzero(sk, sizeof(sk)); }

static const char *na_version(void) { return version; }

const vg_bench_impl vg_bench_sodium = {
	.name = "libsodium",
	.init = na_init,
	.has = na_has,
	.one = na_one,
	.fini = na_fini,
	.version = na_version,
};
