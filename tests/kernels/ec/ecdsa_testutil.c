/* ecdsa_testutil.c: see ecdsa_testutil.h. */
#include "ecdsa_testutil.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vg/cpu.h"

static void die(const char *what)
{
	fprintf(stderr, "ecdsa_testutil: %s\n", what);
	abort();
}

uint64_t tec_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

void tec_rand_bytes(uint64_t *s, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)tec_rand(s);
}

/* ---- tbn ---- */

void tbn_from_u64(tbn *r, uint64_t v)
{
	memset(r, 0, sizeof(*r));
	r->d[0] = (uint32_t)v;
	r->d[1] = (uint32_t)(v >> 32);
}

void tbn_from_limbs(tbn *r, const uint64_t *a, size_t n)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r->d[2 * i] = (uint32_t)a[i];
		r->d[2 * i + 1] = (uint32_t)(a[i] >> 32);
	}
}

void tbn_to_limbs(uint64_t *a, size_t n, const tbn *x)
{
	for (size_t i = 2 * n; i < TBN_DIGITS; i++)
		if (x->d[i])
			die("tbn_to_limbs: value too large");
	for (size_t i = 0; i < n; i++)
		a[i] = (uint64_t)x->d[2 * i + 1] << 32 | x->d[2 * i];
}

void tbn_from_be(tbn *r, const uint8_t *b, size_t len)
{
	memset(r, 0, sizeof(*r));
	if (len > 4 * TBN_DIGITS)
		die("tbn_from_be: too long");
	for (size_t i = 0; i < len; i++) {
		size_t bit = 8 * (len - 1 - i);
		r->d[bit / 32] |= (uint32_t)b[i] << (bit % 32);
	}
}

void tbn_to_be(uint8_t *b, size_t len, const tbn *x)
{
	for (size_t i = len; i < 4 * TBN_DIGITS; i++)
		if ((x->d[i / 4] >> (8 * (i % 4))) & 0xff)
			die("tbn_to_be: value too large");
	for (size_t i = 0; i < len; i++) {
		size_t pos = len - 1 - i; /* byte index from the little end */
		b[i] = pos < 4 * TBN_DIGITS ? (uint8_t)(x->d[pos / 4] >> (8 * (pos % 4))) : 0;
	}
}

void tbn_from_hex(tbn *r, const char *hex)
{
	uint8_t buf[4 * TBN_DIGITS];
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > sizeof(buf))
		die("tbn_from_hex: bad length");
	tec_hex(buf, n / 2, hex);
	tbn_from_be(r, buf, n / 2);
}

