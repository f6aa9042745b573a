/* test_rsa_mb.c: vg_rsa_private_mb (vg/rsa_mb.h), the batched RSA private
 * operation, against the Wycheproof RSA signature-generation vectors (the
 * kat test's files, 2048, 3072 and 4096 bits, the records with a JWK key):
 * each vector's EM = sig^e (the public operation, checked by the kat
 * tests) goes through the batch path and must give sig back, with every
 * vector placed in every operation position of an 8-operation call (so
 * its p half runs in every lane of the p batch and its q half in every
 * lane of the q batch), at every operation count 1..8 with keys of
 * different sizes in one call, and beside the unbalanced e = 3 key, which
 * takes the single path. Per-operation errors stay with their operation
 * (a wrong length, an input >= n), and a fault planted in one key (its
 * CRT exponent, or its radix-2^52 modulus) is caught for that operation
 * alone while every other result stays the vector's signature.
 * --c runs on the C rows (VG_KERNELS=c's choice); without it the best
 * row of this CPU. Nothing secret: test keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dispatch.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_mb_impl.h"
#include "rsa_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/rsa.h"
#include "vg/rsa_mb.h"

#define MAXVEC 128
#define MAXKEYS 16

struct vec {
	const vg_rsa_key *key;
	size_t k;
	uint8_t em[VG_RSA_MAX_BYTES];  /* sig^e mod n */
	uint8_t sig[VG_RSA_MAX_BYTES]; /* the expected private result */
};

static struct vec vecs[MAXVEC];
static size_t nvec;
static size_t first[4]; /* vectors of file f: first[f] .. first[f + 1] - 1 */
static vg_rsa_key *keys[MAXKEYS];
static char *key_ids[MAXKEYS];
static size_t nkeys;

static const vg_rsa_key *key_for(vg_vecfile *f)
{
	const char *n = vg_vec_req(f, "privateKeyJwk.n");
	trsa_parts p;
	int rc;

	for (size_t i = 0; i < nkeys; i++)
		if (strcmp(key_ids[i], n) == 0)
			return keys[i];
	assert_true(nkeys < MAXKEYS);
	assert_int_equal(trsa_parts_jwk(&p, f), 0);
	keys[nkeys] = trsa_key_new(&p.parts, &rc);
	assert_non_null(keys[nkeys]);
	trsa_parts_free(&p);
	key_ids[nkeys] = strdup(n);
	return keys[nkeys++];
}

static void load(void)
{
	static const char *const files[3] = {"rsa_pkcs1_2048_sig_gen_test.txt",
					     "rsa_pkcs1_3072_sig_gen_test.txt",
					     "rsa_pkcs1_4096_sig_gen_test.txt"};
	for (size_t i = 0; i < 3; i++) {
		vg_vecfile *f = vg_vec_open(files[i]);
		first[i] = nvec;
		while (vg_vec_next(f)) {
			struct vec *v = &vecs[nvec];
			size_t sl;
			uint8_t *sig;
			/* the SHA-1 and SHA-224 groups carry no CRT key (no JWK) */
			if (!vg_vec_str(f, "privateKeyJwk.n"))
				continue;
			sig = vg_vec_hex(f, "sig", &sl);
			assert_true(nvec < MAXVEC);
			v->key = key_for(f);
			v->k = vg_rsa_key_bytes(v->key);
			assert_int_equal(sl, v->k);
			memcpy(v->sig, sig, sl);
			free(sig);
			assert_int_equal(
				vg_rsa_public(vg_rsa_key_public(v->key), v->em, v->sig, v->k), 0);
			nvec++;
		}
		assert_int_equal(vg_vec_close(f), 0);
	}
	first[3] = nvec;
}

/* One call on the vectors idx[0..n): every status 0 and every result the
 * vector's signature; the key at fault (if any, position bad) must give
 * VG_E_FAULT and a zeroed output instead. */
