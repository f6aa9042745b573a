/* dudect_ec.c: statistical timing test (dudect.h) of the P-256/P-384
 * ifma row and the SHA-NI compression, which valgrind cannot run (AVX-512;
 * SHA-NI is not in the tiers valgrind is given). Targets: the ifma combs
 * on the recoded secret scalar, a whole ifma-row signature with the
 * secret nonce (fixed or random hedge bytes, a fixed key: the nonce, the
 * comb, both inversions and the check all see it), and the SHA-NI
 * compression on a secret block. Bounded time: VG_DUDECT_SECONDS per
 * target (default 2). Secret (in the model): the inputs under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "dudect.h"
#include "ec/ec_asm.h"
#include "ec/ecdsa_internal.h"
#include "sha2/sha256_impl.h"

typedef void (*target_fn)(const uint8_t *in);

/* --- targets: the input bytes are the secret --- */

/* The comb on the recoded k: 5-bit digits and comb5 (P-256's ifma comb)
 * or 7-bit digits and comb. */
static void comb(const struct vg_ec_curve *c, vg_ec_comb_fn *fn, unsigned w, const uint8_t *in)
{
	uint64_t k[VG_EC_MAX_LIMBS];
	int8_t d[VG_EC_COMB5_ROWS(VG_EC_MAX_LIMBS)];
	vg_ec_point r;
	memcpy(k, in, c->bytes);
	if (w == VG_EC_COMB5_W) {
		vg_ec_comb_recode_w(d, k, c->limbs, c->comb5_rows, w);
		fn(&r, c->comb5, d);
	} else {
		vg_ec_comb_recode(d, k, c->limbs, c->comb_rows);
		fn(&r, c->comb, d);
	}
	__asm__ volatile("" ::"r"(&r) : "memory");
}
static void t_comb256(const uint8_t *in)
{
	comb(&vg_p256_curve, vg_p256_comb_ifma, VG_EC_COMB5_W, in);
}
static void t_comb384(const uint8_t *in)
{
	comb(&vg_p384_curve, vg_p384_comb_ifma, VG_EC_COMB_W, in);
}

static const struct vg_ec_impl *row;
static vg_ecdsa_key *key;
static void t_sign(const uint8_t *in)
{
	static const uint8_t digest[48] = {0x5a};
	uint8_t sig[96];
	size_t len = row->curve->bytes;
	if (vg_ecdsa_sign_with(row, key, digest, len, in, len, sig, 2 * len) != 0)
		abort();
	__asm__ volatile("" ::"r"(sig) : "memory");
}

static void t_sha(const uint8_t *in)
{
	uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	vg_sha256_blocks_shani(h, in, 1);
	__asm__ volatile("" ::"r"(h) : "memory");
}

static int run(const char *name, target_fn fn, size_t inlen, double sec)
{
	if (vgt_dudect_leaks(name, fn, inlen, sec)) {
		printf("dudect: FAILED: %s leaks\n", name);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ran = 0;
	static const uint8_t d256[32] = {0x3c, 1, 2, 3}, d384[48] = {0x3c, 4, 5, 6};

	vg_checkasm_init("dudect-ec", argc, argv);
	double sec = vgt_dudect_start();
	int failed = vgt_dudect_control(sec / 2);
	key = malloc(vg_ecdsa_key_size());
	if (!key)
		return 1;
	if (vg_checkasm_tier("ifma", VG_TIER_IFMA)) {
		failed |= run("P-256 comb ifma", t_comb256, 32, sec);
		failed |= run("P-384 comb ifma", t_comb384, 48, sec);
		row = &vg_ec_p256_impls[vg_ec_p256_nimpls - 1];
		if (strcmp(row->v.name, "ifma") != 0 ||
		    vg_ecdsa_key_init_with(row, key, VG_ECDSA_P256, d256, 32) != 0) {
			printf("dudect: FAILED: no P-256 ifma row or key\n");
			return 1;
		}
		failed |= run("P-256 sign ifma (nonce)", t_sign, 32, sec);
		row = &vg_ec_p384_impls[vg_ec_p384_nimpls - 1];
		if (vg_ecdsa_key_init_with(row, key, VG_ECDSA_P384, d384, 48) != 0) {
			printf("dudect: FAILED: no P-384 key\n");
			return 1;
		}
		failed |= run("P-384 sign ifma (nonce)", t_sign, 48, sec);
		ran += 4;
	}
	if (vg_checkasm_tier("shani", VG_CPU_SHA)) {
		failed |= run("SHA-256 shani block", t_sha, 64, sec);
		ran++;
	}
	vg_ecdsa_key_wipe(key);
	free(key);
	if (!ran)
		printf("dudect: no target for this CPU (no ifma, no SHA-NI): nothing measured\n");
	return failed;
}