int tbn_cmp(const tbn *a, const tbn *b)
{
	for (size_t i = TBN_DIGITS; i-- > 0;)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

int tbn_is_zero(const tbn *a)
{
	for (size_t i = 0; i < TBN_DIGITS; i++)
		if (a->d[i])
			return 0;
	return 1;
}

void tbn_add(tbn *r, const tbn *a, const tbn *b)
{
	uint64_t c = 0;
	for (size_t i = 0; i < TBN_DIGITS; i++) {
		c += (uint64_t)a->d[i] + b->d[i];
		r->d[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c)
		die("tbn_add: overflow");
}

void tbn_sub(tbn *r, const tbn *a, const tbn *b)
{
	int64_t c = 0;
	for (size_t i = 0; i < TBN_DIGITS; i++) {
		c += (int64_t)a->d[i] - b->d[i];
		r->d[i] = (uint32_t)c;
		c = c < 0 ? -1 : 0;
	}
	if (c)
		die("tbn_sub: negative");
}

void tbn_mul(tbn *r, const tbn *a, const tbn *b)
{
	uint32_t t[2 * TBN_DIGITS] = {0};
	for (size_t i = 0; i < TBN_DIGITS; i++) {
		uint64_t c = 0;
		for (size_t j = 0; j < TBN_DIGITS; j++) {
			c += (uint64_t)a->d[i] * b->d[j] + t[i + j];
			t[i + j] = (uint32_t)c;
			c >>= 32;
		}
		t[i + TBN_DIGITS] = (uint32_t)c;
	}
	for (size_t i = TBN_DIGITS; i < 2 * TBN_DIGITS; i++)
		if (t[i])
			die("tbn_mul: overflow");
	memcpy(r->d, t, sizeof(r->d));
}

void tbn_shl(tbn *r, const tbn *a, unsigned bits)
{
	tbn t;
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < 32 * TBN_DIGITS; i++) {
		if (!((a->d[i / 32] >> (i % 32)) & 1))
			continue;
		if (i + bits >= 32 * TBN_DIGITS)
			die("tbn_shl: overflow");
		t.d[(i + bits) / 32] |= 1u << ((i + bits) % 32);
	}
	*r = t;
}

/* Number of significant bits of x. */
static size_t tbn_bits(const tbn *x)
{
	for (size_t i = TBN_DIGITS; i-- > 0;)
		if (x->d[i])
			return 32 * i + 32 - (size_t)__builtin_clz(x->d[i]);
	return 0;
}

void tbn_mod(tbn *r, const tbn *x, const tbn *m)
{
	tbn acc;
	memset(&acc, 0, sizeof(acc));
	/* acc = 2 acc + bit, minus m whenever it reaches m: acc < m throughout */
	for (size_t i = tbn_bits(x); i-- > 0;) {
		tbn_add(&acc, &acc, &acc);
		acc.d[0] |= (x->d[i / 32] >> (i % 32)) & 1;
		if (tbn_cmp(&acc, m) >= 0)
			tbn_sub(&acc, &acc, m);
	}
	*r = acc;
}

void tbn_addmod(tbn *r, const tbn *a, const tbn *b, const tbn *m)
{
	tbn t;
	tbn_add(&t, a, b);
	tbn_mod(r, &t, m);
}

void tbn_submod(tbn *r, const tbn *a, const tbn *b, const tbn *m)
{
	tbn x, y;
	tbn_mod(&x, a, m);
	tbn_mod(&y, b, m);
	tbn_add(&x, &x, m);
	tbn_sub(&x, &x, &y);
	tbn_mod(r, &x, m);
}

void tbn_mulmod(tbn *r, const tbn *a, const tbn *b, const tbn *m)
{
	tbn t;
	tbn_mul(&t, a, b);
	tbn_mod(r, &t, m);
}

void tbn_powmod(tbn *r, const tbn *a, const tbn *e, const tbn *m)
{
	tbn acc, base;
	tbn_from_u64(&acc, 1);
	tbn_mod(&acc, &acc, m);
	tbn_mod(&base, a, m);
	for (size_t i = tbn_bits(e); i-- > 0;) {
		tbn_mulmod(&acc, &acc, &acc, m);
		if ((e->d[i / 32] >> (i % 32)) & 1)
			tbn_mulmod(&acc, &acc, &base, m);
	}
	*r = acc;
}

void tbn_invmod(tbn *r, const tbn *a, const tbn *m)
{
	tbn e, two;
	tbn_from_u64(&two, 2);
	tbn_sub(&e, m, &two);
	tbn_powmod(r, a, &e, m);
}

/* ---- curves ---- */

static struct tec_curve curves[2];

const struct tec_curve *tec_curve(vg_ecdsa_curve id)
{
	/* SEC 2 v2 sections 2.4.2 and 2.5.1. */
	static const char *const hex[2][3] = {
		{"ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
		 "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
		 "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b"},
		{"fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff000000000"
		 "0000000ffffffff",
		 "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77ae"
		 "cec196accc52973",
		 "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2"
		 "a85c8edd3ec2aef"},
	};
	size_t i;
	if (id == VG_ECDSA_P256)
		i = 0;
	else if (id == VG_ECDSA_P384)
		i = 1;
	else
		die("tec_curve: unknown curve");
	struct tec_curve *c = &curves[i];
	if (c->limbs == 0) {
		c->id = id;
		c->name = i ? "P-384" : "P-256";
		c->oname = i ? "secp384r1" : "prime256v1";
		c->nid = i ? NID_secp384r1 : NID_X9_62_prime256v1;
		c->limbs = i ? 6 : 4;
		c->bytes = 8 * c->limbs;
		tbn_from_hex(&c->p, hex[i][0]);
		tbn_from_hex(&c->n, hex[i][1]);
		tbn_from_hex(&c->b, hex[i][2]);
		tbn_from_u64(&c->R, 1);
		tbn_shl(&c->R, &c->R, (unsigned)(64 * c->limbs));
	}
	return c;
}

/* ---- OpenSSL ---- */

static EC_GROUP *group(vg_ecdsa_curve c)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(tec_curve(c)->nid);
	if (!g)
		die("EC_GROUP_new_by_curve_name");
	return g;
}

