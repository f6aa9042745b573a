/* sha256_impls.c: the SHA-256 family's table of variants (sha256_impl.h):
 * the C compression first, then the SHA-NI one. Nothing here is secret. */
#include "sha2/sha256_impl.h"
#include "vg/cpu.h"
#include "vg_config.h"

const struct vg_sha256_impl vg_sha256_impls[] = {
	{.v = {"c", 0}, .blocks = vg_sha256_blocks_c},
#if VG_HAVE_ASM
	{.v = {"shani", VG_CPU_SHA}, .blocks = vg_sha256_blocks_shani},
#endif
};

const size_t vg_sha256_nimpls = sizeof(vg_sha256_impls) / sizeof(vg_sha256_impls[0]);
