/* impl_awslc.c: the same operations through aws-lc (AWS's BoringSSL fork),
 * an optional peer chosen with --peer awslc[=PATH]. It is a measuring
 * stick only, never a build dependency: the prebuilt shared object is
 * opened at run time with dlopen(RTLD_LOCAL | RTLD_DEEPBIND), because its
 * symbols have OpenSSL's names and must neither replace nor be replaced
 * by the system libcrypto this program links; every call goes through a
 * dlsym pointer, with the argument types of aws-lc's documented API (they
 * differ from OpenSSL's in places: sizes are size_t). Keys are parsed by
 * aws-lc itself; no OpenSSL object is ever passed to it. aws-lc reads
 * OPENSSL_ia32cap at start-up like OpenSSL, so it runs the same tier; its
 * sbs_awslc_ia32cap() (added to this build) shows the capability words it
 * uses, which init checks against the mask. Nothing here is secret
 * (public test keys). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef VGBENCH_SRCDIR
#define VGBENCH_SRCDIR "."
#endif

/* Where the default library is looked for: see default_path. */
#define AWSLC_REL "shared/peers/aws-lc-5.5.0/libawslc.so"

/* aws-lc's constants (its public headers; the same numbers as OpenSSL's). */
#define AWSLC_RSA_NO_PADDING 3
#define AWSLC_NID_P256 415 /* NID_X9_62_prime256v1 */
#define AWSLC_NID_P384 715 /* NID_secp384r1 */
#define AWSLC_POINT_UNCOMPRESSED 4 /* POINT_CONVERSION_UNCOMPRESSED */

/* The entry points used, filled by dlsym. Opaque aws-lc objects are void. */
static struct {
	const uint32_t *(*ia32cap)(void);
	const char *(*version)(void);
	uint32_t (*err_get)(void);
	void (*err_string)(uint32_t e, char *buf, size_t len);
	void *(*bio_mem)(const void *buf, ptrdiff_t len);
	int (*bio_free)(void *bio);
	void *(*pem_key)(void *bio, void **out, void *cb, void *u);
	void *(*pkey_rsa)(const void *pkey);
	void *(*pkey_ec)(const void *pkey);
	void (*pkey_free)(void *pkey);
	unsigned (*rsa_size)(const void *rsa);
	int (*rsa_sign_raw)(void *rsa, size_t *out_len, uint8_t *out, size_t max_out,
			    const uint8_t *in, size_t in_len, int padding);
	int (*rsa_verify_raw)(void *rsa, size_t *out_len, uint8_t *out, size_t max_out,
			      const uint8_t *in, size_t in_len, int padding);
	void (*rsa_free)(void *rsa);
	const void *(*ec_group)(const void *key);
	int (*ec_curve)(const void *group);
	size_t (*ecdsa_size)(const void *key);
	int (*ecdsa_sign)(int type, const uint8_t *digest, size_t digest_len, uint8_t *sig,
			  unsigned *sig_len, const void *key);
	int (*ecdsa_verify)(int type, const uint8_t *digest, size_t digest_len, const uint8_t *sig,
			    size_t sig_len, const void *key);
	void (*ec_free)(void *key);
	void (*ed_keypair)(uint8_t pub[32], uint8_t priv[64], const uint8_t seed[32]);
	int (*ed_sign)(uint8_t sig[64], const uint8_t *msg, size_t len, const uint8_t priv[64]);
	int (*ed_verify)(const uint8_t *msg, size_t len, const uint8_t sig[64],
			 const uint8_t pub[32]);
	void (*x_base)(uint8_t out[32], const uint8_t scalar[32]);
	int (*x_var)(uint8_t out[32], const uint8_t scalar[32], const uint8_t peer[32]);
	/* key generation */
	void *(*rsa_new)(void);
	void *(*bn_new)(void);
	int (*bn_set_word)(void *bn, uint64_t value);
	void (*bn_free)(void *bn);
	int (*rsa_generate)(void *rsa, int bits, const void *e, void *cb);
	const void *(*rsa_n)(const void *rsa);
	int (*bn_bin_padded)(uint8_t *out, size_t len, const void *bn);
	void *(*ec_new)(int nid);
	int (*ec_generate)(void *key);
	const void *(*ec_pub)(const void *key);
	size_t (*point2oct)(const void *group, const void *point, int form, uint8_t *buf,
			    size_t len, void *ctx);
	void (*ed_generate)(uint8_t pub[32], uint8_t priv[64]);
	void (*x_generate)(uint8_t pub[32], uint8_t priv[32]);
} fn;