static EC_POINT *point_in(const EC_GROUP *g, const uint8_t *p, size_t bytes, BN_CTX *ctx)
{
	EC_POINT *P = EC_POINT_new(g);
	if (!P)
		die("EC_POINT_new");
	if (p[0] == 0) {
		if (EC_POINT_set_to_infinity(g, P) != 1)
			die("EC_POINT_set_to_infinity");
	} else if (EC_POINT_oct2point(g, P, p, 1 + 2 * bytes, ctx) != 1) {
		die("EC_POINT_oct2point");
	}
	return P;
}

static void point_out(const EC_GROUP *g, const EC_POINT *P, uint8_t *out, size_t *len, size_t bytes,
		      BN_CTX *ctx)
{
	if (EC_POINT_is_at_infinity(g, P)) {
		out[0] = 0;
		*len = 1;
		return;
	}
	*len = EC_POINT_point2oct(g, P, POINT_CONVERSION_UNCOMPRESSED, out, 1 + 2 * bytes, ctx);
	if (*len != 1 + 2 * bytes)
		die("EC_POINT_point2oct");
}

void tos_mul(vg_ecdsa_curve c, uint8_t *out, size_t *len, const uint8_t *k, size_t klen,
	     const uint8_t *p)
{
	size_t bytes = tec_curve(c)->bytes;
	EC_GROUP *g = group(c);
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *kb = BN_bin2bn(k, (int)klen, NULL);
	EC_POINT *R = EC_POINT_new(g), *P = p ? point_in(g, p, bytes, ctx) : NULL;
	if (!ctx || !kb || !R)
		die("tos_mul: allocation");
	int ok = P ? EC_POINT_mul(g, R, NULL, P, kb, ctx) : EC_POINT_mul(g, R, kb, NULL, NULL, ctx);
	if (ok != 1)
		die("EC_POINT_mul");
	point_out(g, R, out, len, bytes, ctx);
	EC_POINT_free(R);
	EC_POINT_free(P);
	BN_free(kb);
	BN_CTX_free(ctx);
	EC_GROUP_free(g);
}

void tos_add(vg_ecdsa_curve c, uint8_t *out, size_t *len, const uint8_t *p, const uint8_t *q)
{
	size_t bytes = tec_curve(c)->bytes;
	EC_GROUP *g = group(c);
	BN_CTX *ctx = BN_CTX_new();
	EC_POINT *R = EC_POINT_new(g), *P = point_in(g, p, bytes, ctx),
		 *Q = point_in(g, q, bytes, ctx);
	if (!ctx || !R || EC_POINT_add(g, R, P, Q, ctx) != 1)
		die("EC_POINT_add");
	point_out(g, R, out, len, bytes, ctx);
	EC_POINT_free(R);
	EC_POINT_free(P);
	EC_POINT_free(Q);
	BN_CTX_free(ctx);
	EC_GROUP_free(g);
}

/* An EVP_PKEY from the public point and, if d is not NULL, the private key. */
static EVP_PKEY *pkey(vg_ecdsa_curve c, const uint8_t *pub, const uint8_t *d)
{
	const struct tec_curve *tc = tec_curve(c);
	uint8_t pubbuf[VG_ECDSA_MAX_PUBLIC_LEN];
	size_t plen;
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *db = NULL;
	EVP_PKEY *k = NULL;

	if (!pub) { /* derive it */
		tos_mul(c, pubbuf, &plen, d, tc->bytes, NULL);
		pub = pubbuf;
	}
	if (!b ||
	    OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, tc->oname, 0) != 1 ||
	    OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, 1 + 2 * tc->bytes) !=
		    1)
		die("OSSL_PARAM_BLD");
	if (d) {
		db = BN_bin2bn(d, (int)tc->bytes, NULL);
		if (!db || OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, db) != 1)
			die("OSSL_PARAM_BLD priv");
	}
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!params || !pc || EVP_PKEY_fromdata_init(pc) != 1 ||
	    EVP_PKEY_fromdata(pc, &k, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
		die("EVP_PKEY_fromdata");
	EVP_PKEY_CTX_free(pc);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_clear_free(db);
	return k;
}

