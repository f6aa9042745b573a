/* pair_rsa.c: two builds' RSA Montgomery kernels in one process, timed in
 * alternated pairs (vgpair.sh links build A's objects as they are and
 * build B's with every symbol prefixed "B_"). Separate runs of one binary
 * spread by several percent on a shared host, between runs and between
 * vCPUs; a pair's two halves run back to back on the same vCPU in the same
 * phase, so the median of the pairs' ratios B/A resolves a percent or
 * two. Each pair times one shape of work at one size:
 *   public: multiply, 16 squarings, multiply (RSA's public operation
 *           with e = 65537: into Montgomery form, the exponent, the last
 *           multiply);
 *   exp:    16 table multiplies, then 100 windows of five squarings and a
 *           multiply (a private exponentiation's loop).
 * A and B must compute the same results (checked first; exit 1 if not).
 * Nothing here is secret: random operands. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

typedef void mont_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
		     uint64_t m0inv, size_t n);

/* clang-format off */
#define SIZE_FNS(t, n) \
	mont_fn vg_mont_sqr_##t##_##n, vg_mont_mul_##t##_##n, \
		B_vg_mont_sqr_##t##_##n, B_vg_mont_mul_##t##_##n
SIZE_FNS(base, 16); SIZE_FNS(base, 24); SIZE_FNS(base, 32); SIZE_FNS(base, 48); SIZE_FNS(base, 64);
SIZE_FNS(adx, 16); SIZE_FNS(adx, 24); SIZE_FNS(adx, 32); SIZE_FNS(adx, 48); SIZE_FNS(adx, 64);

struct row {
	const char *tier;
	size_t n;
	mont_fn *sqr[2], *mul[2]; /* [0] build A, [1] build B */
};

#define ROW(t, n) \
	{#t, n, {vg_mont_sqr_##t##_##n, B_vg_mont_sqr_##t##_##n}, \
		{vg_mont_mul_##t##_##n, B_vg_mont_mul_##t##_##n}}
static const struct row rows[] = {
	ROW(base, 16), ROW(base, 24), ROW(base, 32), ROW(base, 48), ROW(base, 64),
	ROW(adx, 16), ROW(adx, 24), ROW(adx, 32), ROW(adx, 48), ROW(adx, 64),
};
/* clang-format on */

#define MAXN 64
#define TABLE 16

struct work {
	uint64_t m[MAXN], m0inv, rr[MAXN], a[MAXN];
	uint64_t r[MAXN], table[TABLE][MAXN];
};

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t rand64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* -m0^-1 mod 2^64 by Newton's iteration (m0 odd). */
static uint64_t neg_inv64(uint64_t m0)
{
	uint64_t x = m0;
	for (int i = 0; i < 6; i++)
		x *= 2 - m0 * x;
	return (uint64_t)0 - x;
}

/* A random odd n-limb modulus with its top bit set; operands below it. */
static void work_init(struct work *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		w->m[i] = rand64();
		w->rr[i] = rand64();
		w->a[i] = rand64();
	}
	w->m[0] |= 1;
	w->m[n - 1] |= (uint64_t)1 << 63;
	w->rr[n - 1] >>= 1;
	w->a[n - 1] >>= 1;
	w->m0inv = neg_inv64(w->m[0]);
	memcpy(w->table[0], w->a, n * 8);
	memcpy(w->r, w->a, n * 8);
}

static void shape_public(const struct row *rw, int k, struct work *w)
{
	size_t n = rw->n;
	uint64_t t[MAXN];
	rw->mul[k](t, w->a, w->rr, w->m, w->m0inv, n);
	for (int i = 0; i < 16; i++)
		rw->sqr[k](t, t, t, w->m, w->m0inv, n);
	rw->mul[k](w->r, t, w->a, w->m, w->m0inv, n);
}

static void shape_exp(const struct row *rw, int k, struct work *w)
{
	size_t n = rw->n;
	for (int i = 1; i < TABLE; i++)
		rw->mul[k](w->table[i], w->table[i - 1], w->table[0], w->m, w->m0inv, n);
	for (int win = 0; win < 100; win++) {
		for (int s = 0; s < 5; s++)
			rw->sqr[k](w->r, w->r, w->r, w->m, w->m0inv, n);
		rw->mul[k](w->r, w->r, w->table[(win * 7) % TABLE], w->m, w->m0inv, n);
	}
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static int usage(void)
{
	fprintf(stderr, "usage: pair_rsa TIER LIMBS SHAPE PAIRS\n"
			"  TIER base|adx, LIMBS 16|24|32|48|64, SHAPE public|exp, PAIRS >= 1\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return usage();
	const struct row *rw = NULL;
	size_t n = (size_t)strtoul(argv[2], NULL, 10);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].tier, argv[1]) == 0 && rows[i].n == n)
			rw = &rows[i];
	void (*shape)(const struct row *, int, struct work *) =
		strcmp(argv[3], "public") == 0 ? shape_public
		: strcmp(argv[3], "exp") == 0  ? shape_exp
					       : NULL;
	long pairs = strtol(argv[4], NULL, 10);
	if (!rw || !shape || pairs < 1 || pairs > 1000000)
		return usage();

	/* The same work through A and through B must agree. Both then run on
	 * the one buffer: where the operands sit against the kernels' stack
	 * frames moves their time by several percent on Zen 5, so A and B
	 * must not differ in that. (The values are random and the kernels
	 * constant-time: what each leaves in the buffer does not matter.) */
	static struct work w, w0, wb;
	work_init(&w0, n);
	w = w0;
	wb = w0;
	shape(rw, 0, &w);
	shape(rw, 1, &wb);
	if (memcmp(w.r, wb.r, n * 8) != 0) {
		fprintf(stderr, "pair_rsa: %s %zu %s: A and B disagree\n", rw->tier, n, argv[3]);
		return 1;
	}

	double *q = malloc(sizeof(*q) * (size_t)pairs);
	if (!q)
		return 1;
	uint64_t best[2] = {UINT64_MAX, UINT64_MAX};
	for (long p = 0; p < pairs; p++) {
		uint64_t t[2];
		int first = (int)(p & 1); /* alternate which build goes first */
		for (int j = 0; j < 2; j++) {
			int k = first ^ j;
			uint64_t t0 = __rdtsc();
			shape(rw, k, &w);
			t[k] = __rdtsc() - t0;
			if (t[k] < best[k])
				best[k] = t[k];
		}
		q[p] = (double)t[1] / (double)(t[0] ? t[0] : 1);
	}
	qsort(q, (size_t)pairs, sizeof(*q), cmp_double);
	printf("%s\t%zu\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%llu\t%llu\n", rw->tier, n, argv[3],
	       q[pairs / 2], q[pairs / 4], q[(3 * pairs) / 4], (double)best[1] / (double)best[0],
	       (unsigned long long)best[0], (unsigned long long)best[1]);
	free(q);
	return 0;
}