static const struct {
	const char *name;
	void *slot; /* &fn.member */
} syms[] = {
	{"sbs_awslc_ia32cap", &fn.ia32cap},
	{"awslc_version_string", &fn.version},
	{"ERR_get_error", &fn.err_get},
	{"ERR_error_string_n", &fn.err_string},
	{"BIO_new_mem_buf", &fn.bio_mem},
	{"BIO_free", &fn.bio_free},
	{"PEM_read_bio_PrivateKey", &fn.pem_key},
	{"EVP_PKEY_get1_RSA", &fn.pkey_rsa},
	{"EVP_PKEY_get1_EC_KEY", &fn.pkey_ec},
	{"EVP_PKEY_free", &fn.pkey_free},
	{"RSA_size", &fn.rsa_size},
	{"RSA_sign_raw", &fn.rsa_sign_raw},
	{"RSA_verify_raw", &fn.rsa_verify_raw},
	{"RSA_free", &fn.rsa_free},
	{"EC_KEY_get0_group", &fn.ec_group},
	{"EC_GROUP_get_curve_name", &fn.ec_curve},
	{"ECDSA_size", &fn.ecdsa_size},
	{"ECDSA_sign", &fn.ecdsa_sign},
	{"ECDSA_verify", &fn.ecdsa_verify},
	{"EC_KEY_free", &fn.ec_free},
	{"ED25519_keypair_from_seed", &fn.ed_keypair},
	{"ED25519_sign", &fn.ed_sign},
	{"ED25519_verify", &fn.ed_verify},
	{"X25519_public_from_private", &fn.x_base},
	{"X25519", &fn.x_var},
	{"RSA_new", &fn.rsa_new},
	{"BN_new", &fn.bn_new},
	{"BN_set_word", &fn.bn_set_word},
	{"BN_free", &fn.bn_free},
	{"RSA_generate_key_ex", &fn.rsa_generate},
	{"RSA_get0_n", &fn.rsa_n},
	{"BN_bn2bin_padded", &fn.bn_bin_padded},
	{"EC_KEY_new_by_curve_name", &fn.ec_new},
	{"EC_KEY_generate_key", &fn.ec_generate},
	{"EC_KEY_get0_public_key", &fn.ec_pub},
	{"EC_POINT_point2oct", &fn.point2oct},
	{"ED25519_keypair", &fn.ed_generate},
	{"X25519_keypair", &fn.x_generate},
};

/* Owned by this file: set by init, used by one/check, released by fini. */
static const vg_bench_fixture *fx;
static void *lib;
static char path[4096], version[64], detail[512];
static uint8_t ed_pub[32], ed_priv[64];
static void *rsa[VG_BENCH_RSA_SIZES], *ec[VG_BENCH_EC_CURVES];

/* The default library: AWSLC_REL next to the source tree (the project's
 * ../shared), else next to the nearest directory above it that has one
 * (../../shared from a git worktree in a subdirectory). path receives the
 * first candidate when none exists, for the note. */
static void default_path(void)
{
	char dir[sizeof(path)];
	snprintf(dir, sizeof(dir), "%s", VGBENCH_SRCDIR);
	snprintf(path, sizeof(path), "%s/../%s", VGBENCH_SRCDIR, AWSLC_REL);
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return;
		*slash = 0; /* dir is now the parent: try dir/shared/... */
		char cand[sizeof(path)];
		if (snprintf(cand, sizeof(cand), "%s/%s", dir, AWSLC_REL) >= (int)sizeof(cand))
			return;
		FILE *f = fopen(cand, "rb");
		if (f) {
			fclose(f);
			memcpy(path, cand, sizeof(path));
			return;
		}
	}
}

