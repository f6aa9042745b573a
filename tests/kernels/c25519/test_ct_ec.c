/* test_ct_ec.c: constant-time check of the c25519 and SHA-2 kernels under
 * valgrind memcheck (see ctgrind.h). Secrets (seeds, scalars, messages,
 * field elements) are marked undefined; memcheck then reports any branch
 * or memory index that depends on them. Results are marked defined again
 * before they are compared. Run with --selfcheck it instead executes a
 * deliberately leaky function, which memcheck must report (registered as
 * a should_fail test), proving the harness still sees leaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c25519/fe.h"
#include "c25519/ge.h"
#include "c25519/sc.h"
#include "ctgrind.h"
#include "dispatch.h"
#include "ec_testutil.h"
#include "vg/cpu.h"
#include "vg/ed25519.h"
#include "vg/sha2.h"
#include "vg/x25519.h"

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "ct-ec: FAILED: %s\n", what);
		failures++;
	}
}

static void ct_ed25519(uint64_t *rng)
{
	uint8_t seed[32], pk[32], pk2[32], sig[64], msg[100];

	ect_rand_bytes(rng, seed, sizeof(seed));
	ect_rand_bytes(rng, msg, sizeof(msg));

	VG_CT_SECRET(seed, sizeof(seed));
	vg_ed25519_public_key(pk, seed);
	VG_CT_PUBLIC(pk, sizeof(pk));

	VG_CT_SECRET(msg, sizeof(msg)); /* the message may be secret too */
	vg_ed25519_sign(sig, msg, sizeof(msg), seed, pk);
	VG_CT_PUBLIC(sig, sizeof(sig));
	VG_CT_PUBLIC(msg, sizeof(msg));

	/* verification is variable time over public data: all defined now */
	check(vg_ed25519_verify(sig, msg, sizeof(msg), pk) == 0, "signature verifies");
	VG_CT_PUBLIC(seed, sizeof(seed));
	vg_ed25519_public_key(pk2, seed);
	check(memcmp(pk, pk2, 32) == 0, "public key is deterministic");
}

static void ct_x25519(uint64_t *rng)
{
	uint8_t a[32], b[32], A[32], B[32], k1[32], k2[32], out[32];
	uint8_t low[32] = {1}; /* u = 1: low order, result all zero */
	int rc1, rc2, rc3;

	ect_rand_bytes(rng, a, 32);
	ect_rand_bytes(rng, b, 32);
	VG_CT_SECRET(a, 32);
	VG_CT_SECRET(b, 32);
	vg_x25519_base(A, a);
	vg_x25519_base(B, b);
	VG_CT_PUBLIC(A, 32);
	VG_CT_PUBLIC(B, 32);

	/* The peer value is public by the API, but the ladder is constant time
	 * in it as well: mark it secret for the second call. */
	rc1 = vg_x25519(k1, a, B);
	VG_CT_SECRET(A, 32);
	rc2 = vg_x25519(k2, b, A);
	rc3 = vg_x25519(out, a, low);
	/* Only the statuses and the (shared, now compared) outputs are
	 * declassified: the all-zero outcome is public by design. */
	VG_CT_PUBLIC(&rc1, sizeof(rc1));
	VG_CT_PUBLIC(&rc2, sizeof(rc2));
	VG_CT_PUBLIC(&rc3, sizeof(rc3));
	VG_CT_PUBLIC(k1, 32);
	VG_CT_PUBLIC(k2, 32);
	VG_CT_PUBLIC(out, 32);
	check(rc1 == 0 && rc2 == 0, "x25519 status");
	check(memcmp(k1, k2, 32) == 0, "x25519 shared secrets agree");
	check(rc3 == VG_E_ZERO, "low-order peer rejected");
}

