/* vg/sha2.h: SHA-256, SHA-384 and SHA-512 (FIPS 180-4), one-shot and
 * incremental. The message may be secret: processing time depends only on
 * its length. Contexts hold message data; vg_sha*_final wipes them. */
#ifndef VG_SHA2_H
#define VG_SHA2_H

#include <stddef.h>
#include <stdint.h>

#define VG_SHA256_LEN 32
#define VG_SHA384_LEN 48
#define VG_SHA512_LEN 64
#define VG_SHA256_BLOCK 64
#define VG_SHA512_BLOCK 128

typedef struct {
	uint32_t h[8];
	uint64_t nbytes;
	uint8_t buf[VG_SHA256_BLOCK];
	size_t buflen;
} vg_sha256_ctx;

typedef struct {
	uint64_t h[8];
	uint64_t nbytes; /* messages up to 2^64 - 1 bytes */
	uint8_t buf[VG_SHA512_BLOCK];
	size_t buflen;
} vg_sha512_ctx;

typedef vg_sha512_ctx vg_sha384_ctx;

void vg_sha256_init(vg_sha256_ctx *ctx);
void vg_sha256_update(vg_sha256_ctx *ctx, const void *data, size_t len);
void vg_sha256_final(vg_sha256_ctx *ctx, uint8_t out[VG_SHA256_LEN]);
void vg_sha256(uint8_t out[VG_SHA256_LEN], const void *data, size_t len);

void vg_sha384_init(vg_sha384_ctx *ctx);
void vg_sha384_update(vg_sha384_ctx *ctx, const void *data, size_t len);
void vg_sha384_final(vg_sha384_ctx *ctx, uint8_t out[VG_SHA384_LEN]);
void vg_sha384(uint8_t out[VG_SHA384_LEN], const void *data, size_t len);

void vg_sha512_init(vg_sha512_ctx *ctx);
void vg_sha512_update(vg_sha512_ctx *ctx, const void *data, size_t len);
void vg_sha512_final(vg_sha512_ctx *ctx, uint8_t out[VG_SHA512_LEN]);
void vg_sha512(uint8_t out[VG_SHA512_LEN], const void *data, size_t len);

/* Hash selector used by RSA padding and the protocol. */
typedef enum {
	VG_HASH_SHA256 = 1,
	VG_HASH_SHA384 = 2,
	VG_HASH_SHA512 = 3,
} vg_hash_alg;

/* Digest length of alg, or 0 if alg is not a vg_hash_alg. */
size_t vg_hash_len(vg_hash_alg alg);
/* One-shot digest with alg; out must hold vg_hash_len(alg) bytes.
 * Returns 0 or VG_E_INVALID for an unknown alg. */
int vg_hash(vg_hash_alg alg, uint8_t *out, const void *data, size_t len);

#endif
