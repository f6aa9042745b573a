/* md.h: SHA-2 digests for the RSA and ECDSA signatures (see md.c). */
#ifndef VG_PROV_MD_H
#define VG_PROV_MD_H

#include <stddef.h>
#include <stdint.h>

#include <vg/proto_tls13.h>
#include <vg/sha2.h>

typedef struct {
	int len; /* 32, 48 or 64 */
	union {
		vg_sha256_ctx s256;
		vg_sha512_ctx s512;
	} u;
} vg_prov_hash;

/* Digest length for an OpenSSL digest name, or 0 if not SHA-256/384/512. */
int vg_prov_md_len(const char *name);
/* OpenSSL's canonical name for a digest length, or NULL. */
const char *vg_prov_md_name(int len);
void vg_prov_hash_init(vg_prov_hash *h, int len);
void vg_prov_hash_update(vg_prov_hash *h, const void *data, size_t len);
void vg_prov_hash_final(vg_prov_hash *h, uint8_t out[64]);
/* The digest of len bytes at data, in one call. */
void vg_prov_digest(int md_len, const void *data, size_t len, uint8_t out[64]);

/* A message given in pieces (digest_sign_update): its hash, and the
 * message itself while it is short enough to be a TLS 1.3
 * CertificateVerify content, which vgd signs in its TLS 1.3 mode. */
typedef struct {
	vg_prov_hash hash;
	uint8_t head[VG_TLS13_CONTENT_MAX]; /* the message while it is short */
	size_t total;
} vg_prov_msg;

void vg_prov_msg_init(vg_prov_msg *m, int md_len);
void vg_prov_msg_update(vg_prov_msg *m, const void *data, size_t len);
/* The whole message if it is short enough to have been kept, else NULL. */
const uint8_t *vg_prov_msg_whole(const vg_prov_msg *m, size_t *len);

#endif