static int fail(char *why, size_t whylen, const char *what)
{
	char e[256];
	fn.err_string(fn.err_get(), e, sizeof(e));
	snprintf(why, whylen, "aws-lc %s: %s", what, e);
	return -1;
}

/* An aws-lc EVP_PKEY from PEM bytes, or NULL. */
static void *read_pem(const uint8_t *file, size_t len)
{
	void *b = fn.bio_mem(file, (ptrdiff_t)len);
	if (!b)
		return NULL;
	void *k = fn.pem_key(b, NULL, NULL, NULL);
	fn.bio_free(b);
	return k;
}

static int load_rsa(size_t s, char *why, size_t whylen)
{
	void *k = read_pem(fx->rsa[s].file, fx->rsa[s].file_len);
	if (!k)
		return fail(why, whylen, "reading the RSA key");
	rsa[s] = fn.pkey_rsa(k);
	fn.pkey_free(k);
	if (!rsa[s])
		return fail(why, whylen, "EVP_PKEY_get1_RSA");
	if (fn.rsa_size(rsa[s]) != fx->rsa[s].k) {
		snprintf(why, whylen, "aws-lc: rsa%u key has %u bytes", fx->rsa[s].bits,
			 fn.rsa_size(rsa[s]));
		return -1;
	}
	return 0;
}

static int load_ec(size_t c, char *why, size_t whylen)
{
	static const int nid[VG_BENCH_EC_CURVES] = {AWSLC_NID_P256, AWSLC_NID_P384};
	void *k = read_pem(fx->ec[c].file, fx->ec[c].file_len);
	if (!k)
		return fail(why, whylen, "reading the ECDSA key");
	ec[c] = fn.pkey_ec(k);
	fn.pkey_free(k);
	if (!ec[c])
		return fail(why, whylen, "EVP_PKEY_get1_EC_KEY");
	const void *g = fn.ec_group(ec[c]);
	if (!g || fn.ec_curve(g) != nid[c] || fn.ecdsa_size(ec[c]) > VG_BENCH_DER_MAX) {
		snprintf(why, whylen, "aws-lc: the %s key file holds another kind of key",
			 fx->ec[c].name);
		return -1;
	}
	return 0;
}

/* The leaf-7 words (EBX, ECX) that OPENSSL_ia32cap's "A:~0xB" form clears;
 * 0 when unset or in another form (nothing to check). */
static uint64_t cleared_leaf7(void)
{
	const char *v = getenv("OPENSSL_ia32cap"), *b = v ? strchr(v, ':') : NULL;
	if (!b || strncmp(b + 1, "~0x", 3) != 0)
		return 0;
	char *end;
	unsigned long long m = strtoull(b + 4, &end, 16);
	return *end ? 0 : (uint64_t)m;
}

/* Capability words in the header, and the proof that the tier's mask
 * reached aws-lc: every leaf-7 bit the mask clears is clear. Word 1 is
 * CPUID leaf 1 ECX, words 2 and 3 leaf 7 EBX and ECX, as OpenSSL numbers
 * them. */
static int check_caps(char *why, size_t whylen)
{
	static const struct {
		int word, bit;
		const char *name;
	} named[] = {
		{1, 28, "avx"},	      {2, 3, "bmi1"},	  {2, 8, "bmi2"},	{2, 19, "adx"},
		{2, 5, "avx2"},	      {2, 16, "avx512f"}, {2, 31, "avx512vl"},
		{2, 21, "avx512ifma"},
	};
	const uint32_t *w = fn.ia32cap();
	uint64_t off = cleared_leaf7();
	int n = snprintf(detail, sizeof(detail), "awslc: %s; ia32cap %08x:%08x:%08x:%08x, sees",
			 path, w[0], w[1], w[2], w[3]);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]) && n > 0; i++)
		if (w[named[i].word] >> named[i].bit & 1 && (size_t)n < sizeof(detail))
			n += snprintf(detail + n, sizeof(detail) - (size_t)n, " %s", named[i].name);
	if ((w[2] & (uint32_t)off) || (w[3] & (uint32_t)(off >> 32))) {
		snprintf(why, whylen,
			 "aws-lc ignored OPENSSL_ia32cap=%s (leaf 7 words %08x:%08x): its figures "
			 "would not be for this tier",
			 getenv("OPENSSL_ia32cap"), w[2], w[3]);
		return VG_BENCH_FATAL;
	}
	return 0;
}

