/* test_ecdsa_mb.c: the batched signing (vg/ecdsa_mb.h, ecdsa_mb.c), each
 * part for P-256 and for P-384 unless said:
 *  - the RFC 6979 deterministic vectors (SHA-256/384/512: the ones the
 *    single path reproduces) through vg_ecdsa_sign_mb_with without
 *    hedge, each vector in every lane position at every lane count 1..8,
 *    the other lanes holding the other vectors: every lane must give the
 *    RFC's r || s;
 *  - random keys, digests (20 to 64 bytes) and hedge bytes at every lane
 *    count: each lane equal bit for bit to vg_ecdsa_sign_with with the
 *    same hedge, and verifying under vg_ecdsa_verify and OpenSSL;
 *  - the public vg_ecdsa_sign_mb at every count, P-256 with P-384 keys
 *    mixed in (each curve batched apart), per-signature errors (a wrong length) staying with their
 *    signature, the call's own errors;
 *  - r = 0 out of the batch in one lane (X = 0): that lane retries with
 *    the single path's next nonce, as vg_ecdsa_sign_with does after an
 *    X = 0 from its own first base_mul;
 *  - faults in one lane, at every lane position: a corrupted key (its
 *    Montgomery d), a point off the curve out of the comb, a comb giving
 *    Z = 0 (the shared inversion's masked fix-up): that signature alone is
 *    withheld (VG_E_FAULT, zeroed) and every other lane's signature is the
 *    one the single path gives.
 * --c runs on the C rows (VG_KERNELS=c's choice); without it the best
 * rows of this CPU. Nothing secret: test keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dispatch.h"
#include "ec/ecdsa_mb_internal.h"
#include "ecdsa_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/ecdsa_mb.h"

#define LANES VG_EC_MB_LANES
#define MAXRFC 8
#define SMAX 96 /* the largest signature (P-384) */

/* The curve under test (each test runs once per curve: its prestate). */
struct cv {
	vg_ecdsa_curve id;
	const char *name;
	size_t len; /* scalar bytes; signatures are 2 len */
};
static const struct cv P256 = {VG_ECDSA_P256, "P-256", 32}, P384 = {VG_ECDSA_P384, "P-384", 48};
static const struct cv *cur;

static const struct vg_ec_impl *cur_f(void) { return vg_ecdsa_impl(cur->id); }
static const struct vg_ec_mb_impl *cur_mb(void)
{
	return cur->id == VG_ECDSA_P256 ? vg_ec_p256_mb_impl() : vg_ec_p384_mb_impl();
}
static const struct vg_ec_curve *cur_curve(void)
{
	return cur->id == VG_ECDSA_P256 ? &vg_p256_curve : &vg_p384_curve;
}

struct rfc {
	vg_ecdsa_key key;
	uint8_t digest[64], sig[SMAX];
	size_t dlen;
};
static struct rfc rfcs[2][MAXRFC];
static size_t nrfc[2];
static uint64_t seed = 0x6563646d62ull; /* "ecdmb" */

static void load_rfc(const struct cv *c, size_t ci)
{
	vg_vecfile *f = vg_vec_open("rfc6979_ecdsa.txt");
	size_t len = c->len;
	while (vg_vec_next(f)) {
		const char *hash = vg_vec_req(f, "hash");
		size_t mlen;
		if (strcmp(vg_vec_req(f, "curve"), c->name) != 0 ||
		    (strcmp(hash, "SHA-256") && strcmp(hash, "SHA-384") && strcmp(hash, "SHA-512")))
			continue;
		if (nrfc[ci] == MAXRFC)
			abort();
		struct rfc *r = &rfcs[ci][nrfc[ci]++];
		uint8_t x[48], *msg = vg_vec_hex(f, "messageHex", &mlen);
		tec_hex(x, len, vg_vec_req(f, "x"));
		tec_hex(r->sig, len, vg_vec_req(f, "r"));
		tec_hex(r->sig + len, len, vg_vec_req(f, "s"));
		r->dlen = tos_digest(hash, msg, mlen, r->digest);
		free(msg);
		if (vg_ecdsa_key_init(&r->key, c->id, x, len) != 0)
			abort();
	}
	if (vg_vec_close(f) != 0 || nrfc[ci] != 6) {
		fprintf(stderr, "expected 6 %s RFC 6979 vectors with SHA-2, got %zu\n", c->name,
			nrfc[ci]);
		abort();
	}
}

/* One batch of n lanes with rows f, mb: lane i from key k[i], digest,
 * hedge; fills sig and rc. */
