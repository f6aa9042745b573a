/* sha2_common.h: big-endian load/store helpers shared by the SHA-2 files.
 * Nothing here is secret-dependent: these are plain byte moves. */
#ifndef VG_SHA2_COMMON_H
#define VG_SHA2_COMMON_H

#include <stdint.h>

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

#endif
