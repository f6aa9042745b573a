/* test_ed25519_unit.c: Ed25519 properties. The fixed-base comb and the
 * variable-time double-scalar multiplication against a plain
 * double-and-add over the point formulas; strict decoding rules; sign /
 * verify round trips on random seeds; rejection of every single-bit change
 * of a signature, of changed messages and keys, and of S + L. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "c25519/ge.h"
#include "c25519/sc.h"
#include "ec_testutil.h"
#include "vg/ed25519.h"
#include "vg/sha2.h"

/* RFC 8032 5.1: the base point's encoding (y = 4/5, x even). */
static const uint8_t B_ENC[32] = {0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
				  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
				  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
				  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66};
static const uint8_t ID_ENC[32] = {1}; /* (0, 1) */

static void add_p3(vg_ge_p3 *r, const vg_ge_p3 *p, const vg_ge_p3 *q)
{
	vg_ge_cached c;
	vg_ge_completed t;
	vg_ge_p3_to_cached(&c, q);
	vg_ge_add_cached(&t, p, &c);
	vg_ge_completed_to_p3(r, &t);
}

/* Reference: most-significant-bit-first double-and-add over all 256 bits. */
static void ref_scalarmult(vg_ge_p3 *r, const uint8_t k[32], const vg_ge_p3 *P)
{
	vg_ge_completed t;
	vg_ge_p3_identity(r);
	for (int i = 255; i >= 0; i--) {
		vg_ge_p3_dbl(&t, r);
		vg_ge_completed_to_p3(r, &t);
		if ((k[i / 8] >> (i % 8)) & 1)
			add_p3(r, r, P);
	}
}

static void base(vg_ge_p3 *B)
{
	assert_int_equal(vg_ge_frombytes(B, B_ENC), 0);
}

static void expect_same_point(const vg_ge_p3 *a, const vg_ge_p3 *b)
{
	uint8_t x[32], y[32];
	vg_ge_p3_tobytes(x, a);
	vg_ge_p3_tobytes(y, b);
	assert_memory_equal(x, y, 32);
}

static void test_base_encoding(void **state)
{
	(void)state;
	vg_ge_p3 B, I;
	uint8_t s[32];
	base(&B);
	vg_ge_p3_tobytes(s, &B);
	assert_memory_equal(s, B_ENC, 32);
	vg_ge_p3_identity(&I);
	vg_ge_p3_tobytes(s, &I);
	assert_memory_equal(s, ID_ENC, 32);
}

static void test_scalarmult_base(void **state)
{
	(void)state;
	uint64_t rng = 11;
	vg_ge_p3 B, got, want;
	uint8_t k[32], s[32];
	base(&B);

	for (int i = 0; i < 64; i++) {
		ect_rand_bytes(&rng, k, 32);
		k[31] &= 127; /* the comb takes any a < 2^255 */
		if (i == 0)
			memset(k, 0, 32);
		if (i == 1) {
			memset(k, 0xff, 32);
			k[31] = 127;
		}
		if (i == 2) /* every nibble 8: every digit carries */
			memset(k, 0x88, 32), k[31] = 0x78;
		vg_ge_scalarmult_base(&got, k);
		ref_scalarmult(&want, k, &B);
		expect_same_point(&got, &want);
	}
	/* [1]B = B, [L]B = identity, [L-1]B = -B (B with the sign bit flipped). */
	ect_num l, one, t;
	ect_l(&l);
	ect_from_u64(&one, 1);
	memset(k, 0, 32);
	k[0] = 1;
	vg_ge_scalarmult_base(&got, k);
	vg_ge_p3_tobytes(s, &got);
	assert_memory_equal(s, B_ENC, 32);
	ect_to_le(k, 32, &l);
	vg_ge_scalarmult_base(&got, k);
	vg_ge_p3_tobytes(s, &got);
	assert_memory_equal(s, ID_ENC, 32);
	ect_sub(&t, &l, &one);
	ect_to_le(k, 32, &t);
	vg_ge_scalarmult_base(&got, k);
	vg_ge_p3_tobytes(s, &got);
	uint8_t negb[32];
	memcpy(negb, B_ENC, 32);
	negb[31] |= 0x80;
	assert_memory_equal(s, negb, 32);
}

