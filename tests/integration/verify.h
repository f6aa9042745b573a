/* verify.h: independent checks of vgd's results with OpenSSL (libcrypto),
 * from the test key files, for the integration, client and daemon tests.
 * Each check returns 1 if the value is right, 0 if not. */
#ifndef VGC_TEST_VERIFY_H
#define VGC_TEST_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

/* The key file (PEM) behind a vgt_default_keys name, or NULL. */
const char *vt_key_file(const char *name);
/* Load the private key of a vgt_default_keys name from d's copy. */
void *vt_load(const vgt_daemon *d, const char *name);
/* The same by file name (e.g. "ed25519.pem"); NULL if unreadable. */
void *vt_load_file(const vgt_daemon *d, const char *file);
void vt_free(void *pkey);
/* sign: alg is a vgc_alg other than tls13; data is the message (ed25519),
 * the digest, or for csr the CertificationRequestInfo. ECDSA signatures
 * are DER here. */
int vt_verify(void *pkey, int alg, const uint8_t *data, size_t len, const uint8_t *sig,
	      size_t sig_len);
/* An ECDSA signature as raw r || s (each the curve's size), re-encoded
 * by OpenSSL and checked as vt_verify does. */
int vt_verify_ecdsa_raw(void *pkey, int alg, const uint8_t *digest, size_t len, const uint8_t *sig,
			size_t sig_len);
/* TLS 1.3 CertificateVerify content (RFC 8446 4.4.3) for role and hash,
 * signed with the key's scheme: Ed25519; RSA-PSS with the transcript
 * hash's digest; ECDSA with the curve's own hash (RFC 8446 4.2.3), DER. */
int vt_verify_tls13(void *pkey, int role, const uint8_t *hash, size_t hash_len,
		    const uint8_t *sig, size_t sig_len);
/* X25519(pkey, peer) computed by OpenSSL equals shared. */
int vt_check_x25519(void *pkey, const uint8_t peer[32], const uint8_t shared[32]);
/* A random valid X25519 public key. */
void vt_x25519_peer(uint8_t peer[32]);
/* m^e mod n == in for the RSA key (out = m^d mod n from vgd). */
int vt_check_rsa_private(void *pkey, const uint8_t *in, size_t len, const uint8_t *out,
			 size_t out_len);
/* Raw public key bytes (32 bytes, the RSA modulus, or the uncompressed
 * EC point) equal pub. */
int vt_check_public(void *pkey, const uint8_t *pub, size_t len);

#endif