static void ct_field_and_scalars(uint64_t *rng)
{
	uint8_t s[32], t[32], wide[64], r1[32], r2[32];
	vg_fe f, g, h, one;
	uint64_t ctl, z, neg;

	ect_rand_bytes(rng, s, 32);
	ect_rand_bytes(rng, t, 32);
	VG_CT_SECRET(s, 32);
	VG_CT_SECRET(t, 32);
	vg_fe_frombytes(&f, s);
	vg_fe_frombytes(&g, t);

	vg_fe_invert(&h, &f);
	vg_fe_mul(&h, &h, &f); /* f * 1/f */
	vg_fe_pow22523(&g, &g);
	vg_fe_sq(&g, &g);
	vg_fe_sub(&g, &g, &f);
	vg_fe_neg(&g, &g);
	vg_fe_mul_small(&g, &g, 121665);
	ctl = s[5] & 1; /* a secret control bit */
	vg_fe_cswap(&f, &g, ctl);
	vg_fe_cmov(&f, &g, ctl ^ 1);
	z = vg_fe_iszero(&f);
	neg = vg_fe_isnegative(&g);
	vg_fe_tobytes(r1, &h);
	VG_CT_PUBLIC(r1, 32);
	VG_CT_PUBLIC(&z, sizeof(z));
	VG_CT_PUBLIC(&neg, sizeof(neg));
	vg_fe_1(&one);
	vg_fe_tobytes(r2, &one);
	check(memcmp(r1, r2, 32) == 0, "f * 1/f == 1");

	ect_rand_bytes(rng, wide, 64);
	VG_CT_SECRET(wide, 64);
	vg_sc_reduce(r1, wide);
	vg_sc_muladd(r2, r1, s, t);
	uint64_t canon = vg_sc_is_canonical(r2);
	VG_CT_PUBLIC(&canon, sizeof(canon));
	check(canon == 1, "muladd output below L");

	vg_ge_p3 P;
	uint8_t k[32];
	memcpy(k, r2, 32);
	vg_ge_scalarmult_base(&P, k);
	vg_ge_p3_tobytes(r1, &P);
	VG_CT_PUBLIC(r1, 32);

	uint8_t d[64];
	vg_sha256(d, wide, 64);
	vg_sha384(d, wide, 33);
	vg_sha512(d, wide, 64);
	VG_CT_PUBLIC(d, 64);
}

/* --- harness self-check --- */

static volatile uint8_t sink;
static const uint8_t lookup[256] = {1, 2, 3};

/* Deliberately NOT constant time: an early-exit comparison (a branch on
 * secret bytes) and a table lookup indexed by a secret byte. */
__attribute__((noinline)) static int leaky(const uint8_t *secret, const uint8_t *guess, size_t n)
{
	sink = lookup[secret[0]];
	for (size_t i = 0; i < n; i++)
		if (secret[i] != guess[i])
			return 0;
	return 1;
}

static int selfcheck(void)
{
	uint8_t secret[16] = {0}, guess[16] = {0};
	VG_CT_SECRET(secret, sizeof(secret));
	int r = leaky(secret, guess, sizeof(secret));
	VG_CT_PUBLIC(&r, sizeof(r));
	printf("selfcheck ran (result %d); memcheck must have reported errors\n", r);
	return 0; /* the exit status comes from valgrind's --error-exitcode */
}

/* --tier=c|base|adx: run the whole check on that implementation, chosen
 * through the dispatch's test-only re-choice (valgrind hides ADX in cpuid
 * but executes mulx/adcx/adox, so the adx tier has to be forced). */
static int force_tier(const char *tier)
{
	if (strcmp(tier, "c") == 0)
		vg_dispatch_for_tests(0, 1);
	else if (strcmp(tier, "base") == 0)
		vg_dispatch_for_tests(VG_TIER_BASE, 0);
	else if (strcmp(tier, "adx") == 0)
		vg_dispatch_for_tests(VG_TIER_ADX, 0);
	const char *got = vg_kernel_variant("ed25519");
	if (strcmp(got, tier) != 0 || strcmp(vg_kernel_variant("x25519"), tier) != 0) {
		fprintf(stderr, "ct-ec: FAILED: asked for tier %s, running %s\n", tier, got);
		return 1;
	}
	printf("ct-ec: tier %s\n", got);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t rng = 0xc7c7c7c7;

	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "ct-ec: not running under valgrind; nothing proven, skipping\n");
		return VG_CT_SKIP;
	}
	if (argc > 1 && strcmp(argv[1], "--selfcheck") == 0)
		return selfcheck();
	if (argc > 1 && strncmp(argv[1], "--tier=", 7) == 0 && force_tier(argv[1] + 7) != 0)
		return 1;

	for (int i = 0; i < 2; i++) {
		ct_ed25519(&rng);
		ct_x25519(&rng);
		ct_field_and_scalars(&rng);
	}
	if (failures)
		return 1;
	printf("ct-ec: done\n");
	return 0;
}
