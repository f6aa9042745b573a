/* rsa_pad.c: RSASSA-PKCS1-v1_5 and RSASSA-PSS signature encodings (RFC 8017
 * sections 8.1, 8.2, 9.1, 9.2) around the RSA primitives. Secret: nothing
 * beyond the key, which only rsa_core.c touches; the digest, the encoded
 * message and the PSS salt are public once the signature is out (they are
 * still wiped). Verification handles public data only; the PKCS#1 v1.5
 * check still compares the whole encoding in one pass. */
#include <string.h>

#include "ct.h"
#include "rsa/rsa_key.h"
#include "vg/rsa.h"
#include "vg/sha2.h"
#include "random.h"
#include "vg/wipe.h"

/* DigestInfo prefixes, RFC 8017 section 9.2 note 1: SEQUENCE { SEQUENCE {
 * OID, NULL }, OCTET STRING (hLen bytes) }, followed by the digest. */
static const uint8_t di_sha256[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
				    0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
				    0x01, 0x05, 0x00, 0x04, 0x20};
static const uint8_t di_sha384[] = {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60,
				    0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
				    0x02, 0x05, 0x00, 0x04, 0x30};
static const uint8_t di_sha512[] = {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60,
				    0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
				    0x03, 0x05, 0x00, 0x04, 0x40};
#define DI_LEN sizeof(di_sha256) /* all three are 19 bytes */

/* One incremental hash of any vg_hash_alg. */
typedef struct {
	vg_hash_alg alg;
	union {
		vg_sha256_ctx s256;
		vg_sha512_ctx s512;
	} u;
} hash_ctx;

static void hash_init(hash_ctx *h, vg_hash_alg alg)
{
	h->alg = alg;
	if (alg == VG_HASH_SHA256)
		vg_sha256_init(&h->u.s256);
	else if (alg == VG_HASH_SHA384)
		vg_sha384_init(&h->u.s512);
	else
		vg_sha512_init(&h->u.s512);
}

static void hash_update(hash_ctx *h, const void *data, size_t len)
{
	if (h->alg == VG_HASH_SHA256)
		vg_sha256_update(&h->u.s256, data, len);
	else if (h->alg == VG_HASH_SHA384)
		vg_sha384_update(&h->u.s512, data, len);
	else
		vg_sha512_update(&h->u.s512, data, len);
}

static void hash_final(hash_ctx *h, uint8_t *out)
{
	if (h->alg == VG_HASH_SHA256)
		vg_sha256_final(&h->u.s256, out);
	else if (h->alg == VG_HASH_SHA384)
		vg_sha384_final(&h->u.s512, out);
	else
		vg_sha512_final(&h->u.s512, out);
	vg_wipe(h, sizeof(*h));
}

/* Digest length of a supported alg, 0 otherwise. */
static size_t hlen_of(vg_hash_alg alg)
{
	switch (alg) {
	case VG_HASH_SHA256:
		return VG_SHA256_LEN;
	case VG_HASH_SHA384:
		return VG_SHA384_LEN;
	case VG_HASH_SHA512:
		return VG_SHA512_LEN;
	}
	return 0;
}

/* EM = 0x00 0x01 FF..FF 0x00 DigestInfo(alg, digest), k bytes (EMSA-PKCS1-
 * v1_5, RFC 8017 9.2). k >= 256 always leaves the required >= 8 bytes of
 * FF; checked anyway. */
static int pkcs1_encode(uint8_t *em, size_t k, vg_hash_alg alg, const uint8_t *digest,
			size_t dlen)
{
	const uint8_t *di = alg == VG_HASH_SHA256 ? di_sha256
			    : alg == VG_HASH_SHA384 ? di_sha384
						    : di_sha512;
	size_t tlen = DI_LEN + dlen;

	if (k < tlen + 11)
		return VG_E_INVALID;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, k - tlen - 3);
	em[k - tlen - 1] = 0x00;
	memcpy(em + k - tlen, di, DI_LEN);
	memcpy(em + k - dlen, digest, dlen);
	return 0;
}

int vg_rsa_encode_pkcs1(const vg_rsa_public_key *pub, vg_hash_alg alg, const uint8_t *digest,
			size_t dlen, uint8_t *em, size_t em_len)
{
	if (!pub || !digest || !em)
		return VG_E_INVALID;
	if (hlen_of(alg) == 0 || dlen != hlen_of(alg) || em_len != pub->bytes)
		return VG_E_INVALID;
	return pkcs1_encode(em, em_len, alg, digest, dlen);
}

