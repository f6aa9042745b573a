/* hmac.c: HMAC-SHA-256/384/512 (RFC 2104; FIPS 198-1 section 4):
 *   HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)),
 * K0 = K zero-padded to the block size, or H(K) padded if K is longer.
 * Secret: the key and the message; nothing here branches on their
 * values, only on their lengths. The padded key is wiped after use. */
#include <string.h>

#include "vg/hmac.h"
#include "vg/wipe.h"

/* One definition for the three hashes: HMAC_DEFINE(name, block, len)
 * expands to vg_hmac_<name>_{init,update,final} and vg_hmac_<name> over
 * vg_<name>_{init,update,final}. */
#define HMAC_DEFINE(H, BLOCK, LEN)                                                         \
	void vg_hmac_##H##_init(vg_hmac_##H##_ctx *ctx, const void *key, size_t klen)      \
	{                                                                                  \
		uint8_t k0[BLOCK];                                                         \
                                                                                           \
		memset(k0, 0, sizeof(k0));                                                 \
		if (klen > BLOCK)                                                          \
			vg_##H(k0, key, klen); /* K0 = H(K) || 0... */                     \
		else if (klen > 0)                                                         \
			memcpy(k0, key, klen);                                             \
		for (size_t i = 0; i < BLOCK; i++)                                         \
			k0[i] ^= 0x36; /* ipad */                                          \
		vg_##H##_init(&ctx->inner);                                                \
		vg_##H##_update(&ctx->inner, k0, BLOCK);                                   \
		for (size_t i = 0; i < BLOCK; i++)                                         \
			k0[i] ^= 0x36 ^ 0x5c; /* opad */                                   \
		vg_##H##_init(&ctx->outer);                                                \
		vg_##H##_update(&ctx->outer, k0, BLOCK);                                   \
		vg_wipe(k0, sizeof(k0));                                                   \
	}                                                                                  \
                                                                                           \
	void vg_hmac_##H##_update(vg_hmac_##H##_ctx *ctx, const void *data, size_t len)    \
	{                                                                                  \
		vg_##H##_update(&ctx->inner, data, len);                                   \
	}                                                                                  \
                                                                                           \
	void vg_hmac_##H##_final(vg_hmac_##H##_ctx *ctx, uint8_t out[LEN])                 \
	{                                                                                  \
		uint8_t ih[LEN];                                                           \
                                                                                           \
		vg_##H##_final(&ctx->inner, ih);                                           \
		vg_##H##_update(&ctx->outer, ih, LEN);                                     \
		vg_##H##_final(&ctx->outer, out);                                          \
		vg_wipe(ih, sizeof(ih));                                                   \
		vg_wipe(ctx, sizeof(*ctx));                                                \
	}                                                                                  \
                                                                                           \
	void vg_hmac_##H(uint8_t out[LEN], const void *key, size_t klen, const void *data, \
			 size_t len)                                                       \
	{                                                                                  \
		vg_hmac_##H##_ctx ctx;                                                     \
                                                                                           \
		vg_hmac_##H##_init(&ctx, key, klen);                                       \
		vg_hmac_##H##_update(&ctx, data, len);                                     \
		vg_hmac_##H##_final(&ctx, out);                                            \
	}

HMAC_DEFINE(sha256, VG_SHA256_BLOCK, VG_SHA256_LEN)
HMAC_DEFINE(sha384, VG_SHA512_BLOCK, VG_SHA384_LEN)
HMAC_DEFINE(sha512, VG_SHA512_BLOCK, VG_SHA512_LEN)
