/* test_keygen_ct.c: constant-time check of key generation under valgrind
 * memcheck (tests/common/ctgrind.h). Random bytes come from a source
 * that marks them undefined, so every candidate and everything made from
 * it is secret to memcheck, which reports any branch or memory index
 * that depends on it. The verdicts that are public by design ("this
 * candidate was discarded", the public point) pass through
 * vg_keygen_declassify and vg_ec_declassify, defined here to mark them
 * defined; everything else stays checked.
 *
 * Checked: trial division (vg_sieve_coprime) and the small residues,
 * Miller-Rabin (vg_rsa_prime_check) on a secret prime with its secret
 * Montgomery constants, the inverse, gcd and divisions on secrets, the
 * whole RSA-2048 generation up to its finished key
 * (vg_rsa_generate_raw_with: candidates, rejections, d, dp, dq, qinv),
 * and ECDSA P-256/P-384 generation with a first draw out of range
 * (rejected) and a second kept.
 *
 * --tier c|base|adx forces the RSA and EC rows (valgrind cannot run the
 * ifma rows: tests/checkasm/ctasm and the dudect test cover them); the
 * whole RSA generation runs at adx only (about 15 s of CPU under
 * valgrind), the building blocks and ECDSA on every tier.
 * --control branches on a secret candidate bit on purpose and passes
 * only if memcheck counted it. Outside valgrind: skipped (77). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "ec/ec.h"
#include "keygen/keygen_internal.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_prime.h"
#include "rsa/rsa_sieve.h"
#include "rsa_testutil.h"
#include "vg/cpu.h"
#include "vg/keygen.h"

/* Override the library's weak no-ops. */
void vg_keygen_declassify(const void *p, size_t len)
{
	VG_CT_PUBLIC(p, len);
}
void vg_ec_declassify(const void *p, size_t len)
{
	VG_CT_PUBLIC(p, len);
}

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "ct-keygen: FAILED: %s\n", what);
		failures++;
	}
}

/* A deterministic source whose bytes are secret to memcheck. With
 * first_high set, the first draw is all ones (out of range for both
 * curves: a rejection). */
struct src {
	uint64_t state;
	int first_high;
};

static int secret_rand(void *ctx, uint8_t *buf, size_t len)
{
	struct src *s = ctx;

	trsa_rand_bytes(&s->state, buf, len);
	if (s->first_high) {
		memset(buf, 0xff, len);
		s->first_high = 0;
	}
	VG_CT_SECRET(buf, len);
	return 0;
}

/* The building blocks on the secret primes of a test key. */
static void ct_blocks(void)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_2048_test.txt");
	static struct vg_sieve sv;
	uint64_t p[VG_BN_MAX_LIMBS], q[VG_BN_MAX_LIMBS], r[VG_BN_MAX_LIMBS];
	uint64_t t[VG_BN_MAX_LIMBS], rr[VG_BN_MAX_LIMBS], m0;
	size_t n = key->p.limbs, bits = key->p.bits;
	vg_mont ctx;

	memcpy(p, key->p.prime, sizeof(p));
	memcpy(q, key->q.prime, sizeof(q));
	trsa_key_free(key);
	vg_sieve_init(&sv);
	VG_CT_SECRET(p, sizeof(p));
	VG_CT_SECRET(q, sizeof(q));

	uint64_t v = vg_sieve_coprime(&sv, p, n);
	VG_CT_PUBLIC(&v, sizeof(v));
	check(v == 1, "a prime has no small factor");
	uint32_t res = vg_bn_mod_small(p, n, 65537, vg_bn_small_recip(65537));
	res ^= vg_bn_div_small(t, q, n, 65541, vg_bn_small_recip(65541));
	VG_CT_PUBLIC(&res, sizeof(res));

	/* Miller-Rabin with secret Montgomery constants */
	m0 = vg_mont_m0inv(p[0]);
	vg_mont_rr(rr, p, n);
	vg_rsa_mont_init(vg_rsa_impl(), &ctx, p, rr, m0, n);
	v = vg_rsa_prime_check(&ctx, bits, 2);
	VG_CT_PUBLIC(&v, sizeof(v));
	check(v == 1, "Miller-Rabin accepts p");

	/* inverse, gcd, division */
	v = vg_bn_modinv_odd(r, q, p, n);
	VG_CT_PUBLIC(&v, sizeof(v));
	check(v == 1, "q is invertible mod p");
	p[0] ^= 1;
	q[0] ^= 1;
	v = vg_bn_gcd(r, p, q, n);
	VG_CT_PUBLIC(&v, sizeof(v));
	check(v == 1, "gcd(p - 1, q - 1)");
	vg_bn_divmod(t, rr, q, n, r, n);
}

