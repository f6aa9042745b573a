/* keyops.c: sign / x25519 / rsa-private on a held key. Secret: the key's
 * secret part; inputs and outputs here are not secret (they go back to
 * the client), except X25519 shared values, which only the client sees. */
#include "keyops.h"

#include <string.h>

#include "vg/ed25519.h"
#include "vg/error.h"
#include "vg/proto.h"
#include "vg/rsa.h"
#include "vg/sha2.h"
#include "vg/wipe.h"
#include "vg/x25519.h"

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

static int is_rsa_alg(uint8_t alg) { return alg >= VG_ALG_RSA_PKCS1_SHA256 && alg <= VG_ALG_RSA_PSS_SHA512; }

int vgd_policy_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, const char **reason)
{
	switch (op) {
	case VG_OP_SIGN:
		if (alg == VG_ALG_TLS13) {
			if (info->type == VG_KEY_X25519) {
				*reason = "key cannot sign (X25519)";
				return VG_ST_BAD_INPUT;
			}
			if (!(info->allow & VG_ALLOW_SIGN_TLS13)) {
				*reason = "key policy does not allow TLS 1.3 signing";
				return VG_ST_NOT_ALLOWED;
			}
			return VG_ST_OK;
		}
		if ((alg == VG_ALG_ED25519) != (info->type == VG_KEY_ED25519) ||
		    (is_rsa_alg(alg) && info->type != VG_KEY_RSA)) {
			*reason = "algorithm does not match the key type";
			return VG_ST_BAD_INPUT;
		}
		if (!(info->allow & VG_ALLOW_SIGN)) {
			*reason = "key policy allows only TLS 1.3 signing";
			return VG_ST_NOT_ALLOWED;
		}
		return VG_ST_OK;
	case VG_OP_X25519:
		if (info->type != VG_KEY_X25519) {
			*reason = "not an X25519 key";
			return VG_ST_BAD_INPUT;
		}
		return (info->allow & VG_ALLOW_X25519) ? VG_ST_OK
						       : (*reason = "key policy forbids x25519",
							  VG_ST_NOT_ALLOWED);
	case VG_OP_RSA_PRIVATE:
		if (info->type != VG_KEY_RSA) {
			*reason = "not an RSA key";
			return VG_ST_BAD_INPUT;
		}
		return (info->allow & VG_ALLOW_RSA_PRIVATE)
			       ? VG_ST_OK
			       : (*reason = "key policy forbids rsa-private", VG_ST_NOT_ALLOWED);
	default:
		*reason = "not a key operation";
		return VG_ST_UNKNOWN_OP;
	}
}

static vg_hash_alg hash_for_len(size_t len)
{
	return len == 32 ? VG_HASH_SHA256 : len == 48 ? VG_HASH_SHA384 : VG_HASH_SHA512;
}

static int rsa_status(int r, const char **reason)
{
	if (r == 0)
		return VG_ST_OK;
	*reason = vg_strerror(r);
	return r == VG_E_RANGE || r == VG_E_INVALID ? VG_ST_BAD_INPUT : VG_ST_INTERNAL;
}

/* RFC 8446 4.4.3: 64 spaces, context string, 0, transcript hash. */
static size_t tls13_content(uint8_t *buf, uint8_t role, const uint8_t *hash, size_t hlen)
{
	static const char server[] = "TLS 1.3, server CertificateVerify";
	static const char client[] = "TLS 1.3, client CertificateVerify";
	const char *ctx = role == VG_TLS_SERVER ? server : client;
	size_t n = 64, cl = sizeof(server) - 1;
	memset(buf, 0x20, 64);
	memcpy(buf + n, ctx, cl);
	n += cl;
	buf[n++] = 0;
	memcpy(buf + n, hash, hlen);
	return n + hlen;
}

static int sign(const vgd_keyinfo *info, const void *secret, uint8_t alg, uint8_t role,
		const uint8_t *data, size_t len, uint8_t *out, size_t *out_len,
		const char **reason)
{
	uint8_t content[64 + 34 + 64];
	if (alg == VG_ALG_TLS13) {
		if (len != 32 && len != 48 && len != 64) {
			*reason = "transcript hash must be 32, 48 or 64 bytes";
			return VG_ST_BAD_INPUT;
		}
		size_t clen = tls13_content(content, role, data, len);
		if (info->type == VG_KEY_ED25519) {
			data = content;
			len = clen;
			alg = VG_ALG_ED25519;
		} else {
			vg_hash_alg h = hash_for_len(len);
			uint8_t digest[64];
			(void)vg_hash(h, digest, content, clen);
			const vg_rsa_key *rk = secret;
			size_t k = vg_rsa_key_bytes(rk);
			int r = vg_rsa_sign_pss(rk, h, digest, vg_hash_len(h), out, k);
			*out_len = k;
			return rsa_status(r, reason);
		}
	}
	if (alg == VG_ALG_ED25519) {
		const vgd_secret_25519 *s = secret;
		vg_ed25519_sign(out, data, len, s->seed, s->pk);
		*out_len = 64;
		return VG_ST_OK;
	}
	static const vg_hash_alg hashes[] = {VG_HASH_SHA256, VG_HASH_SHA384, VG_HASH_SHA512};
	int pss = alg >= VG_ALG_RSA_PSS_SHA256;
	vg_hash_alg h = hashes[(alg - VG_ALG_RSA_PKCS1_SHA256) % 3];
	if (len != vg_hash_len(h)) {
		*reason = "digest length does not match the hash";
		return VG_ST_BAD_INPUT;
	}
	const vg_rsa_key *rk = secret;
	size_t k = vg_rsa_key_bytes(rk);
	int r = pss ? vg_rsa_sign_pss(rk, h, data, len, out, k)
		    : vg_rsa_sign_pkcs1(rk, h, data, len, out, k);
	*out_len = k;
	return rsa_status(r, reason);
}

int vgd_keyop_run(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
		  uint8_t tls_role, const uint8_t *data, size_t len, uint8_t *out,
		  size_t *out_len, const char **reason)
{
	int st = vgd_policy_check(info, op, alg, reason);
	if (st != VG_ST_OK)
		return st;
	*out_len = 0;
	switch (op) {
	case VG_OP_SIGN:
		return sign(info, secret, alg, tls_role, data, len, out, out_len, reason);
	case VG_OP_X25519: {
		if (len != 32) {
			*reason = "peer value must be 32 bytes";
			return VG_ST_BAD_INPUT;
		}
		const vgd_secret_25519 *s = secret;
		if (vg_x25519(out, s->seed, data) < 0) {
			*reason = "peer value is a low-order point (all-zero shared secret)";
			return VG_ST_BAD_INPUT;
		}
		*out_len = 32;
		return VG_ST_OK;
	}
	case VG_OP_RSA_PRIVATE: {
		const vg_rsa_key *rk = secret;
		size_t k = vg_rsa_key_bytes(rk);
		if (len != k) {
			*reason = "input length must equal the modulus length";
			return VG_ST_BAD_INPUT;
		}
		int r = vg_rsa_private(rk, out, data, len);
		if (r == VG_E_RANGE) {
			*reason = "input is not less than the modulus";
			return VG_ST_BAD_INPUT;
		}
		*out_len = k;
		return rsa_status(r, reason);
	}
	}
	*reason = "not a key operation";
	return VG_ST_UNKNOWN_OP;
}
