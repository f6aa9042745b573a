/* vg/hmac.h: HMAC (RFC 2104, FIPS 198-1) with SHA-256, SHA-384 and
 * SHA-512. Secret: the key and the message. Time depends only on their
 * lengths. A context holds the keyed inner and outer hash states; it may
 * be copied to reuse one key for several messages (the RFC 6979 DRBG does
 * this), and vg_hmac_*_final wipes the context it is given. */
#ifndef VG_HMAC_H
#define VG_HMAC_H

#include <stddef.h>
#include <stdint.h>

#include "vg/sha2.h"

typedef struct {
	vg_sha256_ctx inner, outer;
} vg_hmac_sha256_ctx;

typedef struct {
	vg_sha384_ctx inner, outer;
} vg_hmac_sha384_ctx;

typedef struct {
	vg_sha512_ctx inner, outer;
} vg_hmac_sha512_ctx;

/* Keys of any length (a key longer than the block is hashed first). */
void vg_hmac_sha256_init(vg_hmac_sha256_ctx *ctx, const void *key, size_t klen);
void vg_hmac_sha256_update(vg_hmac_sha256_ctx *ctx, const void *data, size_t len);
void vg_hmac_sha256_final(vg_hmac_sha256_ctx *ctx, uint8_t out[VG_SHA256_LEN]);
void vg_hmac_sha256(uint8_t out[VG_SHA256_LEN], const void *key, size_t klen, const void *data,
		    size_t len);

void vg_hmac_sha384_init(vg_hmac_sha384_ctx *ctx, const void *key, size_t klen);
void vg_hmac_sha384_update(vg_hmac_sha384_ctx *ctx, const void *data, size_t len);
void vg_hmac_sha384_final(vg_hmac_sha384_ctx *ctx, uint8_t out[VG_SHA384_LEN]);
void vg_hmac_sha384(uint8_t out[VG_SHA384_LEN], const void *key, size_t klen, const void *data,
		    size_t len);

void vg_hmac_sha512_init(vg_hmac_sha512_ctx *ctx, const void *key, size_t klen);
void vg_hmac_sha512_update(vg_hmac_sha512_ctx *ctx, const void *data, size_t len);
void vg_hmac_sha512_final(vg_hmac_sha512_ctx *ctx, uint8_t out[VG_SHA512_LEN]);
void vg_hmac_sha512(uint8_t out[VG_SHA512_LEN], const void *key, size_t klen, const void *data,
		    size_t len);

#endif
