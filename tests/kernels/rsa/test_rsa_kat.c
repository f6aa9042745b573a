/* test_rsa_kat.c: the Wycheproof RSA files, one file per run:
 *   test-rsa-kat MODE FILE EXPECTED_SKIPS
 * MODE is pkcs1-verify (rsa_signature_*), pkcs1-sign (rsa_pkcs1_*_sig_gen),
 * pss-verify (rsa_pss_*) or pkcs1-decrypt (rsa_pkcs1_<bits>_test: the raw
 * private operation, then type-2 unpadding here). Every case gives its
 * verdict except those skipped by parameter (hashes vg does not offer);
 * their number must equal EXPECTED_SKIPS, so a silently growing skip list
 * fails. A file read to the end with zero cases fails too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dispatch.h"
#include "vg/cpu.h"
#include "rsa/mont_asm.h"
#include "rsa_testutil.h"
#include "vecfile.h"
#include "vg/rsa.h"
#include "vg/sha2.h"

static const char *mode, *file;
static long expected_skips;

/* Tallies printed at the end. */
struct tally {
	long cases, valid_ok, invalid_rejected, acc_accepted, acc_rejected, skipped;
	long refused_len, refused_range; /* decryption: vg_rsa_private said no */
};

/* One key at a time, reloaded when the group's key text changes. */
struct cache {
	char *id;
	vg_rsa_key *key;
	vg_rsa_public_key *pub;
};

static int cache_hit(struct cache *c, const char *id)
{
	if (c->id && strcmp(c->id, id) == 0)
		return 1;
	free(c->id);
	c->id = strdup(id);
	assert_non_null(c->id);
	trsa_key_free(c->key);
	c->key = NULL;
	free(c->pub);
	c->pub = NULL;
	return 0;
}

static void cache_free(struct cache *c)
{
	free(c->id);
	trsa_key_free(c->key);
	free(c->pub);
}

static const vg_rsa_public_key *group_public(struct cache *c, vg_vecfile *f)
{
	const char *n = vg_vec_req(f, "publicKey.modulus");
	const char *e = vg_vec_req(f, "publicKey.publicExponent");
	char id[4096];

	snprintf(id, sizeof(id), "%s/%s", n, e);
	if (!cache_hit(c, id)) {
		uint8_t *nb, *eb;
		size_t nl, el;
		nb = vg_vec_hex(f, "publicKey.modulus", &nl);
		eb = vg_vec_hex(f, "publicKey.publicExponent", &el);
		c->pub = malloc(vg_rsa_public_key_size());
		assert_non_null(c->pub);
		int rc = vg_rsa_public_key_init(c->pub, nb, nl, eb, el);
		if (rc != 0)
			fprintf(stderr, "%s: tcId %ld: public key does not load (%d)\n", file,
				vg_vec_int(f, "tcId"), rc);
		assert_int_equal(rc, 0);
		free(nb);
		free(eb);
	}
	return c->pub;
}

/* Digest of the record's msg with alg. */
static size_t digest_msg(vg_vecfile *f, vg_hash_alg alg, uint8_t *dig)
{
	size_t ml;
	uint8_t *msg = vg_vec_hex(f, "msg", &ml);
	assert_int_equal(vg_hash(alg, dig, msg, ml), 0);
	free(msg);
	return vg_hash_len(alg);
}

/* Count a verdict: ok = "the implementation accepted". */
static void verdict(struct tally *t, vg_vecfile *f, int ok)
{
	const char *result = vg_vec_req(f, "result");
	long tc = vg_vec_int(f, "tcId");

	if (strcmp(result, "valid") == 0) {
		if (!ok)
			fprintf(stderr, "%s: tcId %ld: valid case rejected\n", file, tc);
		assert_true(ok);
		t->valid_ok++;
	} else if (strcmp(result, "invalid") == 0) {
		if (ok)
			fprintf(stderr, "%s: tcId %ld: invalid case accepted (%s)\n", file, tc,
				vg_vec_str(f, "flags"));
		assert_false(ok);
		t->invalid_rejected++;
	} else {
		assert_string_equal(result, "acceptable");
		if (ok)
			t->acc_accepted++;
		else
			t->acc_rejected++;
	}
}

