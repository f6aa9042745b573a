/* test_ecdsa_unit.c: the ECDSA API of vg/ecdsa.h on P-256 and P-384:
 * lengths, private key validation, public key derivation (against
 * OpenSSL) and validation (wrong forms, off-curve, non-canonical and
 * out-of-range coordinates), signing and verification basics (hedged
 * signatures differ and verify; digests of any length; tampering), the
 * strict DER codec (every class of malformed encoding), the RFC 6979
 * retry on r = 0 and s = 0, and fault injection: implementation rows that
 * break one operation once must make signing return VG_E_FAULT with a
 * zeroed output, for every fault the cheap check is meant to catch; the
 * ones it leaves to the full check (a valid but wrong k G, a corrupted
 * public point) are shown passing it and caught by the full check; and no
 * copy of d or the nonce left on the stack below a signature, on every
 * row the CPU runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ec/ecdsa_internal.h"
#include "ecdsa_testutil.h"
#include "vg/cpu.h"
#include "vg/ecdsa.h"

static const vg_ecdsa_curve curves[2] = {VG_ECDSA_P256, VG_ECDSA_P384};
static vg_ecdsa_key *key;

static int setup(void **state)
{
	(void)state;
	key = malloc(vg_ecdsa_key_size());
	return key ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	vg_ecdsa_key_wipe(key);
	free(key);
	return 0;
}

/* A random private key (d < n by construction: top byte below 0xff). */
static void rand_d(uint64_t *rng, uint8_t *d, size_t len)
{
	tec_rand_bytes(rng, d, len);
	d[0] &= 0x7f;
	d[len - 1] |= 1;
}

static void test_lengths(void **state)
{
	(void)state;
	assert_int_equal(vg_ecdsa_scalar_len(VG_ECDSA_P256), 32);
	assert_int_equal(vg_ecdsa_sig_len(VG_ECDSA_P256), 64);
	assert_int_equal(vg_ecdsa_public_len(VG_ECDSA_P256), 65);
	assert_int_equal(vg_ecdsa_scalar_len(VG_ECDSA_P384), 48);
	assert_int_equal(vg_ecdsa_sig_len(VG_ECDSA_P384), 96);
	assert_int_equal(vg_ecdsa_public_len(VG_ECDSA_P384), 97);
	assert_int_equal(vg_ecdsa_scalar_len((vg_ecdsa_curve)0), 0);
	assert_int_equal(vg_ecdsa_sig_len((vg_ecdsa_curve)3), 0);
	assert_int_equal(vg_ecdsa_public_len((vg_ecdsa_curve)3), 0);
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

static void test_private_check(void **state)
{
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct tec_curve *tc = tec_curve(c);
		size_t len = tc->bytes;
		uint8_t d[48];
		tbn t, one;
		tbn_from_u64(&one, 1);
		struct {
			int kind, want;
		} cases[] = {{0, VG_E_KEY}, {1, 0},        {2, 0},
			     {3, VG_E_KEY}, {4, VG_E_KEY}, {5, VG_E_KEY}};
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			switch (cases[i].kind) {
			case 0: tbn_from_u64(&t, 0); break;        /* 0 */
			case 1: tbn_from_u64(&t, 1); break;        /* 1 */
			case 2: tbn_sub(&t, &tc->n, &one); break;  /* n - 1 */
			case 3: t = tc->n; break;                  /* n */
			case 4: tbn_add(&t, &tc->n, &one); break;  /* n + 1 */
			default: tbn_sub(&t, &tc->R, &one); break; /* 2^bits - 1 */
			}
			tbn_to_be(d, len, &t);
			assert_int_equal(vg_ecdsa_private_check(c, d, len), cases[i].want);
			memset(key, 0xa5, vg_ecdsa_key_size());
			int rc = vg_ecdsa_key_init(key, c, d, len);
			assert_int_equal(rc, cases[i].want);
			if (rc != 0) /* a refused key leaves nothing behind */
				assert_true(all_zero(key, vg_ecdsa_key_size()));
			else
				assert_int_equal(vg_ecdsa_key_curve(key), c);
		}
		/* wrong length, unknown curve */
		memset(d, 1, sizeof(d));
		assert_int_equal(vg_ecdsa_private_check(c, d, len - 1), VG_E_INVALID);
		assert_int_equal(vg_ecdsa_key_init(key, c, d, len + 1), VG_E_INVALID);
		assert_int_equal(vg_ecdsa_private_check((vg_ecdsa_curve)7, d, len), VG_E_INVALID);
		assert_int_equal(vg_ecdsa_key_init(key, (vg_ecdsa_curve)7, d, len), VG_E_INVALID);
	}
	vg_ecdsa_key_wipe(key);
	assert_true(all_zero(key, vg_ecdsa_key_size()));
}

