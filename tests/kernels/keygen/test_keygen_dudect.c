/* test_keygen_dudect.c: statistical timing test (dudect style) of the
 * Miller-Rabin test of key generation (vg_rsa_prime_check on the
 * dispatched RSA row, the ifma row on a CPU that has it, which valgrind
 * cannot run). Two classes of secret 1024-bit primes, interleaved in
 * random order: class 0 one fixed prime p = k 2^100 + 1 (p - 1 has 100
 * factors of two: the longest squaring chain the masks follow), class 1
 * random primes from generated RSA-2048 keys (p - 1 has one or two
 * factors of two, typically). Welch's t on the cycle counts, on all
 * samples and below a few pooled percentiles (vgt_welch_cropped); |t|
 * above THRESHOLD in two runs in a row fails (one run above it is taken
 * again: a shared machine's other work can push one crop of one run past
 * it, as tests/checkasm/ctasm/dudect.c's rule says; a leak does it every
 * time).
 *
 * --control makes class 0 do visibly less work (an exponent 256 bits
 * shorter) and passes only if the test detects that. Not secret: test
 * primes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_prime.h"
#include "vg/cpu.h"
#include "vg/keygen.h"
#include "welch.h"

#define SAMPLES 1600   /* both classes; about 0.6 s at 1024 bits */
#define THRESHOLD 10.0 /* dudect's "definitely not constant time" bound */
#define POOL 8         /* class 1 primes: four keys' p and q */
#define LIMBS 16
#define BITS 1024

struct prime {
	uint64_t m[LIMBS], rr[LIMBS];
	vg_mont ctx;
};

static void setup(struct prime *p)
{
	vg_mont_rr(p->rr, p->m, LIMBS);
	vg_rsa_mont_init(vg_rsa_impl(), &p->ctx, p->m, p->rr, vg_mont_m0inv(p->m[0]), LIMBS);
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One run: SAMPLES timings, the classes interleaved in random order. 0,
 * or -1 if a prime failed Miller-Rabin. */
static int measure(const struct prime *fixed, const struct prime *pool, int control,
		   uint64_t *seed, uint64_t *cycles, int *cls)
{
	for (int i = 0; i < SAMPLES; i++) {
		int c = (int)(rnd(seed) & 1);
		const struct prime *p = c == 0 ? fixed : &pool[rnd(seed) % POOL];
		size_t bits = control && c == 0 ? BITS - 256 : BITS;
		cls[i] = c;
		uint64_t t0 = __rdtsc();
		uint64_t ok = vg_rsa_prime_check(&p->ctx, bits, 1);
		cycles[i] = __rdtsc() - t0;
		if (!ok && !control) {
			fprintf(stderr, "a prime failed Miller-Rabin\n");
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct prime pool[POOL], fixed;
	static uint64_t cycles[SAMPLES];
	static int cls[SAMPLES];
	static vg_rsa_keypair kp;
	uint64_t seed = 0x64756465;
	int control = argc > 1 && strcmp(argv[1], "--control") == 0;

	/* class 1: the primes of four generated keys */
	for (int i = 0; i < POOL / 2; i++) {
		if (vg_rsa_generate(2048, VG_RSA_GEN_E, &kp) != 0)
			return 1;
		(void)vg_bn_from_bytes(pool[2 * i].m, LIMBS, kp.p, kp.p_len);
		(void)vg_bn_from_bytes(pool[2 * i + 1].m, LIMBS, kp.q, kp.q_len);
		setup(&pool[2 * i]);
		setup(&pool[2 * i + 1]);
	}
	vg_rsa_keypair_wipe(&kp);
	/* class 0: the first prime k 2^100 + 1 of 1024 bits from a random k */
	for (;;) {
		for (int i = 0; i < LIMBS; i++)
			fixed.m[i] = rnd(&seed);
		fixed.m[LIMBS - 1] |= (uint64_t)1 << 63;
		fixed.m[0] = 1; /* bits 0..99: 1; bit 100: k's lowest, set */
		fixed.m[1] = (fixed.m[1] >> 36 | 1) << 36;
		setup(&fixed);
		if (vg_rsa_prime_check(&fixed.ctx, BITS, 4))
			break;
	}

	for (int run = 0;; run++) {
		if (measure(&fixed, pool, control, &seed, cycles, cls) < 0)
			return 1;
		double worst = vgt_welch_cropped(cycles, cls, SAMPLES);
		if (worst < 0)
			return 1;
		printf("Miller-Rabin (%s row): max |t| = %.2f (threshold %.1f)%s\n",
		       vg_kernel_variant("rsa"), worst, THRESHOLD, control ? " [control]" : "");
		/* control: the planted difference must show; otherwise none may */
		int pass = control ? worst > THRESHOLD : worst <= THRESHOLD;
		if (pass)
			return 0;
		if (run == 1)
			return 1;
		printf("again, with new samples\n");
	}
}
