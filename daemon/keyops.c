/* keyops.c: sign / x25519 / rsa-private on a held key, driven by the
 * protocol's operation and algorithm tables (vg/proto_tables.h): the
 * tables say which key type and policy bit a request needs and what its
 * DATA is; the key type's daemon row (keytype.h) which kernel call runs
 * it. This file holds those kernel calls and the batches' prepare and
 * finish halves. Secret: the key's secret part; inputs and outputs here
 * are not secret (they go back to the client), except X25519 shared
 * values, which only the client sees. */
#include "keyops.h"

#include <string.h>

#include "keytype.h"
#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/error.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"
#include "vg/proto_tls13.h"
#include "vg/proto_x509.h"
#include "vg/rsa.h"
#include "vg/sha2.h"
#include "vg/wipe.h"
#include "vg/x25519.h"

_Static_assert(VG_DIGEST_MAX_LEN == VG_SHA512_LEN, "the longest digest");
_Static_assert(VG_PROTO_X25519_LEN == VG_X25519_LEN, "x25519 values");
_Static_assert(VG_ED25519_SIG_LEN <= VG_PROTO_MAX_RESULT &&
		       VG_ECDSA_MAX_DER_LEN <= VG_PROTO_MAX_RESULT,
	       "a signature fits a result");

int vgd_acl_allows(const vgd_keyinfo *info, uid_t uid, gid_t gid)
{
	if (info->n_uids == 0 && info->n_gids == 0)
		return 1; /* no list: whoever may open the socket */
	for (size_t i = 0; i < info->n_uids; i++)
		if (info->uids[i] == uid)
			return 1;
	for (size_t i = 0; i < info->n_gids; i++)
		if (info->gids[i] == gid)
			return 1;
	return 0;
}

/* A failure: the reason's text and its status, from the reason table. */
static int fail(vgd_reason *why, int r)
{
	why->text = vg_reason(r);
	return vg_reason_status(r);
}

/* A policy refusal: its text and what the key's policy does allow (the
 * bits that mean something for its type), in the config's words. */
static int deny(vgd_reason *why, int r, const vgd_keyinfo *info)
{
	why->text = vg_reason_policy(r, info->allow & vg_key_type_allow(info->type), why->buf,
				     sizeof why->buf);
	return vg_reason_status(r);
}

int vgd_status_from_kernel(int err, const char **reason)
{
	if (err == VG_OK)
		return VG_ST_OK;
	*reason = vg_strerror(err); /* the kernels' own text: one source */
	switch (err) {
	case VG_E_RANGE:
	case VG_E_INVALID:
		return VG_ST_BAD_INPUT; /* the client's input, not our fault */
	default:
		return VG_ST_INTERNAL; /* a fault, a bad key, a failed RNG */
	}
}

/* The kernels' hash for a protocol digest (0, which the kernels refuse
 * with VG_E_INVALID, for none). */
static vg_hash_alg kernel_hash(int digest)
{
	switch (digest) {
	case VG_DIGEST_SHA256: return VG_HASH_SHA256;
	case VG_DIGEST_SHA384: return VG_HASH_SHA384;
	case VG_DIGEST_SHA512: return VG_HASH_SHA512;
	default: return (vg_hash_alg)0;
	}
}

int vgd_policy_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, vgd_reason *why)
{
	const vg_op_info *o = vg_op_get(op);
	int fits, wrong_key, denied;
	uint32_t need;

	if (o == NULL || o->kind != VG_OPK_KEY)
		return fail(why, VG_R_NOT_KEY_OP);
	need = o->allow;
	wrong_key = o->wrong_key;
	denied = o->denied;
	if (o->key_type != 0) {
		fits = info->type == o->key_type;
	} else {
		/* The algorithm names the key type and the policy bit (sign). */
		const vg_alg_info *a = vg_alg_get(alg);
		if (a == NULL)
			return fail(why, VG_R_UNKNOWN_ALG);
		need = a->allow;
		if (a->data == VG_DATA_TLS13_HASH) {
			/* Any key with a TLS 1.3 scheme; the policy may allow
			 * only this mode. */
			fits = (vg_key_type_allow(info->type) & VG_ALLOW_SIGN_TLS13) != 0;
			wrong_key = VG_R_KEY_CANNOT_SIGN;
			denied = VG_R_TLS13_DENIED;
		} else if (a->data == VG_DATA_CSR_INFO) {
			/* Any key with a csr row; the row's bit is tls13's,
			 * which `allow = sign` sets too, so either allows it:
			 * what it signs is checked here (csr_input). */
			fits = vg_alg_csr(info->type) != NULL;
			wrong_key = VG_R_KEY_CANNOT_SIGN;
			denied = VG_R_CSR_DENIED;
		} else {
			fits = info->type == a->key_type;
		}
	}
	if (!fits)
		return fail(why, wrong_key);
	if (!(info->allow & need))
		return deny(why, denied, info);
	return VG_ST_OK;
}

