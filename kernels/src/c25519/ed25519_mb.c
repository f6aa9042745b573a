/* ed25519_mb.c: vg_ed25519_sign_expanded_mb (vg/ed25519_mb.h), Ed25519
 * signatures of up to eight operations with one batched fixed-base
 * multiplication: each lane's nonce r = SHA-512(prefix || M) mod L and its
 * signed radix-16 digits, then [r]B of all lanes on the chosen c25519_mb
 * row's comb (c25519_mb_impl.h) and one eight-lane inversion for the
 * encodings, then each lane's k = SHA-512(R || A || M) mod L and S = r +
 * k a mod L alone, with the single code (sc.c, SHA-512).
 * Secret: every expanded key (a, prefix), nonce, digit and point before
 * encoding. Public: the messages, public keys, lengths, n, and each R and
 * S once written. Nothing branches on or indexes by a secret; the stack
 * scratch is wiped. */
#include <string.h>

#include "c25519/c25519_mb_impl.h"
#include "fe.h"
#include "ge_table.h"
#include "sc.h"
#include "vg/ed25519_mb.h"
#include "vg/sha2.h"
#include "vg/wipe.h"

#define LANES VG_C25519_MB_LANES
#define W VG_FE51MB_WORDS

/* Signatures below this many run one at a time on an asm row: the batch
 * (the comb and the inversion) costs about 13 us on AMD EPYC Zen 5 and
 * each signature's hashing and scalar work about 0.85 us beside it,
 * against 5.3 us for vg_ed25519_sign (vgbench ed25519-sign-64-x4, -x8 and
 * ed25519-sign-64 in one run): even at 3, paying from 4 on. */
#define MB_MIN 4

/* The 64 signed radix-16 digits of a < 2^255 into lane l of e (e_i in
 * [-8, 8), the last in [0, 8]): ge_base.c's recoding, shifts and masks
 * only. */
static void digits(int8_t *e, size_t l, const uint8_t a[32])
{
	int8_t d[64];
	for (unsigned i = 0; i < 32; i++) {
		d[2 * i] = (int8_t)(a[i] & 15);
		d[2 * i + 1] = (int8_t)(a[i] >> 4);
	}
	int carry = 0;
	for (unsigned i = 0; i < 63; i++) {
		int x = d[i] + carry;
		carry = (x + 8) >> 4;
		d[i] = (int8_t)(x - 16 * carry);
	}
	d[63] = (int8_t)(d[63] + carry);
	for (unsigned i = 0; i < 64; i++)
		e[LANES * i + l] = d[i];
	vg_wipe(d, sizeof(d));
	vg_wipe(&carry, sizeof(carry));
}

void vg_ed25519_mb_base_encode(const struct vg_c25519_mb_impl *im, uint8_t *const out[],
			       const uint8_t *const a[], size_t nl)
{
	struct {
		_Alignas(64) uint64_t h[3 * W];
		_Alignas(64) uint64_t zi[W];
		_Alignas(64) int8_t e[64 * LANES];
		vg_fe f;
		uint8_t xs[32];
	} s;

	vg_wipe(&s, sizeof(s));
	for (size_t l = 0; l < nl; l++)
		digits(s.e, l, a[l]);
	im->comb(s.h, vg_ge_base_comb, s.e);
	vg_fe51mb_invert(im, s.zi, s.h + 2 * W);
	im->mul(s.h, s.h, s.zi);         /* x */
	im->mul(s.h + W, s.h + W, s.zi); /* y */
	for (size_t l = 0; l < nl; l++) {
		/* y with the parity of x in bit 255 (RFC 8032 5.1.2) */
		for (size_t i = 0; i < 5; i++)
			s.f.v[i] = s.h[LANES * i + l];
		vg_fe_tobytes(s.xs, &s.f);
		for (size_t i = 0; i < 5; i++)
			s.f.v[i] = s.h[W + LANES * i + l];
		vg_fe_tobytes(out[l], &s.f);
		out[l][31] |= (uint8_t)((s.xs[0] & 1) << 7);
	}
	vg_wipe(&s, sizeof(s));
}

void vg_ed25519_sign_mb_batch(const struct vg_c25519_mb_impl *im, uint8_t *const sig[],
			      const void *const msg[], const size_t len[], const uint8_t *const h[],
			      const uint8_t *const pk[], size_t nl)
{
	struct {
		uint8_t r[LANES][32]; /* nonces mod L */
		uint8_t R[LANES][32];
		uint8_t nonce[64], hram[64], k[32], S[32];
		vg_sha512_ctx ctx;
	} s;
	const uint8_t *rp[LANES];
	uint8_t *Rp[LANES];

	vg_wipe(&s, sizeof(s));
	/* r = SHA-512(prefix || M) mod L, lane by lane */
	for (size_t i = 0; i < nl; i++) {
		vg_sha512_init(&s.ctx);
		vg_sha512_update(&s.ctx, h[i] + 32, 32);
		vg_sha512_update(&s.ctx, msg[i], len[i]);
		vg_sha512_final(&s.ctx, s.nonce);
		vg_sc_reduce(s.r[i], s.nonce);
		rp[i] = s.r[i];
		Rp[i] = s.R[i];
	}
	/* R = [r]B, all lanes at once */
	vg_ed25519_mb_base_encode(im, Rp, rp, nl);
	/* k = SHA-512(R || A || M) mod L; S = r + k a mod L; each signature
	 * written after its message was read for the last time */
	for (size_t i = 0; i < nl; i++) {
		vg_sha512_init(&s.ctx);
		vg_sha512_update(&s.ctx, s.R[i], 32);
		vg_sha512_update(&s.ctx, pk[i], VG_ED25519_PUBLIC_LEN);
		vg_sha512_update(&s.ctx, msg[i], len[i]);
		vg_sha512_final(&s.ctx, s.hram);
		vg_sc_reduce(s.k, s.hram);
		vg_sc_muladd(s.S, s.k, h[i], s.r[i]);
		memcpy(sig[i], s.R[i], 32);
		memcpy(sig[i] + 32, s.S, 32);
	}
	vg_wipe(&s, sizeof(s));
}

int vg_ed25519_sign_expanded_mb(uint8_t *const sig[], const void *const msg[], const size_t len[],
				const uint8_t *const h[], const uint8_t *const pk[], size_t n,
				int rc[])
{
	const struct vg_c25519_mb_impl *im = vg_c25519_mb_impl();

	if (!sig || !msg || !len || !h || !pk || !rc || n == 0 || n > VG_ED25519_MB_MAX)
		return VG_E_INVALID;
	for (size_t i = 0; i < n; i++)
		if (!sig[i] || (!msg[i] && len[i] != 0) || !h[i] || !pk[i])
			return VG_E_INVALID;
	/* A batch costs the same at any lane count: below MB_MIN signatures
	 * the single path is faster. The C row batches everything (the
	 * reference, and the tests' --c runs). n is public. */
	if (im != &vg_c25519_mb_impls[0] && n < MB_MIN)
		for (size_t i = 0; i < n; i++)
			vg_ed25519_sign_expanded(sig[i], msg[i], len[i], h[i], pk[i]);
	else
		vg_ed25519_sign_mb_batch(im, sig, msg, len, h, pk, n);
	for (size_t i = 0; i < n; i++)
		rc[i] = 0;
	return 0;
}
