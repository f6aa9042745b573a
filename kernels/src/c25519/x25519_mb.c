/* x25519_mb.c: vg_x25519_mb (vg/x25519_mb.h), X25519 of up to eight
 * operations in one batch on the chosen c25519_mb row (c25519_mb_impl.h):
 * the lanes' clamped scalars and u-coordinates packed into the transposed
 * layout, one eight-lane ladder, one eight-lane inversion (Fermat's
 * chain, fe.c's, on the row's multiply and squarings), then each lane
 * reduced and encoded alone by fe.c.
 * Secret: every scalar, ladder value and output. Public: the points, n,
 * which lanes are in use, and each lane's all-zero flag (the peer's
 * doing). Nothing branches on or indexes by a secret; the stack scratch
 * is wiped. */
#include <string.h>

#include "c25519/c25519_mb_impl.h"
#include "ct.h"
#include "fe.h"
#include "vg/wipe.h"
#include "vg/x25519_mb.h"

#define LANES VG_C25519_MB_LANES
#define W VG_FE51MB_WORDS

/* Operations below this many run one at a time on an asm row: a batch
 * costs the same at 1 and at 8 lanes, about 2.9 single vg_x25519 on AMD
 * EPYC Zen 5 (ifma rows: 44 us against 15 us, vgbench x25519-var-x8 and
 * x25519-var in one run), so it is even at 3 and pays from 4 on. */
#define MB_MIN 4

/* The batch's stack scratch, wiped as a whole; 64-byte aligned for the
 * zmm loads. */
struct mb_scratch {
	_Alignas(64) uint64_t e[4 * LANES];
	_Alignas(64) uint64_t x1[W];
	_Alignas(64) uint64_t xz[2 * W];
	_Alignas(64) uint64_t z2[W];
	uint8_t s[32];
	vg_fe f;
};

unsigned vg_x25519_mb_batch(const struct vg_c25519_mb_impl *im, uint8_t *const out[],
			    const uint8_t *const scalar[], const uint8_t *const point[], size_t nl)
{
	struct mb_scratch s;
	unsigned zero = 0;

	vg_wipe(&s, sizeof(s));
	for (size_t l = 0; l < nl; l++) {
		/* decodeScalar25519, then the four words of the lane */
		memcpy(s.s, scalar[l], 32);
		s.s[0] &= 248;
		s.s[31] &= 127;
		s.s[31] |= 64;
		for (size_t w = 0; w < 4; w++) {
			uint64_t x = 0;
			for (int j = 7; j >= 0; j--)
				x = x << 8 | s.s[8 * w + (size_t)j];
			s.e[LANES * w + l] = x;
		}
		/* masks bit 255; u >= p is used mod p; limbs below 2^51 */
		vg_fe_frombytes(&s.f, point[l]);
		for (size_t i = 0; i < 5; i++)
			s.x1[LANES * i + l] = s.f.v[i];
	}
	im->ladder(s.xz, s.e, s.x1);
	vg_fe51mb_invert(im, s.z2, s.xz + W); /* z2 = 0 (low-order point) gives 0 */
	im->mul(s.xz, s.xz, s.z2);
	for (size_t l = 0; l < nl; l++) {
		for (size_t i = 0; i < 5; i++)
			s.f.v[i] = s.xz[LANES * i + l];
		vg_fe_tobytes(out[l], &s.f);
		uint64_t acc = 0;
		for (size_t i = 0; i < 32; i++)
			acc |= out[l][i];
		zero |= (unsigned)vg_ct_iszero(acc) << l;
	}
	vg_wipe(&s, sizeof(s));
	return zero;
}

int vg_x25519_mb(uint8_t *const out[], const uint8_t *const scalar[], const uint8_t *const point[],
		 size_t n, int rc[])
{
	const struct vg_c25519_mb_impl *im = vg_c25519_mb_impl();
	size_t single = 0;

	if (!out || !scalar || !point || !rc || n == 0 || n > VG_X25519_MB_MAX)
		return VG_E_INVALID;
	for (size_t i = 0; i < n; i++)
		if (!out[i] || !scalar[i] || !point[i])
			return VG_E_INVALID;
	/* A batch costs the same at any lane count: below MB_MIN operations
	 * the single kernel is faster. The C row batches everything (the
	 * reference, and the tests' --c runs). n is public. */
	if (im != &vg_c25519_mb_impls[0] && n < MB_MIN)
		single = n;
	for (size_t i = 0; i < single; i++)
		rc[i] = vg_x25519(out[i], scalar[i], point[i]);
	if (single == n)
		return 0;
	/* Inputs are read before any output is written: out[i] may be
	 * scalar[i] or point[i]. The flags are public (see vg/x25519.h). */
	unsigned zero = vg_x25519_mb_batch(im, out, scalar, point, n);
	for (size_t i = 0; i < n; i++)
		rc[i] = (int)((zero >> i) & 1) * VG_E_ZERO;
	return 0;
}