static void test_public_from_private(void **state)
{
	uint64_t rng = 21;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct tec_curve *tc = tec_curve(c);
		size_t len = tc->bytes, plen = 1 + 2 * len, wl, kl;
		for (int it = 0; it < 30; it++) {
			uint8_t d[48], pub[97], want[97];
			tbn t, one;
			tbn_from_u64(&one, 1);
			if (it == 0) {
				tbn_from_u64(&t, 1);
				tbn_to_be(d, len, &t);
			} else if (it == 1) {
				tbn_sub(&t, &tc->n, &one);
				tbn_to_be(d, len, &t);
			} else {
				rand_d(&rng, d, len);
			}
			assert_int_equal(vg_ecdsa_public_from_private(c, pub, plen, d, len), 0);
			tos_mul(c, want, &wl, d, len, NULL);
			assert_int_equal(wl, plen);
			assert_memory_equal(pub, want, plen);
			assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
			const uint8_t *kp = vg_ecdsa_key_public(key, &kl);
			assert_int_equal(kl, plen);
			assert_memory_equal(kp, want, plen);
			assert_int_equal(vg_ecdsa_public_check(c, pub, plen), 0);
		}
		uint8_t d[48] = {0}, pub[97];
		memset(pub, 0x55, sizeof(pub));
		assert_int_equal(vg_ecdsa_public_from_private(c, pub, plen, d, len), VG_E_KEY);
		assert_true(all_zero(pub, plen));
		assert_int_equal(vg_ecdsa_public_from_private(c, pub, plen - 1, d, len),
				 VG_E_INVALID);
	}
}

/* y^2 = x^3 - 3x + b: a square root (p = 3 mod 4 for both curves) or -1. */
static int solve_y(const struct tec_curve *tc, const tbn *x, tbn *y)
{
	tbn r, t, three, e, one;
	tbn_from_u64(&three, 3);
	tbn_from_u64(&one, 1);
	tbn_mulmod(&r, x, x, &tc->p);
	tbn_mulmod(&r, &r, x, &tc->p);
	tbn_mulmod(&t, &three, x, &tc->p);
	tbn_submod(&r, &r, &t, &tc->p);
	tbn_addmod(&r, &r, &tc->b, &tc->p);
	tbn_add(&e, &tc->p, &one);
	tbn_shl(&e, &e, 0);
	/* e = (p + 1) / 4 */
	for (int i = 0; i < 2; i++) {
		uint32_t carry = 0;
		for (size_t j = TBN_DIGITS; j-- > 0;) {
			uint32_t nc = e.d[j] & 1;
			e.d[j] = e.d[j] >> 1 | carry << 31;
			carry = nc;
		}
	}
	tbn_powmod(y, &r, &e, &tc->p);
	tbn_mulmod(&t, y, y, &tc->p);
	return tbn_cmp(&t, &r) == 0 ? 0 : -1;
}

static void test_public_check(void **state)
{
	uint64_t rng = 22;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct tec_curve *tc = tec_curve(c);
		size_t len = tc->bytes, plen = 1 + 2 * len, wl;
		uint8_t d[48], pub[97], bad[98];
		tbn x, y, t;

		rand_d(&rng, d, len);
		tos_mul(c, pub, &wl, d, len, NULL);
		assert_int_equal(vg_ecdsa_public_check(c, pub, plen), 0);
		/* other forms and lengths */
		static const uint8_t prefixes[] = {0x00, 0x02, 0x03, 0x05, 0x06, 0x07};
		for (size_t i = 0; i < sizeof(prefixes); i++) {
			memcpy(bad, pub, plen);
			bad[0] = prefixes[i];
			assert_int_equal(vg_ecdsa_public_check(c, bad, plen), VG_E_KEY);
		}
		assert_int_equal(vg_ecdsa_public_check(c, pub, plen - 1), VG_E_KEY);
		memcpy(bad, pub, plen);
		bad[plen] = 0;
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen + 1), VG_E_KEY);
		assert_int_equal(vg_ecdsa_public_check(c, (const uint8_t[]){0}, 1), VG_E_KEY);
		assert_int_equal(vg_ecdsa_public_check(c, pub, 0), VG_E_KEY);
		/* off the curve: y + 1, and (0, 0) */
		memcpy(bad, pub, plen);
		bad[plen - 1] ^= 1;
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), VG_E_KEY);
		memset(bad + 1, 0, 2 * len);
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), VG_E_KEY);
		/* the other curve's point */
		assert_int_equal(vg_ecdsa_public_check(curves[1 - ci], pub, plen), VG_E_KEY);
		/* a point with a small x: x + p < 2^bits encodes the same residue,
		 * which must be refused as non-canonical */
		for (uint64_t xs = 1;; xs++) {
			tbn_from_u64(&x, xs);
			if (solve_y(tc, &x, &y) == 0)
				break;
		}
		bad[0] = 0x04;
		tbn_to_be(bad + 1, len, &x);
		tbn_to_be(bad + 1 + len, len, &y);
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), 0);
		tbn_add(&t, &x, &tc->p);
		tbn_to_be(bad + 1, len, &t);
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), VG_E_KEY);
		/* y = p (>= p), and y = p + y when that fits */
		tbn_to_be(bad + 1, len, &x);
		tbn_to_be(bad + 1 + len, len, &tc->p);
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), VG_E_KEY);
		tbn_sub(&t, &tc->p, &y); /* -y is the other root, also valid */
		tbn_to_be(bad + 1 + len, len, &t);
		assert_int_equal(vg_ecdsa_public_check(c, bad, plen), 0);
	}
}