struct batch {
	const vg_ecdsa_key *k[LANES];
	const uint8_t *d[LANES], *x[LANES];
	size_t dl[LANES], xl[LANES], sl[LANES];
	uint8_t *s[LANES];
	uint8_t sig[LANES][SMAX];
	int rc[LANES];
};

static void run(struct batch *b, const struct vg_ec_impl *f, const struct vg_ec_mb_impl *mb,
		size_t n)
{
	for (size_t i = 0; i < n; i++) {
		b->s[i] = b->sig[i];
		b->sl[i] = 2 * cur->len;
		memset(b->sig[i], 0xa5, SMAX);
		b->rc[i] = 12345;
	}
	assert_int_equal(vg_ecdsa_sign_mb_with(f, mb, b->k, b->d, b->dl, b->x, b->xl, b->s, b->sl,
					       n, b->rc),
			 0);
}

static void test_rfc6979_positions(void **state)
{
	cur = *state;
	const struct vg_ec_impl *f = cur_f();
	const struct vg_ec_mb_impl *mb = cur_mb();
	size_t ci = cur->id == VG_ECDSA_P384, nv = nrfc[ci];
	struct rfc *rv = rfcs[ci];
	struct batch b;
	for (size_t n = 1; n <= LANES; n++)
		for (size_t v = 0; v < nv; v++)
			for (size_t pos = 0; pos < n; pos++) {
				for (size_t i = 0; i < n; i++) {
					size_t w = i == pos ? v : (v + 1 + i) % nv;
					b.k[i] = &rv[w].key;
					b.d[i] = rv[w].digest;
					b.dl[i] = rv[w].dlen;
					b.x[i] = NULL;
					b.xl[i] = 0;
				}
				run(&b, f, mb, n);
				for (size_t i = 0; i < n; i++) {
					size_t w = i == pos ? v : (v + 1 + i) % nv;
					if (b.rc[i] != 0 ||
					    memcmp(b.sig[i], rv[w].sig, 2 * cur->len) != 0)
						fail_msg("n=%zu vector %zu at %zu: lane %zu (vector %zu) rc %d "
							 "or signature differs from the RFC",
							 n, v, pos, i, w, b.rc[i]);
				}
			}
}

static vg_ecdsa_key curve_keys[2][LANES];
static uint8_t digests[LANES][64], hedges[LANES][48];
static const size_t dlens[] = {32, 20, 48, 64, 32, 33, 31, 64};

static void make_keys(const struct cv *c, size_t ci)
{
	for (size_t i = 0; i < LANES; i++) {
		uint8_t d[48];
		do
			tec_rand_bytes(&seed, d, c->len);
		while (vg_ecdsa_key_init(&curve_keys[ci][i], c->id, d, c->len) != 0);
	}
}

static void fill_random(struct batch *b, size_t n)
{
	vg_ecdsa_key *keys = curve_keys[cur->id == VG_ECDSA_P384];
	for (size_t i = 0; i < n; i++) {
		tec_rand_bytes(&seed, digests[i], 64);
		tec_rand_bytes(&seed, hedges[i], 48);
		b->k[i] = &keys[(i + seed) % LANES];
		b->d[i] = digests[i];
		b->dl[i] = dlens[(i + seed / 7) % 8];
		b->x[i] = hedges[i];
		b->xl[i] = cur->len;
	}
}

/* Lane i of b against the single path and both verifiers. */
static void expect_single(const struct batch *b, size_t i, const struct vg_ec_impl *f,
			  const char *what)
{
	uint8_t want[SMAX];
	size_t plen, sl = 2 * cur->len;
	const uint8_t *pub = vg_ecdsa_key_public(b->k[i], &plen);
	assert_int_equal(
		vg_ecdsa_sign_with(f, b->k[i], b->d[i], b->dl[i], b->x[i], b->xl[i], want, sl), 0);
	if (b->rc[i] != 0 || memcmp(b->sig[i], want, sl) != 0)
		fail_msg("%s: lane %zu rc %d or not the single path's signature", what, i, b->rc[i]);
	if (vg_ecdsa_verify(cur->id, pub, plen, b->d[i], b->dl[i], b->sig[i], sl) != 0 ||
	    !tos_verify(cur->id, pub, b->d[i], b->dl[i], b->sig[i]))
		fail_msg("%s: lane %zu does not verify", what, i);
}

static void test_same_as_single(void **state)
{
	cur = *state;
	const struct vg_ec_impl *f = cur_f();
	const struct vg_ec_mb_impl *mb = cur_mb();
	struct batch b;
	for (int rep = 0; rep < 4; rep++)
		for (size_t n = 1; n <= LANES; n++) {
			fill_random(&b, n);
			run(&b, f, mb, n);
			for (size_t i = 0; i < n; i++)
				expect_single(&b, i, f, "random");
		}
}

