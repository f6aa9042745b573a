/* sigcost.c: what one handshake signature costs in process, for vghs's
 * transport column: vgd's kernel as the keyholder runs it (the same
 * loader, the same kernel call), and OpenSSL signing as an in-process
 * server does (a digest context per signature, EVP_DigestSign). Both are
 * timed here on this thread, thread CPU time, the median of short
 * batches. The signed message is a TLS 1.3 CertificateVerify content
 * (130 bytes); RSA signs with PSS and SHA-256, as TLS 1.3 and OpenSSL's
 * TLS 1.2 clients choose. Secret: the test keys (published ones), wiped
 * on return. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "keystore.h"
#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/rsa.h"
#include "vg/sha2.h"
#include "vg/wipe.h"
#include "vghs.h"

#define MSG_LEN 130 /* 64 spaces, the context string, 0, a SHA-256 hash */
#define BATCHES 15
#define BATCH_NS 2000000u

static uint64_t thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median microseconds per call of fn(arg) over BATCHES batches; -1 if a
 * call fails. */
static double time_us(int (*fn)(void *), void *arg)
{
	double per[BATCHES];
	if (fn(arg) < 0) /* warm, and check it works */
		return -1;
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = thread_ns(), t;
		unsigned n = 0;
		do {
			if (fn(arg) < 0)
				return -1;
			n++;
		} while ((t = thread_ns()) - t0 < BATCH_NS);
		per[b] = (double)(t - t0) / 1e3 / n;
	}
	qsort(per, BATCHES, sizeof(per[0]), cmp_double);
	return per[BATCHES / 2];
}

/* ---- vgd's kernel, as the keyholder calls it ---- */
typedef struct {
	const vgd_keyinfo *info;
	const void *secret;
	uint8_t msg[MSG_LEN];
} kjob;

static int kernel_once(void *arg)
{
	kjob *j = arg;
	uint8_t sig[VG_RSA_MAX_BYTES], dg[VG_SHA384_LEN];
	if (j->info->type == VG_KEY_ED25519) {
		const vgd_secret_25519 *s = j->secret;
		vg_ed25519_sign_expanded(sig, j->msg, MSG_LEN, s->expanded, s->pk);
		return 0;
	}
	if (j->info->type == VG_KEY_ECDSA_P256 || j->info->type == VG_KEY_ECDSA_P384) {
		vg_ecdsa_curve curve = vg_ecdsa_key_curve(j->secret);
		size_t dl = j->info->type == VG_KEY_ECDSA_P256 ? VG_SHA256_LEN : VG_SHA384_LEN;
		uint8_t raw[VG_ECDSA_MAX_SIG_LEN], der[VG_ECDSA_MAX_SIG_LEN + 16];
		size_t n = vg_ecdsa_sig_len(curve), len;
		if (dl == VG_SHA256_LEN)
			vg_sha256(dg, j->msg, MSG_LEN);
		else
			vg_sha384(dg, j->msg, MSG_LEN);
		return vg_ecdsa_sign(j->secret, dg, dl, raw, n) == 0 &&
			       vg_ecdsa_sig_to_der(curve, raw, n, der, sizeof(der), &len) == 0
			       ? 0
			       : -1;
	}
	const vg_rsa_key *rk = j->secret;
	vg_sha256(dg, j->msg, MSG_LEN);
	return vg_rsa_sign_pss(rk, VG_HASH_SHA256, dg, VG_SHA256_LEN, sig, vg_rsa_key_bytes(rk)) ==
			       0
		       ? 0
		       : -1;
}

static double kernel_us(const uint8_t *pem, size_t len, const uint8_t *msg)
{
	size_t cap = (vgd_key_secret_size() + 63) & ~(size_t)63;
	void *secret = aligned_alloc(64, cap);
	vgd_keyinfo info;
	char why[160];
	double us = -1;
	if (secret && vgd_key_from_bytes(pem, len, &info, secret, cap, why, sizeof(why)) == 0) {
		kjob j = {.info = &info, .secret = secret};
		memcpy(j.msg, msg, MSG_LEN);
		us = time_us(kernel_once, &j);
		if (info.type == VG_KEY_RSA)
			vg_rsa_key_wipe(secret);
		else if (info.type == VG_KEY_ECDSA_P256 || info.type == VG_KEY_ECDSA_P384)
			vg_ecdsa_key_wipe(secret);
	}
	if (secret) {
		vg_wipe(secret, cap);
		free(secret);
	}
	return us;
}

/* ---- OpenSSL, as an in-process server signs ---- */
typedef struct {
	EVP_PKEY *pk;
	const EVP_MD *md; /* NULL for Ed25519 */
	uint8_t msg[MSG_LEN];
} ojob;

static int ossl_once(void *arg)
{
	ojob *j = arg;
	uint8_t sig[1024];
	size_t len = sizeof(sig);
	EVP_PKEY_CTX *pc = NULL;
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	int ok = m && EVP_DigestSignInit(m, &pc, j->md, NULL, j->pk) == 1;
	if (ok && EVP_PKEY_get_base_id(j->pk) == EVP_PKEY_RSA)
		ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) == 1;
	ok = ok && EVP_DigestSign(m, sig, &len, j->msg, MSG_LEN) == 1;
	EVP_MD_CTX_free(m);
	return ok ? 0 : -1;
}

static double ossl_us(const uint8_t *pem, size_t len, const uint8_t *msg)
{
	BIO *b = BIO_new_mem_buf(pem, (int)len);
	ojob j = {.pk = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL};
	BIO_free(b);
	if (!j.pk)
		return -1;
	int id = EVP_PKEY_get_base_id(j.pk);
	if (id != EVP_PKEY_ED25519)
		j.md = id == EVP_PKEY_EC && EVP_PKEY_get_bits(j.pk) > 256 ? EVP_sha384()
									   : EVP_sha256();
	memcpy(j.msg, msg, MSG_LEN);
	double us = time_us(ossl_once, &j);
	EVP_PKEY_free(j.pk);
	return us;
}

int vgh_sig_cost(const char *keys_dir, const vgh_key *k, double *kern, double *ossl)
{
	static uint8_t pem[16384];
	char path[512];
	uint8_t msg[MSG_LEN];
	static const char ctx[] = "TLS 1.3, server CertificateVerify";
	memset(msg, 0x20, 64);
	memcpy(msg + 64, ctx, sizeof(ctx)); /* with its 0 */
	for (size_t i = 64 + sizeof(ctx); i < MSG_LEN; i++)
		msg[i] = (uint8_t)(i * 7);
	*kern = *ossl = -1;
	snprintf(path, sizeof(path), "%s/%s", keys_dir, k->file);
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t len = fread(pem, 1, sizeof(pem), f);
	int bad = ferror(f) || !feof(f);
	fclose(f);
	if (!bad) {
		*kern = kernel_us(pem, len, msg);
		*ossl = ossl_us(pem, len, msg);
	}
	vg_wipe(pem, len);
	return *kern > 0 && *ossl > 0 ? 0 : -1;
}