static void test_sign_verify(void **state)
{
	uint64_t rng = 23;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		size_t len = vg_ecdsa_scalar_len(c), plen, slen = 2 * len;
		static const size_t dlens[] = {0, 1, 20, 32, 47, 48, 64, 100};
		for (size_t di = 0; di < sizeof(dlens) / sizeof(dlens[0]); di++) {
			uint8_t d[48], digest[100], s1[96], s2[96], det[96], t[96];
			rand_d(&rng, d, len);
			tec_rand_bytes(&rng, digest, sizeof(digest));
			size_t dl = dlens[di];
			assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
			const uint8_t *pub = vg_ecdsa_key_public(key, &plen);

			assert_int_equal(vg_ecdsa_sign(key, digest, dl, s1, slen), 0);
			assert_int_equal(vg_ecdsa_sign(key, digest, dl, s2, slen), 0);
			assert_int_equal(vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest, dl, NULL,
							    0, det, slen),
					 0);
			/* hedged: fresh every time, and not the deterministic one */
			assert_memory_not_equal(s1, s2, slen);
			assert_memory_not_equal(s1, det, slen);
			assert_memory_not_equal(s2, det, slen);
			const uint8_t *sigs[3] = {s1, s2, det};
			for (int i = 0; i < 3; i++) {
				assert_int_equal(
					vg_ecdsa_verify(c, pub, plen, digest, dl, sigs[i], slen),
					0);
				assert_true(tos_verify(c, pub, digest, dl, sigs[i]));
			}
			/* the deterministic signature is deterministic */
			assert_int_equal(vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest, dl, NULL,
							    0, t, slen),
					 0);
			assert_memory_equal(t, det, slen);
			/* caller-given additional data changes it */
			assert_int_equal(vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest, dl,
							    (const uint8_t *)"x", 1, t, slen),
					 0);
			assert_memory_not_equal(t, det, slen);
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, dl, t, slen), 0);

			/* tampering: a bit of r, of s, of the digest (within the
			 * bits2int prefix), of the key */
			memcpy(t, s1, slen);
			t[3] ^= 0x10;
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, dl, t, slen),
					 VG_E_VERIFY);
			memcpy(t, s1, slen);
			t[len + 5] ^= 1;
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, dl, t, slen),
					 VG_E_VERIFY);
			if (dl > 0) {
				digest[0] ^= 0x80;
				assert_int_equal(
					vg_ecdsa_verify(c, pub, plen, digest, dl, s1, slen),
					VG_E_VERIFY);
				digest[0] ^= 0x80;
			}
			if (dl > len) { /* bytes beyond qlen bits are not signed */
				digest[dl - 1] ^= 1;
				assert_int_equal(
					vg_ecdsa_verify(c, pub, plen, digest, dl, s1, slen), 0);
				digest[dl - 1] ^= 1;
			}
			uint8_t pub2[97];
			d[len - 1] ^= 2; /* another key (d stays odd, so non-zero) */
			assert_int_equal(vg_ecdsa_public_from_private(c, pub2, plen, d, len), 0);
			assert_int_equal(vg_ecdsa_verify(c, pub2, plen, digest, dl, s1, slen),
					 VG_E_VERIFY);
			/* wrong lengths */
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, dl, s1, slen - 1),
					 VG_E_VERIFY);
			assert_int_equal(vg_ecdsa_sign(key, digest, dl, t, slen + 1), VG_E_INVALID);
		}
	}
}

/* r and s outside [1, n - 1], with the other half valid. */
static void test_verify_ranges(void **state)
{
	uint64_t rng = 24;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct tec_curve *tc = tec_curve(c);
		size_t len = tc->bytes, plen, slen = 2 * len;
		uint8_t d[48], digest[32], sig[96], t[96];
		rand_d(&rng, d, len);
		tec_rand_bytes(&rng, digest, sizeof(digest));
		assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
		const uint8_t *pub = vg_ecdsa_key_public(key, &plen);
		assert_int_equal(vg_ecdsa_sign(key, digest, 32, sig, slen), 0);
		for (int half = 0; half < 2; half++) {
			tbn v;
			memcpy(t, sig, slen);
			memset(t + half * len, 0, len); /* 0 */
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, 32, t, slen),
					 VG_E_VERIFY);
			tbn_to_be(t + half * len, len, &tc->n); /* n */
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, 32, t, slen),
					 VG_E_VERIFY);
			/* r + n or s + n when it fits: same residue, refused */
			tbn_from_be(&v, sig + half * len, len);
			tbn_add(&v, &v, &tc->n);
			if (tbn_cmp(&v, &tc->R) < 0) {
				tbn_to_be(t + half * len, len, &v);
				assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, 32, t, slen),
						 VG_E_VERIFY);
			}
			memset(t + half * len, 0xff, len);
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, 32, t, slen),
					 VG_E_VERIFY);
		}
		/* -s (n - s) is the other valid s for the same r */
		tbn s;
		tbn_from_be(&s, sig + len, len);
		tbn_sub(&s, &tc->n, &s);
		memcpy(t, sig, len);
		tbn_to_be(t + len, len, &s);
		assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, 32, t, slen), 0);
	}
}

