/* key.c: vgd-backed key objects: a key name, its public part (fetched from
 * vgd) and the connection to vgd its operations go through (conn.c),
 * shared with the key's copies. No secrets: the private key stays in
 * vgd. */
#include <stdlib.h>
#include <string.h>

#include "vgdprov.h"

vg_prov_key *vg_prov_key_new(vg_prov *p, int type)
{
	vg_prov_key *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->prov = p;
	k->type = type;
	k->refs = 1;
	return k;
}

int vg_prov_key_up(vg_prov_key *k)
{
	__atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
	return 1;
}

void vg_prov_key_free(vg_prov_key *k)
{
	if (!k || __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	vg_prov_conn_unref(k->conn);
	free(k->socket);
	free(k);
}
int vg_prov_is_ec(int type)
{
	return type == VGC_KEY_ECDSA_P256 || type == VGC_KEY_ECDSA_P384;
}

size_t vg_prov_ec_sig_max(int type)
{
	/* SEQUENCE of two INTEGERs of at most a sign byte + the order's
	 * size: every length below 128, so two-byte headers. */
	size_t n = type == VGC_KEY_ECDSA_P256 ? 32 : type == VGC_KEY_ECDSA_P384 ? 48 : 0;
	return n ? 2 + 2 * (2 + 1 + n) : 0;
}

int vg_prov_key_bits(const vg_prov_key *k)
{
	if (k->type == VGC_KEY_ED25519)
		return 256;
	if (vg_prov_is_ec(k->type))
		return k->type == VGC_KEY_ECDSA_P256 ? 256 : 384;
	if (k->pub_len == 0)
		return 0;
	int top = 8;
	while (top > 0 && !(k->pub[0] & (1u << (top - 1))))
		top--;
	return (int)(k->pub_len - 1) * 8 + top;
}

/* Which socket: the key's URI, then $VGD_SOCKET, then `socket =` from
 * openssl.cnf, then the default. NULL lets libvgclient read $VGD_SOCKET. */
static const char *socket_path(const vg_prov_key *k)
{
	if (k->socket)
		return k->socket;
	if (secure_getenv("VGD_SOCKET"))
		return NULL;
	return k->prov->socket;
}

int vg_prov_key_fetch(vg_prov_key *k, const char *name, const char *socket)
{
	size_t n = strlen(name);
	if (n == 0 || n >= sizeof(k->name))
		return 0;
	memcpy(k->name, name, n + 1);
	free(k->socket);
	k->socket = NULL;
	if (socket && !(k->socket = strdup(socket)))
		return 0;
	vg_prov_conn_unref(k->conn);
	k->conn = vg_prov_conn_new(socket_path(k), k->prov->timeout_ms);
	if (!k->conn)
		return 0;
	vgc_key_info info;
	char err[640];
	int r = vg_prov_conn_public_key(k->conn, k->name, &info, err, sizeof(err));
	if (r < 0) {
		vg_prov_err(k->prov, VG_PROV_R_VGD, "public-key with key %s: %s", k->name, err);
		return 0;
	}
	size_t want = info.type == VGC_KEY_ED25519      ? 32
		      : info.type == VGC_KEY_ECDSA_P256 ? 65
		      : info.type == VGC_KEY_ECDSA_P384 ? 97
							: 0;
	if ((info.type != VGC_KEY_RSA && want == 0) || info.pub_len > sizeof(k->pub) ||
	    info.rsa_e_len > sizeof(k->e) || (want != 0 && info.pub_len != want)) {
		vg_prov_err(k->prov, VG_PROV_R_BAD_ARG,
			    "key %s: not an Ed25519, RSA or ECDSA P-256/P-384 key", name);
		return 0;
	}
	k->type = info.type;
	k->ops = info.ops;
	memcpy(k->pub, info.pub, info.pub_len);
	k->pub_len = info.pub_len;
	memcpy(k->e, info.rsa_e, info.rsa_e_len);
	k->e_len = info.rsa_e_len;
	return 1;
}

/* One request with the key, through its connection; 1, or 0 with the
 * error raised. */
static int call(vg_prov_key *k, vg_prov_req *rq, uint8_t *out, size_t cap, size_t *out_len,
		const char *what)
{
	if (!k->name[0] || !k->conn) {
		vg_prov_err(k->prov, VG_PROV_R_NO_KEY, "no private key");
		return 0;
	}
	rq->key = k->name;
	char err[640];
	int r = vg_prov_conn_call(k->conn, rq, out, cap, out_len, err, sizeof(err));
	if (r < 0)
		vg_prov_err(k->prov, VG_PROV_R_VGD, "%s with key %s: %s", what, k->name, err);
	return r == 0;
}

int vg_prov_key_sign(vg_prov_key *k, int alg, const uint8_t *data, size_t len, uint8_t *sig,
		     size_t cap, size_t *sig_len)
{
	vg_prov_req rq = {.kind = VG_PROV_OP_SIGN, .alg = alg, .data = data, .len = len};
	return call(k, &rq, sig, cap, sig_len, "sign");
}

int vg_prov_key_sign_tls13(vg_prov_key *k, int role, const uint8_t *hash, size_t hash_len,
			   uint8_t *sig, size_t cap, size_t *sig_len)
{
	vg_prov_req rq = {.kind = VG_PROV_OP_TLS13, .role = role, .data = hash, .len = hash_len};
	return call(k, &rq, sig, cap, sig_len, "sign (tls13)");
}

int vg_prov_key_rsa_private(vg_prov_key *k, const uint8_t *in, size_t len, uint8_t *out,
			    size_t cap, size_t *out_len)
{
	vg_prov_req rq = {.kind = VG_PROV_OP_RSA, .data = in, .len = len};
	return call(k, &rq, out, cap, out_len, "rsa-private");
}