int vg_rsa_sign_pkcs1(const vg_rsa_key *key, vg_hash_alg alg, const uint8_t *digest, size_t dlen,
		      uint8_t *sig, size_t sig_len)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	int rc;

	if (!key || !sig)
		return VG_E_INVALID;
	rc = vg_rsa_encode_pkcs1(&key->pub, alg, digest, dlen, em, sig_len);
	if (rc == 0)
		rc = vg_rsa_private(key, sig, em, sig_len);
	vg_wipe(em, sizeof(em));
	return rc;
}

int vg_rsa_verify_pkcs1(const vg_rsa_public_key *pub, vg_hash_alg alg, const uint8_t *digest,
			size_t dlen, const uint8_t *sig, size_t sig_len)
{
	uint8_t em[VG_RSA_MAX_BYTES], want[VG_RSA_MAX_BYTES];
	size_t k;
	uint64_t ok;

	/* vg/rsa.h: anything but a valid signature is VG_E_VERIFY, caller
	 * errors included. */
	if (!pub || !digest || !sig)
		return VG_E_VERIFY;
	k = pub->bytes;
	if (hlen_of(alg) == 0 || dlen != hlen_of(alg))
		return VG_E_VERIFY;
	/* Re-encode and compare every byte: no parsing of the padding or the
	 * ASN.1, so no lenient parser to forge against (BER lengths, missing
	 * NULL, garbage after the digest are all just "different"). */
	if (sig_len != k || vg_rsa_public(pub, em, sig, k) != 0 ||
	    pkcs1_encode(want, k, alg, digest, dlen) != 0)
		return VG_E_VERIFY;
	ok = vg_ct_memeq(em, want, k);
	vg_wipe(em, sizeof(em));
	return ok ? 0 : VG_E_VERIFY;
}

/* out[0..len) ^= MGF1(alg, seed) (RFC 8017 B.2.1): the concatenation of
 * Hash(seed || counter) for counter = 0, 1, ... as 4 big-endian bytes. */
static void mgf1_xor(vg_hash_alg alg, uint8_t *out, size_t len, const uint8_t *seed,
		     size_t seed_len)
{
	size_t hlen = hlen_of(alg);
	uint8_t block[VG_SHA512_LEN], ctr[4];
	hash_ctx h;

	for (uint32_t c = 0; len > 0; c++) {
		size_t take = len < hlen ? len : hlen;
		ctr[0] = (uint8_t)(c >> 24);
		ctr[1] = (uint8_t)(c >> 16);
		ctr[2] = (uint8_t)(c >> 8);
		ctr[3] = (uint8_t)c;
		hash_init(&h, alg);
		hash_update(&h, seed, seed_len);
		hash_update(&h, ctr, sizeof(ctr));
		hash_final(&h, block);
		for (size_t i = 0; i < take; i++)
			out[i] ^= block[i];
		out += take;
		len -= take;
	}
	vg_wipe(block, sizeof(block));
}

/* H = Hash(0x00 x 8 || mHash || salt), the PSS M' hash. */
static void pss_hash(vg_hash_alg alg, uint8_t *out, const uint8_t *mhash, size_t hlen,
		     const uint8_t *salt, size_t slen)
{
	static const uint8_t zeros[8] = {0};
	hash_ctx h;

	hash_init(&h, alg);
	hash_update(&h, zeros, sizeof(zeros));
	hash_update(&h, mhash, hlen);
	hash_update(&h, salt, slen);
	hash_final(&h, out);
}

/* PSS geometry: emBits = modBits - 1, so EM has emLen = ceil(emBits / 8)
 * bytes, one fewer than k when modBits = 1 mod 8; the top 8 emLen - emBits
 * bits of EM are zero. */
static size_t pss_emlen(const vg_rsa_public_key *pub) { return (pub->bits - 1 + 7) / 8; }
static uint8_t pss_topmask(const vg_rsa_public_key *pub)
{
	return (uint8_t)(0xff >> (8 * pss_emlen(pub) - (pub->bits - 1)));
}

