/* c25519_impl.h: the per-tier implementations of the Ed25519/X25519 hot
 * operations and the dispatch that picks one (c25519_dispatch.c). Secret:
 * the scalars and every intermediate value of these operations. */
#ifndef VG_C25519_IMPL_H
#define VG_C25519_IMPL_H

#include <stdint.h>

#include "ge.h"

struct vg_c25519_impl {
	const char *name;  /* "base", "adx", "ifma" */
	uint32_t features; /* vg/cpu.h features it needs */
	/* RFC 7748 X25519 with the clamping; returns 1 if the output is all
	 * zero (low-order peer), else 0. */
	int (*x25519)(uint8_t out[32], const uint8_t scalar[32], const uint8_t peer[32]);
	/* X25519(scalar, 9), through the Ed25519 comb. */
	void (*x25519_base)(uint8_t out[32], const uint8_t scalar[32]);
	/* The RFC 8032 encoding of [a]B, for a < 2^255. */
	void (*base_encode)(uint8_t out[32], const uint8_t a[32]);
	/* VARIABLE TIME, public inputs only (verification): the encoding of
	 * [a]A + [b]B, a[31] <= 127, b[31] <= 127. */
	void (*dsm_encode)(uint8_t out[32], const uint8_t a[32], const vg_ge_p3 *A,
			   const uint8_t b[32]);
};

#define VG_C25519_IMPL_DECL(t) extern const struct vg_c25519_impl vg_c25519_impl_##t;
VG_C25519_IMPL_DECL(base)
VG_C25519_IMPL_DECL(adx)
VG_C25519_IMPL_DECL(ifma)

/* The best implementation for the current features, or NULL for the
 * portable C reference (no asm build, or VG_KERNELS=c in the
 * environment, which the tests use to cover the reference). Re-selected
 * when vg_cpu_generation() changes (tests). */
const struct vg_c25519_impl *vg_c25519_impl(void);

#endif
