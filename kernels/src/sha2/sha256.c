/* sha256.c: SHA-256 (FIPS 180-4, sections 5.3.3 and 6.2): the C
 * compression (the sha256 family's C row) and the streaming interface,
 * which compresses through the family's chosen row (sha256_impl.h).
 * Secret: the message. Time depends only on its length; the message
 * schedule and the context are wiped when they are done with. */
#include <string.h>

#include "sha2/sha256_impl.h"
#include "sha2_common.h"
#include "vg/sha2.h"
#include "vg/wipe.h"

/* First 32 bits of the fractional parts of the cube roots of the first 64
 * primes (FIPS 180-4 section 4.2.2). */
static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Initial hash value: first 32 bits of the fractional parts of the square
 * roots of the first 8 primes (section 5.3.3). */
static const uint32_t H256[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t ror32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* The four functions of section 4.1.2. */
static inline uint32_t big_sigma0(uint32_t x) { return ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22); }
static inline uint32_t big_sigma1(uint32_t x) { return ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25); }
static inline uint32_t small_sigma0(uint32_t x) { return ror32(x, 7) ^ ror32(x, 18) ^ (x >> 3); }
static inline uint32_t small_sigma1(uint32_t x) { return ror32(x, 17) ^ ror32(x, 19) ^ (x >> 10); }

/* Compress nblocks 64-byte blocks into h (section 6.2.2). The schedule is
 * kept as a rolling window of 16 words: w[t & 15] holds W(t-16) until it
 * is replaced by W(t). */
void vg_sha256_blocks_c(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	uint32_t w[16];

	for (; nblocks > 0; nblocks--, p += VG_SHA256_BLOCK) {
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
		uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

		for (unsigned t = 0; t < 64; t++) {
			uint32_t wt;
			if (t < 16) {
				wt = w[t] = vg_load_be32(p + 4 * t);
			} else {
				wt = w[t & 15] += small_sigma1(w[(t - 2) & 15]) + w[(t - 7) & 15] +
						  small_sigma0(w[(t - 15) & 15]);
			}
			/* Ch(e,f,g) = (e & f) ^ (~e & g); Maj(a,b,c) = (a & b) ^ (a & c) ^ (b & c) */
			uint32_t t1 = hh + big_sigma1(e) + ((e & f) ^ (~e & g)) + K256[t] + wt;
			uint32_t t2 = big_sigma0(a) + ((a & b) ^ (a & c) ^ (b & c));
			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
	}
	vg_wipe(w, sizeof(w));
}

void vg_sha256_init(vg_sha256_ctx *ctx)
{
	memcpy(ctx->h, H256, sizeof(ctx->h));
	ctx->nbytes = 0;
	ctx->buflen = 0;
}

/* vg_sha2_absorb's view of the chosen compression. */
static void sha256_absorb_blocks(void *h, const uint8_t *p, size_t n)
{
	vg_sha256_impl()->blocks(h, p, n);
}

void vg_sha256_update(vg_sha256_ctx *ctx, const void *data, size_t len)
{
	ctx->nbytes += len;
	vg_sha2_absorb(ctx->h, ctx->buf, &ctx->buflen, VG_SHA256_BLOCK, sha256_absorb_blocks,
		       data, len);
}

void vg_sha256_final(vg_sha256_ctx *ctx, uint8_t out[VG_SHA256_LEN])
{
	/* Padding (section 5.1.1): 0x80, zeros, then the 64-bit bit length,
	 * so that the padded message is a multiple of 64 bytes. */
	uint64_t bits = ctx->nbytes << 3;
	size_t n = ctx->buflen;

	ctx->buf[n++] = 0x80;
	if (n > VG_SHA256_BLOCK - 8) {
		memset(ctx->buf + n, 0, VG_SHA256_BLOCK - n);
		vg_sha256_impl()->blocks(ctx->h, ctx->buf, 1);
		n = 0;
	}
	memset(ctx->buf + n, 0, VG_SHA256_BLOCK - 8 - n);
	vg_store_be64(ctx->buf + VG_SHA256_BLOCK - 8, bits);
	vg_sha256_impl()->blocks(ctx->h, ctx->buf, 1);
	for (unsigned i = 0; i < 8; i++)
		vg_store_be32(out + 4 * i, ctx->h[i]);
	vg_wipe(ctx, sizeof(*ctx));
}

void vg_sha256(uint8_t out[VG_SHA256_LEN], const void *data, size_t len)
{
	vg_sha256_ctx ctx;
	vg_sha256_init(&ctx);
	vg_sha256_update(&ctx, data, len);
	vg_sha256_final(&ctx, out); /* wipes ctx */
}
