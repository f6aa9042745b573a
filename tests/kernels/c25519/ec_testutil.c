/* ec_testutil.c: see ec_testutil.h. */
#include "ec_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vecfile.h"

uint64_t ect_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

void ect_rand_bytes(uint64_t *state, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)ect_rand(state);
}

void ect_from_le(ect_num *r, const uint8_t *b, size_t n)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r->w[i / 4] |= (uint32_t)b[i] << (8 * (i % 4));
}

void ect_to_le(uint8_t *b, size_t n, const ect_num *x)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(x->w[i / 4] >> (8 * (i % 4)));
}

void ect_from_u64(ect_num *r, uint64_t v)
{
	memset(r, 0, sizeof(*r));
	r->w[0] = (uint32_t)v;
	r->w[1] = (uint32_t)(v >> 32);
}

/* r += 2^pos */
static int top_bit(const ect_num *x)
{
	for (int bit = 32 * ECT_LIMBS - 1; bit >= 0; bit--)
		if ((x->w[bit / 32] >> (bit % 32)) & 1)
			return bit;
	return -1;
}

static void add_bit(ect_num *r, unsigned pos)
{
	uint64_t carry = (uint64_t)1 << (pos % 32);
	for (unsigned i = pos / 32; i < ECT_LIMBS && carry; i++) {
		uint64_t t = (uint64_t)r->w[i] + carry;
		r->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
}

void ect_from_limbs51(ect_num *r, const uint64_t v[5])
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < 5; i++)
		for (unsigned b = 0; b < 64; b++)
			if ((v[i] >> b) & 1)
				add_bit(r, 51 * i + b);
}

int ect_cmp(const ect_num *a, const ect_num *b)
{
	for (int i = ECT_LIMBS - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

void ect_add(ect_num *r, const ect_num *a, const ect_num *b)
{
	uint64_t carry = 0;
	for (int i = 0; i < ECT_LIMBS; i++) {
		uint64_t t = (uint64_t)a->w[i] + b->w[i] + carry;
		r->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry)
		abort();
}

void ect_sub(ect_num *r, const ect_num *a, const ect_num *b)
{
	int64_t borrow = 0;
	for (int i = 0; i < ECT_LIMBS; i++) {
		int64_t t = (int64_t)a->w[i] - b->w[i] - borrow;
		borrow = t < 0;
		r->w[i] = (uint32_t)(t + (borrow << 32));
	}
	if (borrow)
		abort();
}

void ect_mul(ect_num *r, const ect_num *a, const ect_num *b)
{
	uint32_t t[2 * ECT_LIMBS] = {0};
	for (int i = 0; i < ECT_LIMBS; i++) {
		uint64_t carry = 0;
		for (int j = 0; j < ECT_LIMBS; j++) {
			uint64_t x = (uint64_t)a->w[i] * b->w[j] + t[i + j] + carry;
			t[i + j] = (uint32_t)x;
			carry = x >> 32;
		}
		t[i + ECT_LIMBS] = (uint32_t)carry;
	}
	for (int i = ECT_LIMBS; i < 2 * ECT_LIMBS; i++)
		if (t[i])
			abort(); /* product too large for ect_num */
	memcpy(r->w, t, sizeof(r->w));
}

void ect_mod(ect_num *r, const ect_num *x, const ect_num *m)
{
	ect_num acc;
	memset(&acc, 0, sizeof(acc));
	for (int bit = top_bit(x); bit >= 0; bit--) {
		ect_add(&acc, &acc, &acc); /* acc = 2 acc + bit */
		if ((x->w[bit / 32] >> (bit % 32)) & 1)
			add_bit(&acc, 0);
		if (ect_cmp(&acc, m) >= 0)
			ect_sub(&acc, &acc, m);
	}
	*r = acc;
}

void ect_addmod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m)
{
	ect_num t;
	ect_add(&t, a, b);
	ect_mod(r, &t, m);
}

void ect_submod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m)
{
	ect_num t, bm;
	ect_mod(&bm, b, m);
	ect_add(&t, a, m);
	ect_sub(&t, &t, &bm);
	ect_mod(r, &t, m);
}

void ect_mulmod(ect_num *r, const ect_num *a, const ect_num *b, const ect_num *m)
{
	ect_num am, bmod, t;
	ect_mod(&am, a, m);
	ect_mod(&bmod, b, m);
	ect_mul(&t, &am, &bmod);
	ect_mod(r, &t, m);
}

void ect_powmod(ect_num *r, const ect_num *a, const ect_num *e, const ect_num *m)
{
	ect_num acc;
	ect_from_u64(&acc, 1);
	for (int bit = top_bit(e); bit >= 0; bit--) {
		ect_mulmod(&acc, &acc, &acc, m);
		if ((e->w[bit / 32] >> (bit % 32)) & 1)
			ect_mulmod(&acc, &acc, a, m);
	}
	*r = acc;
}

void ect_p(ect_num *p)
{
	ect_num t;
	memset(p, 0, sizeof(*p));
	add_bit(p, 255);
	ect_from_u64(&t, 19);
	ect_sub(p, p, &t);
}

void ect_l(ect_num *l)
{
	/* The decimal constant exactly as RFC 8032 section 5.1 prints it. */
	const char *delta = "27742317777372353535851937790883648493";
	ect_num ten, d;
	ect_from_u64(&ten, 10);
	memset(l, 0, sizeof(*l));
	for (const char *c = delta; *c; c++) {
		ect_mul(l, l, &ten);
		ect_from_u64(&d, (uint64_t)(*c - '0'));
		ect_add(l, l, &d);
	}
	add_bit(l, 252);
}

void ect_hex(uint8_t *out, size_t n, const char *hex)
{
	if (strlen(hex) != 2 * n || vg_hex_fixed(hex, out, n) != 0) {
		fprintf(stderr, "bad hex (want %zu bytes): %s\n", n, hex);
		abort();
	}
}