static void test_double_scalarmult(void **state)
{
	(void)state;
	uint64_t rng = 12;
	vg_ge_p3 B, A, t1, t2, want;
	vg_ge_p2 got;
	uint8_t a[32], b[32], x[32], s1[32], s2[32];
	base(&B);

	for (int i = 0; i < 32; i++) {
		ect_rand_bytes(&rng, x, 32);
		x[31] &= 127;
		vg_ge_scalarmult_base(&A, x); /* a random point of the group */
		ect_rand_bytes(&rng, a, 32);
		ect_rand_bytes(&rng, b, 32);
		a[31] &= (i & 1) ? 0x1f : 127; /* below 2^253 (verify) or 2^255 */
		b[31] &= (i & 1) ? 0x1f : 127;
		if (i == 0)
			memset(a, 0, 32);
		if (i == 1)
			memset(b, 0, 32);
		vg_ge_double_scalarmult_vartime(&got, a, &A, b);
		ref_scalarmult(&t1, a, &A);
		ref_scalarmult(&t2, b, &B);
		add_p3(&want, &t1, &t2);
		vg_ge_p2_tobytes(s1, &got);
		vg_ge_p3_tobytes(s2, &want);
		assert_memory_equal(s1, s2, 32);
	}
}

/* Strict decoding: canonical encodings decode and re-encode to themselves;
 * the non-canonical ones are refused. */
static void test_decode_rules(void **state)
{
	(void)state;
	uint64_t rng = 13;
	vg_ge_p3 P;
	uint8_t s[32], t[32];

	/* Random valid points round-trip. */
	for (int i = 0; i < 32; i++) {
		uint8_t k[32];
		ect_rand_bytes(&rng, k, 32);
		k[31] &= 127;
		vg_ge_scalarmult_base(&P, k);
		vg_ge_p3_tobytes(s, &P);
		assert_int_equal(vg_ge_frombytes(&P, s), 0);
		vg_ge_p3_tobytes(t, &P);
		assert_memory_equal(s, t, 32);
	}

	/* y = 1 (identity) decodes; with the sign bit set (x = 0 "negative")
	 * it must not. Same for y = -1 (the point of order 2, x = 0). */
	memset(s, 0, 32);
	s[0] = 1;
	assert_int_equal(vg_ge_frombytes(&P, s), 0);
	s[31] |= 0x80;
	assert_int_equal(vg_ge_frombytes(&P, s), -1);
	ect_num p, v, one;
	ect_p(&p);
	ect_from_u64(&one, 1);
	ect_sub(&v, &p, &one);
	ect_to_le(s, 32, &v);
	assert_int_equal(vg_ge_frombytes(&P, s), 0);
	s[31] |= 0x80;
	assert_int_equal(vg_ge_frombytes(&P, s), -1);

	/* Non-canonical y: y + p for every y with y + p < 2^255 (y = 0..18),
	 * either sign bit. y = 0, 1 are points when read mod p, so this also
	 * shows the rejection is about canonicity, not the curve. */
	for (uint64_t y = 0; y < 19; y++) {
		ect_num yy;
		ect_from_u64(&yy, y);
		ect_add(&yy, &yy, &p);
		ect_to_le(s, 32, &yy);
		assert_int_equal(vg_ge_frombytes(&P, s), -1);
		s[31] |= 0x80;
		assert_int_equal(vg_ge_frombytes(&P, s), -1);
	}

	/* Some small y are not on the curve: count both outcomes over
	 * y = 2..99 and check every accepted one round-trips. */
	int on = 0, off = 0;
	for (int y = 2; y < 100; y++) {
		memset(s, 0, 32);
		s[0] = (uint8_t)y;
		if (vg_ge_frombytes(&P, s) == 0) {
			vg_ge_p3_tobytes(t, &P);
			assert_memory_equal(s, t, 32);
			on++;
		} else {
			off++;
		}
	}
	assert_true(on > 0 && off > 0);
}