/* ---- DER ---- */

static void der_roundtrip(vg_ecdsa_curve c, const uint8_t *raw, const char *want_hex)
{
	size_t len = vg_ecdsa_scalar_len(c), dl;
	uint8_t der[VG_ECDSA_MAX_DER_LEN], want[VG_ECDSA_MAX_DER_LEN], back[96];
	assert_int_equal(vg_ecdsa_sig_to_der(c, raw, 2 * len, der, sizeof(der), &dl), 0);
	if (want_hex) {
		size_t wl = strlen(want_hex) / 2;
		tec_hex(want, wl, want_hex);
		assert_int_equal(dl, wl);
		assert_memory_equal(der, want, wl);
	}
	assert_int_equal(vg_ecdsa_sig_from_der(c, der, dl, back, 2 * len), 0);
	assert_memory_equal(back, raw, 2 * len);
}

static void der_reject(vg_ecdsa_curve c, const char *hex)
{
	size_t len = vg_ecdsa_scalar_len(c), n = strlen(hex) / 2;
	uint8_t der[256], raw[96];
	tec_hex(der, n, hex);
	memset(raw, 0x5a, sizeof(raw));
	if (vg_ecdsa_sig_from_der(c, der, n, raw, 2 * len) != VG_E_DECODE)
		fail_msg("accepted malformed DER %s", hex);
	assert_true(all_zero(raw, 2 * len));
}

static void test_der(void **state)
{
	uint64_t rng = 25;
	uint8_t raw[96], der[VG_ECDSA_MAX_DER_LEN];
	size_t dl;
	(void)state;

	/* r = 1, s = 0x80 (a sign byte), P-256 */
	memset(raw, 0, 64);
	raw[31] = 1;
	raw[63] = 0x80;
	der_roundtrip(VG_ECDSA_P256, raw,
		      "3007020101020200"
		      "80");
	/* r = 0: 02 01 00 */
	raw[31] = 0;
	der_roundtrip(VG_ECDSA_P256, raw, "300702010002020080");
	/* full-width values with the top bit set: 33-byte INTEGERs, and the
	 * largest P-384 encoding fits VG_ECDSA_MAX_DER_LEN */
	memset(raw, 0xff, 96);
	der_roundtrip(VG_ECDSA_P256, raw, NULL);
	assert_int_equal(vg_ecdsa_sig_to_der(VG_ECDSA_P384, raw, 96, der, sizeof(der), &dl), 0);
	assert_int_equal(dl, VG_ECDSA_MAX_DER_LEN);
	assert_int_equal(vg_ecdsa_sig_to_der(VG_ECDSA_P384, raw, 96, der, dl - 1, &dl),
			 VG_E_INVALID);
	for (int i = 0; i < 200; i++) {
		vg_ecdsa_curve c = curves[i & 1];
		size_t len = vg_ecdsa_scalar_len(c);
		tec_rand_bytes(&rng, raw, 2 * len);
		/* leading zero bytes of every length */
		memset(raw, 0, (size_t)(tec_rand(&rng) % 4) * (i % 3));
		memset(raw + len, 0, (size_t)(tec_rand(&rng) % 5) * (i % 2));
		der_roundtrip(c, raw, NULL);
	}
	assert_int_equal(vg_ecdsa_sig_to_der(VG_ECDSA_P256, raw, 63, der, sizeof(der), &dl),
			 VG_E_INVALID);

	vg_ecdsa_curve c = VG_ECDSA_P256;
	der_reject(c, "");
	der_reject(c, "30");
	der_reject(c, "3000");             /* no INTEGERs */
	der_reject(c, "3003020101");       /* one INTEGER */
	der_reject(c, "3106020101020101"); /* SET, not SEQUENCE */
	der_reject(c, "3006020101020101"
		      "00"); /* trailing byte */
	der_reject(c, "3007020101020101"
		      "00");               /* length past the content */
	der_reject(c, "3005020101020101"); /* length short of it */
	der_reject(c, "300902010102010102"
		      "0101");                 /* three INTEGERs */
	der_reject(c, "308106020101020101");   /* long form for a short length */
	der_reject(c, "30820006020101020101"); /* two-byte form for it */
	der_reject(c, "3080020101020101"
		      "0000");               /* indefinite (BER) */
	der_reject(c, "3006030101020101");   /* BIT STRING for r */
	der_reject(c, "300602810101020101"); /* long-form INTEGER length */
	der_reject(c, "3005020002020101");   /* empty INTEGER */
	der_reject(c, "3006020181020101");   /* negative r */
	der_reject(c, "30060201010201ff");   /* negative s */
	der_reject(c, "300702020001020101"); /* r zero-padded */
	der_reject(c, "300702010102020000"); /* s = 00 00 */
	/* r of 33 bytes without a sign reason (too wide), and 34 bytes */
	der_reject(c, "3026022101"
		      "0000000000000000000000000000000000000000000000000000000000000000"
		      "020101");
	der_reject(c, "302702220000ff00000000000000000000000000000000000000000000000000000000"
		      "00000000"
		      "020101");
	/* the SEQUENCE wrapped in another */
	der_reject(c, "30083006020101020101");
}