int tos_verify(vg_ecdsa_curve c, const uint8_t *pub, const uint8_t *digest, size_t dlen,
	       const uint8_t *sig)
{
	size_t bytes = tec_curve(c)->bytes;
	EVP_PKEY *k = pkey(c, pub, NULL);
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, (int)bytes, NULL),
	       *sv = BN_bin2bn(sig + bytes, (int)bytes, NULL);
	unsigned char *der = NULL;
	if (!s || !r || !sv || ECDSA_SIG_set0(s, r, sv) != 1)
		die("ECDSA_SIG");
	int dl = i2d_ECDSA_SIG(s, &der);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	if (dl <= 0 || !pc || EVP_PKEY_verify_init(pc) != 1)
		die("EVP_PKEY_verify_init");
	int ok = EVP_PKEY_verify(pc, der, (size_t)dl, digest, dlen) == 1;
	EVP_PKEY_CTX_free(pc);
	OPENSSL_free(der);
	ECDSA_SIG_free(s);
	EVP_PKEY_free(k);
	return ok;
}

void tos_sign(vg_ecdsa_curve c, const uint8_t *d, const uint8_t *digest, size_t dlen, uint8_t *sig)
{
	size_t bytes = tec_curve(c)->bytes;
	EVP_PKEY *k = pkey(c, NULL, d);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	uint8_t der[VG_ECDSA_MAX_DER_LEN + 8];
	size_t dl = sizeof(der);
	if (!pc || EVP_PKEY_sign_init(pc) != 1 || EVP_PKEY_sign(pc, der, &dl, digest, dlen) != 1)
		die("EVP_PKEY_sign");
	const unsigned char *p = der;
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)dl);
	if (!s || BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, (int)bytes) != (int)bytes ||
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + bytes, (int)bytes) != (int)bytes)
		die("d2i_ECDSA_SIG");
	ECDSA_SIG_free(s);
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(k);
}

size_t tos_digest(const char *hash, const uint8_t *msg, size_t len, uint8_t *out)
{
	EVP_MD *md = EVP_MD_fetch(NULL, hash, NULL);
	unsigned int ol = 0;
	if (!md || EVP_Digest(msg, len, out, &ol, md, NULL) != 1)
		die("EVP_Digest");
	EVP_MD_free(md);
	return ol;
}

size_t tos_hmac(const char *hash, const uint8_t *key, size_t klen, const uint8_t *msg, size_t len,
		uint8_t *out)
{
	EVP_MD *md = EVP_MD_fetch(NULL, hash, NULL);
	unsigned int ol = 0;
	if (!md || !HMAC(md, key, (int)klen, msg, len, out, &ol))
		die("HMAC");
	EVP_MD_free(md);
	return ol;
}

void tec_hex(uint8_t *out, size_t n, const char *hex)
{
	if (strlen(hex) != 2 * n)
		die("tec_hex: wrong length");
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			die("tec_hex: not hex");
		out[i] = (uint8_t)v;
	}
}

void tec_expect_variant(const char *prog)
{
	const char *want = getenv("VG_EXPECT_VARIANT");
	const char *p256 = vg_kernel_variant("p256"), *p384 = vg_kernel_variant("p384");
	printf("%s: rows p256=%s p384=%s sha256=%s\n", prog, p256, p384,
	       vg_kernel_variant("sha256"));
	if (want && *want && (strcmp(p256, want) != 0 || strcmp(p384, want) != 0)) {
		fprintf(stderr, "%s: row %s expected, p256=%s p384=%s in use\n", prog, want, p256,
			p384);
		exit(1);
	}
}
