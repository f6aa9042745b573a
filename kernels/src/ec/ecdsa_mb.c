/* ecdsa_mb.c: vg_ecdsa_sign_mb (vg/ecdsa_mb.h): up to eight ECDSA P-256
 * or P-384 signatures of one curve with their fixed-base multiplications k G in the lanes of
 * one batched comb (ec_mb.h) and their inversions shared, every other step
 * per signature in ecdsa.c's single code (nonce, r, s, retry, fault
 * check, release).
 * Secret: every key's d, every nonce k, k G, 1/Z, k^-1, and the products
 * of the shared inversions. Public: the number of signatures, which lane
 * each takes, the curve of each key, lengths, the rare public events of
 * the single path (r or s zero, the check's verdict). */
#include <string.h>

#include "ec/ec_mb.h"
#include "ec/ecdsa_internal.h"
#include "ec/ecdsa_mb_internal.h"
#include "vg/ecdsa_mb.h"
#include "random.h"
#include "vg/wipe.h"

#define LANES VG_EC_MB_LANES
#define NL VG_EC_MAX_LIMBS /* room for either curve */

/* The fewest P-256 signatures of one call worth a batch on the ifma row
 * (below it they run one at a time through vg_ecdsa_sign). A batch costs
 * about 17 us whatever number of lanes it fills (the comb walks 52 rows
 * in all eight; the shared inversions cost one pair), then each signature
 * its nonce, s and check. Per signature against vg_ecdsa_sign_with
 * (AMD EPYC Zen 5, ifma rows, thread CPU time, interleaved, loaded
 * machine): 1.93 at 1 lane, 1.07 at 2, 0.85 at 3, 0.66 at 4, 0.56 at 5,
 * 0.49 at 6, 0.47 at 7, 0.43 at 8. Public policy, not secret. */
#define ECDSA_MB_MIN 3
/* The same for P-384: a batch costs about 70 us (its comb walks 55 rows
 * of 64 entries); per signature 1.79 at 1 lane, 0.99 at 2, 0.67 at 3,
 * 0.52 at 4, 0.43 at 5, 0.37 at 6, 0.34 at 7, 0.33 at 8 (same
 * measurement). */
#define ECDSA_MB_MIN_P384 3

/* Stack scratch of one batch, wiped as a whole. */
struct mb_sign {
	struct vg_ecdsa_sign_state st[LANES];
	vg_ec_point R[LANES];
	int8_t d[VG_EC_MB_MAX_ROWS * LANES]; /* row-major: lane l of row i at 8 i + l */
	int8_t dl[VG_EC_MB_MAX_ROWS];
	uint64_t z[LANES][NL], k[LANES][NL];   /* the factors of the products */
	uint64_t pz[LANES][NL], pk[LANES][NL]; /* their prefix products */
	uint64_t zi[LANES][NL], km[LANES][NL]; /* 1/Z, k^-1 R of each lane */
	uint64_t iz[NL], ik[NL];
};

/* Montgomery's trick over the m lanes: in[j] (Montgomery form, a zero
 * replaced by 1 so that a faulty lane cannot zero the others' inverses;
 * its own check fails on its Z = 0 anyway), out[j] = in[j]^-1 R, with
 * the one inversion already done: inv = (in[0] ... in[m-1])^-1 R, pre
 * the prefix products. Constant time. */
static void prefix(vg_ec_mul_fn *mul, uint64_t (*pre)[NL], uint64_t (*in)[NL], size_t m,
		   const uint64_t *one, size_t nl)
{
	for (size_t j = 0; j < m; j++) {
		vg_ec_cmov(in[j], one, nl, vg_ec_iszero(in[j], nl));
		if (j == 0)
			vg_ec_copy(pre[0], in[0], nl);
		else
			mul(pre[j], pre[j - 1], in[j]);
	}
}

static void walk_down(vg_ec_mul_fn *mul, uint64_t *inv, uint64_t (*pre)[NL],
		      uint64_t (*in)[NL], size_t m, uint64_t (*out)[NL], size_t nl)
{
	for (size_t j = m; j-- > 0;) {
		if (j > 0) {
			mul(out[j], inv, pre[j - 1]);
			mul(inv, inv, in[j]);
		} else {
			vg_ec_copy(out[0], inv, nl);
		}
	}
}