/* ---- rows that misbehave on purpose ---- */

/* The rows below wrap a real row (base) and break one operation on one
 * call (fault_at, counted per operation from 1; 0 never), in one way
 * (mode). The compound C functions receive the test row, so their inner
 * operations go through the wrappers too. */
static const struct vg_ec_impl *base;
static struct vg_ec_impl trow;
static int calls_base, calls_fe_inv, calls_sc_inv, calls_sc_mul, fault_at;
static enum {
	F_NONE,
	F_BASE_PLUS_G, /* k G + G: a valid point, the wrong one */
	F_BASE_FLIP_X, /* one bit of X: off the curve */
	F_BASE_X_ZERO, /* x = 0: r = 0 (RFC 6979 retry) */
	F_BASE_IS_G,   /* G whatever k (for s = 0) */
	F_FE_INV,      /* one bit of a field inverse */
	F_SC_INV,      /* one bit of a scalar inverse */
	F_SC_MUL,      /* one bit of a scalar product */
} mode;

static void t_base_mul(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k)
{
	base->base_mul(f, r, k);
	if (++calls_base != fault_at && !(mode == F_BASE_X_ZERO && fault_at < 0))
		return;
	switch (mode) {
	case F_BASE_PLUS_G: {
		vg_ec_point g;
		vg_ec_point_from_affine(f, &g, f->curve->gx, f->curve->gy);
		vg_ec_point_add(f, r, r, &g);
		break;
	}
	case F_BASE_FLIP_X: r->x[1] ^= 4; break;
	case F_BASE_X_ZERO: memset(r->x, 0, sizeof(r->x)); break;
	case F_BASE_IS_G: vg_ec_point_from_affine(f, r, f->curve->gx, f->curve->gy); break;
	default: break;
	}
}

static void t_fe_inv(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	base->fe_inv(f, r, a);
	if (++calls_fe_inv == fault_at && mode == F_FE_INV)
		r[0] ^= 1;
}

static void t_sc_inv(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	base->sc_inv(f, r, a);
	if (++calls_sc_inv == fault_at && mode == F_SC_INV)
		r[2] ^= 1;
}

/* Both inversions at once: the faults of the two above. */
static void t_inv2(const struct vg_ec_impl *f, uint64_t *rz, const uint64_t *z, uint64_t *rk,
		   const uint64_t *k)
{
	base->inv2(f, rz, z, rk, k);
	if (++calls_fe_inv == fault_at && mode == F_FE_INV)
		rz[0] ^= 1;
	if (++calls_sc_inv == fault_at && mode == F_SC_INV)
		rk[2] ^= 1;
}

/* sc_mul has no row argument, so the wrapper reads the wrapped row. */
static void t_sc_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	base->sc_mul(r, a, b);
	if (++calls_sc_mul == fault_at && mode == F_SC_MUL)
		r[0] ^= 8;
}

static const struct vg_ec_impl *test_row(vg_ecdsa_curve c, int m, int at)
{
	base = vg_ecdsa_impl(c);
	trow = *base;
	trow.v.name = "test";
	trow.base_mul = t_base_mul;
	trow.fe_inv = t_fe_inv;
	trow.sc_inv = t_sc_inv;
	trow.inv2 = t_inv2;
	trow.sc_mul = t_sc_mul;
	calls_base = calls_fe_inv = calls_sc_inv = calls_sc_mul = 0;
	mode = m;
	fault_at = at;
	return &trow;
}

/* Count each wrapped operation's calls in one unbroken signature. */
static void count_calls(vg_ecdsa_curve c, const uint8_t *digest, size_t dlen, int *n_base,
			int *n_fe_inv, int *n_sc_inv, int *n_sc_mul)
{
	uint8_t sig[96];
	const struct vg_ec_impl *f = test_row(c, F_NONE, 0);
	assert_int_equal(
		vg_ecdsa_sign_with(f, key, digest, dlen, NULL, 0, sig, vg_ecdsa_sig_len(c)), 0);
	*n_base = calls_base;
	*n_fe_inv = calls_fe_inv;
	*n_sc_inv = calls_sc_inv;
	*n_sc_mul = calls_sc_mul;
}

