/* vg/proto_x509.h: the few X.509 pieces the daemon and vgctl must agree
 * on byte for byte: DER headers (der.c), a key's SubjectPublicKeyInfo
 * (spki.c) and the check of a PKCS#10 CertificationRequestInfo before
 * the keyholder signs it with ALG csr (csrinfo.c, PROTOCOL.md 6.5.2).
 * One copy, so the SubjectPublicKeyInfo vgctl puts in a request is the
 * one the keyholder compares it with. Everything here is public data:
 * public keys, names, requests to be signed. */
#ifndef VG_PROTO_X509_H
#define VG_PROTO_X509_H

#include <stddef.h>
#include <stdint.h>

/* ---- DER (X.690) definite-length headers ----
 * Lengths up to 65535 bytes, the most one request can carry: the short
 * form below 128, else the long form with one or two length bytes. */
#define VG_DER_HDR_MAX 4u

/* Write the header of an element with tag and len content bytes at p, or
 * only count it when p is NULL. Returns its length (2..4), or 0 when len
 * is above 65535. */
size_t vg_der_hdr(uint8_t *p, uint8_t tag, size_t len);

/* An INTEGER holding the unsigned big-endian value v[0..n): minimal (no
 * leading zero bytes but one before a top bit set, since DER integers are
 * signed). Written at p, or only counted when p is NULL. Returns the
 * element's length, or 0 for n == 0 or a value too long for vg_der_hdr. */
size_t vg_der_uint(uint8_t *p, const uint8_t *v, size_t n);

/* Read the header of one element at p[0..left) with exactly this tag:
 * a one-byte tag, a definite length in its shortest form, and contents
 * that fit in left. Returns the header's length with *len the content
 * length, or 0 (anything else: another tag, an indefinite or non-minimal
 * length, a length over 65535, an overrun). */
size_t vg_der_read(const uint8_t *p, size_t left, uint8_t tag, size_t *len);

/* ---- SubjectPublicKeyInfo (RFC 5280 4.1.2.7) ----
 * Ed25519 / X25519: RFC 8410 (the algorithm OID, no parameters, the
 * 32-byte key). ECDSA: RFC 5480 (id-ecPublicKey, the named curve, the
 * uncompressed point). RSA: RFC 8017 A.1 (rsaEncryption with NULL
 * parameters, RSAPublicKey { n, e }). */
/* The largest: RSA-4096 with an 8-byte exponent is 556 bytes. */
#define VG_SPKI_MAX 600u

/* The DER SubjectPublicKeyInfo of a key of type (VG_KEY_*) whose public
 * value is pub (KEYINFO's PUBKEY) and, for RSA, exponent rsa_e (RSA_E;
 * ignored for the others), written to out. Returns its length, or 0 for
 * an unknown type, a public value of the wrong length or form, or cap too
 * small. */
size_t vg_spki_encode(int type, const uint8_t *pub, size_t pub_len, const uint8_t *rsa_e,
		      size_t rsa_e_len, uint8_t *out, size_t cap);

/* ---- CertificationRequestInfo (RFC 2986 4.1) ---- */
/* DATA bounds of ALG csr. The shortest request: a SEQUENCE header (2), the
 * version (3), an empty Name (2), an Ed25519 SubjectPublicKeyInfo (44)
 * and empty attributes (2). The longest: room for an RSA-4096 key and a
 * long list of names, far below a frame. */
#define VG_CSR_INFO_MIN 53u
#define VG_CSR_INFO_MAX 8192u

/* 0 if data[0..len) is exactly one DER CertificationRequestInfo
 * SEQUENCE { INTEGER 0, Name, SubjectPublicKeyInfo, [0] attributes }
 * whose SubjectPublicKeyInfo is the bytes spki[0..spki_len), else -1.
 * The Name and the attributes are checked as DER elements (tag, minimal
 * definite length, no overrun), not looked into; the key is compared
 * byte for byte. */
int vg_csr_info_check(const uint8_t *data, size_t len, const uint8_t *spki, size_t spki_len);

#endif