int vgd_request_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, size_t len,
		      vgd_reason *why)
{
	int st = vgd_policy_check(info, op, alg, why);

	if (st != VG_ST_OK)
		return st;
	/* rsa-private takes exactly the modulus length (the codec allowed
	 * any RSA size; the key decides). */
	if (op == VG_OP_RSA_PRIVATE && len != info->pub_len)
		return fail(why, VG_R_MODULUS_LEN);
	return VG_ST_OK;
}

/* The reply's ECDSA signature from the kernel's status r and raw r||s:
 * the encoding the request chose (DER unless VG_SIGFMT_RAW). The kernel
 * checked the signature for faults before releasing it. */
static int ecdsa_encode(const vg_ecdsa_key *ek, uint8_t fmt, int r, const uint8_t *raw,
			uint8_t *out, size_t *out_len, vgd_reason *why)
{
	vg_ecdsa_curve curve = vg_ecdsa_key_curve(ek);
	size_t n = vg_ecdsa_sig_len(curve);

	if (r == VG_OK && fmt == VG_SIGFMT_RAW) {
		memcpy(out, raw, n);
		*out_len = n;
	} else if (r == VG_OK) {
		r = vg_ecdsa_sig_to_der(curve, raw, n, out, VG_PROTO_MAX_RESULT, out_len);
	}
	return vgd_status_from_kernel(r, &why->text);
}

/* ---- the key-type rows' operations (keytype.h) ---- */

int vgd_kt_ed25519_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
			size_t len, uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vgd_secret_25519 *s = secret;
	(void)a;
	(void)fmt;
	(void)why;
	vg_ed25519_sign_expanded(out, in, len, s->expanded, s->pk);
	*out_len = VG_ED25519_SIG_LEN;
	return VG_ST_OK;
}

int vgd_kt_rsa_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		    size_t len, uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vg_rsa_key *rk = secret;
	vg_hash_alg h = kernel_hash(a->digest);
	size_t k = vg_rsa_key_bytes(rk);
	(void)fmt;
	int r = a->pad == VG_PAD_PSS ? vg_rsa_sign_pss(rk, h, in, len, out, k)
				     : vg_rsa_sign_pkcs1(rk, h, in, len, out, k);
	*out_len = k;
	return vgd_status_from_kernel(r, &why->text);
}

/* ECDSA over a digest, one signature. */
int vgd_kt_ecdsa_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		      size_t len, uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vg_ecdsa_key *ek = secret;
	uint8_t raw[VG_ECDSA_MAX_SIG_LEN];
	(void)a;
	int r = vg_ecdsa_sign(ek, in, len, raw, vg_ecdsa_sig_len(vg_ecdsa_key_curve(ek)));
	return ecdsa_encode(ek, fmt, r, raw, out, out_len, why);
}

int vgd_kt_x25519_agree(const void *secret, const uint8_t *peer, size_t len, uint8_t *out,
			size_t *out_len, vgd_reason *why)
{
	const vgd_secret_25519 *s = secret;

	if (len != VG_PROTO_X25519_LEN)
		return fail(why, VG_R_X25519_DATA_LEN);
	if (vg_x25519(out, s->seed, peer) < 0)
		return fail(why, VG_R_LOW_ORDER);
	*out_len = VG_PROTO_X25519_LEN;
	return VG_ST_OK;
}

