/* keyfile.h: parse private-key files: PEM or DER; PKCS#8 (RFC 5208/5958)
 * for Ed25519, X25519 (RFC 8410), RSA and EC (RFC 5915 inside, with
 * id-ecPublicKey and a named curve, RFC 5480); PKCS#1 RSAPrivateKey; SEC 1
 * ECPrivateKey (`EC PRIVATE KEY`, RFC 5915). The input and everything
 * decoded from it are secret: callers keep them in secmem and wipe them. */
#ifndef VGD_KEYFILE_H
#define VGD_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#include "vg/rsa.h"

#define VGD_EC_MAX_SCALAR 48                         /* P-384 */
#define VGD_EC_MAX_POINT (1 + 2 * VGD_EC_MAX_SCALAR) /* uncompressed P-384 */

typedef struct {
	int type;          /* VG_KEY_ED25519, _X25519, _RSA, _ECDSA_P256, _ECDSA_P384 */
	uint8_t seed[32];  /* Ed25519 seed or X25519 scalar */
	vg_rsa_key_parts rsa; /* points into the caller's DER buffer */
	/* EC keys: the private scalar d, left-padded to the curve's size
	 * (32 or 48 bytes), and the public point the file carries, if any
	 * (SEC 1 encoding, as written: 04||X||Y, or 02/03||X compressed),
	 * for the loader to compare with d's. */
	uint8_t ec_d[VGD_EC_MAX_SCALAR];
	size_t ec_d_len;
	uint8_t ec_pub[VGD_EC_MAX_POINT];
	size_t ec_pub_len; /* 0: the file has no public key */
} vgd_keyfile;

/* Parse in[0..len) (PEM text or DER). PEM is decoded into der (cap bytes);
 * DER input is used in place (der may then be unused). On failure returns
 * a negative VGD_E_* and *why says what is wrong. */
int vgd_keyfile_parse(const uint8_t *in, size_t len, uint8_t *der, size_t cap,
		      vgd_keyfile *kf, const char **why);

#endif
