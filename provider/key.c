/* key.c: vgd-backed key objects: a key name, its public part (fetched from
 * vgd) and a libvgclient connection used under a lock. No secrets: the
 * private key stays in vgd. */
#include <stdlib.h>
#include <string.h>

#include "vgdprov.h"

vg_prov_key *vg_prov_key_new(vg_prov *p, int type)
{
	vg_prov_key *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	if (pthread_mutex_init(&k->lock, NULL) != 0) {
		free(k);
		return NULL;
	}
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
	vg_client_free(k->client);
	pthread_mutex_destroy(&k->lock);
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

/* Called with k->lock held. */
static vg_client *client_locked(vg_prov_key *k)
{
	if (!k->client) {
		k->client = vg_client_new(socket_path(k));
		if (k->client)
			vg_client_set_timeout(k->client, k->prov->timeout_ms);
	}
	return k->client;
}

/* Finish a call made under the lock: raise the client's message. */
static int done_locked(vg_prov_key *k, int r, const char *what)
{
	if (r < 0)
		vg_prov_err(k->prov, VG_PROV_R_VGD, "%s with key %s: %s", what, k->name,
			    k->client ? vg_client_errmsg(k->client) : vg_client_strerror(r));
	pthread_mutex_unlock(&k->lock);
	return r >= 0;
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
	vgc_key_info info;
	pthread_mutex_lock(&k->lock);
	vg_client *c = client_locked(k);
	int r = c ? vg_client_public_key(c, k->name, &info) : VGC_E_NOMEM;
	if (!done_locked(k, r, "public-key"))
		return 0;
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

static int need_name(vg_prov_key *k)
{
	if (k->name[0])
		return 1;
	vg_prov_err(k->prov, VG_PROV_R_NO_KEY, "no private key");
	return 0;
}

int vg_prov_key_sign(vg_prov_key *k, int alg, const uint8_t *data, size_t len, uint8_t *sig,
		     size_t cap, size_t *sig_len)
{
	if (!need_name(k))
		return 0;
	pthread_mutex_lock(&k->lock);
	vg_client *c = client_locked(k);
	int r = c ? vg_client_sign(c, k->name, alg, data, len, sig, cap, sig_len) : VGC_E_NOMEM;
	return done_locked(k, r, "sign");
}

int vg_prov_key_sign_tls13(vg_prov_key *k, int role, const uint8_t *hash, size_t hash_len,
			   uint8_t *sig, size_t cap, size_t *sig_len)
{
	if (!need_name(k))
		return 0;
	pthread_mutex_lock(&k->lock);
	vg_client *c = client_locked(k);
	int r = c ? vg_client_sign_tls13(c, k->name, role, hash, hash_len, sig, cap, sig_len)
		  : VGC_E_NOMEM;
	return done_locked(k, r, "sign (tls13)");
}

int vg_prov_key_rsa_private(vg_prov_key *k, const uint8_t *in, size_t len, uint8_t *out,
			    size_t cap, size_t *out_len)
{
	if (!need_name(k))
		return 0;
	pthread_mutex_lock(&k->lock);
	vg_client *c = client_locked(k);
	int r = c ? vg_client_rsa_private(c, k->name, in, len, out, cap, out_len) : VGC_E_NOMEM;
	return done_locked(k, r, "rsa-private");
}
