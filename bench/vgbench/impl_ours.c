/* impl_ours.c: vgbench's calls into our kernels (libvgkernels). RSA test
 * keys are parsed by the daemon's own key-file parser, so the benchmark
 * needs no OpenSSL; the ECDSA test keys' private scalar is picked out of
 * the PEM here (the daemon cannot load EC keys yet). Nothing here is
 * secret (public test keys). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "errcode.h"
#include "keystore.h"
#include "vg/cpu.h"
#include "vg/ecdsa.h"
#include "vg/ecdsa_mb.h"
#include "vg/keygen.h"
#include "vg/ed25519.h"
#include "vg/proto.h"
#include "vg/rsa.h"
#include "vg/rsa_mb.h"
#include "vg/x25519.h"
#include "vg/x25519_mb.h"
#include "vg/ed25519_mb.h"

/* Owned by this file: set by init, read by run/once, released by fini. */
static const vg_bench_fixture *fx;
static vg_rsa_key *keys[VG_BENCH_RSA_SIZES];
static vg_ecdsa_key *ec_keys[VG_BENCH_EC_CURVES];
static const vg_ecdsa_curve ec_curve[VG_BENCH_EC_CURVES] = {VG_ECDSA_P256, VG_ECDSA_P384};

static int load_rsa(size_t s, char *why, size_t whylen)
{
	size_t cap = vgd_key_secret_size();
	vgd_keyinfo info;
	char reason[256] = "";
	void *slot = aligned_alloc(64, cap);
	if (!slot) {
		snprintf(why, whylen, "out of memory");
		return VGD_E_NOMEM;
	}
	memset(slot, 0, cap);
	int r = vgd_key_from_bytes(fx->rsa[s].file, fx->rsa[s].file_len, &info, slot, cap, reason,
				   sizeof(reason));
	if (r == 0 && info.type != VG_KEY_RSA) {
		snprintf(reason, sizeof(reason), "not an RSA key");
		r = VGD_E_KEY;
	}
	if (r == 0 && vg_rsa_key_bits(slot) != fx->rsa[s].bits) {
		snprintf(reason, sizeof(reason), "%zu bits, expected %u", vg_rsa_key_bits(slot),
			 fx->rsa[s].bits);
		r = VGD_E_KEY;
	}
	if (r < 0) {
		snprintf(why, whylen, "rsa%u key: %s", fx->rsa[s].bits, reason);
		free(slot);
		return r;
	}
	keys[s] = slot;
	return 0;
}

/* The base64 body of a PEM file into out; returns its length or -1. */
static int pem_body(const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	static const char alpha[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i = 0, n = 0;
	uint32_t acc = 0;
	int bits = 0;
	while (i < len && in[i] != '\n') /* skip the BEGIN line */
		i++;
	for (; i < len && in[i] != '-'; i++) {
		const char *p = in[i] ? strchr(alpha, in[i]) : NULL;
		if (!p)
			continue; /* newlines; '=' padding ends the data anyway */
		acc = acc << 6 | (uint32_t)(p - alpha);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == cap)
				return -1;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	return (int)n;
}

/* An ECDSA test key: in the PKCS#8 (or SEC 1) DER, the ECPrivateKey
 * (RFC 5915) starts with INTEGER 1 then the OCTET STRING of d: 02 01 01 04
 * n_len. The test keys are OpenSSL's output, which has it exactly once. */
static int load_ec(size_t c, char *why, size_t whylen)
{
	uint8_t der[512];
	size_t n_len = fx->ec[c].n_len;
	int len = pem_body(fx->ec[c].file, fx->ec[c].file_len, der, sizeof(der));
	const uint8_t *d = NULL;
	for (int i = 0; len > 0 && i + 5 + (int)n_len <= len; i++) {
		if (der[i] == 0x02 && der[i + 1] == 0x01 && der[i + 2] == 0x01 &&
		    der[i + 3] == 0x04 && der[i + 4] == n_len) {
			d = der + i + 5;
			break;
		}
	}
	ec_keys[c] = malloc(vg_ecdsa_key_size());
	int r = d && ec_keys[c] ? vg_ecdsa_key_init(ec_keys[c], ec_curve[c], d, n_len) : VG_E_KEY;
	if (r < 0) {
		snprintf(why, whylen, "%s key: %s", fx->ec[c].name, vg_strerror(r));
		free(ec_keys[c]);
		ec_keys[c] = NULL;
	}
	return r;
}

static int ours_init(const vg_bench_fixture *f, const char *arg, char *why, size_t whylen)
{
	fx = f;
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		if (!fx->ec[c].file)
			continue;
		int r = load_ec(c, why, whylen);
		if (r < 0)
			return r;
	}
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		if (!fx->rsa[s].file)
			continue;
		int r = load_rsa(s, why, whylen);
		if (r < 0)
			return r;
	}
	return 0;
}

