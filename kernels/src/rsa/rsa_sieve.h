/* rsa_sieve.h: trial division of RSA prime candidates by the first odd
 * primes, in constant time (rsa_sieve.c). A candidate is secret; the
 * small primes, their groups and the reciprocals are public. */
#ifndef VG_RSA_SIEVE_H
#define VG_RSA_SIEVE_H

#include <stddef.h>
#include <stdint.h>

/* How many odd primes: the first VG_SIEVE_COUNT (3 .. 3671). A random odd
 * number survives them with probability about 2 e^-gamma / ln 3671 =
 * 0.137 (Mertens), so a 1536-bit prime costs about 73 Miller-Rabin
 * exponentiations instead of 532. Each prime more costs every candidate
 * (about 530 per prime) its share of trial division and saves ever fewer
 * exponentiations. With the costs measured on a loaded Zen 5 (trial
 * division by 512 primes about 30 us per 1536-bit candidate, 1024 primes
 * before grouping 140 us; a Miller-Rabin round 0.8 to 1.6 ms), 256 to
 * 1024 primes come within about 10 % of each other by that model; 512
 * was not tuned further by measurement. */
#define VG_SIEVE_COUNT 512
/* Primes are grouped so that a group's product m stays below 2^32: the
 * candidate is reduced modulo m once (one pass over its digits), then
 * that small residue modulo each prime of the group. Up to three primes
 * a group (three below ~1600, two above), the groups' count rounded up to
 * a multiple of 4 (four run side by side) with copies of the first. */
#define VG_SIEVE_PER_GROUP 3
#define VG_SIEVE_GROUPS_MAX (VG_SIEVE_COUNT / 2 + 4)

struct vg_sieve_group {
	uint32_t m;                     /* the product of p[] (distinct entries) */
	uint64_t m_recip;               /* floor(2^64 / m) */
	uint32_t p[VG_SIEVE_PER_GROUP]; /* a short group repeats its first prime */
	uint64_t recip[VG_SIEVE_PER_GROUP];
};

/* Public. Made per key generation (a few microseconds) rather than kept
 * as global state. */
struct vg_sieve {
	size_t groups; /* a multiple of 4 */
	struct vg_sieve_group g[VG_SIEVE_GROUPS_MAX];
};

void vg_sieve_init(struct vg_sieve *s);

/* 1 if no prime of s divides a[0..n), else 0. Every residue is computed
 * for every candidate with the same instruction sequence (vg_bn_small_step
 * on each 32-bit digit, four groups interleaved), and the residues' zero
 * tests are folded into one mask: the time depends on n only. a must
 * exceed the largest small prime (an RSA candidate always does). */
uint64_t vg_sieve_coprime(const struct vg_sieve *s, const uint64_t *a, size_t n);

#endif
