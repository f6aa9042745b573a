/* fixture.c: the operation table and the shared inputs of vgbench (fixed
 * seeds and message, the RSA and ECDSA test key files, the digests ECDSA
 * signs). Nothing here is secret. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "vg/sha2.h"

/* One row per op: name, kernel family, RSA size index, ECDSA curve index,
 * randomized (ECDSA signing), for a batch row its operations per call
 * and its single row (batch 0 reads as 1), and for a key generation row
 * what vg_bench_op_keygen says. */
static const struct {
	const char *name, *family;
	int rsa, ec, randomized, batch, single, keygen;
} ops[VG_BENCH_OP_COUNT] = {
	[VG_BENCH_ED_KEYPAIR] = {"ed25519-keypair", "ed25519", -1, -1, 0},
	[VG_BENCH_ED_SIGN64] = {"ed25519-sign-64", "ed25519", -1, -1, 0},
	[VG_BENCH_ED_SIGN1K] = {"ed25519-sign-1k", "ed25519", -1, -1, 0},
	[VG_BENCH_ED_VERIFY] = {"ed25519-verify", "ed25519", -1, -1, 0},
	[VG_BENCH_X_BASE] = {"x25519-base", "x25519", -1, -1, 0},
	[VG_BENCH_X_VAR] = {"x25519-var", "x25519", -1, -1, 0},
	[VG_BENCH_RSA2048_PRIV] = {"rsa2048-private", "rsa", 0, -1, 0},
	[VG_BENCH_RSA2048_PUB] = {"rsa2048-public", "rsa", 0, -1, 0},
	[VG_BENCH_RSA3072_PRIV] = {"rsa3072-private", "rsa", 1, -1, 0},
	[VG_BENCH_RSA3072_PUB] = {"rsa3072-public", "rsa", 1, -1, 0},
	[VG_BENCH_RSA4096_PRIV] = {"rsa4096-private", "rsa", 2, -1, 0},
	[VG_BENCH_RSA4096_PUB] = {"rsa4096-public", "rsa", 2, -1, 0},
	[VG_BENCH_P256_SIGN] = {"p256-sign", "p256", -1, 0, 1},
	[VG_BENCH_P256_VERIFY] = {"p256-verify", "p256", -1, 0, 0},
	[VG_BENCH_P384_SIGN] = {"p384-sign", "p384", -1, 1, 1},
	[VG_BENCH_P384_VERIFY] = {"p384-verify", "p384", -1, 1, 0},
	[VG_BENCH_RSA2048_PRIV_X2] = {"rsa2048-private-x2", "rsa-mb", 0, -1, 0, 2,
				      VG_BENCH_RSA2048_PRIV},
	[VG_BENCH_RSA2048_PRIV_X4] = {"rsa2048-private-x4", "rsa-mb", 0, -1, 0, 4,
				      VG_BENCH_RSA2048_PRIV},
	[VG_BENCH_RSA2048_PRIV_X8] = {"rsa2048-private-x8", "rsa-mb", 0, -1, 0, 8,
				      VG_BENCH_RSA2048_PRIV},
	[VG_BENCH_RSA3072_PRIV_X8] = {"rsa3072-private-x8", "rsa-mb", 1, -1, 0, 8,
				      VG_BENCH_RSA3072_PRIV},
	[VG_BENCH_RSA4096_PRIV_X8] = {"rsa4096-private-x8", "rsa-mb", 2, -1, 0, 8,
				      VG_BENCH_RSA4096_PRIV},
	[VG_BENCH_P256_SIGN_X2] = {"p256-sign-x2", "p256-mb", -1, 0, 1, 2, VG_BENCH_P256_SIGN},
	[VG_BENCH_P256_SIGN_X4] = {"p256-sign-x4", "p256-mb", -1, 0, 1, 4, VG_BENCH_P256_SIGN},
	[VG_BENCH_P256_SIGN_X8] = {"p256-sign-x8", "p256-mb", -1, 0, 1, 8, VG_BENCH_P256_SIGN},
	[VG_BENCH_P384_SIGN_X2] = {"p384-sign-x2", "p384-mb", -1, 1, 1, 2, VG_BENCH_P384_SIGN},
	[VG_BENCH_P384_SIGN_X4] = {"p384-sign-x4", "p384-mb", -1, 1, 1, 4, VG_BENCH_P384_SIGN},
	[VG_BENCH_P384_SIGN_X8] = {"p384-sign-x8", "p384-mb", -1, 1, 1, 8, VG_BENCH_P384_SIGN},
	[VG_BENCH_X_VAR_X2] = {"x25519-var-x2", "x25519-mb", -1, -1, 0, 2, VG_BENCH_X_VAR},
	[VG_BENCH_X_VAR_X4] = {"x25519-var-x4", "x25519-mb", -1, -1, 0, 4, VG_BENCH_X_VAR},
	[VG_BENCH_X_VAR_X8] = {"x25519-var-x8", "x25519-mb", -1, -1, 0, 8, VG_BENCH_X_VAR},
	[VG_BENCH_ED_SIGN64_X2] = {"ed25519-sign-64-x2", "ed25519-mb", -1, -1, 0, 2,
				   VG_BENCH_ED_SIGN64},
	[VG_BENCH_ED_SIGN64_X4] = {"ed25519-sign-64-x4", "ed25519-mb", -1, -1, 0, 4,
				   VG_BENCH_ED_SIGN64},
	[VG_BENCH_ED_SIGN64_X8] = {"ed25519-sign-64-x8", "ed25519-mb", -1, -1, 0, 8,
				   VG_BENCH_ED_SIGN64},
	[VG_BENCH_RSA2048_KEYGEN] = {"rsa2048-keygen", "rsa", -1, -1, 0, 0, 0, 2048},
	[VG_BENCH_RSA3072_KEYGEN] = {"rsa3072-keygen", "rsa", -1, -1, 0, 0, 0, 3072},
	[VG_BENCH_RSA4096_KEYGEN] = {"rsa4096-keygen", "rsa", -1, -1, 0, 0, 0, 4096},
	[VG_BENCH_P256_KEYGEN] = {"p256-keygen", "p256", -1, -1, 0, 0, 0, 1},
	[VG_BENCH_P384_KEYGEN] = {"p384-keygen", "p384", -1, -1, 0, 0, 0, 2},
	[VG_BENCH_ED_KEYGEN] = {"ed25519-keygen", "ed25519", -1, -1, 0, 0, 0, -1},
	[VG_BENCH_X_KEYGEN] = {"x25519-keygen", "x25519", -1, -1, 0, 0, 0, -2},
};