int vg_ecdsa_sign_mb_with(const struct vg_ec_impl *f, const struct vg_ec_mb_impl *mb,
			  const vg_ecdsa_key *const keys[], const uint8_t *const digest[],
			  const size_t dlen[], const uint8_t *const extra[],
			  const size_t extra_len[], uint8_t *const sig[], const size_t siglen[],
			  size_t n, int rc[])
{
	struct mb_sign s;
	size_t lane[LANES], m = 0;

	if (!f || !mb || f->curve != mb->curve || !keys || !digest || !dlen || !extra ||
	    !extra_len || !sig || !siglen || !rc || n == 0 || n > LANES)
		return VG_E_INVALID;
	const struct vg_ec_curve *c = f->curve;
	const size_t nl = c->limbs;
	/* the curve's comb: P-256's 5-bit one (comb5), P-384's 7-bit one */
	const int w5 = c->comb5 != NULL;
	const size_t rows = w5 ? c->comb5_rows : c->comb_rows;

	vg_wipe(&s, sizeof(s));
	/* The lanes (public): each valid signature in turn. */
	for (size_t i = 0; i < n; i++) {
		rc[i] = VG_E_INVALID;
		if (!vg_ecdsa_sign_args_ok(f, keys[i], digest[i], dlen[i], extra[i], extra_len[i],
					   sig[i], siglen[i]))
			continue;
		lane[m++] = i;
	}
	if (m == 0)
		return 0;

	/* Each lane's first nonce, as the single path's first attempt. */
	for (size_t j = 0; j < m; j++) {
		size_t i = lane[j];
		vg_ecdsa_sign_begin(f, keys[i], &s.st[j], digest[i], dlen[i], extra[i],
				    extra_len[i]);
		vg_ecdsa_nonce_next(&s.st[j].nonce, s.st[j].k);
		if (w5) /* public: the curve */
			vg_ec_comb_recode_w(s.dl, s.st[j].k, nl, rows, VG_EC_COMB5_W);
		else
			vg_ec_comb_recode(s.dl, s.st[j].k, nl, rows);
		for (size_t r = 0; r < rows; r++)
			s.d[LANES * r + j] = s.dl[r];
	}

	/* k G in every lane; idle lanes have zero digits. */
	mb->comb(s.R, w5 ? c->comb5 : c->comb, s.d);

	/* 1/Z and k^-1 of every lane by one inversion pair of the products. */
	for (size_t j = 0; j < m; j++) {
		vg_ec_copy(s.st[j].R.x, s.R[j].x, nl);
		vg_ec_copy(s.st[j].R.y, s.R[j].y, nl);
		vg_ec_copy(s.st[j].R.z, s.R[j].z, nl);
		vg_ec_copy(s.z[j], s.R[j].z, nl);
		vg_ec_sc_to_mont(f, s.k[j], s.st[j].k);
	}
	prefix(f->fe_mul, s.pz, s.z, m, c->p.one, nl);
	prefix(f->sc_mul, s.pk, s.k, m, c->n.one, nl);
	f->inv2(f, s.iz, s.pz[m - 1], s.ik, s.pk[m - 1]);
	walk_down(f->fe_mul, s.iz, s.pz, s.z, m, s.zi, nl);
	walk_down(f->sc_mul, s.ik, s.pk, s.k, m, s.km, nl);
	for (size_t j = 0; j < m; j++) {
		vg_ec_copy(s.st[j].zi, s.zi[j], nl);
		vg_ec_copy(s.st[j].km, s.km[j], nl);
	}

	/* Each signature alone from here: r, s, the retries of the single
	 * path (public event), the fault check and the release. */
	for (size_t j = 0; j < m; j++) {
		size_t i = lane[j];
		uint64_t ok = vg_ecdsa_sign_rs(f, keys[i], &s.st[j]);
		if (!ok)
			ok = vg_ecdsa_sign_attempts(f, keys[i], &s.st[j], 1);
		rc[i] = vg_ecdsa_sign_release(f, keys[i], &s.st[j], ok, 0, sig[i]);
	}
	vg_wipe(&s, sizeof(s));
	vg_ec_scrub_stack();
	return 0;
}