int vgd_kt_rsa_private(const void *secret, const uint8_t *in, size_t len, uint8_t *out,
		       size_t *out_len, vgd_reason *why)
{
	const vg_rsa_key *rk = secret;
	size_t k = vg_rsa_key_bytes(rk);
	int r;

	if (len != k)
		return fail(why, VG_R_MODULUS_LEN);
	r = vg_rsa_private(rk, out, in, len);
	if (r == VG_E_RANGE)
		return fail(why, VG_R_NOT_BELOW_MODULUS);
	*out_len = k;
	return vgd_status_from_kernel(r, &why->text);
}

/* The kernel call of a signature row, through its key type's row: in is
 * the message (VG_DATA_MESSAGE) or the digest (VG_DATA_DIGEST) the row
 * expects; fmt the SIG_FORMAT (0: the row's default). out holds
 * VG_PROTO_MAX_RESULT bytes. */
static int kernel_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		       size_t len, uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vgd_keytype *t = vgd_keytype_get(a->key_type);
	if (t == NULL || t->sign == NULL)
		return fail(why, VG_R_ALG_KEY_MISMATCH);
	return t->sign(a, fmt, secret, in, len, out, out_len, why);
}

/* ALG csr: DATA must be a CertificationRequestInfo for this very key
 * (vg_csr_info_check against the key's own SubjectPublicKeyInfo, built
 * from its public description); then the key's csr row signs it, over
 * its digest if that row signs a digest. This is the check that keeps a
 * key allowed only tls13 from signing anything but a request for its
 * own certificate (PROTOCOL.md 6.5.2). */
static int csr_input(const vgd_keyinfo *info, const vg_alg_info **row, const uint8_t **data,
		     size_t *len, uint8_t digest[VG_DIGEST_MAX_LEN], vgd_reason *why)
{
	uint8_t spki[VG_SPKI_MAX];
	size_t n = vg_spki_encode(info->type, info->pub, info->pub_len, info->rsa_e,
				  info->rsa_e_len, spki, sizeof spki);
	const vg_alg_info *a = vg_alg_csr(info->type);

	if (a == NULL || n == 0)
		return fail(why, VG_R_KEY_CANNOT_SIGN);
	if (vg_csr_info_check(*data, *len, spki, n) != 0)
		return fail(why, VG_R_CSR_INFO);
	if (a->data == VG_DATA_DIGEST) {
		if (vg_hash(kernel_hash(a->digest), digest, *data, *len) != VG_OK)
			return fail(why, VG_R_CSR_INFO);
		*data = digest;
		*len = vg_digest_len(a->digest);
	}
	*row = a;
	return VG_ST_OK;
}

/* The row a signature request signs with and the bytes it signs (*row,
 * *data, *len): the request's own, or in TLS 1.3 mode the key's TLS 1.3
 * row over the content built here, in content (hashed into digest first
 * if that row signs a digest), or for csr the key's csr row over the
 * checked request (csr_input). VG_ST_OK, or the failure. */
static int sign_input(const vgd_keyinfo *info, uint8_t alg, uint8_t role, uint8_t fmt,
		      const vg_alg_info **row, const uint8_t **data, size_t *len,
		      uint8_t content[VG_TLS13_CONTENT_MAX], uint8_t digest[VG_DIGEST_MAX_LEN],
		      vgd_reason *why)
{
	const vg_alg_info *a = vg_alg_get(alg);

	if (!vg_alg_format_ok(alg, fmt))
		return fail(why, VG_R_BAD_SIG_FORMAT);
	if (a != NULL && a->data == VG_DATA_TLS13_HASH) {
		/* TLS 1.3 mode: build the content, then sign it with the
		 * key's TLS 1.3 row (hashing it first if that row signs a
		 * digest). The row's hash, not the transcript's, hashes the
		 * content: an ECDSA curve is bound to one hash (RFC 8446
		 * 4.2.3), so a P-256 key under a SHA-384 suite signs
		 * SHA-256(content); its signature is DER, as TLS carries it. */
		size_t clen = vg_tls13_content(content, role, *data, *len);
		a = vg_alg_tls13(info->type, *len);
		if (clen == 0 || a == NULL)
			return fail(why, VG_R_ALG_DATA_LEN);
		*data = content;
		*len = clen;
		if (a->data == VG_DATA_DIGEST) {
			if (vg_hash(kernel_hash(a->digest), digest, content, clen) != VG_OK)
				return fail(why, VG_R_ALG_DATA_LEN);
			*data = digest;
			*len = vg_digest_len(a->digest);
		}
	} else if (a != NULL && a->data == VG_DATA_CSR_INFO) {
		return csr_input(info, row, data, len, digest, why);
	} else if (a == NULL || !vg_alg_data_len_ok(alg, *len)) {
		return fail(why, VG_R_ALG_DATA_LEN);
	}
	*row = a;
	return VG_ST_OK;
}

