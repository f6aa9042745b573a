/* bench.h: what vgbench measures: the operation list, the inputs every
 * implementation shares (the fixture), and the interface each
 * implementation (ours, OpenSSL, libsodium, aws-lc) provides. Nothing here
 * is secret: the keys are public test keys. */
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
	VG_BENCH_P256_SIGN,
	VG_BENCH_P256_VERIFY,
	VG_BENCH_P384_SIGN,
	VG_BENCH_P384_VERIFY,
	/* Batch rows: vg_rsa_private_mb on 2, 4 or 8 operations per call,
	 * timed per signature; a peer runs its single operation that many
	 * times (vg_bench_one). */
	VG_BENCH_RSA2048_PRIV_X2,
	VG_BENCH_RSA2048_PRIV_X4,
	VG_BENCH_RSA2048_PRIV_X8,
	VG_BENCH_RSA3072_PRIV_X8,
	VG_BENCH_RSA4096_PRIV_X8,
	/* vg_ecdsa_sign_mb on 2, 4 or 8 P-256 (P-384) signatures per call
	 * (the same key and digest in every lane: a lane's time does not
	 * depend on them), timed per signature beside p256-sign (p384-sign). */
	VG_BENCH_P256_SIGN_X2,
	VG_BENCH_P256_SIGN_X4,
	VG_BENCH_P256_SIGN_X8,
	VG_BENCH_P384_SIGN_X2,
	VG_BENCH_P384_SIGN_X4,
	VG_BENCH_P384_SIGN_X8,
	/* vg_x25519_mb on 2, 4 or 8 operations per call, timed per
	 * operation, likewise. */
	VG_BENCH_X_VAR_X2,
	VG_BENCH_X_VAR_X4,
	VG_BENCH_X_VAR_X8,
	/* vg_ed25519_sign_expanded_mb on 2, 4 or 8 signatures of the 64-byte
	 * message per call, timed per signature, likewise. */
	VG_BENCH_ED_SIGN64_X2,
	VG_BENCH_ED_SIGN64_X4,
	VG_BENCH_ED_SIGN64_X8,
	/* Key generation (vg/keygen.h; OpenSSL's EVP_PKEY keygen as
	 * `openssl genpkey` does it; aws-lc's RSA_generate_key_ex as `bssl
	 * genrsa` does, EC_KEY_generate_key, ED25519_keypair,
	 * X25519_keypair). One key per timed batch; every key is different,
	 * so outputs are cross-checked by length only. Run only when --filter
	 * selects them: an RSA row takes 31 keys per implementation. */
	VG_BENCH_RSA2048_KEYGEN,
	VG_BENCH_RSA3072_KEYGEN,
	VG_BENCH_RSA4096_KEYGEN,
	VG_BENCH_P256_KEYGEN,
	VG_BENCH_P384_KEYGEN,
	VG_BENCH_ED_KEYGEN,
	VG_BENCH_X_KEYGEN,
	VG_BENCH_OP_COUNT
};

#define VG_BENCH_RSA_SIZES 3
#define VG_BENCH_EC_CURVES 2 /* P-256, P-384 */
#define VG_BENCH_EC_MAX 48   /* largest scalar, digest and coordinate (P-384) */
#define VG_BENCH_MSG_LEN 1024
#define VG_BENCH_VERIFY_LEN 64 /* verify is timed on the 64-byte message */
#define VG_BENCH_OUT_MAX 512   /* largest result: an RSA-4096 block */

/* Name of an op ("ed25519-sign-64"), its kernel family for
 * vg_kernel_variant ("ed25519"), for RSA ops the size index (0..2) and for
 * ECDSA ops the curve index (0..1), else -1. */
const char *vg_bench_op_name(int op);
const char *vg_bench_op_family(int op);
int vg_bench_op_rsa_index(int op);
int vg_bench_op_ec_index(int op);
/* ECDSA signing: randomized, so outputs are cross-checked by verifying
 * them (vg_bench_impl.check), not by comparing bytes. */
int vg_bench_op_is_ecdsa_sign(int op);

/* For a key generation row: the RSA modulus bits, the ECDSA curve index
 * + 1 (P-256 1, P-384 2), or -1 (Ed25519) and -2 (X25519); 0 for the
 * other rows. */
int vg_bench_op_keygen(int op);
/* The public key length a key generation row yields (n; 04||X||Y; 32). */
size_t vg_bench_keygen_len(int op);

/* Operations per call of a batch row (1 for the others), and the single
 * row a batch row is made of (op itself for the others). */
