/* test_rsa_mb_ct.c: constant-time check of the batched RSA private
 * operation (vg_rsa_private_mb, vg/rsa_mb.h) under valgrind memcheck, at
 * every operation count 1..8 with a different key in each position: every
 * key's secrets (p, q, dp, dq, qinv and all their Montgomery and radix-2^52
 * constants) are marked undefined, so a branch or memory index on them
 * anywhere in the batch path (lane packing, the batched exponentiation,
 * its radix conversions and masked table scan, each operation's Garner
 * step and fault check) fails the run. Results are declassified only
 * where they become public: each status and each output signature.
 *
 * valgrind cannot run AVX-512, so the rsa_mb family runs its C row here
 * (the same exponentiation code with the portable multiply and table
 * read); the ifma assembly is checked by ct-asm-static. --tier c|base|adx
 * forces the single RSA family's row used for Garner and the check.
 * --control branches on a secret on purpose and passes only if valgrind
 * counted it. Outside valgrind: skipped (VG_CT_SKIP). */
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
#include "rsa/rsa_key.h"
#include "rsa_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/rsa.h"
#include "vg/rsa_mb.h"

#define SECRET(x) VG_CT_SECRET(&(x), sizeof(x))
#define PUBLIC(x) VG_CT_PUBLIC(&(x), sizeof(x))
#define MAXKEYS 8

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

/* The distinct keys of a sig_gen file with balanced primes (the batched
 * path), up to max. */
static size_t load_keys(const char *file, vg_rsa_key **keys, size_t max)
{
	vg_vecfile *f = vg_vec_open(file);
	size_t n = 0, ns = 0;
	char *seen[16] = {0};

	while (vg_vec_next(f)) {
		const char *id = vg_vec_str(f, "privateKeyJwk.n");
		int dup = 0, rc;
		trsa_parts t;
		if (!id || n == max || ns == 16)
			continue;
		for (size_t i = 0; i < ns; i++)
			dup |= strcmp(seen[i], id) == 0;
		if (dup)
			continue;
		seen[ns++] = strdup(id);
		assert_int_equal(trsa_parts_jwk(&t, f), 0);
		keys[n] = trsa_key_new(&t.parts, &rc);
		assert_non_null(keys[n]);
		trsa_parts_free(&t);
		if (keys[n]->r52.digits == 0)
			trsa_key_free(keys[n]);
		else
			n++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	for (size_t i = 0; i < ns; i++)
		free(seen[i]);
	return n;
}

/* n operations over the nk keys (position i: key i mod nk), inputs public
 * and below every n; each result checked with the public key. */
static void run(vg_rsa_key **keys, size_t nk, size_t n, uint64_t seed)
{
	const vg_rsa_key *ks[VG_RSA_MB_MAX];
	uint8_t inb[VG_RSA_MB_MAX][VG_RSA_MAX_BYTES], outb[VG_RSA_MB_MAX][VG_RSA_MAX_BYTES];
	uint8_t back[VG_RSA_MAX_BYTES];
	uint8_t *out[VG_RSA_MB_MAX];
	const uint8_t *in[VG_RSA_MB_MAX];
	size_t len[VG_RSA_MB_MAX];
	int rc[VG_RSA_MB_MAX], r;

	for (size_t i = 0; i < n; i++) {
		ks[i] = keys[i % nk];
		len[i] = vg_rsa_key_bytes(ks[i]);
		trsa_rand_bytes(&seed, inb[i], len[i]);
		inb[i][0] = 0x01;
		in[i] = inb[i];
		out[i] = outb[i];
	}
	r = vg_rsa_private_mb(ks, out, in, len, n, rc);
	assert_int_equal(r, 0);
	for (size_t i = 0; i < n; i++) {
		PUBLIC(rc[i]);
		VG_CT_PUBLIC(out[i], len[i]);
		assert_int_equal(rc[i], 0);
		assert_int_equal(vg_rsa_public(vg_rsa_key_public(ks[i]), back, out[i], len[i]), 0);
		assert_memory_equal(back, in[i], len[i]);
	}
}

static void test_counts_2048(void **state)
{
	vg_rsa_key *keys[MAXKEYS];
	size_t nk = load_keys("rsa_pkcs1_2048_sig_gen_test.txt", keys, MAXKEYS - 1);

	(void)state;
	/* the sig_gen file's three balanced keys and the decryption file's */
	keys[nk++] = trsa_key_from_file("rsa_pkcs1_2048_test.txt");
	assert_true(nk >= 4);
	for (size_t i = 0; i < nk; i++)
		mark_key_secret(keys[i]);
	for (size_t n = 1; n <= VG_RSA_MB_MAX; n++)
		run(keys, nk, n, 100 + n);
	for (size_t i = 0; i < nk; i++)
		trsa_key_free(keys[i]);
}

/* The 30- and 40-digit batches, and both sizes in one call. */
static void test_3072_4096(void **state)
{
	vg_rsa_key *keys[4];
	size_t n3 = load_keys("rsa_pkcs1_3072_sig_gen_test.txt", keys, 2);
	size_t n4 = load_keys("rsa_pkcs1_4096_sig_gen_test.txt", keys + n3, 2);

	(void)state;
	assert_true(n3 == 2 && n4 == 2);
	for (size_t i = 0; i < 4; i++)
		mark_key_secret(keys[i]);
	run(keys, 4, 4, 7);
	for (size_t i = 0; i < 4; i++)
		trsa_key_free(keys[i]);
}

static int run_control(void)
{
	vg_rsa_key *keys[1];
	volatile int sink = 0;
	unsigned before, after;

	assert_int_equal(load_keys("rsa_pkcs1_2048_sig_gen_test.txt", keys, 1), 1);
	mark_key_secret(keys[0]);
	before = VALGRIND_COUNT_ERRORS;
	if (keys[0]->r52.m[3] & 4)
		sink = 1;
	after = VALGRIND_COUNT_ERRORS;
	printf("control: %u error(s) before the secret branch, %u after (%d)\n", before, after,
	       sink);
	trsa_key_free(keys[0]);
	return after > before ? 0 : 1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_2048),
		cmocka_unit_test(test_3072_4096),
	};

	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "not running under valgrind: nothing to check\n");
		return VG_CT_SKIP;
	}
	if (argc > 1 && strcmp(argv[1], "--control") == 0)
		return run_control();
	if (argc > 2 && strcmp(argv[1], "--tier") == 0) {
		const char *t = argv[2];
		if (strcmp(t, "c") == 0)
			vg_dispatch_for_tests(0, 1);
		else if (strcmp(t, "base") == 0)
			vg_dispatch_for_tests(VG_TIER_BASE, 0);
		else if (strcmp(t, "adx") == 0)
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		else
			return 1;
		if (strcmp(vg_kernel_variant("rsa"), t) != 0 ||
		    strcmp(vg_kernel_variant("rsa-mb"), "c") != 0) {
			fprintf(stderr, "tier %s requested, rsa=%s rsa-mb=%s in use\n", t,
				vg_kernel_variant("rsa"), vg_kernel_variant("rsa-mb"));
			return 1;
		}
	}
	return cmocka_run_group_tests_name("rsa-mb-ct", tests, NULL, NULL) != 0;
}
