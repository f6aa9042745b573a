/* keyfile.h: parse private-key files: PEM or DER; PKCS#8 (RFC 5208/5958)
 * for Ed25519, X25519 (RFC 8410) and RSA; PKCS#1 RSAPrivateKey. The input
 * and everything decoded from it are secret: callers keep them in secmem
 * and wipe them. */
#ifndef VGD_KEYFILE_H
#define VGD_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#include "vg/rsa.h"

typedef struct {
	int type;          /* VG_KEY_ED25519, VG_KEY_X25519 or VG_KEY_RSA */
	uint8_t seed[32];  /* Ed25519 seed or X25519 scalar */
	vg_rsa_key_parts rsa; /* points into the caller's DER buffer */
} vgd_keyfile;

/* Parse in[0..len) (PEM text or DER). PEM is decoded into der (cap bytes);
 * DER input is used in place (der may then be unused). On failure returns
 * a negative VGD_E_* and *why says what is wrong. */
int vgd_keyfile_parse(const uint8_t *in, size_t len, uint8_t *der, size_t cap,
		      vgd_keyfile *kf, const char **why);

#endif