static void run_pkcs1_verify(vg_vecfile *f, struct tally *t, struct cache *c)
{
	int alg = trsa_hash_alg(vg_vec_req(f, "sha"));
	uint8_t dig[64], *sig;
	size_t sl, dl;

	if (alg == 0) {
		t->skipped++;
		return;
	}
	const vg_rsa_public_key *pub = group_public(c, f);
	dl = digest_msg(f, (vg_hash_alg)alg, dig);
	sig = vg_vec_hex(f, "sig", &sl);
	int rc = vg_rsa_verify_pkcs1(pub, (vg_hash_alg)alg, dig, dl, sig, sl);
	assert_true(rc == 0 || rc == VG_E_VERIFY);
	/* The only acceptable case is MissingNull (DigestInfo without the
	 * NULL): we re-encode with the NULL and compare, so we reject it. */
	if (strcmp(vg_vec_req(f, "result"), "acceptable") == 0)
		assert_int_equal(rc, VG_E_VERIFY);
	verdict(t, f, rc == 0);
	free(sig);
}

static void run_pss_verify(vg_vecfile *f, struct tally *t, struct cache *c)
{
	const char *sha = vg_vec_req(f, "sha");
	int alg = trsa_hash_alg(sha);
	uint8_t dig[64], *sig;
	size_t sl, dl;

	/* MGF1 uses the message hash in vg; other pairings and hashes are
	 * parameters vg does not offer. */
	assert_string_equal(vg_vec_req(f, "mgf"), "MGF1");
	if (alg == 0 || strcmp(sha, vg_vec_req(f, "mgfSha")) != 0) {
		t->skipped++;
		return;
	}
	const vg_rsa_public_key *pub = group_public(c, f);
	long slen = vg_vec_int(f, "sLen");
	assert_true(slen >= 0);
	dl = digest_msg(f, (vg_hash_alg)alg, dig);
	sig = vg_vec_hex(f, "sig", &sl);
	int rc = vg_rsa_verify_pss(pub, (vg_hash_alg)alg, dig, dl, sig, sl, (size_t)slen);
	assert_true(rc == 0 || rc == VG_E_VERIFY);
	verdict(t, f, rc == 0);
	free(sig);
}

static void run_pkcs1_sign(vg_vecfile *f, struct tally *t, struct cache *c)
{
	int alg = trsa_hash_alg(vg_vec_req(f, "sha"));
	uint8_t dig[64], out[VG_RSA_MAX_BYTES], *want;
	size_t wl, dl;
	char id[8192];

	/* SHA-1 and SHA-224 groups (WeakHash): vg has no such hash. */
	if (alg == 0) {
		t->skipped++;
		return;
	}
	snprintf(id, sizeof(id), "%s/%s", vg_vec_req(f, "privateKeyJwk.n"),
		 vg_vec_req(f, "privateKeyJwk.d"));
	if (!cache_hit(c, id)) {
		trsa_parts p;
		int rc;
		assert_int_equal(trsa_parts_jwk(&p, f), 0);
		c->key = trsa_key_new(&p.parts, &rc);
		if (!c->key)
			fprintf(stderr, "%s: tcId %ld: key does not load (%d)\n", file,
				vg_vec_int(f, "tcId"), rc);
		/* Every key here loads, e = 3 with 1:2 factors included. */
		assert_non_null(c->key);
		trsa_parts_free(&p);
	}
	dl = digest_msg(f, (vg_hash_alg)alg, dig);
	want = vg_vec_hex(f, "sig", &wl);
	assert_int_equal(wl, vg_rsa_key_bytes(c->key));
	assert_int_equal(vg_rsa_sign_pkcs1(c->key, (vg_hash_alg)alg, dig, dl, out, wl), 0);
	if (memcmp(out, want, wl) != 0)
		fprintf(stderr, "%s: tcId %ld: signature differs\n", file, vg_vec_int(f, "tcId"));
	assert_memory_equal(out, want, wl);
	assert_int_equal(
		vg_rsa_verify_pkcs1(vg_rsa_key_public(c->key), (vg_hash_alg)alg, dig, dl, out, wl),
		0);
	/* Signing is deterministic: both valid and acceptable (e = 3) cases
	 * must reproduce the expected signature, which they did. */
	verdict(t, f, 1);
	free(want);
}

/* RSAES-PKCS1-v1_5 decoding (RFC 8017 7.2.2 step 3): EM = 00 02 PS 00 M,
 * PS at least 8 non-zero bytes. Returns M's offset or -1. Test code: it
 * need not be constant time. */
static long unpad_type2(const uint8_t *em, size_t k)
{
	size_t i;

	if (k < 11 || em[0] != 0x00 || em[1] != 0x02)
		return -1;
	for (i = 2; i < k && em[i] != 0; i++)
		;
	if (i == k || i < 10)
		return -1;
	return (long)(i + 1);
}