/* Sign with fault m at call `at` under the cheap check (full = 0) or the
 * full one: the fault must be caught, the output zeroed. */
static void expect_fault_ex(vg_ecdsa_curve c, const uint8_t *digest, size_t dlen, int m, int at,
			    int full)
{
	uint8_t sig[96];
	size_t slen = vg_ecdsa_sig_len(c);
	const struct vg_ec_impl *f = test_row(c, m, at);
	memset(sig, 0xa5, sizeof(sig));
	int rc = vg_ecdsa_sign_ex(f, key, digest, dlen, NULL, 0, sig, slen, full);
	if (rc != VG_E_FAULT)
		fail_msg("curve %d, fault mode %d at call %d (%s check): rc %d, not VG_E_FAULT",
			 (int)c, m, at, full ? "full" : "cheap", rc);
	if (!all_zero(sig, slen))
		fail_msg("curve %d, fault mode %d at call %d: output not zeroed", (int)c, m, at);
}

static void expect_fault(vg_ecdsa_curve c, const uint8_t *digest, size_t dlen, int m, int at)
{
	expect_fault_ex(c, digest, dlen, m, at, 0);
}

/* Break one operation on one call, for every call the signature makes of
 * k G (off the curve), 1/Z, k^-1 and the scalar products (k R, r d, s,
 * and the check's own: a fault in the check withholds a good signature,
 * which is the safe way to fail): the cheap check catches each. A valid
 * but wrong k G passes the cheap check (its documented gap: the released
 * signature does not verify) and is caught by the full one. */
static void test_fault_injection(void **state)
{
	uint64_t rng = 26;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		size_t len = vg_ecdsa_scalar_len(c), slen = 2 * len;
		uint8_t d[48], digest[48], sig[96], good[96];
		int nb, nfi, nsi, nsm;
		rand_d(&rng, d, len);
		tec_rand_bytes(&rng, digest, len);
		assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
		assert_int_equal(
			vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest, len, NULL, 0, good, slen),
			0);

		/* control: the wrapping row without a fault signs as the real one */
		const struct vg_ec_impl *f = test_row(c, F_NONE, 0);
		assert_int_equal(vg_ecdsa_sign_with(f, key, digest, len, NULL, 0, sig, slen), 0);
		assert_memory_equal(sig, good, slen);
		count_calls(c, digest, len, &nb, &nfi, &nsi, &nsm);
		assert_true(nb >= 1 && nfi >= 1 && nsi >= 1 && nsm >= 1);

		assert_int_equal(nb, 1); /* the cheap check adds no multiplication */
		for (int at = 1; at <= nb; at++) {
			expect_fault(c, digest, len, F_BASE_FLIP_X, at); /* off the curve */
			expect_fault_ex(c, digest, len, F_BASE_PLUS_G, at, 1);
			/* valid but wrong: released by the cheap check, and invalid */
			const struct vg_ec_impl *g = test_row(c, F_BASE_PLUS_G, at);
			size_t plen;
			const uint8_t *pub = vg_ecdsa_key_public(key, &plen);
			assert_int_equal(vg_ecdsa_sign_with(g, key, digest, len, NULL, 0, sig, slen),
					 0);
			assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, len, sig, slen),
					 VG_E_VERIFY);
		}
		for (int at = 1; at <= nfi; at++)
			expect_fault(c, digest, len, F_FE_INV, at);
		for (int at = 1; at <= nsi; at++)
			expect_fault(c, digest, len, F_SC_INV, at);
		for (int at = 1; at <= nsm; at++)
			expect_fault(c, digest, len, F_SC_MUL, at);
		/* the full check catches them too */
		expect_fault_ex(c, digest, len, F_BASE_FLIP_X, 1, 1);
		expect_fault_ex(c, digest, len, F_FE_INV, 1, 1);
		expect_fault_ex(c, digest, len, F_SC_INV, 1, 1);

		/* a corrupted private scalar (Montgomery copy) in the key */
		vg_ecdsa_key *bad = malloc(vg_ecdsa_key_size());
		assert_non_null(bad);
		memcpy(bad, key, vg_ecdsa_key_size());
		bad->dm[1] ^= 0x40;
		memset(sig, 0xa5, sizeof(sig));
		assert_int_equal(vg_ecdsa_sign(bad, digest, len, sig, slen), VG_E_FAULT);
		assert_true(all_zero(sig, slen));
		/* a corrupted plain copy of d too */
		memcpy(bad, key, vg_ecdsa_key_size());
		bad->d[0] ^= 2;
		memset(sig, 0xa5, sizeof(sig));
		assert_int_equal(vg_ecdsa_sign(bad, digest, len, sig, slen), VG_E_FAULT);
		assert_true(all_zero(sig, slen));
		/* a corrupted public point: the cheap check does not read Q (d
		 * was checked against it at load), so the signature is made, and
		 * valid under the true key; the full check withholds it */
		memcpy(bad, key, vg_ecdsa_key_size());
		bad->qx[0] ^= 1;
		size_t plen;
		const uint8_t *pub = vg_ecdsa_key_public(key, &plen);
		assert_int_equal(vg_ecdsa_sign(bad, digest, len, sig, slen), 0);
		assert_int_equal(vg_ecdsa_verify(c, pub, plen, digest, len, sig, slen), 0);
		memset(sig, 0xa5, sizeof(sig));
		assert_int_equal(vg_ecdsa_sign_ex(vg_ecdsa_impl(c), bad, digest, len, NULL, 0, sig,
						  slen, 1),
				 VG_E_FAULT);
		assert_true(all_zero(sig, slen));
		free(bad);
	}
}

