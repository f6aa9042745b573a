/* test_ed25519_mb.c: vg_ed25519_sign_expanded_mb (vg/ed25519_mb.h)
 * against the RFC 8032 section 7.1 vectors and the Wycheproof
 * ed25519_test cases whose key is one of them (the file has public keys
 * only; its valid signatures under an RFC 8032 key are that key's
 * deterministic signatures): each vector in every lane position of a full
 * batch (eight signatures) and at every other count 1..7 in a position
 * that moves with the vector, the other lanes random keys and messages;
 * every signature compared with the expected one (the vector's) or with
 * vg_ed25519_sign_expanded of the same lane (the random ones), and each
 * verified. Every Wycheproof message (all 151) is also signed in every
 * lane position under random keys. Counts below the crossover (which run
 * one at a time) also go through the batch itself (vg_ed25519_sign_mb_batch
 * on the chosen row). Then signatures over their own messages, empty
 * messages and the argument errors. The single signer has no fault check,
 * so neither has a lane (nothing to inject). With --c: the same on the C
 * rows. Nothing here is secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "c25519/c25519_mb_impl.h"
#include "dispatch.h"
#include "ec_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/ed25519.h"
#include "vg/ed25519_mb.h"

#define LANES VG_ED25519_MB_MAX
#define MAXV 16
#define MAXM 200
#define MAXLEN 1100 /* the longest RFC 8032 message is 1023 bytes */

/* A signing vector: seed, message, expected signature. */
struct vec {
	uint8_t seed[32], sig[64];
	uint8_t *msg;
	size_t len;
	long id;
};

static struct vec vecs[MAXV];
static size_t nvecs;
/* Every Wycheproof message. */
static uint8_t *msgs[MAXM];
static size_t mlens[MAXM], nmsgs;

