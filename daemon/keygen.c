/* keygen.c: the key-type rows' generate entry points (keytype.h): a new
 * key from the kernels' constant-time generators (vg/keygen.h), written
 * as the unencrypted PKCS#8 DER (RFC 5958) that keyfile.c reads back:
 * RFC 8410 for Ed25519 and X25519, RFC 5915 ECPrivateKey with its public
 * key for P-256 and P-384 (RFC 5480 curve OIDs), PKCS#1 RSAPrivateKey
 * (RFC 8017 A.1.2) for RSA.
 *
 * Secret: every private value and the DER written. The generators' output
 * lives in a local that is wiped before return; the DER goes only to the
 * caller's buffer, which the caller keeps in secure memory. The encoding
 * has fixed lengths for every type but RSA, whose INTEGERs are minimal
 * (DER): the number of leading zero bytes of d, p, q, dp, dq and qinv
 * decides their lengths and where they are copied from. That is at most a
 * byte or two of length for each, found by a scan that reads every byte
 * and branches on none; it is written into the key file anyway. */
#include <stdio.h>
#include <string.h>

#include "errcode.h"
#include "keytype.h"
#include "vg/keygen.h"
#include "vg/wipe.h"

/* A DER writer that fills its buffer from the end: an element's header is
 * written after its contents, when their length is known, so nesting
 * needs no second pass. */
typedef struct {
	uint8_t *buf;
	size_t pos; /* the written part is buf[pos..cap) */
	int err;
} derw;

static void put(derw *w, const void *p, size_t n)
{
	if (w->err || n > w->pos) {
		w->err = 1;
		return;
	}
	w->pos -= n;
	memcpy(w->buf + w->pos, p, n);
}

static void put_byte(derw *w, uint8_t b)
{
	put(w, &b, 1);
}

/* The header of an element whose contents start at buf[pos] and end at
 * buf[end]. */
static void wrap(derw *w, uint8_t tag, size_t end)
{
	size_t len = end - w->pos;
	uint8_t h[4];
	size_t n = 0;
	if (len >= 65536) {
		w->err = 1;
		return;
	}
	h[n++] = tag;
	if (len >= 256) {
		h[n++] = 0x82;
		h[n++] = (uint8_t)(len >> 8);
	} else if (len >= 128) {
		h[n++] = 0x81;
	}
	h[n++] = (uint8_t)len;
	put(w, h, n);
}

/* INTEGER of the unsigned big-endian v[0..n): leading zero bytes dropped,
 * a zero byte added if the top bit is then set (DER, X.690 8.3). v may be
 * secret: the scan reads every byte and branches on none. */
static void put_uint(derw *w, const uint8_t *v, size_t n)
{
	size_t end = w->pos;
	uint32_t zeros = 0, still = 1, top = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t is_zero = ((uint32_t)v[i] - 1u) >> 31; /* 1 iff v[i] == 0 */
		uint32_t first = still & (is_zero ^ 1u);        /* 1 at the first nonzero */
		top |= (uint32_t)v[i] & (0u - first);
		still &= is_zero;
		zeros += still;
	}
	if (zeros == n) { /* zero itself: one byte */
		put_byte(w, 0);
	} else {
		put(w, v + zeros, n - zeros);
		if (top >> 7)
			put_byte(w, 0);
	}
	wrap(w, 0x02, end);
}

static const uint8_t version0[] = {0x02, 0x01, 0x00};

/* PrivateKeyInfo ::= SEQUENCE { version 0, AlgorithmIdentifier, OCTET
 * STRING privateKey }, around the privateKey contents just written (they
 * end at end). alg is the whole AlgorithmIdentifier. */
static void wrap_pkcs8(derw *w, size_t end, const uint8_t *alg, size_t alg_len)
{
	wrap(w, 0x04, end);
	put(w, alg, alg_len);
	put(w, version0, sizeof(version0));
	wrap(w, 0x30, end);
}

/* The DER is left at the start of der: the writer fills from the end. */
static int finish(derw *w, uint8_t *der, size_t cap, size_t *len, char *why, size_t whylen)
{
	if (w->err) {
		vg_wipe(der, cap);
		snprintf(why, whylen, "key encoding does not fit");
		return VGD_E_INTERNAL;
	}
	*len = cap - w->pos;
	memmove(der, der + w->pos, *len);
	vg_wipe(der + *len, cap - *len);
	return 0;
}

static int kernel_failed(int r, char *why, size_t whylen)
{
	snprintf(why, whylen, "key generation failed: %s",
		 r == VG_E_RANDOM  ? "no randomness (getrandom)"
		 : r == VG_E_FAULT ? "the new key failed its pairwise consistency test"
				   : "kernel error");
	return VGD_E_INTERNAL;
}

static int no_bits(unsigned bits, char *why, size_t whylen)
{
	if (bits == 0)
		return 0;
	snprintf(why, whylen, "this key type has one size");
	return VGD_E_INVALID;
}

/* RFC 8410: PrivateKeyInfo with the 32-byte key as CurvePrivateKey (an
 * OCTET STRING inside the privateKey OCTET STRING). */
