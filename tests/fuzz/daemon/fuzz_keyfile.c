/* fuzz_keyfile.c: libFuzzer target for vgd_keyfile_parse (daemon/keyfile.c)
 * on arbitrary bytes: PEM or DER, PKCS#8, PKCS#1 or SEC 1. Properties: no
 * memory error (ASan/UBSan); a success has a known key type and, for RSA,
 * every part inside the decoded buffer, for EC a scalar of its curve's
 * size and a public point of a SEC 1 shape; a failure has a reason and
 * leaves the output wiped. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "keyfile.h"
#include "vg/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int inside(const uint8_t *p, size_t n, const uint8_t *lo, size_t cap)
{
	return p && p >= lo && n <= cap && (size_t)(p - lo) <= cap - n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t der[8192];
	vgd_keyfile kf;
	const char *why = NULL;
	/* A small cap so "too large" paths are reached too. */
	size_t cap = size > 0 && (data[0] & 1) ? 64 : sizeof(der);
	int r = vgd_keyfile_parse(data, size, der, cap, &kf, &why);
	if (r < 0) {
		CHECK(why != NULL && why[0] != 0);
		static const vgd_keyfile zero;
		CHECK(memcmp(&kf, &zero, sizeof(kf)) == 0);
		return 0;
	}
	CHECK(r == 0);
	CHECK(kf.type == VG_KEY_ED25519 || kf.type == VG_KEY_X25519 || kf.type == VG_KEY_RSA ||
	      kf.type == VG_KEY_ECDSA_P256 || kf.type == VG_KEY_ECDSA_P384);
	if (kf.type == VG_KEY_ECDSA_P256 || kf.type == VG_KEY_ECDSA_P384) {
		size_t n = kf.type == VG_KEY_ECDSA_P256 ? 32 : 48;
		CHECK(kf.ec_d_len == n);
		CHECK(kf.ec_pub_len == 0 || (kf.ec_pub[0] == 4 && kf.ec_pub_len == 1 + 2 * n) ||
		      ((kf.ec_pub[0] == 2 || kf.ec_pub[0] == 3) && kf.ec_pub_len == 1 + n));
	}
	if (kf.type == VG_KEY_RSA) {
		/* The parts point into the input (DER) or into der (PEM). */
		const vg_rsa_key_parts *p = &kf.rsa;
		const uint8_t *base = inside(p->n, p->n_len, data, size) ? data : der;
		size_t bcap = base == data ? size : cap;
		CHECK(inside(p->n, p->n_len, base, bcap));
		CHECK(inside(p->e, p->e_len, base, bcap));
		CHECK(inside(p->d, p->d_len, base, bcap));
		CHECK(inside(p->p, p->p_len, base, bcap));
		CHECK(inside(p->q, p->q_len, base, bcap));
		CHECK(inside(p->dp, p->dp_len, base, bcap));
		CHECK(inside(p->dq, p->dq_len, base, bcap));
		CHECK(inside(p->qinv, p->qinv_len, base, bcap));
		CHECK(p->n_len > 0 && p->e_len > 0);
	}
	return 0;
}
