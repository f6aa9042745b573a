/* checkasm_sha2.c: the sha512 family's asm rows (base, adx:
 * kernels/x86_64/sha2/sha512_x86.asm) against its C row: 0 to 5 blocks
 * of random messages from random states, then messages and states of all
 * zero and all one bits (every addition's carries at their extremes), and
 * the state written in place with nothing outside it touched. (The
 * sha256 family's SHA-NI row is checked in tests/checkasm/ec/.) Nothing
 * here is secret. */
#include <string.h>

#include "checkasm.h"
#include "sha2/sha512_impl.h"

#define MAXB 5

static void one(const struct vg_sha512_impl *im, const struct vg_sha512_impl *c0,
		const uint8_t msg[MAXB * 128], const uint64_t h0[8], size_t nb, int i)
{
	uint64_t want[8];
	uint8_t raw[VG_CHECKASM_OUT(64)];
	uint64_t *h = (uint64_t *)(void *)vg_checkasm_guard(raw, 64);

	memcpy(want, h0, 64);
	memcpy(h, h0, 64);
	c0->blocks(want, msg, nb);
	vg_checkasm_call(im->blocks, h, msg, nb);
	if (vg_checkasm_eq(h, want, 64, "i=%d, %zu blocks", i, nb))
		vg_checkasm_guard_ok(raw, 64);
}

static void check_sha512(const struct vg_sha512_impl *im, const struct vg_sha512_impl *c0)
{
	uint8_t msg[MAXB * 128];
	uint64_t h0[8];

	for (int e = 0; e < 4 && vg_checkasm_ok(); e++) {
		memset(msg, e & 1 ? 0xff : 0, sizeof(msg));
		memset(h0, e & 2 ? 0xff : 0, sizeof(h0));
		one(im, c0, msg, h0, MAXB, -1 - e);
	}
	int iters = vg_checkasm_iters() / 5;
	for (int i = 0; i < iters && vg_checkasm_ok(); i++) {
		vg_checkasm_rand_bytes(msg, sizeof(msg));
		vg_checkasm_rand_bytes(h0, sizeof(h0));
		one(im, c0, msg, h0, (size_t)i % (MAXB + 1), i);
	}
}

int main(int argc, char **argv)
{
	vg_checkasm_init("sha2", argc, argv);
	for (size_t i = 1; i < vg_sha512_nimpls; i++) {
		if (vg_checkasm_row(&vg_sha512_impls[i].v)) {
			vg_checkasm_func(vg_sha512_impls[i].v.name);
			check_sha512(&vg_sha512_impls[i], &vg_sha512_impls[0]);
			vg_checkasm_func_done();
		}
	}
	return vg_checkasm_finish();
}
