/* impl_ours.c: vgbench's calls into our kernels (libvgkernels). RSA test
 * keys are parsed by the daemon's own key-file parser, so the benchmark
 * needs no OpenSSL. Nothing here is secret (public test keys). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "errcode.h"
#include "keystore.h"
#include "vg/cpu.h"
#include "vg/ed25519.h"
#include "vg/proto.h"
#include "vg/rsa.h"
#include "vg/x25519.h"

/* Owned by this file: set by init, read by run/once, released by fini. */
static const vg_bench_fixture *fx;
static vg_rsa_key *keys[VG_BENCH_RSA_SIZES];

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

static int ours_init(const vg_bench_fixture *f, const char *arg, char *why, size_t whylen)
{
	fx = f;
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		if (!fx->rsa[s].file)
			continue;
		int r = load_rsa(s, why, whylen);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ECDSA: no kernel yet (vg/ecdsa.h). To add it: load fx->ec[c].file in
 * init, return 1 here when loaded, sign fx->ec[c].digest into out as raw
 * r||s (2 * n_len bytes) and verify fx->ec[c].sig in one, and set .check
 * below to a function that verifies a given raw signature: the rows, the
 * cross-check and the ratio columns then include vgd. */
static int ours_has(int op)
{
	int s = vg_bench_op_rsa_index(op);
	if (vg_bench_op_ec_index(op) >= 0)
		return 0;
	return s < 0 || keys[s] != NULL;
}

static int rsa_op(int op, uint8_t *out)
{
	int s = vg_bench_op_rsa_index(op);
	size_t k = vg_rsa_key_bytes(keys[s]);
	if (op == VG_BENCH_RSA2048_PRIV || op == VG_BENCH_RSA3072_PRIV || op == VG_BENCH_RSA4096_PRIV)
		return vg_rsa_private(keys[s], out, fx->rsa[s].priv_in, k);
	return vg_rsa_public(vg_rsa_key_public(keys[s]), out, fx->rsa[s].pub_in, k);
}

/* One operation into out; returns its output length or a negative error. */
static int ours_one(int op, uint8_t *out)
{
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
	default:
		if (vg_bench_op_rsa_index(op) < 0)
			return -1; /* not ours (yet): has() said so */
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
