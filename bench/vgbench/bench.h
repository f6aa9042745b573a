/* bench.h: what vgbench measures: the operation list, the inputs every
 * implementation shares (the fixture), and the interface each
 * implementation (ours, OpenSSL, libsodium) provides. Nothing here is
 * secret: the keys are public test keys. */
#ifndef VG_BENCH_H
#define VG_BENCH_H

#include <stddef.h>
#include <stdint.h>

enum vg_bench_op {
	VG_BENCH_ED_KEYPAIR,
	VG_BENCH_ED_SIGN64,
	VG_BENCH_ED_SIGN1K,
	VG_BENCH_ED_VERIFY,
	VG_BENCH_X_BASE,
	VG_BENCH_X_VAR,
	VG_BENCH_RSA2048_PRIV,
	VG_BENCH_RSA2048_PUB,
	VG_BENCH_RSA3072_PRIV,
	VG_BENCH_RSA3072_PUB,
	VG_BENCH_RSA4096_PRIV,
	VG_BENCH_RSA4096_PUB,
	VG_BENCH_OP_COUNT
};

#define VG_BENCH_RSA_SIZES 3
#define VG_BENCH_MSG_LEN 1024
#define VG_BENCH_VERIFY_LEN 64 /* verify is timed on the 64-byte message */
#define VG_BENCH_OUT_MAX 512   /* largest result: an RSA-4096 block */

/* Name of an op ("ed25519-sign-64"), its kernel family for
 * vg_kernel_variant ("ed25519"), and for RSA ops the size index (0..2),
 * else -1. */
const char *vg_bench_op_name(int op);
const char *vg_bench_op_family(int op);
int vg_bench_op_rsa_index(int op);

/* Inputs shared by all implementations, so their outputs can be compared. */
typedef struct {
	uint8_t ed_seed[32];
	uint8_t ed_pk[32];  /* the seed's public key (ours) */
	uint8_t ed_sig[64]; /* signature of msg[0..VG_BENCH_VERIFY_LEN) (ours) */
	uint8_t msg[VG_BENCH_MSG_LEN];
	uint8_t x_scalar[32];
	uint8_t x_peer[32]; /* a valid public value */
	/* RSA test keys, as file bytes (PEM); NULL when the file is missing. */
	struct {
		unsigned bits;
		uint8_t *file;
		size_t file_len;
		size_t k;                      /* modulus bytes, set by ours */
		uint8_t priv_in[VG_BENCH_OUT_MAX]; /* below n */
		uint8_t pub_in[VG_BENCH_OUT_MAX];  /* = priv_in^d mod n (ours) */
	} rsa[VG_BENCH_RSA_SIZES];
} vg_bench_fixture;

/* One implementation. init prepares its keys from the fixture (0, or a
 * negative value with why filled); has says whether it implements op
 * (after init); one performs op once into out (room for
 * VG_BENCH_OUT_MAX bytes) and returns the output's length, or a negative
 * value on an error: timed in batches, and compared across
 * implementations (verify yields one byte, 1 for "valid"). */
typedef struct {
	const char *name;
	int (*init)(const vg_bench_fixture *fx, char *why, size_t whylen);
	int (*has)(int op);
	int (*one)(int op, uint8_t *out);
	void (*fini)(void);
	const char *(*version)(void); /* for the report's first line */
} vg_bench_impl;

extern const vg_bench_impl vg_bench_ours;
/* After vg_bench_ours.init: fill the fixture's derived inputs (public key,
 * signature to verify, X25519 peer value, RSA k and public-op input). */
int vg_bench_ours_derive(vg_bench_fixture *fx);
#ifdef VG_BENCH_HAVE_OPENSSL
extern const vg_bench_impl vg_bench_openssl;
#endif
#ifdef VG_BENCH_HAVE_SODIUM
extern const vg_bench_impl vg_bench_sodium;
#endif

/* Fill the fixed inputs (seeds, message) and read the RSA key files from
 * keydir. A missing key file leaves that size's file NULL (its ops are
 * skipped) and is reported on stderr. */
int vg_bench_fixture_init(vg_bench_fixture *fx, const char *keydir);
void vg_bench_fixture_free(vg_bench_fixture *fx);

#endif