static void load(void)
{
	vg_vecfile *f = vg_vec_open("rfc8032_ed25519.txt");
	uint8_t rfc_pk[8][32];
	size_t nrfc = 0, n = 0;

	while (vg_vec_next(f)) {
		struct vec *v = &vecs[nvecs];
		assert_true(nvecs < MAXV);
		ect_hex(v->seed, 32, vg_vec_req(f, "secretKey"));
		ect_hex(rfc_pk[nrfc++], 32, vg_vec_req(f, "publicKey"));
		ect_hex(v->sig, 64, vg_vec_req(f, "signature"));
		v->msg = vg_vec_hex(f, "message", &v->len);
		v->id = -(long)nvecs - 1;
		nvecs++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(nvecs, 5);

	f = vg_vec_open("ed25519_test.txt");
	while (vg_vec_next(f)) {
		uint8_t pk[32];
		size_t slen;
		assert_true(nmsgs < MAXM);
		ect_hex(pk, 32, vg_vec_req(f, "publicKey.pk"));
		msgs[nmsgs] = vg_vec_hex(f, "msg", &mlens[nmsgs]);
		uint8_t *sig = vg_vec_hex(f, "sig", &slen);
		for (size_t k = 0; k < nrfc; k++)
			if (memcmp(pk, rfc_pk[k], 32) == 0 && slen == 64 &&
			    strcmp(vg_vec_req(f, "result"), "valid") == 0) {
				struct vec *v = &vecs[nvecs];
				assert_true(nvecs < MAXV);
				memcpy(v->seed, vecs[k].seed, 32);
				memcpy(v->sig, sig, 64);
				v->msg = malloc(mlens[nmsgs] + 1);
				assert_non_null(v->msg);
				memcpy(v->msg, msgs[nmsgs], mlens[nmsgs]);
				v->len = mlens[nmsgs];
				v->id = vg_vec_int(f, "tcId");
				nvecs++;
				n++;
			}
		free(sig);
		nmsgs++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(nmsgs, 151);
	assert_int_equal(n, 4); /* tcIds 80-83: valid, under RFC 8032 keys */
}

/* The lanes of one call. */
struct batch {
	uint8_t h[LANES][64], pk[LANES][32], sig[LANES][64];
	uint8_t m[LANES][MAXLEN];
	size_t len[LANES];
};

static void rand_lane(struct batch *b, size_t l, uint64_t *seed)
{
	uint8_t s[32];
	ect_rand_bytes(seed, s, 32);
	vg_ed25519_expand(b->h[l], s);
	vg_ed25519_public_key(b->pk[l], s);
	b->len[l] = ect_rand(seed) % 300;
	ect_rand_bytes(seed, b->m[l], b->len[l]);
}

static void set_lane(struct batch *b, size_t l, const uint8_t seed[32], const uint8_t *msg,
		     size_t len)
{
	vg_ed25519_expand(b->h[l], seed);
	vg_ed25519_public_key(b->pk[l], seed);
	assert_true(len <= MAXLEN);
	memcpy(b->m[l], msg, len);
	b->len[l] = len;
}

/* Sign n lanes (through the batch itself when direct); every lane against
 * the single signer and verified; lane pos against want when given. */
static void sign_check(struct batch *b, size_t n, size_t pos, const uint8_t *want, long id,
		       int direct)
{
	uint8_t *sp[LANES], single[64];
	const void *mp[LANES];
	const uint8_t *hp[LANES], *pp[LANES];
	int rc[LANES];

	for (size_t l = 0; l < n; l++) {
		sp[l] = b->sig[l];
		mp[l] = b->m[l];
		hp[l] = b->h[l];
		pp[l] = b->pk[l];
		rc[l] = 12345;
	}
	memset(b->sig, 0xa5, sizeof(b->sig));
	if (direct) {
		vg_ed25519_sign_mb_batch(vg_c25519_mb_impl(), sp, mp, b->len, hp, pp, n);
	} else {
		assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, b->len, hp, pp, n, rc), 0);
		for (size_t l = 0; l < n; l++)
			assert_int_equal(rc[l], 0);
	}
	for (size_t l = 0; l < n; l++) {
		if (want && l == pos && memcmp(b->sig[l], want, 64) != 0)
			fail_msg("vector %ld, %zu signatures, position %zu%s: differs", id, n, pos,
				 direct ? " (batch)" : "");
		vg_ed25519_sign_expanded(single, b->m[l], b->len[l], b->h[l], b->pk[l]);
		if (memcmp(b->sig[l], single, 64) != 0)
			fail_msg("vector %ld, %zu signatures, lane %zu%s: not the single signature",
				 id, n, l, direct ? " (batch)" : "");
		if (vg_ed25519_verify(b->sig[l], b->m[l], b->len[l], b->pk[l]) != 0)
			fail_msg("vector %ld, %zu signatures, lane %zu: does not verify", id, n, l);
	}
}

static void run_vec(const struct vec *v, size_t n, size_t pos, uint64_t seed, int direct)
{
	static struct batch b;
	for (size_t l = 0; l < n; l++)
		rand_lane(&b, l, &seed);
	set_lane(&b, pos, v->seed, v->msg, v->len);
	sign_check(&b, n, pos, v->sig, v->id, direct);
}

static void test_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < nvecs; i++) {
		for (size_t pos = 0; pos < LANES; pos++)
			run_vec(&vecs[i], LANES, pos, 1000 * i + pos, 0);
		for (size_t n = 1; n < LANES; n++) {
			size_t pos = (i + n) % n;
			run_vec(&vecs[i], n, pos, 77 * i + n, 0);
			if (n < 4) /* below the crossover: the API signed them singly */
				run_vec(&vecs[i], n, pos, 77 * i + n + 5, 1);
		}
	}
	printf("ed25519-mb: %zu vectors in every position of 8 lanes and at counts 1..7\n", nvecs);
}

/* Every Wycheproof message in every lane position of eight, under random
 * keys beside random lanes. */
static void test_messages(void **state)
{
	static struct batch b;
	uint64_t seed = 5;
	(void)state;
	for (size_t i = 0; i < nmsgs; i++) {
		size_t pos = i % LANES;
		uint8_t s[32];
		for (size_t l = 0; l < LANES; l++)
			rand_lane(&b, l, &seed);
		ect_rand_bytes(&seed, s, 32);
		set_lane(&b, pos, s, msgs[i], mlens[i]);
		sign_check(&b, LANES, pos, NULL, (long)i, 0);
	}
}