static void ct_rsa(void)
{
	struct src s = {0x6374, 0};
	vg_rsa_keypair *kp = malloc(sizeof(*kp));
	vg_rsa_key *key = malloc(vg_rsa_key_size());
	vg_rsa_key_parts parts;

	if (!kp || !key)
		abort();
	int rc = vg_rsa_generate_raw_with(secret_rand, &s, 2048, VG_RSA_GEN_E, kp);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	check(rc == 0, "RSA-2048 generation");
	/* the result, now public to memcheck, is a valid key */
	VG_CT_PUBLIC(kp, sizeof(*kp));
	vg_rsa_keypair_parts(kp, &parts);
	check(rc == 0 && vg_rsa_key_init(key, &parts) == 0, "the generated key loads");
	vg_rsa_key_wipe(key);
	free(key);
	free(kp);
}

static void ct_ec(vg_ecdsa_curve c)
{
	struct src s = {0x6563 + (uint64_t)c, 1};
	uint8_t d[48], pub[97];
	size_t len = vg_ecdsa_scalar_len(c), plen = vg_ecdsa_public_len(c);

	int rc = vg_ecdsa_generate_with(secret_rand, &s, c, d, len, pub, plen);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	check(rc == 0, "ECDSA generation after a rejected draw");
	check(s.first_high == 0, "the out-of-range draw was made");
	VG_CT_PUBLIC(d, len);
	check(rc == 0 && vg_ecdsa_private_check(c, d, len) == 0, "d in range");
}

static int run_control(void)
{
	struct src s = {1, 0};
	uint64_t c[16];
	volatile int sink = 0;

	secret_rand(&s, (uint8_t *)c, sizeof(c));
	unsigned before = VALGRIND_COUNT_ERRORS;
	if (c[3] & 1)
		sink = 1;
	unsigned after = VALGRIND_COUNT_ERRORS;
	printf("control: %u error(s) before the secret branch, %u after (%d)\n", before, after,
	       sink);
	return after > before ? 0 : 1;
}

int main(int argc, char **argv)
{
	int full = 1;

	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "not running under valgrind: nothing to check\n");
		return VG_CT_SKIP;
	}
	if (argc > 1 && strcmp(argv[1], "--control") == 0)
		return run_control();
	if (argc > 2 && strcmp(argv[1], "--tier") == 0) {
		const char *t = argv[2];
		if (strcmp(t, "c") == 0) {
			vg_dispatch_for_tests(0, 1);
			full = 0; /* the C multiply: the blocks and EC only */
		} else if (strcmp(t, "base") == 0) {
			vg_dispatch_for_tests(VG_TIER_BASE, 0);
			full = 0; /* the whole generation once, at adx */
		} else if (strcmp(t, "adx") == 0) {
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		} else {
			fprintf(stderr, "unknown tier %s\n", t);
			return 1;
		}
		if (strcmp(vg_kernel_variant("rsa"), t) != 0 ||
		    strcmp(vg_kernel_variant("p256"), t) != 0) {
			fprintf(stderr, "tier %s requested, %s/%s in use\n", t,
				vg_kernel_variant("rsa"), vg_kernel_variant("p256"));
			return 1;
		}
	}
	ct_blocks();
	if (full)
		ct_rsa();
	ct_ec(VG_ECDSA_P256);
	ct_ec(VG_ECDSA_P384);
	printf("ct-keygen: %s (%s)\n", failures ? "FAILED" : "ok", vg_kernel_variant("rsa"));
	return failures ? 1 : 0;
}