static int ours_has(int op)
{
	if (vg_bench_op_keygen(op))
		return 1;
	int s = vg_bench_op_rsa_index(op), c = vg_bench_op_ec_index(op);
	if (c >= 0)
		return ec_keys[c] != NULL;
	return s < 0 || keys[s] != NULL;
}

/* Verify a raw r||s signature of the fixture digest: 1, 0, or < 0. */
static int ours_check(int op, const uint8_t *sig, size_t len)
{
	int c = vg_bench_op_ec_index(op);
	size_t plen;
	if (c < 0 || !ec_keys[c])
		return -1;
	const uint8_t *pub = vg_ecdsa_key_public(ec_keys[c], &plen);
	return vg_ecdsa_verify(ec_curve[c], pub, plen, fx->ec[c].digest, fx->ec[c].digest_len, sig,
			       len) == 0;
}

/* A batch row: vg_ecdsa_sign_mb on vg_bench_op_batch(op) copies of the
 * fixture's key and digest; every signature must come out (rc 0), the
 * first is the row's output (cross-checked by every verifier). */
static int ec_batch(int op, uint8_t *out)
{
	int c = vg_bench_op_ec_index(op);
	size_t n = (size_t)vg_bench_op_batch(op), slen = 2 * fx->ec[c].n_len;
	static uint8_t res[VG_ECDSA_MB_MAX][2 * VG_BENCH_EC_MAX];
	const vg_ecdsa_key *ks[VG_ECDSA_MB_MAX];
	const uint8_t *dg[VG_ECDSA_MB_MAX];
	uint8_t *sigs[VG_ECDSA_MB_MAX];
	size_t dl[VG_ECDSA_MB_MAX], sl[VG_ECDSA_MB_MAX];
	int rc[VG_ECDSA_MB_MAX];

	for (size_t i = 0; i < n; i++) {
		ks[i] = ec_keys[c];
		dg[i] = fx->ec[c].digest;
		dl[i] = fx->ec[c].digest_len;
		sigs[i] = res[i];
		sl[i] = slen;
	}
	int r = vg_ecdsa_sign_mb(ks, dg, dl, sigs, sl, n, rc);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (rc[i] < 0)
			return rc[i];
	memcpy(out, res[0], slen);
	return (int)slen;
}

/* Sign (hedged, with the fault check: the operation the daemon runs) or
 * verify the fixture's signature. */
static int ec_op(int op, uint8_t *out)
{
	int c = vg_bench_op_ec_index(op);
	size_t slen = 2 * fx->ec[c].n_len;
	if (vg_bench_op_batch(op) > 1)
		return ec_batch(op, out);
	if (vg_bench_op_is_ecdsa_sign(op)) {
		int r = vg_ecdsa_sign(ec_keys[c], fx->ec[c].digest, fx->ec[c].digest_len, out,
				      slen);
		return r < 0 ? r : (int)slen;
	}
	int v = ours_check(op, fx->ec[c].sig, fx->ec[c].sig_len);
	if (v < 0)
		return v;
	out[0] = (uint8_t)v;
	return 1;
}

/* A batch row: vg_rsa_private_mb on vg_bench_op_batch(op) copies of the
 * fixture's input under the one key of that size (each lane is timed the
 * same whatever its key); every result must be the single operation's. */
