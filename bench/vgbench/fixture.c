/* fixture.c: the operation names and the shared inputs of vgbench (fixed
 * seeds and message, the RSA test key files). Nothing here is secret. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const struct {
	const char *name, *family;
	int rsa;
} ops[VG_BENCH_OP_COUNT] = {
	[VG_BENCH_ED_KEYPAIR] = {"ed25519-keypair", "ed25519", -1},
	[VG_BENCH_ED_SIGN64] = {"ed25519-sign-64", "ed25519", -1},
	[VG_BENCH_ED_SIGN1K] = {"ed25519-sign-1k", "ed25519", -1},
	[VG_BENCH_ED_VERIFY] = {"ed25519-verify", "ed25519", -1},
	[VG_BENCH_X_BASE] = {"x25519-base", "x25519", -1},
	[VG_BENCH_X_VAR] = {"x25519-var", "x25519", -1},
	[VG_BENCH_RSA2048_PRIV] = {"rsa2048-private", "rsa", 0},
	[VG_BENCH_RSA2048_PUB] = {"rsa2048-public", "rsa", 0},
	[VG_BENCH_RSA3072_PRIV] = {"rsa3072-private", "rsa", 1},
	[VG_BENCH_RSA3072_PUB] = {"rsa3072-public", "rsa", 1},
	[VG_BENCH_RSA4096_PRIV] = {"rsa4096-private", "rsa", 2},
	[VG_BENCH_RSA4096_PUB] = {"rsa4096-public", "rsa", 2},
};

const char *vg_bench_op_name(int op) { return ops[op].name; }
const char *vg_bench_op_family(int op) { return ops[op].family; }
int vg_bench_op_rsa_index(int op) { return ops[op].rsa; }

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

int vg_bench_fixture_init(vg_bench_fixture *fx, const char *keydir)
{
	static const unsigned bits[VG_BENCH_RSA_SIZES] = {2048, 3072, 4096};
	memset(fx, 0, sizeof(*fx));
	/* Fixed, arbitrary inputs: every run times the same work. */
	for (size_t i = 0; i < 32; i++) {
		fx->ed_seed[i] = (uint8_t)(0x9d + 7 * i);
		fx->x_scalar[i] = (uint8_t)(0x41 + 13 * i);
	}
	for (size_t i = 0; i < sizeof(fx->msg); i++)
		fx->msg[i] = (uint8_t)(i * 31 + 5);
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		char path[4096];
		fx->rsa[s].bits = bits[s];
		if (snprintf(path, sizeof(path), "%s/rsa%u.pem", keydir, bits[s]) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		int r = read_file(path, &fx->rsa[s].file, &fx->rsa[s].file_len);
		if (r < 0) {
			fprintf(stderr, "vgbench: %s: %s; rsa%u ops skipped\n", path, strerror(-r),
				bits[s]);
			fx->rsa[s].file = NULL;
		}
		/* Input for the private operation: below n because its top byte
		 * is zero (n has k bytes with a nonzero top byte). */
		for (size_t i = 0; i < sizeof(fx->rsa[s].priv_in); i++)
			fx->rsa[s].priv_in[i] = (uint8_t)(i * 151 + 3);
		fx->rsa[s].priv_in[0] = 0;
	}
	return 0;
}

void vg_bench_fixture_free(vg_bench_fixture *fx)
{
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		free(fx->rsa[s].file);
		fx->rsa[s].file = NULL;
	}
}
