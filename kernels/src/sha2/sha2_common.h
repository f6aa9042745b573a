/* sha2_common.h: big-endian load/store helpers and the block buffering
 * shared by the SHA-2 files. Message bytes may be secret: nothing here
 * branches on their values, only on lengths. */
#ifndef VG_SHA2_COMMON_H
#define VG_SHA2_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t vg_load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t vg_load_be64(const uint8_t *p)
{
	return (uint64_t)vg_load_be32(p) << 32 | vg_load_be32(p + 4);
}

static inline void vg_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void vg_store_be64(uint8_t *p, uint64_t v)
{
	vg_store_be32(p, (uint32_t)(v >> 32));
	vg_store_be32(p + 4, (uint32_t)v);
}

/* Feed len bytes into a hash whose partial block is buf[0..*buflen): top
 * up and compress the partial block, compress whole blocks straight from
 * data, keep the tail. blocks(state, p, n) compresses n blocks. Inlined
 * with a constant blocks, so the call is direct. */
static inline void vg_sha2_absorb(void *state, uint8_t *buf, size_t *buflen, size_t block,
				  void (*blocks)(void *state, const uint8_t *p, size_t n),
				  const void *data, size_t len)
{
	const uint8_t *p = data;

	if (len == 0)
		return; /* data may be NULL */
	if (*buflen > 0) {
		size_t take = block - *buflen;
		if (take > len)
			take = len;
		memcpy(buf + *buflen, p, take);
		*buflen += take;
		p += take;
		len -= take;
		if (*buflen < block)
			return;
		blocks(state, buf, 1);
		*buflen = 0;
	}
	size_t nblocks = len / block;
	blocks(state, p, nblocks);
	p += nblocks * block;
	len -= nblocks * block;
	memcpy(buf, p, len);
	*buflen = len;
}

#endif
