/* ec_testutil.h: helpers of the c25519 tests: deterministic randomness and
 * a deliberately simple, independent big-number reference (32-bit limbs,
 * bit-by-bit modular reduction, no shared code with the kernels) for
 * checking field and scalar arithmetic. Test-only, variable time. */
#ifndef VG_EC_TESTUTIL_H
#define VG_EC_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64; the state is seeded per test so failures reproduce. */
uint64_t ect_rand(uint64_t *state);
void ect_rand_bytes(uint64_t *state, uint8_t *out, size_t len);

/* Numbers below 2^576, little-endian 32-bit limbs. */
#define ECT_LIMBS 18
typedef struct {
	uint32_t w[ECT_LIMBS];
} ect_num;

void ect_from_le(ect_num *r, const uint8_t *b, size_t n); /* n <= 72 */
void ect_to_le(uint8_t *b, size_t n, const ect_num *x);   /* low n bytes */
void ect_from_u64(ect_num *r, uint64_t v);
/* r = sum v[i] * 2^(51 i): the value of a field element's limbs. */
void ect_from_limbs51(ect_num *r, const uint64_t v[5]);
int ect_cmp(const ect_num *a, const ect_num *b);
void ect_add(ect_num *r, const ect_num *a, const ect_num *b);
void ect_sub(ect_num *r, const ect_num *a, const ect_num *b); /* a >= b */
void ect_mul(ect_num *r, const ect_num *a, const ect_num *b); /* a, b < 2^288 */
/* r = x mod m by shift-and-subtract over every bit of x. */
void ect_mod(ect_num *r, const ect_num *x, const ect_num *m);
void ect_addmod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m);
void ect_submod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m);
void ect_mulmod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m);
/* r = a^e mod m, e given as a number. */
void ect_powmod(ect_num *r, const ect_num *a, const ect_num *e, const ect_num *m);

/* p = 2^255 - 19 and L = 2^252 + 27742317777372353535851937790883648493,
 * built from their definitions. */
void ect_p(ect_num *p);
void ect_l(ect_num *l);

/* Hex helpers: decode exactly n bytes (aborts otherwise). */
void ect_hex(uint8_t *out, size_t n, const char *hex);

#endif