static int aw_init(const vg_bench_fixture *f, const char *arg, char *why, size_t whylen)
{
	fx = f;
	if (arg)
		snprintf(path, sizeof(path), "%s", arg);
	else
		default_path();
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	if (!lib) {
		snprintf(why, whylen, "%s; --peer awslc=PATH names the library", dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *p = dlsym(lib, syms[i].name);
		if (!p) {
			snprintf(why, whylen, "%s has no %s: not the aws-lc build vgbench expects",
				 path, syms[i].name);
			return -1;
		}
		/* POSIX: a dlsym result converts to the function pointer it names. */
		memcpy(syms[i].slot, &p, sizeof(p));
	}
	snprintf(version, sizeof(version), "%s", fn.version());
	int r = check_caps(why, whylen);
	if (r < 0)
		return r;
	fn.ed_keypair(ed_pub, ed_priv, fx->ed_seed);
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++)
		if (fx->rsa[s].file && fx->rsa[s].k && load_rsa(s, why, whylen) < 0)
			return -1;
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++)
		if (fx->ec[c].file && load_ec(c, why, whylen) < 0)
			return -1;
	return 0;
}

static int aw_has(int op)
{
	int s = vg_bench_op_rsa_index(op), c = vg_bench_op_ec_index(op);
	if (s >= 0)
		return rsa[s] != NULL;
	if (c >= 0)
		return ec[c] != NULL;
	return 1;
}

/* 1 if sig (raw r||s) is a valid signature of curve c's digest, else 0. */
static int ec_check(size_t c, const uint8_t *sig, size_t len)
{
	uint8_t der[VG_BENCH_DER_MAX];
	if (len != 2 * fx->ec[c].n_len)
		return 0;
	int n = vg_bench_sig_to_der(der, sizeof(der), sig, fx->ec[c].n_len);
	if (n < 0)
		return -1;
	return fn.ecdsa_verify(0, fx->ec[c].digest, fx->ec[c].digest_len, der, (size_t)n,
			       ec[c]) == 1;
}

static int aw_check(int op, const uint8_t *sig, size_t len)
{
	int c = vg_bench_op_ec_index(op);
	return c < 0 || !ec[c] ? -1 : ec_check((size_t)c, sig, len);
}

static int rsa_op(int op, uint8_t *out)
{
	int s = vg_bench_op_rsa_index(op);
	size_t k = fx->rsa[s].k, len = 0;
	int ok;
	if (op == VG_BENCH_RSA2048_PRIV || op == VG_BENCH_RSA3072_PRIV ||
	    op == VG_BENCH_RSA4096_PRIV)
		ok = fn.rsa_sign_raw(rsa[s], &len, out, VG_BENCH_OUT_MAX, fx->rsa[s].priv_in, k,
				     AWSLC_RSA_NO_PADDING);
	else
		ok = fn.rsa_verify_raw(rsa[s], &len, out, VG_BENCH_OUT_MAX, fx->rsa[s].pub_in, k,
				       AWSLC_RSA_NO_PADDING);
	return ok == 1 && len == k ? (int)len : -1;
}

/* A new key: RSA_generate_key_ex with e = 65537 (what `bssl genrsa`
 * calls), EC_KEY_generate_key, ED25519_keypair, X25519_keypair; its
 * public key into out. */
