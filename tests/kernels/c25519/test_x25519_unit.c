/* test_x25519_unit.c: X25519 properties: Diffie-Hellman commutativity,
 * vg_x25519_base == vg_x25519(k, 9), agreement with the Edwards side
 * (u = (1 + y)/(1 - y) of [clamp(k)]B), bit 255 of u ignored, clamping of
 * the scalar, and low-order peers rejected with an all-zero output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "c25519/fe.h"
#include "c25519/ge.h"
#include "ec_testutil.h"
#include "vg/x25519.h"

static void test_dh_commutes(void **state)
{
	(void)state;
	uint64_t rng = 21;
	uint8_t a[32], b[32], A[32], B[32], k1[32], k2[32];
	for (int i = 0; i < 64; i++) {
		ect_rand_bytes(&rng, a, 32);
		ect_rand_bytes(&rng, b, 32);
		vg_x25519_base(A, a);
		vg_x25519_base(B, b);
		assert_int_equal(vg_x25519(k1, a, B), 0);
		assert_int_equal(vg_x25519(k2, b, A), 0);
		assert_memory_equal(k1, k2, 32);
		assert_memory_not_equal(A, B, 32);
	}
}

static void test_base_matches_ladder(void **state)
{
	(void)state;
	uint64_t rng = 22;
	uint8_t k[32], x[32], y[32], nine[32] = {9};
	for (int i = 0; i < 64; i++) {
		ect_rand_bytes(&rng, k, 32);
		if (i == 0)
			memset(k, 0, 32); /* clamps to 2^254 */
		if (i == 1)
			memset(k, 0xff, 32);
		vg_x25519_base(x, k);
		assert_int_equal(vg_x25519(y, k, nine), 0);
		assert_memory_equal(x, y, 32);
	}
}

/* Through the Edwards formulas directly: the ladder's output equals the
 * birational image of the comb's point, computed here with its own
 * conversion (affine y first). */
static void test_matches_edwards(void **state)
{
	(void)state;
	uint64_t rng = 23;
	uint8_t k[32], c[32], want[32], got[32], nine[32] = {9};
	for (int i = 0; i < 16; i++) {
		ect_rand_bytes(&rng, k, 32);
		memcpy(c, k, 32);
		c[0] &= 248, c[31] &= 127, c[31] |= 64;
		vg_ge_p3 P;
		vg_fe zi, y, one, num, den;
		vg_ge_scalarmult_base(&P, c);
		vg_fe_invert(&zi, &P.Z);
		vg_fe_mul(&y, &P.Y, &zi);
		vg_fe_1(&one);
		vg_fe_add(&num, &one, &y);
		vg_fe_sub(&den, &one, &y);
		vg_fe_invert(&den, &den);
		vg_fe_mul(&num, &num, &den);
		vg_fe_tobytes(want, &num);
		assert_int_equal(vg_x25519(got, k, nine), 0);
		assert_memory_equal(got, want, 32);
	}
}

static void test_masking_and_clamping(void **state)
{
	(void)state;
	uint64_t rng = 24;
	uint8_t k[32], k2[32], u[32], u2[32], x[32], y[32];
	for (int i = 0; i < 16; i++) {
		ect_rand_bytes(&rng, k, 32);
		ect_rand_bytes(&rng, u, 32);
		u[31] &= 0x7f;
		memcpy(u2, u, 32);
		u2[31] |= 0x80; /* bit 255 of u is ignored */
		assert_int_equal(vg_x25519(x, k, u), 0);
		assert_int_equal(vg_x25519(y, k, u2), 0);
		assert_memory_equal(x, y, 32);
		memcpy(k2, k, 32); /* the clamped bits of the scalar are ignored */
		k2[0] ^= 7;
		k2[31] ^= 0xc0;
		assert_int_equal(vg_x25519(y, k2, u), 0);
		assert_memory_equal(x, y, 32);
	}
}

static void test_low_order(void **state)
{
	(void)state;
	uint64_t rng = 25;
	uint8_t k[32], out[32], zero[32] = {0};
	/* u = 0 (order 2), u = 1 (order 4 on the twist) and u = p (0 again,
	 * non-canonical), u = p + 1 (1 again). */
	uint8_t us[4][32] = {{0}, {1}, {0}, {0}};
	ect_num p, one, t;
	ect_p(&p);
	ect_from_u64(&one, 1);
	ect_to_le(us[2], 32, &p);
	ect_add(&t, &p, &one);
	ect_to_le(us[3], 32, &t);
	for (int i = 0; i < 4; i++) {
		ect_rand_bytes(&rng, k, 32);
		memset(out, 0xa5, 32);
		assert_int_equal(vg_x25519(out, k, us[i]), VG_E_ZERO);
		assert_memory_equal(out, zero, 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dh_commutes),
		cmocka_unit_test(test_base_matches_ladder),
		cmocka_unit_test(test_matches_edwards),
		cmocka_unit_test(test_masking_and_clamping),
		cmocka_unit_test(test_low_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