/* The signatures of curve cv among keys[0..n) (counted in m): in one batch
 * of that curve's rows when it pays, else one at a time. */
static void sign_curve(vg_ecdsa_curve cv, const vg_ecdsa_key *const keys[],
		       const uint8_t *const digest[], const size_t dlen[], uint8_t *const sig[],
		       const size_t siglen[], size_t n, int rc[])
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(cv);
	const struct vg_ec_mb_impl *mb =
		cv == VG_ECDSA_P256 ? vg_ec_p256_mb_impl() : vg_ec_p384_mb_impl();
	const struct vg_ec_mb_impl *c_row =
		cv == VG_ECDSA_P256 ? &vg_ec_p256_mb_impls[0] : &vg_ec_p384_mb_impls[0];
	const size_t min = cv == VG_ECDSA_P256 ? ECDSA_MB_MIN : ECDSA_MB_MIN_P384;
	uint8_t extra[LANES][VG_ECDSA_MAX_SCALAR_LEN];
	const vg_ecdsa_key *bk[LANES];
	const uint8_t *bd[LANES], *be[LANES];
	uint8_t *bs[LANES];
	size_t bdl[LANES], bel[LANES], bsl[LANES], idx[LANES], m = 0;
	int brc[LANES];
	size_t xlen = f->curve->bytes; /* the hedge of one signature, as vg_ecdsa_sign's */

	for (size_t i = 0; i < n; i++)
		m += vg_ecdsa_key_curve(keys[i]) == cv;
	int batch = mb != c_row && m >= min;
	/* The hedges of the batch in one getrandom call (a system call costs
	 * about a microsecond here, a tenth of a P-256 signature). */
	int rr = batch ? vg_random_bytes(extra[0], sizeof(extra)) : 0;
	m = 0;
	for (size_t i = 0; i < n; i++) {
		if (vg_ecdsa_key_curve(keys[i]) != cv)
			continue;
		if (!batch) {
			rc[i] = vg_ecdsa_sign(keys[i], digest[i], dlen[i], sig[i], siglen[i]);
			continue;
		}
		if (rr != 0) {
			rc[i] = rr;
			if (siglen[i] == 2 * f->curve->bytes)
				memset(sig[i], 0, siglen[i]);
			continue;
		}
		bk[m] = keys[i];
		bd[m] = digest[i];
		bdl[m] = dlen[i];
		be[m] = extra[m];
		bel[m] = xlen;
		bs[m] = sig[i];
		bsl[m] = siglen[i];
		idx[m++] = i;
	}
	if (m > 0) {
		int r = vg_ecdsa_sign_mb_with(f, mb, bk, bd, bdl, be, bel, bs, bsl, m, brc);
		for (size_t j = 0; j < m; j++)
			rc[idx[j]] = r ? r : brc[j];
	}
	vg_wipe(extra, sizeof(extra));
}

int vg_ecdsa_sign_mb(const vg_ecdsa_key *const keys[], const uint8_t *const digest[],
		     const size_t dlen[], uint8_t *const sig[], const size_t siglen[], size_t n,
		     int rc[])
{
	if (!keys || !digest || !dlen || !sig || !siglen || !rc || n == 0 ||
	    n > VG_ECDSA_MB_MAX)
		return VG_E_INVALID;
	for (size_t i = 0; i < n; i++)
		if (!keys[i] || !sig[i])
			return VG_E_INVALID;
	for (size_t i = 0; i < n; i++)
		rc[i] = VG_E_INVALID; /* a key of neither curve */
	sign_curve(VG_ECDSA_P256, keys, digest, dlen, sig, siglen, n, rc);
	sign_curve(VG_ECDSA_P384, keys, digest, dlen, sig, siglen, n, rc);
	return 0;
}