static int rsa_batch(int op, uint8_t *out)
{
	int s = vg_bench_op_rsa_index(op);
	size_t n = (size_t)vg_bench_op_batch(op), k = vg_rsa_key_bytes(keys[s]);
	static uint8_t res[VG_RSA_MB_MAX][VG_BENCH_OUT_MAX];
	const vg_rsa_key *ks[VG_RSA_MB_MAX];
	uint8_t *outs[VG_RSA_MB_MAX];
	const uint8_t *ins[VG_RSA_MB_MAX];
	size_t lens[VG_RSA_MB_MAX];
	int rc[VG_RSA_MB_MAX];

	for (size_t i = 0; i < n; i++) {
		ks[i] = keys[s];
		outs[i] = res[i];
		ins[i] = fx->rsa[s].priv_in;
		lens[i] = k;
	}
	int r = vg_rsa_private_mb(ks, outs, ins, lens, n, rc);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (rc[i] < 0 || memcmp(res[i], res[0], k) != 0)
			return rc[i] < 0 ? rc[i] : VG_E_FAULT;
	memcpy(out, res[0], k);
	return 0;
}

static int rsa_op(int op, uint8_t *out)
{
	int s = vg_bench_op_rsa_index(op);
	size_t k = vg_rsa_key_bytes(keys[s]);
	if (vg_bench_op_batch(op) > 1)
		return rsa_batch(op, out);
	if (op == VG_BENCH_RSA2048_PRIV || op == VG_BENCH_RSA3072_PRIV || op == VG_BENCH_RSA4096_PRIV)
		return vg_rsa_private(keys[s], out, fx->rsa[s].priv_in, k);
	return vg_rsa_public(vg_rsa_key_public(keys[s]), out, fx->rsa[s].pub_in, k);
}

/* A batch row: vg_x25519_mb on vg_bench_op_batch(op) copies of the
 * fixture's scalar and peer (each lane costs the same whatever its
 * inputs); every result must be the single operation's. */
static int x25519_batch(int op, uint8_t *out)
{
	size_t n = (size_t)vg_bench_op_batch(op);
	static uint8_t res[VG_X25519_MB_MAX][32];
	uint8_t *outs[VG_X25519_MB_MAX];
	const uint8_t *sc[VG_X25519_MB_MAX], *pt[VG_X25519_MB_MAX];
	int rc[VG_X25519_MB_MAX];

	for (size_t i = 0; i < n; i++) {
		outs[i] = res[i];
		sc[i] = fx->x_scalar;
		pt[i] = fx->x_peer;
	}
	int r = vg_x25519_mb(outs, sc, pt, n, rc);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (rc[i] < 0 || memcmp(res[i], res[0], 32) != 0)
			return rc[i] < 0 ? rc[i] : VG_E_FAULT;
	memcpy(out, res[0], 32);
	return 32;
}

/* A batch row: vg_ed25519_sign_expanded_mb on vg_bench_op_batch(op)
 * copies of the 64-byte message under the fixture's key, each seed
 * expanded in the timed call as vg_ed25519_sign does (the single row's
 * work); every signature must be the single operation's. */
static int ed_batch(int op, uint8_t *out)
{
	size_t n = (size_t)vg_bench_op_batch(op);
	static uint8_t res[VG_ED25519_MB_MAX][64], h[VG_ED25519_MB_MAX][64];
	uint8_t *sigs[VG_ED25519_MB_MAX];
	const void *msgs[VG_ED25519_MB_MAX];
	const uint8_t *hs[VG_ED25519_MB_MAX], *pks[VG_ED25519_MB_MAX];
	size_t lens[VG_ED25519_MB_MAX];
	int rc[VG_ED25519_MB_MAX];

	for (size_t i = 0; i < n; i++) {
		vg_ed25519_expand(h[i], fx->ed_seed);
		sigs[i] = res[i];
		msgs[i] = fx->msg;
		lens[i] = 64;
		hs[i] = h[i];
		pks[i] = fx->ed_pk;
	}
	int r = vg_ed25519_sign_expanded_mb(sigs, msgs, lens, hs, pks, n, rc);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (rc[i] < 0 || memcmp(res[i], res[0], 64) != 0)
			return rc[i] < 0 ? rc[i] : VG_E_FAULT;
	memcpy(out, res[0], 64);
	return 64;
}

