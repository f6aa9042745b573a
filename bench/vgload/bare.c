/* bare.c: the bare kernels timed in-process on one core, with the same
 * keys and inputs the daemon gets, and the check of the daemon's replies
 * against them. Secret: the loaded test keys (wiped on free). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keystore.h"
#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/proto.h"
#include "vg/rsa.h"
#include "vg/sha2.h"
#include "vg/wipe.h"
#include "vg/x25519.h"
#include "vgload.h"

#define NKEYS 6

static const char *const key_files[NKEYS] = {"ed25519.pem", "x25519.pem",     "rsa2048.pem",
					     "rsa3072.pem", "ecdsa-p256.pem", "ecdsa-p384.pem"};

static int is_ec(int type)
{
	return type == VG_KEY_ECDSA_P256 || type == VG_KEY_ECDSA_P384;
}

struct vgl_keys {
	vgd_keyinfo info[NKEYS];
	void *secret[NKEYS];
	size_t secret_len;
};

static int read_file(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	*len = fread(buf, 1, cap, f);
	int bad = ferror(f) || !feof(f);
	fclose(f);
	return bad ? -1 : 0;
}

void vgl_keys_free(vgl_keys *k)
{
	if (!k)
		return;
	for (int i = 0; i < NKEYS; i++) {
		if (!k->secret[i])
			continue;
		if (k->info[i].type == VG_KEY_RSA)
			vg_rsa_key_wipe(k->secret[i]);
		if (is_ec(k->info[i].type))
			vg_ecdsa_key_wipe(k->secret[i]);
		vg_wipe(k->secret[i], k->secret_len);
		free(k->secret[i]);
	}
	free(k);
}

vgl_keys *vgl_keys_load(const char *dir, char *why, size_t whylen)
{
	vgl_keys *k = calloc(1, sizeof(*k));
	static uint8_t buf[16384];
	if (!k) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	k->secret_len = (vgd_key_secret_size() + 63) & ~(size_t)63;
	for (int i = 0; i < NKEYS; i++) {
		char path[512], kwhy[160];
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/%s", dir, key_files[i]);
		k->secret[i] = aligned_alloc(64, k->secret_len);
		if (!k->secret[i] || read_file(path, buf, sizeof(buf), &len) < 0) {
			snprintf(why, whylen, "cannot read %s", path);
			vgl_keys_free(k);
			return NULL;
		}
		int r = vgd_key_from_bytes(buf, len, &k->info[i], k->secret[i], k->secret_len, kwhy,
					   sizeof(kwhy));
		vg_wipe(buf, len);
		if (r != 0) {
			snprintf(why, whylen, "%s: %s", path, kwhy);
			k->info[i].type = 0;
			vgl_keys_free(k);
			return NULL;
		}
	}
	return k;
}

static const void *secret_for(const vgl_keys *k, const vgl_op *op)
{
	if (!op->key_file)
		return k; /* ping: no key; any non-NULL pointer */
	for (int i = 0; i < NKEYS; i++)
		if (strcmp(key_files[i], op->key_file) == 0)
			return k->secret[i];
	return NULL;
}

/* ECDSA as the keyholder runs it for a TLS server: the kernel's r||s,
 * then DER. *len gets the signature's length. 0 or -1. */
static int ecdsa_once(const vg_ecdsa_key *ek, const vgl_op *op, const uint8_t *data, uint8_t *out,
		      size_t *len)
{
	vg_ecdsa_curve curve = vg_ecdsa_key_curve(ek);
	uint8_t raw[VG_ECDSA_MAX_SIG_LEN];
	size_t n = vg_ecdsa_sig_len(curve);
	return vg_ecdsa_sign(ek, data, op->data_len, raw, n) == 0 &&
			       vg_ecdsa_sig_to_der(curve, raw, n, out, VGL_OUT_MAX, len) == 0
		       ? 0
		       : -1;
}