static int sign(const vgd_keyinfo *info, const void *secret, uint8_t alg, uint8_t role, uint8_t fmt,
		const uint8_t *data, size_t len, uint8_t *out, size_t *out_len, vgd_reason *why)
{
	uint8_t content[VG_TLS13_CONTENT_MAX], digest[VG_DIGEST_MAX_LEN];
	const vg_alg_info *a;
	int st = sign_input(info, alg, role, fmt, &a, &data, &len, content, digest, why);
	if (st != VG_ST_OK)
		return st;
	return kernel_sign(a, fmt, secret, data, len, out, out_len, why);
}

/* An operation other than sign through the key's row: agree (x25519)
 * or rsa_private; a type without it cannot get here past the policy
 * check (the operation's row names its key type), hence the fallback. */
static int x25519(const vgd_keyinfo *info, const void *secret, const uint8_t *data, size_t len,
		  uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vgd_keytype *t = vgd_keytype_get(info->type);
	if (t == NULL || t->agree == NULL)
		return fail(why, VG_R_NOT_KEY_OP);
	return t->agree(secret, data, len, out, out_len, why);
}

static int rsa_private(const vgd_keyinfo *info, const void *secret, const uint8_t *data, size_t len,
		       uint8_t *out, size_t *out_len, vgd_reason *why)
{
	const vgd_keytype *t = vgd_keytype_get(info->type);
	if (t == NULL || t->rsa_private == NULL)
		return fail(why, VG_R_NOT_KEY_OP);
	return t->rsa_private(secret, data, len, out, out_len, why);
}

/* Is the key's type one of a batch family's (its row's VGD_KB_*)? */
static int in_family(const vgd_keyinfo *info, int kind)
{
	const vgd_keytype *t = vgd_keytype_get(info->type);
	return t != NULL && t->batch == kind;
}

int vgd_keyop_rsa_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
			  uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
			  vgd_rsa_op *o, vgd_reason *why)
{
	if (!in_family(info, VGD_KB_RSA) || (op != VG_OP_SIGN && op != VG_OP_RSA_PRIVATE))
		return -1;
	int st = vgd_request_check(info, op, alg, len, why);
	if (st != VG_ST_OK)
		return st;
	const vg_rsa_key *rk = secret;
	size_t k = vg_rsa_key_bytes(rk);
	o->key = rk;
	o->len = k;
	o->raw = op == VG_OP_RSA_PRIVATE;
	if (o->raw) {
		if (len != k)
			return fail(why, VG_R_MODULUS_LEN);
		memcpy(o->in, data, k);
		return VG_ST_OK;
	}
	uint8_t content[VG_TLS13_CONTENT_MAX], digest[VG_DIGEST_MAX_LEN];
	const vg_alg_info *a;
	st = sign_input(info, alg, tls_role, sig_format, &a, &data, &len, content, digest, why);
	if (st != VG_ST_OK)
		return st;
	if (a->key_type != info->type)
		return fail(why, VG_R_ALG_KEY_MISMATCH);
	const vg_rsa_public_key *pub = vg_rsa_key_public(rk);
	vg_hash_alg h = kernel_hash(a->digest);
	int r = a->pad == VG_PAD_PSS ? vg_rsa_encode_pss(pub, h, data, len, o->in, k)
				     : vg_rsa_encode_pkcs1(pub, h, data, len, o->in, k);
	return vgd_status_from_kernel(r, &why->text);
}