static int gen_25519(int (*gen)(uint8_t *, uint8_t *), uint8_t oid_last, unsigned bits,
		     uint8_t *der, size_t cap, size_t *len, char *why, size_t whylen)
{
	if (no_bits(bits, why, whylen) < 0)
		return VGD_E_INVALID;
	uint8_t priv[32], pub[32];
	int r = gen(priv, pub);
	if (r != 0)
		return kernel_failed(r, why, whylen);
	const uint8_t alg[] = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, oid_last};
	derw w = {der, cap, 0};
	size_t end = w.pos;
	put(&w, priv, sizeof(priv));
	wrap(&w, 0x04, end);
	wrap_pkcs8(&w, end, alg, sizeof(alg));
	vg_wipe(priv, sizeof(priv));
	return finish(&w, der, cap, len, why, whylen);
}

static int gen_ed25519_pair(uint8_t *priv, uint8_t *pub)
{
	return vg_ed25519_generate(priv, pub);
}
static int gen_x25519_pair(uint8_t *priv, uint8_t *pub)
{
	return vg_x25519_generate(priv, pub);
}

int vgd_kt_ed25519_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			    size_t whylen)
{
	return gen_25519(gen_ed25519_pair, 0x70, bits, der, cap, len, why, whylen);
}

int vgd_kt_x25519_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			   size_t whylen)
{
	return gen_25519(gen_x25519_pair, 0x6e, bits, der, cap, len, why, whylen);
}

/* RFC 5915 ECPrivateKey { version 1, privateKey OCTET STRING (the
 * curve's length), [1] publicKey BIT STRING } inside PKCS#8 whose
 * AlgorithmIdentifier names id-ecPublicKey and the curve (RFC 5480). */
static int gen_ec(vg_ecdsa_curve curve, const uint8_t *alg, size_t alg_len, unsigned bits,
		  uint8_t *der, size_t cap, size_t *len, char *why, size_t whylen)
{
	if (no_bits(bits, why, whylen) < 0)
		return VGD_E_INVALID;
	uint8_t d[VG_ECDSA_MAX_SCALAR_LEN], pub[VG_ECDSA_MAX_PUBLIC_LEN];
	size_t dl = vg_ecdsa_scalar_len(curve), pl = vg_ecdsa_public_len(curve);
	int r = vg_ecdsa_generate(curve, d, dl, pub, pl);
	if (r != 0)
		return kernel_failed(r, why, whylen);
	derw w = {der, cap, 0};
	size_t end = w.pos;
	size_t pk_end = w.pos;
	put(&w, pub, pl);
	put_byte(&w, 0); /* no unused bits */
	wrap(&w, 0x03, pk_end);
	wrap(&w, 0xa1, pk_end);
	size_t d_end = w.pos;
	put(&w, d, dl);
	wrap(&w, 0x04, d_end);
	const uint8_t version1[] = {0x02, 0x01, 0x01};
	put(&w, version1, sizeof(version1));
	wrap(&w, 0x30, end);
	wrap_pkcs8(&w, end, alg, alg_len);
	vg_wipe(d, sizeof(d));
	return finish(&w, der, cap, len, why, whylen);
}

/* id-ecPublicKey 1.2.840.10045.2.1 with prime256v1 1.2.840.10045.3.1.7 or
 * secp384r1 1.3.132.0.34. */
static const uint8_t alg_p256[] = {0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
				   0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t alg_p384[] = {0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
				   0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22};

int vgd_kt_p256_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			 size_t whylen)
{
	return gen_ec(VG_ECDSA_P256, alg_p256, sizeof(alg_p256), bits, der, cap, len, why, whylen);
}

int vgd_kt_p384_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			 size_t whylen)
{
	return gen_ec(VG_ECDSA_P384, alg_p384, sizeof(alg_p384), bits, der, cap, len, why, whylen);
}

/* rsaEncryption 1.2.840.113549.1.1.1 with NULL parameters. */
static const uint8_t alg_rsa[] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
				  0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

int vgd_kt_rsa_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			size_t whylen)
{
	if (bits != 2048 && bits != 3072 && bits != 4096) {
		snprintf(why, whylen, "RSA keys are 2048, 3072 or 4096 bits");
		return VGD_E_INVALID;
	}
	/* About 4.5 KiB: the caller's stack, wiped below. */
	vg_rsa_keypair kp;
	int r = vg_rsa_generate(bits, VG_RSA_GEN_E, &kp);
	if (r != 0)
		return kernel_failed(r, why, whylen);
	/* RSAPrivateKey ::= SEQUENCE { version 0, n, e, d, p, q, dp, dq,
	 * qinv }, written last field first. */
	derw w = {der, cap, 0};
	size_t end = w.pos;
	put_uint(&w, kp.qinv, kp.qinv_len);
	put_uint(&w, kp.dq, kp.dq_len);
	put_uint(&w, kp.dp, kp.dp_len);
	put_uint(&w, kp.q, kp.q_len);
	put_uint(&w, kp.p, kp.p_len);
	put_uint(&w, kp.d, kp.d_len);
	put_uint(&w, kp.e, kp.e_len);
	put_uint(&w, kp.n, kp.n_len);
	put(&w, version0, sizeof(version0));
	wrap(&w, 0x30, end);
	wrap_pkcs8(&w, end, alg_rsa, sizeof(alg_rsa));
	vg_rsa_keypair_wipe(&kp);
	return finish(&w, der, cap, len, why, whylen);
}