const char *vg_bench_op_name(int op) { return ops[op].name; }
const char *vg_bench_op_family(int op) { return ops[op].family; }
int vg_bench_op_rsa_index(int op) { return ops[op].rsa; }
int vg_bench_op_ec_index(int op) { return ops[op].ec; }
int vg_bench_op_is_ecdsa_sign(int op) { return ops[op].randomized; }
int vg_bench_op_keygen(int op) { return ops[op].keygen; }

size_t vg_bench_keygen_len(int op)
{
	int k = ops[op].keygen;
	return k > 2 ? (size_t)k / 8 : k == 1 ? 65 : k == 2 ? 97 : 32;
}

int vg_bench_op_batch(int op) { return ops[op].batch > 1 ? ops[op].batch : 1; }
int vg_bench_op_single(int op) { return ops[op].batch > 1 ? ops[op].single : op; }

int vg_bench_has(const vg_bench_impl *impl, int op)
{
	return impl->has(impl == &vg_bench_ours ? op : vg_bench_op_single(op));
}

int vg_bench_one(const vg_bench_impl *impl, int op, uint8_t *out)
{
	int r = 0;
	if (impl == &vg_bench_ours)
		return impl->one(op, out);
	for (int i = 0; i < vg_bench_op_batch(op) && r >= 0; i++)
		r = impl->one(vg_bench_op_single(op), out);
	return r;
}

/* Whole file into a malloc'd buffer; key files are a few KiB. */
static int read_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	size_t cap = 16384, n = 0;
	uint8_t *buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
		if (n == cap) { /* larger than any key file we expect */
			free(buf);
			fclose(f);
			return -EFBIG;
		}
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* keydir/name into *file (NULL with a note on stderr when it cannot be
 * read: the ops that need it are skipped). */
static int read_key(const char *keydir, const char *name, uint8_t **file, size_t *len)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/%s", keydir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	int r = read_file(path, file, len);
	if (r < 0) {
		fprintf(stderr, "vgbench: %s: %s; its ops are skipped\n", path, strerror(-r));
		*file = NULL;
	}
	return 0;
}

int vg_bench_fixture_init(vg_bench_fixture *fx, const char *keydir)
{
	static const unsigned bits[VG_BENCH_RSA_SIZES] = {2048, 3072, 4096};
	static const struct {
		const char *name, *file;
		unsigned bits;
		vg_hash_alg hash; /* the one matching the curve's size, as TLS 1.3 pairs them */
	} curves[VG_BENCH_EC_CURVES] = {
		{"P-256", "ecdsa-p256.pem", 256, VG_HASH_SHA256},
		{"P-384", "ecdsa-p384.pem", 384, VG_HASH_SHA384},
	};
	memset(fx, 0, sizeof(*fx));
	/* Fixed, arbitrary inputs: every run times the same work. */
	for (size_t i = 0; i < 32; i++) {
		fx->ed_seed[i] = (uint8_t)(0x9d + 7 * i);
		fx->x_scalar[i] = (uint8_t)(0x41 + 13 * i);
	}
	for (size_t i = 0; i < sizeof(fx->msg); i++)
		fx->msg[i] = (uint8_t)(i * 31 + 5);
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		char name[32];
		fx->rsa[s].bits = bits[s];
		snprintf(name, sizeof(name), "rsa%u.pem", bits[s]);
		if (read_key(keydir, name, &fx->rsa[s].file, &fx->rsa[s].file_len) < 0)
			return -ENAMETOOLONG;
		/* Input for the private operation: below n because its top byte
		 * is zero (n has k bytes with a nonzero top byte). */
		for (size_t i = 0; i < sizeof(fx->rsa[s].priv_in); i++)
			fx->rsa[s].priv_in[i] = (uint8_t)(i * 151 + 3);
		fx->rsa[s].priv_in[0] = 0;
	}
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		fx->ec[c].name = curves[c].name;
		fx->ec[c].bits = curves[c].bits;
		fx->ec[c].n_len = curves[c].bits / 8;
		if (read_key(keydir, curves[c].file, &fx->ec[c].file, &fx->ec[c].file_len) < 0)
			return -ENAMETOOLONG;
		fx->ec[c].digest_len = vg_hash_len(curves[c].hash);
		if (vg_hash(curves[c].hash, fx->ec[c].digest, fx->msg, VG_BENCH_VERIFY_LEN) < 0)
			return -EINVAL;
	}
	return 0;
}

void vg_bench_fixture_free(vg_bench_fixture *fx)
{
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		free(fx->rsa[s].file);
		fx->rsa[s].file = NULL;
	}
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		free(fx->ec[c].file);
		fx->ec[c].file = NULL;
	}
}