/* A new key (vg/keygen.h); its public key into out. */
static int keygen(int op, uint8_t *out)
{
	static const vg_ecdsa_curve curve[2] = {VG_ECDSA_P256, VG_ECDSA_P384};
	static vg_rsa_keypair kp; /* 5 KiB: not on the stack of every caller */
	uint8_t priv[48];
	int k = vg_bench_op_keygen(op), r;
	size_t len = vg_bench_keygen_len(op);

	if (k > 2) {
		r = vg_rsa_generate((size_t)k, VG_RSA_GEN_E, &kp);
		if (r == 0)
			memcpy(out, kp.n, kp.n_len);
		vg_rsa_keypair_wipe(&kp);
	} else if (k > 0) {
		r = vg_ecdsa_generate(curve[k - 1], priv, vg_ecdsa_scalar_len(curve[k - 1]), out,
				      len);
	} else if (k == -1) {
		r = vg_ed25519_generate(priv, out);
	} else {
		r = vg_x25519_generate(priv, out);
	}
	memset(priv, 0, sizeof(priv));
	return r < 0 ? r : (int)len;
}

/* One operation into out; returns its output length or a negative error. */
static int ours_one(int op, uint8_t *out)
{
	if (vg_bench_op_keygen(op))
		return keygen(op, out);
	int r;
	switch (op) {
	case VG_BENCH_ED_KEYPAIR:
		vg_ed25519_public_key(out, fx->ed_seed);
		return 32;
	case VG_BENCH_ED_SIGN64:
		vg_ed25519_sign(out, fx->msg, 64, fx->ed_seed, fx->ed_pk);
		return 64;
	case VG_BENCH_ED_SIGN1K:
		vg_ed25519_sign(out, fx->msg, 1024, fx->ed_seed, fx->ed_pk);
		return 64;
	case VG_BENCH_ED_VERIFY:
		out[0] = vg_ed25519_verify(fx->ed_sig, fx->msg, VG_BENCH_VERIFY_LEN, fx->ed_pk) == 0;
		return 1;
	case VG_BENCH_X_BASE:
		vg_x25519_base(out, fx->x_scalar);
		return 32;
	case VG_BENCH_X_VAR:
		r = vg_x25519(out, fx->x_scalar, fx->x_peer);
		return r < 0 ? r : 32;
	case VG_BENCH_ED_SIGN64_X2:
	case VG_BENCH_ED_SIGN64_X4:
	case VG_BENCH_ED_SIGN64_X8:
		return ed_batch(op, out);
	case VG_BENCH_X_VAR_X2:
	case VG_BENCH_X_VAR_X4:
	case VG_BENCH_X_VAR_X8:
		return x25519_batch(op, out);
	default:
		if (vg_bench_op_ec_index(op) >= 0)
			return ec_op(op, out);
		if (vg_bench_op_rsa_index(op) < 0)
			return -1; /* not ours: has() said so */
		r = rsa_op(op, out);
		return r < 0 ? r : (int)vg_rsa_key_bytes(keys[vg_bench_op_rsa_index(op)]);
	}
}

static void ours_fini(void)
{
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		if (keys[s])
			vg_rsa_key_wipe(keys[s]);
		free(keys[s]);
		keys[s] = NULL;
	}
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		if (ec_keys[c])
			vg_ecdsa_key_wipe(ec_keys[c]);
		free(ec_keys[c]);
		ec_keys[c] = NULL;
	}
}

/* The variant of each kernel family, e.g. "ed25519=c x25519=c rsa=c". */
static const char *ours_version(void) { return vg_kernel_variants(); }

const vg_bench_impl vg_bench_ours = {
	.name = "vgd",
	.init = ours_init,
	.has = ours_has,
	.one = ours_one,
	.fini = ours_fini,
	.version = ours_version,
	.check = ours_check,
};

int vg_bench_ours_derive(vg_bench_fixture *f)
{
	static const uint8_t other[32] = {0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d,
					  0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2, 0x66, 0x45,
					  0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a,
					  0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a};
	vg_ed25519_public_key(f->ed_pk, f->ed_seed);
	vg_ed25519_sign(f->ed_sig, f->msg, VG_BENCH_VERIFY_LEN, f->ed_seed, f->ed_pk);
	vg_x25519_base(f->x_peer, other);
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		if (!keys[s])
			continue;
		f->rsa[s].k = vg_rsa_key_bytes(keys[s]);
		int r = vg_rsa_private(keys[s], f->rsa[s].pub_in, f->rsa[s].priv_in, f->rsa[s].k);
		if (r < 0)
			return r;
	}
	return 0;
}