int vgd_keyop_rsa_finish(const vgd_rsa_op *o, int rc, size_t *out_len, vgd_reason *why)
{
	*out_len = 0;
	if (o->raw && rc == VG_E_RANGE)
		return fail(why, VG_R_NOT_BELOW_MODULUS);
	int st = vgd_status_from_kernel(rc, &why->text);
	if (st == VG_ST_OK)
		*out_len = o->len;
	return st;
}

int vgd_keyop_ed25519_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op,
			      uint8_t alg, uint8_t tls_role, uint8_t sig_format,
			      const uint8_t *data, size_t len, vgd_ed25519_op *o, vgd_reason *why)
{
	if (!in_family(info, VGD_KB_ED25519) || op != VG_OP_SIGN)
		return -1;
	int st = vgd_request_check(info, op, alg, len, why);
	if (st != VG_ST_OK)
		return st;
	uint8_t digest[VG_DIGEST_MAX_LEN];
	const vg_alg_info *a;
	st = sign_input(info, alg, tls_role, sig_format, &a, &data, &len, o->content, digest, why);
	if (st != VG_ST_OK)
		return st;
	if (a->key_type != info->type)
		return fail(why, VG_R_ALG_KEY_MISMATCH);
	o->key = secret;
	o->msg = data;
	o->len = len;
	return VG_ST_OK;
}

int vgd_keyop_ecdsa_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
			    uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
			    vgd_ecdsa_op *o, vgd_reason *why)
{
	if (!in_family(info, VGD_KB_ECDSA) || op != VG_OP_SIGN)
		return -1;
	int st = vgd_request_check(info, op, alg, len, why);
	if (st != VG_ST_OK)
		return st;
	uint8_t content[VG_TLS13_CONTENT_MAX], digest[VG_DIGEST_MAX_LEN];
	const vg_alg_info *a;
	st = sign_input(info, alg, tls_role, sig_format, &a, &data, &len, content, digest, why);
	if (st != VG_ST_OK)
		return st;
	if (a->key_type != info->type || len > sizeof(o->digest))
		return fail(why, VG_R_ALG_KEY_MISMATCH);
	o->key = secret;
	o->fmt = sig_format;
	o->dlen = len;
	memcpy(o->digest, data, len);
	return VG_ST_OK;
}

int vgd_keyop_ecdsa_finish(const vgd_ecdsa_op *o, int rc, const uint8_t *raw, uint8_t *out,
			   size_t *out_len, vgd_reason *why)
{
	*out_len = 0;
	return ecdsa_encode(o->key, o->fmt, rc, raw, out, out_len, why);
}

int vgd_keyop_x25519_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op,
			     const uint8_t *data, size_t len, vgd_x25519_op *o, vgd_reason *why)
{
	if (!in_family(info, VGD_KB_X25519) || op != VG_OP_X25519)
		return -1;
	int st = vgd_request_check(info, op, 0, len, why);
	if (st != VG_ST_OK)
		return st;
	if (len != VG_PROTO_X25519_LEN)
		return fail(why, VG_R_X25519_DATA_LEN);
	o->scalar = ((const vgd_secret_25519 *)secret)->seed;
	memcpy(o->peer, data, len);
	return VG_ST_OK;
}

int vgd_keyop_x25519_finish(int rc, size_t *out_len, vgd_reason *why)
{
	*out_len = 0;
	if (rc == VG_E_ZERO)
		return fail(why, VG_R_LOW_ORDER);
	int st = vgd_status_from_kernel(rc, &why->text);
	if (st == VG_ST_OK)
		*out_len = VG_PROTO_X25519_LEN;
	return st;
}

int vgd_keyop_run(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
		  uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
		  uint8_t *out, size_t *out_len, vgd_reason *why)
{
	int st = vgd_request_check(info, op, alg, len, why);
	if (st != VG_ST_OK)
		return st;
	*out_len = 0;
	switch (op) {
	case VG_OP_SIGN:
		return sign(info, secret, alg, tls_role, sig_format, data, len, out, out_len, why);
	case VG_OP_X25519:
		return x25519(info, secret, data, len, out, out_len, why);
	case VG_OP_RSA_PRIVATE:
		return rsa_private(info, secret, data, len, out, out_len, why);
	}
	return fail(why, VG_R_NOT_KEY_OP);
}