/* RFC 6979 3.4: r = 0 or s = 0 takes the next nonce of the generator. */
static void test_retry(void **state)
{
	uint64_t rng = 27;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct tec_curve *tc = tec_curve(c);
		size_t len = tc->bytes, slen = 2 * len, plen, wl;
		uint8_t d[48], digest[48], sig[96], good[96], h[48], kb[48], pt[97];
		uint64_t k[VG_EC_MAX_LIMBS];
		struct vg_ecdsa_nonce g;
		tbn t, dn, e;

		rand_d(&rng, d, len);
		tec_rand_bytes(&rng, digest, len);
		assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
		const uint8_t *pub = vg_ecdsa_key_public(key, &plen);
		assert_int_equal(
			vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest, len, NULL, 0, good, slen),
			0);

		for (int which = 0; which < 2; which++) {
			if (which == 0) {
				/* r = 0 on the first nonce (k G given x = 0) */
				const struct vg_ec_impl *f = test_row(c, F_BASE_X_ZERO, 1);
				assert_int_equal(
					vg_ecdsa_sign_with(f, key, digest, len, NULL, 0, sig, slen),
					0);
			} else {
				/* s = 0 on the first nonce: make k G = G, so r = Gx mod n,
				 * and sign e = -r d mod n */
				tbn r;
				tos_mul(c, pt, &wl, (const uint8_t[]){1}, 1, NULL);
				tbn_from_be(&r, pt + 1, len);
				tbn_mod(&r, &r, &tc->n);
				tbn_from_be(&dn, d, len);
				tbn_mulmod(&t, &r, &dn, &tc->n);
				tbn_sub(&e, &tc->n, &t);
				tbn_to_be(digest, len, &e);
				const struct vg_ec_impl *f = test_row(c, F_BASE_IS_G, 1);
				assert_int_equal(
					vg_ecdsa_sign_with(f, key, digest, len, NULL, 0, sig, slen),
					0);
				/* control: the same digest, unbroken, is a normal signature */
				assert_int_equal(vg_ecdsa_sign_with(vg_ecdsa_impl(c), key, digest,
								    len, NULL, 0, good, slen),
						 0);
			}
			/* the signature is valid, differs from the first nonce's, and
			 * its r is x(k2 G) for the generator's second output */
			assert_true(tos_verify(c, pub, digest, len, sig));
			assert_memory_not_equal(sig, good, slen);
			tbn_from_be(&t, digest, len);
			tbn_mod(&t, &t, &tc->n);
			tbn_to_be(h, len, &t);
			vg_ecdsa_nonce_init(&g, vg_ecdsa_impl(c), d, h, len, NULL, 0);
			vg_ecdsa_nonce_next(&g, k);
			vg_ecdsa_nonce_next(&g, k);
			tbn_from_limbs(&t, k, len / 8);
			tbn_to_be(kb, len, &t);
			tos_mul(c, pt, &wl, kb, len, NULL);
			tbn_from_be(&t, pt + 1, len);
			tbn_mod(&t, &t, &tc->n);
			tbn_to_be(kb, len, &t);
			assert_memory_equal(sig, kb, len);
		}

		/* r = 0 for every nonce: give up with a fault, output zeroed */
		const struct vg_ec_impl *f = test_row(c, F_BASE_X_ZERO, -1);
		memset(sig, 0xa5, sizeof(sig));
		assert_int_equal(vg_ecdsa_sign_with(f, key, digest, len, NULL, 0, sig, slen),
				 VG_E_FAULT);
		assert_true(all_zero(sig, slen));
	}
}

/* A key whose public point comes out wrong at load is refused: a valid
 * but wrong Q passes the curve check, and the self-test signature of
 * vg_ecdsa_key_init catches it; an off-curve Q is caught at once. */