static void test_public(void **state)
{
	(void)state;
	vg_ecdsa_key k384;
	uint8_t d384[48];
	const vg_ecdsa_key *k[LANES];
	const uint8_t *dg[LANES];
	size_t dl[LANES], sl[LANES];
	uint8_t sig[LANES][96], *s[LANES];
	int rc[LANES];

	do
		tec_rand_bytes(&seed, d384, 48);
	while (vg_ecdsa_key_init(&k384, VG_ECDSA_P384, d384, 48) != 0);
	for (size_t n = 1; n <= LANES; n++)
		for (size_t mix = 0; mix < 3; mix++) {
			for (size_t i = 0; i < n; i++) {
				int p384 = mix == 1 && i % 3 == 1;
				tec_rand_bytes(&seed, digests[i], 64);
				k[i] = p384 ? &k384 : &curve_keys[0][i];
				dg[i] = digests[i];
				dl[i] = dlens[i];
				sl[i] = p384 ? 96 : 64;
				s[i] = sig[i];
			}
			size_t bad = n; /* mix 2: one wrong length, elsewhere fine */
			if (mix == 2) {
				bad = (size_t)seed % n;
				sl[bad] = 63;
			}
			assert_int_equal(vg_ecdsa_sign_mb(k, dg, dl, s, sl, n, rc), 0);
			for (size_t i = 0; i < n; i++) {
				vg_ecdsa_curve c = vg_ecdsa_key_curve(k[i]);
				size_t plen;
				const uint8_t *pub = vg_ecdsa_key_public(k[i], &plen);
				if (i == bad) {
					assert_int_equal(rc[i], VG_E_INVALID);
					continue;
				}
				if (rc[i] != 0 ||
				    vg_ecdsa_verify(c, pub, plen, dg[i], dl[i], s[i], sl[i]) != 0 ||
				    !tos_verify(c, pub, dg[i], dl[i], s[i]))
					fail_msg("n=%zu mix %zu lane %zu: rc %d or no verification", n,
						 mix, i, rc[i]);
			}
		}
	/* the call's own errors: no rc set */
	rc[0] = 77;
	assert_int_equal(vg_ecdsa_sign_mb(k, dg, dl, s, sl, 0, rc), VG_E_INVALID);
	assert_int_equal(vg_ecdsa_sign_mb(k, dg, dl, s, sl, LANES + 1, rc), VG_E_INVALID);
	assert_int_equal(vg_ecdsa_sign_mb(NULL, dg, dl, s, sl, 1, rc), VG_E_INVALID);
	k[0] = NULL;
	assert_int_equal(vg_ecdsa_sign_mb(k, dg, dl, s, sl, 1, rc), VG_E_INVALID);
	assert_int_equal(rc[0], 77);
	vg_ecdsa_key_wipe(&k384);
}

/* ---- faults ---- */

static const struct vg_ec_mb_impl *real_mb;
static size_t fault_lane;
static int fault_mode; /* 1: a coordinate bit flipped (off the curve); 2: Z = 0; 3: X = 0 */

static void faulty_comb(vg_ec_point r[LANES], const uint64_t *table, const int8_t *d)
{
	real_mb->comb(r, table, d);
	if (fault_mode == 1)
		r[fault_lane].y[1] ^= (uint64_t)1 << 17; /* off the curve */
	else if (fault_mode == 2)
		memset(r[fault_lane].z, 0, sizeof(r[fault_lane].z));
	else
		memset(r[fault_lane].x, 0, sizeof(r[fault_lane].x));
}

/* The single row with X = 0 out of its first base_mul (r = 0: the
 * retry), the reference of fault mode 3. */
static const struct vg_ec_impl *real_f;
static int base_calls;

static void x_zero_once(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k)
{
	real_f->base_mul(f, r, k);
	if (base_calls++ == 0)
		memset(r->x, 0, sizeof(r->x));
}

/* r = 0 from the batch in one lane (X = 0): that lane takes the single
 * path's next nonce, as vg_ecdsa_sign_with does when its first R has
 * X = 0; the signature is valid and the other lanes unchanged. */