static void run(const size_t *idx, size_t n, const vg_rsa_key *faulty, size_t bad)
{
	const vg_rsa_key *ks[VG_RSA_MB_MAX];
	uint8_t outb[VG_RSA_MB_MAX][VG_RSA_MAX_BYTES], zero[VG_RSA_MAX_BYTES] = {0};
	uint8_t *out[VG_RSA_MB_MAX];
	const uint8_t *in[VG_RSA_MB_MAX];
	size_t len[VG_RSA_MB_MAX];
	int rc[VG_RSA_MB_MAX];

	for (size_t i = 0; i < n; i++) {
		ks[i] = faulty && i == bad ? faulty : vecs[idx[i]].key;
		in[i] = vecs[idx[i]].em;
		len[i] = vecs[idx[i]].k;
		out[i] = outb[i];
		memset(outb[i], 0xa5, sizeof(outb[i]));
		rc[i] = 12345;
	}
	assert_int_equal(vg_rsa_private_mb(ks, out, in, len, n, rc), 0);
	for (size_t i = 0; i < n; i++) {
		if (faulty && i == bad) {
			assert_int_equal(rc[i], VG_E_FAULT);
			assert_memory_equal(out[i], zero, len[i]);
			continue;
		}
		if (rc[i] != 0 || memcmp(out[i], vecs[idx[i]].sig, len[i]) != 0)
			fprintf(stderr, "n=%zu position %zu: vector %zu (%zu bytes) rc %d\n", n, i,
				idx[i], len[i], rc[i]);
		assert_int_equal(rc[i], 0);
		assert_memory_equal(out[i], vecs[idx[i]].sig, len[i]);
	}
}

/* Every vector of file fi in every position of an 8-operation call: the
 * file's vectors in groups of 8 (the last group wrapping to the start),
 * each group rotated through the 8 positions. */
static void every_position(size_t fi)
{
	size_t a = first[fi], cnt = first[fi + 1] - first[fi];

	assert_true(cnt >= VG_RSA_MB_MAX);
	for (size_t g = 0; g < cnt; g += VG_RSA_MB_MAX)
		for (size_t r = 0; r < VG_RSA_MB_MAX; r++) {
			size_t idx[VG_RSA_MB_MAX];
			for (size_t q = 0; q < VG_RSA_MB_MAX; q++)
				idx[q] = a + (g + (q + r) % VG_RSA_MB_MAX) % cnt;
			run(idx, VG_RSA_MB_MAX, NULL, 0);
		}
}

static void test_positions_2048(void **state)
{
	(void)state;
	every_position(0);
}

static void test_positions_3072(void **state)
{
	(void)state;
	every_position(1);
}

static void test_positions_4096(void **state)
{
	(void)state;
	every_position(2);
}

/* Operation counts 1..8, vectors drawn across all three sizes (one call
 * then holds batches of several sizes, partly filled), every vector used
 * at least once per count. */
static void test_counts(void **state)
{
	(void)state;
	for (size_t n = 1; n <= VG_RSA_MB_MAX; n++) {
		for (size_t s = 0; s < nvec; s += n) {
			size_t idx[VG_RSA_MB_MAX];
			for (size_t q = 0; q < n; q++)
				idx[q] = (s + q * 7) % nvec; /* steps across the files */
			run(idx, n, NULL, 0);
		}
	}
}

/* The unbalanced key (e = 3, primes of about 1365 and 684 bits) beside
 * batched ones: its operation runs alone, the others in the batch. */
static void test_unbalanced(void **state)
{
	size_t idx[VG_RSA_MB_MAX], u = nvec;

	(void)state;
	for (size_t i = 0; i < nvec; i++)
		if (vecs[i].key->p.limbs != vecs[i].key->q.limbs)
			u = i;
	assert_true(u < nvec);
	for (size_t pos = 0; pos < 3; pos++) {
		for (size_t q = 0; q < 3; q++)
			idx[q] = q == pos ? u : (u + 1 + q) % nvec;
		run(idx, 3, NULL, 0);
	}
}

