/* test_rsa_ct.c: constant-time check of the RSA private operation under
 * valgrind memcheck (the ctgrind method). After a key is loaded, its secret
 * fields (p, q, dp, dq, qinv and the Montgomery constants of p and q; d is
 * not kept) are marked undefined, so any branch or memory index that
 * depends on them is reported and, with --error-exitcode=1, fails the run.
 * Results leave the secret world only through an explicit declassification
 * (the return code: one bit, "the fault check passed"; the output: a
 * signature, public by design).
 *
 * --tier c|base|adx forces that RSA row first (vg_dispatch_for_tests can
 * add ADX, which valgrind's cpuid hides; valgrind cannot run the ifma
 * row's asm at all, which tests/checkasm checks statically and by timing).
 *
 * With --control it branches on a secret on purpose and checks that
 * valgrind counted it: the marking is live. Not under valgrind, the
 * test has nothing to check and reports itself skipped (VG_CT_SKIP). The
 * marking macros are tests/common/ctgrind.h's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/rsa.h"
#include "vg/sha2.h"

#define SECRET(x) VG_CT_SECRET(&(x), sizeof(x))
#define PUBLIC(x) VG_CT_PUBLIC(&(x), sizeof(x))

static void mark_crt(struct vg_rsa_crt *h)
{
	SECRET(h->m0inv);
	SECRET(h->prime);
	SECRET(h->exp);
	SECRET(h->rr);
	SECRET(h->rrr);
}

static void mark_key_secret(struct vg_rsa_key *key)
{
	mark_crt(&key->p);
	mark_crt(&key->q);
	SECRET(key->qinv);
	SECRET(key->qinv_r);
	SECRET(key->r52.k0);
	SECRET(key->r52.m);
	SECRET(key->r52.rr);
	SECRET(key->r52.hi);
	SECRET(key->r52.out);
}

/* The first e = 3 key of the 2048-bit sig_gen file: factors of about 1365
 * and 684 bits, so the unbalanced path (more chunks in the reductions, p
 * and q of different limb counts) is checked too. */
static vg_rsa_key *unbalanced_key(void)
{
	vg_vecfile *f = vg_vec_open("rsa_pkcs1_2048_sig_gen_test.txt");
	vg_rsa_key *key = NULL;

	while (vg_vec_next(f)) {
		if (key || strcmp(vg_vec_req(f, "privateKey.publicExponent"), "03") != 0)
			continue;
		trsa_parts t;
		int rc;
		assert_int_equal(trsa_parts_jwk(&t, f), 0);
		key = trsa_key_new(&t.parts, &rc);
		assert_non_null(key);
		trsa_parts_free(&t);
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_non_null(key);
	return key;
}

static void check_key(vg_rsa_key *key)
{
	const vg_rsa_public_key *pub = vg_rsa_key_public(key);
	size_t k = vg_rsa_key_bytes(key);
	uint8_t in[VG_RSA_MAX_BYTES], out[VG_RSA_MAX_BYTES], back[VG_RSA_MAX_BYTES];
	uint8_t dig[VG_SHA512_LEN];
	uint64_t seed = 42;
	int rc;

	mark_key_secret(key);

	/* The raw private operation on a public input below n. */
	trsa_rand_bytes(&seed, in, k);
	in[0] = 0x01;
	rc = vg_rsa_private(key, out, in, k);
	PUBLIC(rc);
	VG_CT_PUBLIC(out, k);
	assert_int_equal(rc, 0);
	assert_int_equal(vg_rsa_public(pub, back, out, k), 0);
	assert_memory_equal(back, in, k);

	/* The two signature schemes, for each hash. */
	for (int a = VG_HASH_SHA256; a <= VG_HASH_SHA512; a++) {
		size_t h = vg_hash_len((vg_hash_alg)a);
		trsa_rand_bytes(&seed, dig, h);
		rc = vg_rsa_sign_pkcs1(key, (vg_hash_alg)a, dig, h, out, k);
		PUBLIC(rc);
		VG_CT_PUBLIC(out, k);
		assert_int_equal(rc, 0);
		assert_int_equal(vg_rsa_verify_pkcs1(pub, (vg_hash_alg)a, dig, h, out, k), 0);

		rc = vg_rsa_sign_pss(key, (vg_hash_alg)a, dig, h, out, k);
		PUBLIC(rc);
		VG_CT_PUBLIC(out, k);
		assert_int_equal(rc, 0);
		assert_int_equal(vg_rsa_verify_pss(pub, (vg_hash_alg)a, dig, h, out, k, h), 0);
	}
}

static void test_ct_2048(void **state)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_2048_test.txt");

	(void)state;
	check_key(key);
	trsa_key_free(key);
}