int vg_rsa_encode_pss(const vg_rsa_public_key *pub, vg_hash_alg alg, const uint8_t *digest,
		      size_t dlen, uint8_t *em, size_t em_len)
{
	uint8_t salt[VG_SHA512_LEN];
	size_t hlen, slen, k, emlen, dblen;
	uint8_t *m;
	int rc;

	if (!pub || !digest || !em)
		return VG_E_INVALID;
	k = pub->bytes;
	hlen = hlen_of(alg);
	slen = hlen; /* salt length = digest length (RFC 8017 9.1 note 4) */
	if (hlen == 0 || dlen != hlen || em_len != k)
		return VG_E_INVALID;
	emlen = pss_emlen(pub);
	if (emlen < hlen + slen + 2)
		return VG_E_INVALID;
	rc = vg_random_bytes(salt, slen);
	if (rc != 0)
		goto out;

	/* em = (0x00 if emLen < k) || EM; EM = maskedDB || H || 0xbc. */
	memset(em, 0, k);
	m = em + (k - emlen);
	dblen = emlen - hlen - 1;
	pss_hash(alg, m + dblen, digest, hlen, salt, slen);
	/* DB = PS (zeros, already) || 0x01 || salt, then masked in place. */
	m[dblen - slen - 1] = 0x01;
	memcpy(m + dblen - slen, salt, slen);
	mgf1_xor(alg, m, dblen, m + dblen, hlen);
	m[0] &= pss_topmask(pub);
	m[emlen - 1] = 0xbc;
out:
	vg_wipe(salt, sizeof(salt));
	if (rc != 0)
		vg_wipe(em, k);
	return rc;
}

int vg_rsa_sign_pss(const vg_rsa_key *key, vg_hash_alg alg, const uint8_t *digest, size_t dlen,
		    uint8_t *sig, size_t sig_len)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	int rc;

	if (!key || !sig)
		return VG_E_INVALID;
	rc = vg_rsa_encode_pss(&key->pub, alg, digest, dlen, em, sig_len);
	if (rc == 0)
		rc = vg_rsa_private(key, sig, em, sig_len);
	vg_wipe(em, sizeof(em));
	return rc;
}

int vg_rsa_verify_pss(const vg_rsa_public_key *pub, vg_hash_alg alg, const uint8_t *digest,
		      size_t dlen, const uint8_t *sig, size_t sig_len, size_t salt_len)
{
	uint8_t em[VG_RSA_MAX_BYTES], h2[VG_SHA512_LEN];
	size_t hlen, k, emlen, dblen, pslen;
	uint8_t *m, top;
	uint64_t ok;

	if (!pub || !digest || !sig)
		return VG_E_VERIFY; /* as above: every failure is VG_E_VERIFY */
	k = pub->bytes;
	hlen = hlen_of(alg);
	if (hlen == 0 || dlen != hlen)
		return VG_E_VERIFY;
	emlen = pss_emlen(pub);
	top = pss_topmask(pub);
	/* RFC 8017 9.1.2 step by step; all of this is public data. */
	if (sig_len != k || emlen < hlen + 2 || salt_len > emlen - hlen - 2)
		return VG_E_VERIFY;
	if (vg_rsa_public(pub, em, sig, k) != 0)
		return VG_E_VERIFY;
	/* I2OSP(m, emLen): a byte in front of EM must be zero. */
	if (k > emlen && em[0] != 0)
		return VG_E_VERIFY;
	m = em + (k - emlen);
	dblen = emlen - hlen - 1;
	pslen = dblen - salt_len - 1;
	if (m[emlen - 1] != 0xbc || (m[0] & (uint8_t)~top) != 0)
		return VG_E_VERIFY;
	/* DB = maskedDB ^ MGF1(H), its top bits cleared. */
	mgf1_xor(alg, m, dblen, m + dblen, hlen);
	m[0] &= top;
	ok = 1;
	for (size_t i = 0; i < pslen; i++)
		ok &= vg_ct_iszero(m[i]);
	ok &= vg_ct_eq(m[pslen], 0x01);
	pss_hash(alg, h2, digest, hlen, m + dblen - salt_len, salt_len);
	ok &= vg_ct_memeq(h2, m + dblen, hlen);
	vg_wipe(em, sizeof(em));
	return ok ? 0 : VG_E_VERIFY;
}