static void run_pkcs1_decrypt(vg_vecfile *f, struct tally *t, struct cache *c)
{
	uint8_t out[VG_RSA_MAX_BYTES], *ct, *msg;
	size_t cl, ml;
	char id[8192];
	int ok;

	snprintf(id, sizeof(id), "%s/%s", vg_vec_req(f, "privateKey.modulus"),
		 vg_vec_req(f, "privateKey.prime1"));
	if (!cache_hit(c, id)) {
		trsa_parts p;
		int rc;
		trsa_parts_hex(&p, f);
		c->key = trsa_key_new(&p.parts, &rc);
		assert_non_null(c->key);
		trsa_parts_free(&p);
	}
	ct = vg_vec_hex(f, "ct", &cl);
	msg = vg_vec_hex(f, "msg", &ml);
	int rc = vg_rsa_private(c->key, out, ct, cl);
	/* Refusals are about the input's shape: length (VG_E_INVALID) or
	 * value >= n (VG_E_RANGE); never a fault. */
	assert_true(rc == 0 || rc == VG_E_INVALID || rc == VG_E_RANGE);
	t->refused_len += rc == VG_E_INVALID;
	t->refused_range += rc == VG_E_RANGE;
	ok = 0;
	if (rc == 0) {
		size_t k = vg_rsa_key_bytes(c->key);
		long off = unpad_type2(out, k);
		if (off >= 0) {
			ok = 1;
			/* A valid case must decrypt to msg exactly. */
			if (strcmp(vg_vec_req(f, "result"), "valid") == 0) {
				assert_int_equal(k - (size_t)off, ml);
				assert_memory_equal(out + off, msg, ml);
			}
		}
	}
	verdict(t, f, ok);
	free(ct);
	free(msg);
}

static void test_file(void **state)
{
	vg_vecfile *f = vg_vec_open(file);
	struct tally t = {0};
	struct cache c = {0};
	void (*run)(vg_vecfile *, struct tally *, struct cache *) = NULL;

	(void)state;
	if (strcmp(mode, "pkcs1-verify") == 0)
		run = run_pkcs1_verify;
	else if (strcmp(mode, "pss-verify") == 0)
		run = run_pss_verify;
	else if (strcmp(mode, "pkcs1-sign") == 0)
		run = run_pkcs1_sign;
	else if (strcmp(mode, "pkcs1-decrypt") == 0)
		run = run_pkcs1_decrypt;
	else
		fail_msg("unknown mode %s", mode);
	assert_non_null(run);

	while (vg_vec_next(f)) {
		t.cases++;
		run(f, &t, &c);
	}
	cache_free(&c);
	printf("%s (%s): %ld cases: %ld valid accepted, %ld invalid rejected, "
	       "acceptable %ld accepted / %ld rejected, %ld skipped by parameter\n",
	       file, mode, t.cases, t.valid_ok, t.invalid_rejected, t.acc_accepted,
	       t.acc_rejected, t.skipped);
	if (run == run_pkcs1_decrypt)
		printf("  of the rejections, vg_rsa_private refused %ld (length) + %ld (>= n); "
		       "unpadding rejected the rest\n",
		       t.refused_len, t.refused_range);
	assert_int_equal(vg_vec_close(f), 0);
	assert_true(t.cases > t.skipped); /* something was actually checked */
	assert_int_equal(t.skipped, expected_skips);
	assert_int_equal(t.valid_ok + t.invalid_rejected + t.acc_accepted + t.acc_rejected +
				 t.skipped,
			 t.cases);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_file)};
	char *end;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s MODE FILE EXPECTED_SKIPS [TIER]\n", argv[0]);
		return 2;
	}
	/* TIER: the RSA variant that must be in use (the run's VG_CPU_FEATURES
	 * selects it); "c" forces the C row of every family. */
	if (argc == 5) {
		if (strcmp(argv[4], "c") == 0)
			vg_dispatch_for_tests(0, 1);
		if (strcmp(vg_kernel_variant("rsa"), argv[4]) != 0) {
			fprintf(stderr, "tier %s expected, %s in use\n", argv[4],
				vg_kernel_variant("rsa"));
			return 1;
		}
	}
	mode = argv[1];
	file = argv[2];
	expected_skips = strtol(argv[3], &end, 10);
	if (*end) {
		fprintf(stderr, "bad EXPECTED_SKIPS\n");
		return 2;
	}
	return cmocka_run_group_tests_name(file, tests, NULL, NULL) != 0;
}
