/* md.h: SHA-2 digests for the RSA and ECDSA signatures (see md.c). */
#ifndef VG_PROV_MD_H
#define VG_PROV_MD_H

#include <stddef.h>
#include <stdint.h>

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

#endif
