/* rsa_sieve.c: constant-time trial division of RSA prime candidates (see
 * rsa_sieve.h). Secret: the candidate and its residues. Public: the small
 * primes and their groups (a sieve of Eratosthenes on public numbers:
 * branches allowed) and the candidate's limb count. The verdict it
 * returns is secret too; the caller declassifies it only to discard a
 * candidate, which reveals that a random number never used was
 * composite. */
#include "rsa/rsa_sieve.h"

#include "ct.h"
#include "rsa/bn.h"
#include "rsa/bn_small.h"

/* Odd numbers below this bound hold the first VG_SIEVE_COUNT odd primes
 * (the n-th prime is below n (ln n + ln ln n) < 10 n for these n). */
#define SIEVE_LIMIT (10 * VG_SIEVE_COUNT)

void vg_sieve_init(struct vg_sieve *s)
{
	uint8_t composite[SIEVE_LIMIT] = {0};
	uint32_t primes[VG_SIEVE_COUNT];
	size_t k = 0, gi = 0;

	for (uint32_t i = 3; i < SIEVE_LIMIT && k < VG_SIEVE_COUNT; i += 2) {
		if (composite[i])
			continue;
		primes[k++] = i;
		for (uint32_t j = i * i; j < SIEVE_LIMIT; j += 2 * i)
			composite[j] = 1;
	}
	/* Greedy groups in ascending order while the product fits. */
	for (size_t i = 0; i < k;) {
		struct vg_sieve_group *g = &s->g[gi++];
		uint64_t m = 1;
		size_t c = 0;
		while (i < k && c < VG_SIEVE_PER_GROUP && m * primes[i] < ((uint64_t)1 << 32)) {
			m *= primes[i];
			g->p[c++] = primes[i++];
		}
		for (size_t j = c; j < VG_SIEVE_PER_GROUP; j++)
			g->p[j] = g->p[0];
		g->m = (uint32_t)m;
	}
	while (gi % 4)
		s->g[gi++] = s->g[0];
	s->groups = gi;
	for (size_t i = 0; i < gi; i++) {
		s->g[i].m_recip = vg_bn_small_recip(s->g[i].m);
		for (size_t j = 0; j < VG_SIEVE_PER_GROUP; j++)
			s->g[i].recip[j] = vg_bn_small_recip(s->g[i].p[j]);
	}
}

/* 1 if r (< 2^32) is divisible by a prime of g. */
static inline uint64_t group_hit(const struct vg_sieve_group *g, uint64_t r)
{
	uint64_t hit = 0, q;

	for (size_t j = 0; j < VG_SIEVE_PER_GROUP; j++)
		hit |= vg_ct_iszero(vg_bn_small_step(0, r, g->p[j], g->recip[j], &q));
	return hit;
}

uint64_t vg_sieve_coprime(const struct vg_sieve *s, const uint64_t *a, size_t n)
{
	uint64_t hit = 0, q;

	/* Four independent Horner chains per pass: each step is a chain of
	 * two dependent multiplications, so one chain alone would leave the
	 * multiplier idle most of the time. */
	for (size_t k = 0; k < s->groups; k += 4) {
		const struct vg_sieve_group *g = &s->g[k];
		uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
		for (size_t i = n; i-- > 0;) {
			for (int h = 1; h >= 0; h--) {
				uint64_t c = (a[i] >> (32 * h)) & 0xffffffffu;
				r0 = vg_bn_small_step(r0, c, g[0].m, g[0].m_recip, &q);
				r1 = vg_bn_small_step(r1, c, g[1].m, g[1].m_recip, &q);
				r2 = vg_bn_small_step(r2, c, g[2].m, g[2].m_recip, &q);
				r3 = vg_bn_small_step(r3, c, g[3].m, g[3].m_recip, &q);
			}
		}
		hit |= group_hit(&g[0], r0) | group_hit(&g[1], r1) | group_hit(&g[2], r2) |
		       group_hit(&g[3], r3);
	}
	return hit ^ 1;
}