/* Every count and position, through the API and the batch, random lanes
 * with empty messages among them (msg NULL with len 0). */
static void test_counts(void **state)
{
	static struct batch b;
	uint8_t *sp[LANES];
	const void *mp[LANES];
	const uint8_t *hp[LANES], *pp[LANES];
	uint8_t single[64];
	int rc[LANES];
	uint64_t seed = 11;
	(void)state;

	for (size_t n = 1; n <= LANES; n++)
		for (size_t pos = 0; pos < n; pos++) {
			for (size_t l = 0; l < n; l++) {
				rand_lane(&b, l, &seed);
				sp[l] = b.sig[l];
				mp[l] = b.m[l];
				hp[l] = b.h[l];
				pp[l] = b.pk[l];
			}
			b.len[pos] = 0;
			mp[pos] = NULL;
			assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, b.len, hp, pp, n, rc),
					 0);
			for (size_t l = 0; l < n; l++) {
				vg_ed25519_sign_expanded(single, b.m[l], b.len[l], b.h[l], b.pk[l]);
				assert_memory_equal(b.sig[l], single, 64);
			}
			sign_check(&b, n, pos, NULL, (long)(n * 8 + pos), 1);
		}
}

/* Each signature written over the start of its own message. */
static void test_in_place(void **state)
{
	static struct batch b;
	uint8_t want[LANES][64];
	uint8_t *sp[LANES];
	const void *mp[LANES];
	const uint8_t *hp[LANES], *pp[LANES];
	int rc[LANES];
	uint64_t seed = 17;
	(void)state;

	for (size_t l = 0; l < LANES; l++) {
		rand_lane(&b, l, &seed);
		b.len[l] = 64 + l;
		vg_ed25519_sign_expanded(want[l], b.m[l], b.len[l], b.h[l], b.pk[l]);
		sp[l] = b.m[l];
		mp[l] = b.m[l];
		hp[l] = b.h[l];
		pp[l] = b.pk[l];
	}
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, b.len, hp, pp, LANES, rc), 0);
	for (size_t l = 0; l < LANES; l++)
		assert_memory_equal(b.m[l], want[l], 64);
}

static void test_errors(void **state)
{
	uint8_t h[64] = {0}, pk[32] = {0}, sig[64], m[1] = {0};
	uint8_t *sp[LANES + 1];
	const void *mp[LANES + 1];
	const uint8_t *hp[LANES + 1], *pp[LANES + 1];
	size_t len[LANES + 1];
	int rc[LANES + 1];
	(void)state;

	for (size_t l = 0; l <= LANES; l++) {
		sp[l] = sig;
		mp[l] = m;
		hp[l] = h;
		pp[l] = pk;
		len[l] = 1;
		rc[l] = 7;
	}
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, 0, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, LANES + 1, rc),
			 VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(NULL, mp, len, hp, pp, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, NULL, len, hp, pp, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, NULL, hp, pp, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, NULL, pp, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, NULL, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, 1, NULL), VG_E_INVALID);
	mp[5] = NULL; /* with len 1 */
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, 8, rc), VG_E_INVALID);
	mp[5] = m;
	pp[2] = NULL;
	assert_int_equal(vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, 4, rc), VG_E_INVALID);
	for (size_t l = 0; l <= LANES; l++)
		assert_int_equal(rc[l], 7); /* no rc set */
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nvecs; i++)
		free(vecs[i].msg);
	for (size_t i = 0; i < nmsgs; i++)
		free(msgs[i]);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors), cmocka_unit_test(test_messages),
		cmocka_unit_test(test_counts),  cmocka_unit_test(test_in_place),
		cmocka_unit_test(test_errors),
	};
	int c_only = argc > 1 && strcmp(argv[1], "--c") == 0;

	if (c_only)
		vg_dispatch_for_tests(0, 1);
	printf("ed25519-mb variant: %s\n", vg_kernel_variant("ed25519-mb"));
	if (c_only && strcmp(vg_kernel_variant("ed25519-mb"), "c") != 0)
		return 1;
	load();
	return cmocka_run_group_tests_name(c_only ? "ed25519-mb-c" : "ed25519-mb", tests, NULL,
					   teardown);
}
