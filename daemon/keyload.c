/* keyload.c: the key-type rows' loading, public description and wiping
 * (keytype.h), by kernel family: a parsed key file (keyfile.h) into a
 * key's arena slot, checked, and its public part for vgd_keyinfo.
 * Secret: the parsed file's private values and the slots. */
#include <stdio.h>
#include <string.h>

#include "errcode.h"
#include "keytype.h"
#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/error.h"
#include "vg/rsa.h"
#include "vg/wipe.h"
#include "vg/x25519.h"

/* ---- Ed25519 and X25519: vgd_secret_25519 ---- */

size_t vgd_kt25519_size(void)
{
	return sizeof(vgd_secret_25519);
}

int vgd_kt_ed25519_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen)
{
	vgd_secret_25519 *s = secret;
	(void)why;
	(void)whylen;
	memcpy(s->seed, kf->seed, 32);
	vg_ed25519_expand(s->expanded, s->seed);
	vg_ed25519_public_key(s->pk, s->seed);
	return 0;
}

int vgd_kt_x25519_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen)
{
	vgd_secret_25519 *s = secret;
	(void)why;
	(void)whylen;
	memcpy(s->seed, kf->seed, 32);
	vg_x25519_base(s->pk, s->seed);
	return 0;
}

int vgd_kt25519_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen)
{
	const vgd_secret_25519 *s = secret;
	(void)why;
	(void)whylen;
	memcpy(info->pub, s->pk, 32);
	info->pub_len = 32;
	return 0;
}

void vgd_kt25519_wipe(void *secret)
{
	vg_wipe(secret, sizeof(vgd_secret_25519));
}

/* ---- RSA: vg_rsa_key ---- */

size_t vgd_kt_rsa_size(void)
{
	return vg_rsa_key_size();
}

/* Bits of a big-endian unsigned integer (a public modulus). */
static size_t be_bits(const uint8_t *p, size_t n)
{
	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	if (n == 0)
		return 0;
	size_t bits = 8 * (n - 1);
	for (unsigned v = p[0]; v != 0; v >>= 1)
		bits++;
	return bits;
}

int vgd_kt_rsa_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen)
{
	vg_rsa_key *rk = secret;
	size_t bits = be_bits(kf->rsa.n, kf->rsa.n_len);
	const char *check = "";
	int r = vg_rsa_key_init_why(rk, &kf->rsa, &check);
	if (r < 0 && (bits < VG_RSA_MIN_BITS || bits > VG_RSA_MAX_BITS)) {
		/* Say what would do, not only that this does not. */
		snprintf(why, whylen,
			 "RSA key rejected: %zu-bit modulus; vgd supports RSA keys of "
			 "%d to %d bits",
			 bits, VG_RSA_MIN_BITS, VG_RSA_MAX_BITS);
		return vgd_err_from_kernel(r);
	}
	if (r < 0) {
		/* The check that failed (n is not p*q, dp is not d mod (p-1),
		 * ...): "invalid key" alone sends an admin guessing. */
		snprintf(why, whylen, "RSA key rejected: %s", check[0] ? check : vg_strerror(r));
		return vgd_err_from_kernel(r);
	}
	return 0;
}

int vgd_kt_rsa_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen)
{
	int r = vg_rsa_public_export(vg_rsa_key_public(secret), info->pub, sizeof(info->pub),
				     &info->pub_len, info->rsa_e, sizeof(info->rsa_e),
				     &info->rsa_e_len);
	if (r < 0) {
		snprintf(why, whylen, "RSA public exponent larger than 64 bits");
		return vgd_err_from_kernel(r);
	}
	return 0;
}

void vgd_kt_rsa_wipe(void *secret)
{
	vg_rsa_key_wipe(secret);
}

/* ---- ECDSA: vg_ecdsa_key ---- */

size_t vgd_kt_ecdsa_size(void)
{
	return vg_ecdsa_key_size();
}

/* Does the public point a key file carries (uncompressed, or compressed:
 * the sign of Y in the prefix) name the key's own point pub (04||X||Y)?
 * Public values: no need for constant time. */
static int ec_pub_matches(const uint8_t *file, size_t file_len, const uint8_t *pub, size_t len)
{
	size_t n = (len - 1) / 2;
	if (file_len == len)
		return memcmp(file, pub, len) == 0;
	return file_len == 1 + n && file[0] == (uint8_t)(0x02 | (pub[len - 1] & 1)) &&
	       memcmp(file + 1, pub + 1, n) == 0;
}

/* An EC key on the kernels' curve into its slot, checked against the
 * public point the file carries, if any. */
static int load_ec(vg_ecdsa_curve curve, const vgd_keyfile *kf, void *secret, char *why,
		   size_t whylen)
{
	vg_ecdsa_key *ek = secret;
	size_t pl;
	int r = vg_ecdsa_key_init(ek, curve, kf->ec_d, kf->ec_d_len);
	if (r == VG_E_KEY) {
		snprintf(why, whylen, "EC private key out of range (zero, or not below the order)");
		return VGD_E_INVALID;
	}
	if (r < 0) {
		snprintf(why, whylen, "EC key rejected: %s", vg_strerror(r));
		return vgd_err_from_kernel(r);
	}
	const uint8_t *pub = vg_ecdsa_key_public(ek, &pl);
	if (kf->ec_pub_len != 0 && !ec_pub_matches(kf->ec_pub, kf->ec_pub_len, pub, pl)) {
		snprintf(why, whylen, "the public key in the file does not match its private key");
		vg_ecdsa_key_wipe(ek);
		return VGD_E_INVALID;
	}
	return 0;
}

int vgd_kt_p256_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen)
{
	return load_ec(VG_ECDSA_P256, kf, secret, why, whylen);
}

int vgd_kt_p384_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen)
{
	return load_ec(VG_ECDSA_P384, kf, secret, why, whylen);
}

int vgd_kt_ecdsa_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen)
{
	size_t pl;
	const uint8_t *pub = vg_ecdsa_key_public(secret, &pl);
	(void)why;
	(void)whylen;
	memcpy(info->pub, pub, pl);
	info->pub_len = pl;
	return 0;
}

void vgd_kt_ecdsa_wipe(void *secret)
{
	vg_ecdsa_key_wipe(secret);
}