/* One operation, as the keyholder runs it. 0 or -1. */
static int run_once(const void *secret, const vgl_op *op, const uint8_t *data, uint8_t *out)
{
	size_t len;

	if (op->op == VG_OP_SIGN && op->result_len == 0)
		return ecdsa_once(secret, op, data, out, &len);
	if (op->op == VG_OP_PING) {
		memcpy(out, data, op->data_len); /* the daemon echoes the data */
		return 0;
	}
	if (op->op == VG_OP_X25519) {
		const vgd_secret_25519 *s = secret;
		return vg_x25519(out, s->seed, data) == 0 ? 0 : -1;
	}
	if (op->op == VG_OP_SIGN && op->alg == VG_ALG_ED25519) {
		const vgd_secret_25519 *s = secret;
		vg_ed25519_sign_expanded(out, data, op->data_len, s->expanded, s->pk);
		return 0;
	}
	const vg_rsa_key *rk = secret;
	size_t k = vg_rsa_key_bytes(rk);
	if (k != op->result_len)
		return -1;
	if (op->op == VG_OP_RSA_PRIVATE)
		return vg_rsa_private(rk, out, data, k) == 0 ? 0 : -1;
	if (op->alg == VG_ALG_RSA_PKCS1_SHA256)
		return vg_rsa_sign_pkcs1(rk, VG_HASH_SHA256, data, op->data_len, out, k) == 0 ? 0 : -1;
	if (op->alg == VG_ALG_RSA_PSS_SHA256)
		return vg_rsa_sign_pss(rk, VG_HASH_SHA256, data, op->data_len, out, k) == 0 ? 0 : -1;
	return -1;
}

_Static_assert(VG_RSA_MAX_BYTES <= VGL_OUT_MAX, "a job's output holds any RSA result");

int vgl_bare_job_init(vgl_bare_job *j, const vgl_keys *k, const vgl_op *op, const uint8_t *data)
{
	*j = (vgl_bare_job){.secret = secret_for(k, op), .op = op, .data = data};
	/* ping has no kernel: timing the daemon's echo copy would mean nothing. */
	return j->secret && op->op != VG_OP_PING ? 0 : -1;
}

int vgl_bare_job_run(void *job)
{
	vgl_bare_job *j = job;
	return run_once(j->secret, j->op, j->data, j->out);
}

void vgl_bare_job_wipe(vgl_bare_job *j) { vg_wipe(j->out, sizeof(j->out)); }

int vgl_bare_sample(const vgl_keys *k, const vgl_op *op, const uint8_t *data, vgl_sampler *s,
		    uint64_t deadline_ns)
{
	vgl_bare_job j;
	if (vgl_bare_job_init(&j, k, op, data) < 0)
		return -1;
	int r = vgl_sample(s, vgl_bare_job_run, &j, deadline_ns);
	vgl_bare_job_wipe(&j);
	return r;
}

int vgl_bare_check(const vgl_keys *k, const vgl_op *op, const uint8_t *data, const uint8_t *res,
		   size_t len)
{
	const void *secret = secret_for(k, op);
	uint8_t want[VG_RSA_MAX_BYTES];
	if (secret && op->op == VG_OP_SIGN && op->result_len == 0) {
		/* ECDSA: randomised; strict DER, then the signature verifies. */
		vg_ecdsa_curve curve = vg_ecdsa_key_curve(secret);
		size_t n = vg_ecdsa_sig_len(curve), pl;
		const uint8_t *pub = vg_ecdsa_key_public(secret, &pl);
		uint8_t raw[VG_ECDSA_MAX_SIG_LEN];
		return vg_ecdsa_sig_from_der(curve, res, len, raw, n) == 0 &&
				       vg_ecdsa_verify(curve, pub, pl, data, op->data_len, raw,
						       n) == 0
			       ? 0
			       : -1;
	}
	if (!secret || len != op->result_len)
		return -1;
	if (op->op == VG_OP_SIGN && op->alg == VG_ALG_RSA_PSS_SHA256) {
		/* Randomised: verify instead of comparing. */
		const vg_rsa_public_key *pub = vg_rsa_key_public(secret);
		return vg_rsa_verify_pss(pub, VG_HASH_SHA256, data, op->data_len, res, len, 32) == 0
			       ? 0
			       : -1;
	}
	int r = run_once(secret, op, data, want) == 0 && memcmp(want, res, len) == 0 ? 0 : -1;
	vg_wipe(want, sizeof(want));
	return r;
}