static int keygen(int op, uint8_t *out)
{
	static const int nid[VG_BENCH_EC_CURVES] = {AWSLC_NID_P256, AWSLC_NID_P384};
	int k = vg_bench_op_keygen(op), r = -1;
	size_t len = vg_bench_keygen_len(op);
	uint8_t priv[64];

	if (k > 2) {
		void *key = fn.rsa_new(), *e = fn.bn_new();
		if (key && e && fn.bn_set_word(e, 65537) == 1 &&
		    fn.rsa_generate(key, k, e, NULL) == 1 &&
		    fn.bn_bin_padded(out, len, fn.rsa_n(key)) == 1)
			r = (int)len;
		if (e)
			fn.bn_free(e);
		if (key)
			fn.rsa_free(key);
	} else if (k > 0) {
		void *key = fn.ec_new(nid[k - 1]);
		if (key && fn.ec_generate(key) == 1 &&
		    fn.point2oct(fn.ec_group(key), fn.ec_pub(key), AWSLC_POINT_UNCOMPRESSED, out,
				 len, NULL) == len)
			r = (int)len;
		if (key)
			fn.ec_free(key);
	} else if (k == -1) {
		fn.ed_generate(out, priv);
		r = 32;
	} else {
		fn.x_generate(out, priv);
		r = 32;
	}
	memset(priv, 0, sizeof(priv));
	return r;
}

static int aw_one(int op, uint8_t *out)
{
	uint8_t priv[64], der[VG_BENCH_DER_MAX];
	unsigned len;
	int c, r;
	if (vg_bench_op_keygen(op))
		return keygen(op, out);
	switch (op) {
	case VG_BENCH_ED_KEYPAIR:
		fn.ed_keypair(out, priv, fx->ed_seed);
		return 32;
	case VG_BENCH_ED_SIGN64:
		return fn.ed_sign(out, fx->msg, 64, ed_priv) == 1 ? 64 : -1;
	case VG_BENCH_ED_SIGN1K:
		return fn.ed_sign(out, fx->msg, 1024, ed_priv) == 1 ? 64 : -1;
	case VG_BENCH_ED_VERIFY:
		out[0] = fn.ed_verify(fx->msg, VG_BENCH_VERIFY_LEN, fx->ed_sig, ed_pub) == 1;
		return 1;
	case VG_BENCH_X_BASE:
		fn.x_base(out, fx->x_scalar);
		return 32;
	case VG_BENCH_X_VAR:
		return fn.x_var(out, fx->x_scalar, fx->x_peer) == 1 ? 32 : -1;
	case VG_BENCH_P256_SIGN:
	case VG_BENCH_P384_SIGN:
		c = vg_bench_op_ec_index(op);
		len = sizeof(der);
		if (fn.ecdsa_sign(0, fx->ec[c].digest, fx->ec[c].digest_len, der, &len, ec[c]) != 1)
			return -1;
		return vg_bench_sig_to_raw(out, fx->ec[c].n_len, der, len);
	case VG_BENCH_P256_VERIFY:
	case VG_BENCH_P384_VERIFY:
		c = vg_bench_op_ec_index(op);
		r = ec_check((size_t)c, fx->ec[c].sig, fx->ec[c].sig_len);
		if (r < 0)
			return -1;
		out[0] = (uint8_t)r;
		return 1;
	default:
		return vg_bench_op_rsa_index(op) < 0 ? -1 : rsa_op(op, out);
	}
}

static void aw_fini(void)
{
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		if (rsa[s])
			fn.rsa_free(rsa[s]);
		rsa[s] = NULL;
	}
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		if (ec[c])
			fn.ec_free(ec[c]);
		ec[c] = NULL;
	}
	if (lib)
		dlclose(lib);
	lib = NULL;
	memset(&fn, 0, sizeof(fn));
}

static const char *aw_version(void) { return version; }
static const char *aw_detail(void) { return detail; }

const vg_bench_impl vg_bench_awslc = {
	.name = "awslc",
	.init = aw_init,
	.has = aw_has,
	.one = aw_one,
	.fini = aw_fini,
	.version = aw_version,
	.check = aw_check,
	.detail = aw_detail,
};