static void test_key_load_fault(void **state)
{
	uint64_t rng = 28;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		size_t len = vg_ecdsa_scalar_len(c);
		uint8_t d[48];
		rand_d(&rng, d, len);
		for (int m = F_BASE_PLUS_G; m <= F_BASE_FLIP_X; m++) {
			const struct vg_ec_impl *f = test_row(c, m, 1);
			memset(key, 0xa5, vg_ecdsa_key_size());
			assert_int_equal(vg_ecdsa_key_init_with(f, key, c, d, len), VG_E_FAULT);
			assert_true(all_zero(key, vg_ecdsa_key_size()));
		}
		const struct vg_ec_impl *f = test_row(c, F_NONE, 0);
		assert_int_equal(vg_ecdsa_key_init_with(f, key, c, d, len), 0);
		/* a row of the other curve is refused */
		f = test_row(curves[1 - ci], F_NONE, 0);
		assert_int_equal(vg_ecdsa_key_init_with(f, key, c, d, len), VG_E_INVALID);
	}
}

/* The stack below a signature keeps no copy of a secret: on every row the
 * CPU runs, a region below the stack pointer is painted, a signature made
 * over it (its frames land there), and afterwards no 8-byte word of the
 * region equals a limb of d, d R, the nonce k, k R or k^-1 R (mod n). The
 * scrub at the end of signing (VG_EC_SCRUB_BYTES below its frame) and the
 * asm functions' own wipes must have cleared them all; with a scrub much
 * smaller than what signing uses this fails (copies of k and d R stay in
 * the callees' spills). */
#define PAINT_BYTES (64 * 1024)
#define PAINT_GAP 1024 /* above the region: the frames of paint() and scan() */

static __attribute__((noinline)) uintptr_t stack_pointer(void)
{
	uintptr_t sp;
	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
	return sp;
}

static __attribute__((noinline)) void paint(uintptr_t lo)
{
	volatile uint64_t *p = (volatile uint64_t *)lo;
	for (size_t i = 0; i < PAINT_BYTES / 8; i++)
		p[i] = 0xa5a5a5a5a5a5a5a5u;
}

/* The number of words of the region equal to one of the n secrets. */
static __attribute__((noinline)) size_t scan(uintptr_t lo, const uint64_t *secret, size_t n)
{
	volatile const uint64_t *p = (volatile const uint64_t *)lo;
	size_t hits = 0;
	for (size_t i = 0; i < PAINT_BYTES / 8; i++) {
		uint64_t w = p[i];
		for (size_t j = 0; j < n; j++)
			hits += w == secret[j];
	}
	return hits;
}

static void test_stack_residue(void **state)
{
	uint64_t rng = 29;
	(void)state;
	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		const struct vg_ec_impl *tab = ci ? vg_ec_p384_impls : vg_ec_p256_impls;
		size_t nt = ci ? vg_ec_p384_nimpls : vg_ec_p256_nimpls;
		for (size_t ri = 0; ri < nt; ri++) {
			const struct vg_ec_impl *f = &tab[ri];
			if ((f->v.features & vg_cpu_features()) != f->v.features)
				continue;
			size_t len = f->curve->bytes, n = f->curve->limbs;
			uint8_t d[48], digest[48], extra[48], sig[96], h[48];
			uint64_t secret[5 * VG_EC_MAX_LIMBS], e[VG_EC_MAX_LIMBS];
			struct vg_ecdsa_nonce g;
			rand_d(&rng, d, len);
			tec_rand_bytes(&rng, digest, len);
			tec_rand_bytes(&rng, extra, len);
			assert_int_equal(vg_ecdsa_key_init_with(f, key, c, d, len), 0);
			/* the nonce signing will draw: RFC 6979 on (d, e mod n, extra) */
			vg_ec_from_bytes(e, digest, n);
			vg_ec_reduce_once(e, e, f->curve->n.m, n);
			vg_ec_to_bytes(h, e, n);
			vg_ecdsa_nonce_init(&g, f, d, h, len, extra, len);
			uint64_t *k = secret + 2 * n, *km = k + n, *ki = km + n;
			vg_ecdsa_nonce_next(&g, k);
			vg_ec_sc_to_mont(f, km, k);
			f->sc_inv(f, ki, km);
			memcpy(secret, key->d, n * 8);
			memcpy(secret + n, key->dm, n * 8);

			uintptr_t lo = (stack_pointer() - PAINT_GAP - PAINT_BYTES) & ~(uintptr_t)63;
			paint(lo);
			assert_int_equal(vg_ecdsa_sign_with(f, key, digest, len, extra, len, sig, 2 * len),
					 0);
			size_t hits = scan(lo, secret, 5 * n);
			if (hits != 0)
				fail_msg("%s %s: %zu words of d, d R, k, k R, k^-1 R left on the stack",
					 f->curve->name, f->v.name, hits);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_private_check),
		cmocka_unit_test(test_public_from_private),
		cmocka_unit_test(test_public_check),
		cmocka_unit_test(test_sign_verify),
		cmocka_unit_test(test_verify_ranges),
		cmocka_unit_test(test_der),
		cmocka_unit_test(test_fault_injection),
		cmocka_unit_test(test_retry),
		cmocka_unit_test(test_key_load_fault),
		cmocka_unit_test(test_stack_residue),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
