/* ecdsa_nonce.c: ECDSA nonces by the HMAC-DRBG of RFC 6979 section 3.2,
 * with the additional data of section 3.6 (the hedge). The HMAC hash is
 * the one of the digest, as in the RFC (vg_ecdsa_nonce_hlen): SHA-256,
 * SHA-384 or SHA-512, so the deterministic entry point reproduces the
 * RFC's vectors for all three. Secret: x (the private key), K, V and
 * every candidate; the digest h is treated as secret too. Nothing
 * branches on them except the public outcome "this candidate was out of
 * range", which reveals nothing about the k finally used (it is an
 * independent later output).
 *
 * Cost: each key K is absorbed once into the inner and outer HMAC states
 * (two compressions), which every HMAC under that key then copies; the
 * all-zero first key is no different (it could be a constant, saving two
 * of about twenty compressions). */
#include <string.h>

#include "ec/ecdsa_internal.h"
#include "vg/wipe.h"

struct part {
	const uint8_t *p;
	size_t n;
};

size_t vg_ecdsa_nonce_hlen(const struct vg_ec_curve *c, size_t dlen)
{
	if (dlen == VG_SHA256_LEN || dlen == VG_SHA384_LEN || dlen == VG_SHA512_LEN)
		return dlen;
	return c->bytes; /* 32 (SHA-256) or 48 (SHA-384) */
}

/* out = HMAC_K(parts...) with the current K (the keyed context is copied,
 * so K's ipad/opad blocks are hashed once per key, not once per use). */
static void mac(const struct vg_ecdsa_nonce *g, uint8_t *out, const struct part *parts,
		size_t nparts)
{
	if (g->hlen == VG_SHA256_LEN) {
		vg_hmac_sha256_ctx c = g->k.s256;
		for (size_t i = 0; i < nparts; i++)
			vg_hmac_sha256_update(&c, parts[i].p, parts[i].n);
		vg_hmac_sha256_final(&c, out); /* wipes c */
	} else if (g->hlen == VG_SHA384_LEN) {
		vg_hmac_sha384_ctx c = g->k.s384;
		for (size_t i = 0; i < nparts; i++)
			vg_hmac_sha384_update(&c, parts[i].p, parts[i].n);
		vg_hmac_sha384_final(&c, out);
	} else {
		vg_hmac_sha512_ctx c = g->k.s512;
		for (size_t i = 0; i < nparts; i++)
			vg_hmac_sha512_update(&c, parts[i].p, parts[i].n);
		vg_hmac_sha512_final(&c, out);
	}
}

static void set_key(struct vg_ecdsa_nonce *g, const uint8_t *key)
{
	if (g->hlen == VG_SHA256_LEN)
		vg_hmac_sha256_init(&g->k.s256, key, g->hlen);
	else if (g->hlen == VG_SHA384_LEN)
		vg_hmac_sha384_init(&g->k.s384, key, g->hlen);
	else
		vg_hmac_sha512_init(&g->k.s512, key, g->hlen);
}

/* K = HMAC_K(V || sep || rest...); V = HMAC_K(V). Steps d-e, f-g, h.3. */
static void update(struct vg_ecdsa_nonce *g, uint8_t sep, const struct part *rest, size_t nrest)
{
	uint8_t knew[VG_ECDSA_NONCE_MAX_HLEN];
	struct part parts[5] = {{g->v, g->hlen}, {&sep, 1}};

	for (size_t i = 0; i < nrest; i++)
		parts[2 + i] = rest[i];
	mac(g, knew, parts, 2 + nrest);
	set_key(g, knew);
	mac(g, g->v, parts, 1);
	vg_wipe(knew, sizeof(knew));
}

void vg_ecdsa_nonce_init(struct vg_ecdsa_nonce *g, const struct vg_ec_impl *f, const uint8_t *x,
			 const uint8_t *h, size_t hlen, const uint8_t *extra, size_t extra_len)
{
	size_t len = f->curve->bytes;
	uint8_t k0[VG_ECDSA_NONCE_MAX_HLEN];
	struct part rest[3] = {{x, len}, {h, len}, {extra, extra_len}};

	g->f = f;
	g->hlen = hlen;
	g->started = 0;
	memset(g->v, 0x01, g->hlen); /* b. V = 0x01 0x01 ... */
	memset(k0, 0x00, g->hlen);   /* c. K = 0x00 0x00 ... */
	set_key(g, k0);
	update(g, 0x00, rest, extra_len ? 3 : 2); /* d-e. K = HMAC_K(V || 00 || x || h || k'); V */
	update(g, 0x01, rest, extra_len ? 3 : 2); /* f-g. K = HMAC_K(V || 01 || x || h || k'); V */
}

void vg_ecdsa_nonce_next(struct vg_ecdsa_nonce *g, uint64_t *k)
{
	const struct vg_ec_curve *c = g->f->curve;
	size_t n = c->limbs, qlen = c->bytes;
	struct part v = {g->v, g->hlen};
	uint8_t t[2 * VG_ECDSA_NONCE_MAX_HLEN];

	for (;;) {
		if (g->started)
			update(g, 0x00, NULL, 0); /* h.3 continuation: K = HMAC_K(V || 00); V */
		g->started = 1;
		/* h.1-2: T = V_1 || V_2 || ... with V_i = HMAC_K(V_(i-1)) until
		 * T holds qlen bits (two rounds only for SHA-256 with P-384). */
		size_t tlen = 0;
		while (tlen < qlen) { /* public lengths */
			mac(g, g->v, &v, 1);
			memcpy(t + tlen, g->v, g->hlen);
			tlen += g->hlen;
		}
		/* h.3: k = bits2int(T): its leftmost qlen bits (qlen is a whole
		 * number of bytes); use it if 1 <= k <= q - 1. */
		vg_ec_from_bytes(k, t, n);
		uint64_t ok = (vg_ec_iszero(k, n) ^ 1) & vg_ec_lt(k, c->n.m, n);
		vg_ec_declassify(&ok, sizeof(ok)); /* the verdict is public; see the top */
		if (ok)
			break;
	}
	vg_wipe(t, sizeof(t));
}