static void test_retry(void **state)
{
	cur = *state;
	const struct vg_ec_impl *f = cur_f();
	struct vg_ec_mb_impl bad = {{"fault", 0}, cur_curve(), faulty_comb};
	struct vg_ec_impl retry_f = *f;
	struct batch b;
	size_t sl = 2 * cur->len;

	real_mb = cur_mb();
	real_f = f;
	retry_f.base_mul = x_zero_once;
	for (size_t n = 1; n <= LANES; n++)
		for (size_t pos = 0; pos < n; pos++) {
			fill_random(&b, n);
			fault_lane = pos;
			fault_mode = 3;
			run(&b, f, &bad, n);
			for (size_t i = 0; i < n; i++) {
				if (i != pos) {
					expect_single(&b, i, f, "beside a retry");
					continue;
				}
				uint8_t want[SMAX], first[SMAX];
				size_t plen;
				const uint8_t *pub = vg_ecdsa_key_public(b.k[i], &plen);
				base_calls = 0;
				assert_int_equal(vg_ecdsa_sign_with(&retry_f, b.k[i], b.d[i], b.dl[i],
								    b.x[i], b.xl[i], want, sl),
						 0);
				assert_int_equal(base_calls, 2);
				assert_int_equal(vg_ecdsa_sign_with(f, b.k[i], b.d[i], b.dl[i], b.x[i],
								    b.xl[i], first, sl),
						 0);
				if (b.rc[i] != 0 || memcmp(b.sig[i], want, sl) != 0 ||
				    memcmp(b.sig[i], first, sl) == 0 ||
				    vg_ecdsa_verify(cur->id, pub, plen, b.d[i], b.dl[i], b.sig[i],
						    sl) != 0)
					fail_msg("n=%zu: the retrying lane %zu rc %d, or not the single "
						 "path's retried signature",
						 n, i, b.rc[i]);
			}
		}
}

static void test_faults(void **state)
{
	cur = *state;
	const struct vg_ec_impl *f = cur_f();
	struct vg_ec_mb_impl bad = {{"fault", 0}, cur_curve(), faulty_comb};
	struct batch b;
	vg_ecdsa_key broken;

	real_mb = cur_mb();
	for (size_t n = 1; n <= LANES; n++)
		for (size_t pos = 0; pos < n; pos++)
			for (int mode = 0; mode < 3; mode++) {
				fill_random(&b, n);
				if (mode == 0) { /* the key: one bit of d R flipped */
					broken = *b.k[pos];
					broken.dm[2] ^= 1;
					b.k[pos] = &broken;
					run(&b, f, real_mb, n);
				} else {
					fault_lane = pos;
					fault_mode = mode;
					run(&b, f, &bad, n);
				}
				for (size_t i = 0; i < n; i++) {
					if (i != pos) {
						expect_single(&b, i, f, "beside a fault");
						continue;
					}
					static const uint8_t zero[SMAX];
					if (b.rc[i] != VG_E_FAULT ||
					    memcmp(b.sig[i], zero, 2 * cur->len) != 0)
						fail_msg("n=%zu mode %d: the faulty lane %zu gave rc %d "
							 "or a signature",
							 n, mode, i, b.rc[i]);
				}
			}
	vg_ecdsa_key_wipe(&broken);
}

static int teardown(void **state)
{
	(void)state;
	for (size_t c = 0; c < 2; c++) {
		for (size_t i = 0; i < nrfc[c]; i++)
			vg_ecdsa_key_wipe(&rfcs[c][i].key);
		for (size_t i = 0; i < LANES; i++)
			vg_ecdsa_key_wipe(&curve_keys[c][i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&P256), cmocka_unit_test_prestate(t, (void *)&P384)
		BOTH(test_rfc6979_positions),
		BOTH(test_same_as_single),
		cmocka_unit_test(test_public),
		BOTH(test_faults),
		BOTH(test_retry),
#undef BOTH
	};
	int c_only = argc > 1 && strcmp(argv[1], "--c") == 0;

	if (c_only)
		vg_dispatch_for_tests(0, 1);
	printf("rows: p256=%s p256-mb=%s p384=%s p384-mb=%s\n", vg_kernel_variant("p256"),
	       vg_kernel_variant("p256-mb"), vg_kernel_variant("p384"), vg_kernel_variant("p384-mb"));
	if (c_only && (strcmp(vg_kernel_variant("p256-mb"), "c") != 0 ||
		       strcmp(vg_kernel_variant("p384-mb"), "c") != 0))
		return 1;
	load_rfc(&P256, 0);
	load_rfc(&P384, 1);
	make_keys(&P256, 0);
	make_keys(&P384, 1);
	return cmocka_run_group_tests_name(c_only ? "ecdsa-mb-c" : "ecdsa-mb", tests, NULL,
					   teardown);
}