int vg_bench_op_batch(int op);
int vg_bench_op_single(int op);

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
	/* ECDSA test keys (ecdsa-p256.pem, ecdsa-p384.pem), as file bytes; NULL
	 * when missing. Signing and verifying work on a digest of
	 * msg[0..VG_BENCH_VERIFY_LEN): SHA-256 for P-256, SHA-384 for P-384.
	 * Signatures are raw r||s, each n_len bytes big-endian. */
	struct {
		const char *name; /* "P-256" */
		unsigned bits;
		size_t n_len; /* 32, 48 */
		uint8_t *file;
		size_t file_len;
		uint8_t digest[VG_BENCH_EC_MAX];
		size_t digest_len;
		/* Input of the verify op: made by the first implementation that
		 * signs (main.c); sig_len is 0 until then. */
		uint8_t sig[2 * VG_BENCH_EC_MAX];
		size_t sig_len;
	} ec[VG_BENCH_EC_CURVES];
} vg_bench_fixture;

/* init's answer when the implementation cannot be measured honestly
 * (e.g. it ignored the tier's mask): the run stops instead of leaving it
 * out. Any other negative answer leaves the implementation out, with a
 * note. */
#define VG_BENCH_FATAL (-1000)

/* One implementation. init prepares its keys from the fixture (0, or a
 * negative value with why filled); arg is the text after '=' in
 * "--peer NAME=ARG" (a library path for aws-lc), or NULL. has says whether
 * it implements op (after init); one performs op once into out (room for
 * VG_BENCH_OUT_MAX bytes) and returns the output's length, or a negative
 * value on an error: timed in batches, and compared across
 * implementations (verify yields one byte, 1 for "valid"). check (NULL
 * for implementations without ECDSA) verifies a raw r||s signature of the
 * fixture digest of ECDSA op's curve: 1 valid, 0 invalid, negative on an
 * error; it is how randomized signatures are cross-checked. detail (may
 * be NULL) is one more line for the report's header, or NULL. */
typedef struct {
	const char *name;
	int (*init)(const vg_bench_fixture *fx, const char *arg, char *why, size_t whylen);
	int (*has)(int op);
	int (*one)(int op, uint8_t *out);
	void (*fini)(void);
	const char *(*version)(void); /* for the report's first line */
	int (*check)(int op, const uint8_t *sig, size_t len);
	const char *(*detail)(void);
} vg_bench_impl;

extern const vg_bench_impl vg_bench_ours;
/* has and one of impl for op, as every caller must make them: vgd runs a
 * batch row itself (vg_rsa_private_mb); a peer has a batch row when it
 * has its single row, and runs it vg_bench_op_batch(op) times (the output
 * is the last one's, the same input each time). Timings divide by
 * vg_bench_op_batch(op): per signature. */
int vg_bench_has(const vg_bench_impl *impl, int op);
int vg_bench_one(const vg_bench_impl *impl, int op, uint8_t *out);

/* After vg_bench_ours.init: fill the fixture's derived inputs (public key,
 * signature to verify, X25519 peer value, RSA k and public-op input). */
int vg_bench_ours_derive(vg_bench_fixture *fx);
#ifdef VG_BENCH_HAVE_OPENSSL
extern const vg_bench_impl vg_bench_openssl;
#endif
#ifdef VG_BENCH_HAVE_SODIUM
extern const vg_bench_impl vg_bench_sodium;
#endif
/* Always built: the library is opened at run time (impl_awslc.c). */
extern const vg_bench_impl vg_bench_awslc;

/* ECDSA signatures between raw r||s (what vgd's kernels produce, n_len
 * bytes each) and DER (what OpenSSL's and aws-lc's APIs speak). to_raw
 * returns 2 * n_len, to_der the DER length (cap >= VG_BENCH_DER_MAX);
 * both return -1 for input they reject. */
#define VG_BENCH_DER_MAX (2 * (VG_BENCH_EC_MAX + 3) + 3)
int vg_bench_sig_to_raw(uint8_t *raw, size_t n_len, const uint8_t *der, size_t der_len);
int vg_bench_sig_to_der(uint8_t *der, size_t cap, const uint8_t *raw, size_t n_len);

/* Fill the fixed inputs (seeds, message, ECDSA digests) and read the RSA
 * and ECDSA key files from keydir. A missing key file leaves that file
 * NULL (its ops are skipped) and is reported on stderr. */
int vg_bench_fixture_init(vg_bench_fixture *fx, const char *keydir);
void vg_bench_fixture_free(vg_bench_fixture *fx);

#endif
