/* test_x25519_mb.c: vg_x25519_mb (vg/x25519_mb.h) against the RFC 7748
 * vectors (section 5.2 and the section 6.1 exchange) and every Wycheproof
 * x25519_test case: each vector in every lane position of a full batch
 * (eight operations), and at every other count 1..7 in a position that
 * moves with the vector, the other lanes random; every output compared
 * with the expected value (the vector's) or with vg_x25519 of the same
 * lane (the random ones), and every status likewise. Counts below the
 * crossover (which run one at a time) also go through the batch itself
 * (vg_x25519_mb_batch on the chosen row), so the batch is checked at
 * every lane count. Then in-place outputs and the argument errors.
 * With --c: the same on the C rows (VG_KERNELS=c through the test hook).
 * Nothing here is secret. */
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
#include "vg/x25519.h"
#include "vg/x25519_mb.h"

#define MAXV 600
#define LANES VG_X25519_MB_MAX

/* One vector: scalar, point, expected output and status. */
struct vec {
	uint8_t k[32], u[32], out[32];
	int rc;
	long id;
};

static struct vec vecs[MAXV];
static size_t nvecs;

static int all_zero(const uint8_t *b, size_t n)
{
	uint8_t acc = 0;
	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

static void add(const uint8_t k[32], const uint8_t u[32], const uint8_t out[32], long id)
{
	assert_true(nvecs < MAXV);
	memcpy(vecs[nvecs].k, k, 32);
	memcpy(vecs[nvecs].u, u, 32);
	memcpy(vecs[nvecs].out, out, 32);
	/* vg_x25519's contract: an all-zero shared value is VG_E_ZERO */
	vecs[nvecs].rc = all_zero(out, 32) ? VG_E_ZERO : 0;
	vecs[nvecs].id = id;
	nvecs++;
}

/* The vectors: RFC 7748 5.2 (2), the 6.1 exchange (both public keys
 * from u = 9, the shared secret from both sides: 4), Wycheproof (518). */
static void load(void)
{
	vg_vecfile *f = vg_vec_open("rfc7748_x25519.txt");
	uint8_t k[32], u[32], out[32], a[32], A[32], b[32], B[32], K[32], nine[32] = {9};
	size_t n = 0;

	while (vg_vec_next(f)) {
		ect_hex(k, 32, vg_vec_req(f, "scalar"));
		ect_hex(u, 32, vg_vec_req(f, "uCoordinate"));
		ect_hex(out, 32, vg_vec_req(f, "output"));
		add(k, u, out, -1 - (long)n);
		if (n++ == 0) {
			ect_hex(a, 32,
				vg_vec_req(f, "extra_section6_1_diffieHellman.alicePrivate"));
			ect_hex(A, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.alicePublic"));
			ect_hex(b, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.bobPrivate"));
			ect_hex(B, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.bobPublic"));
			ect_hex(K, 32,
				vg_vec_req(f, "extra_section6_1_diffieHellman.sharedSecret"));
		}
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(n, 2);
	add(a, nine, A, -10);
	add(b, nine, B, -11);
	add(a, B, K, -12);
	add(b, A, K, -13);

	f = vg_vec_open("x25519_test.txt");
	n = 0;
	while (vg_vec_next(f)) {
		const char *result = vg_vec_req(f, "result");
		ect_hex(k, 32, vg_vec_req(f, "private"));
		ect_hex(u, 32, vg_vec_req(f, "public"));
		ect_hex(out, 32, vg_vec_req(f, "shared"));
		/* the file has valid and acceptable cases only; an acceptable
		 * one is either computed or (all-zero shared) rejected, and
		 * vg_x25519 rejects exactly the all-zero ones */
		assert_true(strcmp(result, "valid") == 0 || strcmp(result, "acceptable") == 0);
		add(k, u, out, vg_vec_int(f, "tcId"));
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(n, 518);
}

/* One call of n operations with vector v at pos, the others random
 * (seeded by seed); batch: through vg_x25519_mb_batch instead of the API. */
static void run(const struct vec *v, size_t n, size_t pos, uint64_t seed, int batch)
{
	uint8_t k[LANES][32], u[LANES][32], got[LANES][32], want[32];
	uint8_t *outp[LANES];
	const uint8_t *kp[LANES], *up[LANES];
	int rc[LANES];

	for (size_t l = 0; l < n; l++) {
		ect_rand_bytes(&seed, k[l], 32);
		ect_rand_bytes(&seed, u[l], 32);
		outp[l] = got[l];
		kp[l] = k[l];
		up[l] = u[l];
		rc[l] = 12345;
	}
	memcpy(k[pos], v->k, 32);
	memcpy(u[pos], v->u, 32);
	memset(got, 0xa5, sizeof(got));
	if (batch) {
		unsigned z = vg_x25519_mb_batch(vg_c25519_mb_impl(), outp, kp, up, n);
		for (size_t l = 0; l < n; l++)
			rc[l] = (int)((z >> l) & 1) * VG_E_ZERO;
		assert_int_equal(z >> n, 0);
	} else {
		assert_int_equal(vg_x25519_mb(outp, kp, up, n, rc), 0);
	}
	for (size_t l = 0; l < n; l++) {
		if (l == pos) {
			if (rc[l] != v->rc || memcmp(got[l], v->out, 32) != 0)
				fail_msg("vector %ld, %zu operations, position %zu%s: rc %d", v->id,
					 n, pos, batch ? " (batch)" : "", rc[l]);
			continue;
		}
		int r = vg_x25519(want, k[l], u[l]);
		if (rc[l] != r || memcmp(got[l], want, 32) != 0)
			fail_msg("vector %ld, %zu operations, random lane %zu%s differs", v->id, n,
				 l, batch ? " (batch)" : "");
	}
}

static void test_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < nvecs; i++) {
		for (size_t pos = 0; pos < LANES; pos++)
			run(&vecs[i], LANES, pos, 1000 * i + pos, 0);
		size_t n = 1 + i % (LANES - 1);
		run(&vecs[i], n, (i / 7) % n, 7 * i + 3, 0);
		if (n < 4) /* below the crossover: the API ran them singly */
			run(&vecs[i], n, (i / 7) % n, 7 * i + 5, 1);
	}
	printf("x25519-mb: %zu vectors in every position of 8 lanes and at counts 1..7\n", nvecs);
}

/* Every count and position, through the API and through the batch, on
 * random inputs (the counts' own paths). */
static void test_counts(void **state)
{
	(void)state;
	for (size_t n = 1; n <= LANES; n++)
		for (size_t pos = 0; pos < n; pos++) {
			run(&vecs[(n * 8 + pos) % nvecs], n, pos, 31 * n + pos, 0);
			run(&vecs[(n * 8 + pos) % nvecs], n, pos, 37 * n + pos, 1);
		}
}

/* out[i] over point[i] and over scalar[i], at 8 operations. */
static void test_in_place(void **state)
{
	(void)state;
	uint8_t k[LANES][32], u[LANES][32], want[LANES][32];
	uint8_t *outp[LANES];
	const uint8_t *kp[LANES], *up[LANES];
	int rc[LANES], wrc[LANES];
	uint64_t seed = 99;

	for (int over = 0; over < 2; over++) {
		for (size_t l = 0; l < LANES; l++) {
			ect_rand_bytes(&seed, k[l], 32);
			ect_rand_bytes(&seed, u[l], 32);
			wrc[l] = vg_x25519(want[l], k[l], u[l]);
			outp[l] = over ? k[l] : u[l];
			kp[l] = k[l];
			up[l] = u[l];
		}
		assert_int_equal(vg_x25519_mb(outp, kp, up, LANES, rc), 0);
		for (size_t l = 0; l < LANES; l++) {
			assert_int_equal(rc[l], wrc[l]);
			assert_memory_equal(outp[l], want[l], 32);
		}
	}
}

static void test_errors(void **state)
{
	(void)state;
	uint8_t k[32] = {1}, u[32] = {9}, o[32];
	uint8_t *outp[LANES + 1];
	const uint8_t *kp[LANES + 1], *up[LANES + 1];
	int rc[LANES + 1];

	for (size_t l = 0; l <= LANES; l++) {
		outp[l] = o;
		kp[l] = k;
		up[l] = u;
		rc[l] = 7;
	}
	assert_int_equal(vg_x25519_mb(outp, kp, up, 0, rc), VG_E_INVALID);
	assert_int_equal(vg_x25519_mb(outp, kp, up, LANES + 1, rc), VG_E_INVALID);
	assert_int_equal(vg_x25519_mb(NULL, kp, up, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_x25519_mb(outp, NULL, up, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_x25519_mb(outp, kp, NULL, 1, rc), VG_E_INVALID);
	assert_int_equal(vg_x25519_mb(outp, kp, up, 1, NULL), VG_E_INVALID);
	kp[3] = NULL;
	assert_int_equal(vg_x25519_mb(outp, kp, up, 4, rc), VG_E_INVALID);
	kp[3] = k;
	outp[7] = NULL;
	assert_int_equal(vg_x25519_mb(outp, kp, up, 8, rc), VG_E_INVALID);
	for (size_t l = 0; l <= LANES; l++)
		assert_int_equal(rc[l], 7); /* no rc set */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_in_place),
		cmocka_unit_test(test_errors),
	};
	int c_only = argc > 1 && strcmp(argv[1], "--c") == 0;

	if (c_only)
		vg_dispatch_for_tests(0, 1);
	printf("x25519-mb variant: %s\n", vg_kernel_variant("x25519-mb"));
	if (c_only && strcmp(vg_kernel_variant("x25519-mb"), "c") != 0)
		return 1;
	load();
	return cmocka_run_group_tests_name(c_only ? "x25519-mb-c" : "x25519-mb", tests, NULL, NULL);
}