static void test_sign_verify_roundtrip(void **state)
{
	(void)state;
	uint64_t rng = 14;
	uint8_t seed[32], pk[32], sig[64], msg[300];

	for (int i = 0; i < 64; i++) {
		size_t len = (size_t)(ect_rand(&rng) % sizeof(msg));
		ect_rand_bytes(&rng, seed, 32);
		ect_rand_bytes(&rng, msg, len);
		vg_ed25519_public_key(pk, seed);
		vg_ed25519_sign(sig, msg, len, seed, pk);
		assert_int_equal(vg_ed25519_verify(sig, msg, len, pk), 0);
		assert_int_equal(vg_sc_is_canonical(sig + 32), 1);

		/* the public key is [clamp(SHA-512(seed)[0..32))]B */
		uint8_t h[64], s[32];
		vg_ge_p3 B, A;
		vg_sha512(h, seed, 32);
		h[0] &= 248, h[31] &= 127, h[31] |= 64;
		base(&B);
		ref_scalarmult(&A, h, &B);
		vg_ge_p3_tobytes(s, &A);
		assert_memory_equal(s, pk, 32);

		/* deterministic */
		uint8_t sig2[64];
		vg_ed25519_sign(sig2, msg, len, seed, pk);
		assert_memory_equal(sig, sig2, 64);

		/* signing in place over the message buffer */
		if (len >= 64) {
			uint8_t buf[300];
			memcpy(buf, msg, len);
			vg_ed25519_sign(buf, buf, len, seed, pk);
			assert_memory_equal(buf, sig, 64);
		}
	}
}

static void test_tamper(void **state)
{
	(void)state;
	uint64_t rng = 15;
	uint8_t seed[32], pk[32], sig[64], msg[40], bad[64];
	ect_rand_bytes(&rng, seed, 32);
	ect_rand_bytes(&rng, msg, sizeof(msg));
	vg_ed25519_public_key(pk, seed);
	vg_ed25519_sign(sig, msg, sizeof(msg), seed, pk);
	assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg), pk), 0);

	for (int bit = 0; bit < 512; bit++) { /* every single-bit change of sig */
		memcpy(bad, sig, 64);
		bad[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		assert_int_equal(vg_ed25519_verify(bad, msg, sizeof(msg), pk), VG_E_VERIFY);
	}
	for (int bit = 0; bit < 8 * (int)sizeof(msg); bit += 7) {
		msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg), pk), VG_E_VERIFY);
		msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
	}
	assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg) - 1, pk), VG_E_VERIFY);
	for (int bit = 0; bit < 256; bit += 5) { /* changed keys */
		uint8_t pk2[32];
		memcpy(pk2, pk, 32);
		pk2[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg), pk2), VG_E_VERIFY);
	}
	/* another key's signature */
	uint8_t seed2[32], pk2[32];
	ect_rand_bytes(&rng, seed2, 32);
	vg_ed25519_public_key(pk2, seed2);
	assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg), pk2), VG_E_VERIFY);

	/* S + L: the same scalar mod L, refused by the S < L rule alone */
	ect_num S, l;
	ect_l(&l);
	ect_from_le(&S, sig + 32, 32);
	ect_add(&S, &S, &l);
	memcpy(bad, sig, 64);
	ect_to_le(bad + 32, 32, &S);
	assert_int_equal(vg_ed25519_verify(bad, msg, sizeof(msg), pk), VG_E_VERIFY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_encoding),
		cmocka_unit_test(test_scalarmult_base),
		cmocka_unit_test(test_double_scalarmult),
		cmocka_unit_test(test_decode_rules),
		cmocka_unit_test(test_sign_verify_roundtrip),
		cmocka_unit_test(test_tamper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