/* Errors stay with their operation; bad calls set nothing. */
static void test_errors(void **state)
{
	const vg_rsa_key *ks[VG_RSA_MB_MAX + 1];
	uint8_t outb[3][VG_RSA_MAX_BYTES], big[VG_RSA_MAX_BYTES];
	uint8_t *out[VG_RSA_MB_MAX + 1];
	const uint8_t *in[VG_RSA_MB_MAX + 1];
	size_t len[VG_RSA_MB_MAX + 1];
	int rc[VG_RSA_MB_MAX + 1];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		ks[i] = vecs[i].key;
		in[i] = vecs[i].em;
		len[i] = vecs[i].k;
		out[i] = outb[i];
	}
	len[0] = vecs[0].k - 1; /* wrong length */
	memset(big, 0xff, sizeof(big));
	in[1] = big; /* >= n */
	assert_int_equal(vg_rsa_private_mb(ks, out, in, len, 3, rc), 0);
	assert_int_equal(rc[0], VG_E_INVALID);
	assert_int_equal(rc[1], VG_E_RANGE);
	assert_int_equal(rc[2], 0);
	assert_memory_equal(out[2], vecs[2].sig, vecs[2].k);

	rc[0] = 99;
	assert_int_equal(vg_rsa_private_mb(ks, out, in, len, 0, rc), VG_E_INVALID);
	for (size_t i = 3; i <= VG_RSA_MB_MAX; i++) {
		ks[i] = ks[2];
		in[i] = in[2];
		len[i] = len[2];
		out[i] = out[2];
	}
	assert_int_equal(vg_rsa_private_mb(ks, out, in, len, VG_RSA_MB_MAX + 1, rc), VG_E_INVALID);
	ks[1] = NULL;
	assert_int_equal(vg_rsa_private_mb(ks, out, in, len, 3, rc), VG_E_INVALID);
	assert_int_equal(rc[0], 99);
}

/* A fault in one key, in every position: that operation alone fails the
 * check (VG_E_FAULT, zeroed output), the others keep their signatures. */
static void fault_in(size_t fi, int what)
{
	size_t a = first[fi], idx[VG_RSA_MB_MAX];
	vg_rsa_key *bad = malloc(vg_rsa_key_size());

	assert_non_null(bad);
	for (size_t pos = 0; pos < VG_RSA_MB_MAX; pos++) {
		for (size_t q = 0; q < VG_RSA_MB_MAX; q++)
			idx[q] = a + (q * 3 + pos) % (first[fi + 1] - a);
		/* a copy of the faulty operation's key, with a batched path */
		memcpy(bad, vecs[idx[pos]].key, vg_rsa_key_size());
		if (bad->r52.digits == 0)
			continue;
		if (what == 0)
			bad->p.exp[3] ^= 1ull << 17; /* a wrong dp: the p lane's result */
		else
			bad->r52.m[bad->r52.digits + 9] ^= 1; /* no longer q: a q lane's */
		run(idx, VG_RSA_MB_MAX, bad, pos);
	}
	free(bad);
}

static void test_fault(void **state)
{
	(void)state;
	fault_in(0, 0);
	fault_in(0, 1);
	fault_in(1, 0);
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nkeys; i++) {
		trsa_key_free(keys[i]);
		free(key_ids[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions_2048), cmocka_unit_test(test_positions_3072),
		cmocka_unit_test(test_positions_4096), cmocka_unit_test(test_counts),
		cmocka_unit_test(test_unbalanced),     cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fault),
	};

	/* The C rows' run leaves out the 3072- and 4096-bit position sweeps
	 * (their halves are in test_counts): the C reference multiplies lane
	 * by lane, and the shared test machine is slow enough already. */
	const struct CMUnitTest tests_c[] = {
		cmocka_unit_test(test_positions_2048), cmocka_unit_test(test_counts),
		cmocka_unit_test(test_unbalanced),     cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fault),
	};
	int c_only = argc > 1 && strcmp(argv[1], "--c") == 0;

	if (c_only)
		vg_dispatch_for_tests(0, 1);
	printf("rsa-mb variant: %s\n", vg_kernel_variant("rsa-mb"));
	if (c_only && strcmp(vg_kernel_variant("rsa-mb"), "c") != 0)
		return 1;
	load();
	if (c_only)
		return cmocka_run_group_tests_name("rsa-mb-c", tests_c, NULL, teardown);
	return cmocka_run_group_tests_name("rsa-mb", tests, NULL, teardown);
}