static void test_ct_3072(void **state)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_3072_test.txt");

	(void)state;
	check_key(key);
	trsa_key_free(key);
}

static void test_ct_4096(void **state)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_4096_test.txt");

	(void)state;
	check_key(key);
	trsa_key_free(key);
}

static void test_ct_unbalanced(void **state)
{
	vg_rsa_key *key = unbalanced_key();

	(void)state;
	assert_true(key->p.limbs != key->q.limbs);
	check_key(key);
	trsa_key_free(key);
}

/* The ifma row's exponentiation logic (radix conversions, windows, the
 * masked scan of both halves) on the C row's radix-2^52 functions in
 * place of the asm, which valgrind cannot run: the asm itself is checked
 * statically and by timing (ct-asm-static, ct-rsa-ifma-dudect). */
static void test_ct_rsa52(void **state)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_2048_test.txt");
	uint64_t c[2 * VG_BN_MAX_LIMBS] = {0};
	uint64_t rp[VG_BN_MAX_LIMBS], rq[VG_BN_MAX_LIMBS];
	uint64_t seed = 7;
	const struct vg_rsa52_impl *impl = &vg_rsa_impls[0].r52[0]; /* C row, 20 digits */

	(void)state;
	assert_int_equal(key->r52.digits, 20);
	assert_int_equal(vg_rsa52_digits[0], 20);
	/* the input of both halves, reduced inside (two chunks) */
	trsa_rand_bytes(&seed, (uint8_t *)c, 31 * 8);
	mark_key_secret(key);
	SECRET(c);
	vg_rsa52_exp2(&key->r52, impl, rp, rq, c, key->pub.limbs, key->p.exp, key->q.exp,
		      key->p.bits, key->p.prime, key->q.prime, key->p.limbs);
	PUBLIC(rp);
	PUBLIC(rq);
	trsa_key_free(key);
}

/* Positive control: marking must be live. One deliberate branch on a
 * marked secret must raise valgrind's error count (read through a client
 * request, so this entry runs without --error-exitcode and passes only if
 * the error was seen). */
static int run_control(void)
{
	vg_rsa_key *key = trsa_key_from_file("rsa_pkcs1_2048_test.txt");
	volatile int sink = 0;
	unsigned before, after;

	mark_key_secret(key);
	before = VALGRIND_COUNT_ERRORS;
	if (key->p.prime[0] & 2)
		sink = 1;
	after = VALGRIND_COUNT_ERRORS;
	printf("control: %u error(s) before the secret branch, %u after (%d)\n", before, after,
	       sink);
	trsa_key_free(key);
	return after > before ? 0 : 1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ct_2048),
		cmocka_unit_test(test_ct_unbalanced),
		cmocka_unit_test(test_ct_rsa52),
	};
	/* Per tier: every CRT half size of the asm (16, 24, 32 limbs) and the
	 * public moduli (32, 48, 64 limbs). */
	const struct CMUnitTest tests_all[] = {
		cmocka_unit_test(test_ct_2048),
		cmocka_unit_test(test_ct_3072),
		cmocka_unit_test(test_ct_4096),
		cmocka_unit_test(test_ct_unbalanced),
		cmocka_unit_test(test_ct_rsa52),
	};

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
		} else if (strcmp(t, "base") == 0) {
			vg_dispatch_for_tests(VG_TIER_BASE, 0);
		} else if (strcmp(t, "adx") == 0) {
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		} else {
			fprintf(stderr, "unknown tier %s\n", t);
			return 1;
		}
		/* The tier under test must be the one that runs. */
		if (strcmp(vg_kernel_variant("rsa"), t) != 0) {
			fprintf(stderr, "tier %s requested, %s in use\n", t, vg_kernel_variant("rsa"));
			return 1;
		}
		return cmocka_run_group_tests_name("rsa-ct", tests_all, NULL, NULL) != 0;
	}
	return cmocka_run_group_tests_name("rsa-ct", tests, NULL, NULL) != 0;
}
