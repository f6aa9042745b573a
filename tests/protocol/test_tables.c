/* test_tables.c: unit tests of the protocol's tables (operations,
 * algorithms, key types, digests, reasons), the reply-rule check and the
 * TLS 1.3 CertificateVerify content. Two kinds of checks: rows that must
 * agree with each other (names round-trip, every key operation has a
 * policy bit, every DATA rule is one the codec can apply), and values
 * taken from the specifications (RFC 8446 SignatureScheme codes,
 * PROTOCOL.md's tables), written out here rather than derived from the
 * code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vg/proto.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"
#include "vg/proto_tls13.h"

static int one_bit(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* ---- operations ---- */

static void test_op_rows(void **state)
{
	(void)state;
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vg_op_info *o = vg_op_get(op);
		assert_non_null(o);
		assert_int_equal(o->op, op);
		assert_non_null(o->name);
		assert_string_not_equal(o->name, "unknown");
		assert_string_equal(vg_op_name(op), o->name);
		assert_string_equal(vg_op_name(op | VG_OP_REPLY), o->name);
		for (int other = 1; other < op; other++)
			assert_string_not_equal(vg_op_get(other)->name, o->name);
		assert_true(o->kind == VG_OPK_LOCAL || o->kind == VG_OPK_KEY);
	}
	assert_null(vg_op_get(0));
	assert_null(vg_op_get(VG_OP_MAX + 1));
	assert_null(vg_op_get(0x7f));
	assert_null(vg_op_get(-1));
	assert_string_equal(vg_op_name(0x42), "unknown");
}

/* PROTOCOL.md 6: which operations take a key (and go to a keyholder),
 * which bit of 6.9 allows each, and their names. */
static void test_op_kinds(void **state)
{
	static const struct {
		int op;
		const char *name;
		int key;
		uint32_t allow;
	} spec[] = {
		{ VG_OP_HELLO, "hello", 0, 0 },
		{ VG_OP_PING, "ping", 0, 0 },
		{ VG_OP_LIST_KEYS, "list-keys", 0, 0 },
		{ VG_OP_PUBLIC_KEY, "public-key", 0, 0 },
		{ VG_OP_SIGN, "sign", 1, VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13 },
		{ VG_OP_X25519, "x25519", 1, VG_ALLOW_X25519 },
		{ VG_OP_RSA_PRIVATE, "rsa-private", 1, VG_ALLOW_RSA_PRIVATE },
		{ VG_OP_STATS, "stats", 0, 0 },
	};

	(void)state;
	assert_int_equal(sizeof spec / sizeof spec[0], VG_OP_MAX);
	for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		const vg_op_info *o = vg_op_get(spec[i].op);
		assert_string_equal(o->name, spec[i].name);
		assert_int_equal(o->kind, spec[i].key ? VG_OPK_KEY : VG_OPK_LOCAL);
		assert_int_equal(o->allow, spec[i].allow);
		/* stats keep latency percentiles for the key operations */
		assert_int_equal(o->latency, spec[i].key);
	}
}

static void test_op_key_rules(void **state)
{
	(void)state;
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vg_op_info *o = vg_op_get(op);
		if (o->kind != VG_OPK_KEY) {
			assert_int_equal(o->allow, 0);
			assert_int_equal(o->key_type, 0);
			continue;
		}
		/* Every key operation names a key, has a policy bit and
		 * reasons for the two refusals. */
		assert_int_equal(o->req[VG_T_KEY], VG_RULE_REQ);
		assert_int_not_equal(o->allow, 0);
		for (uint32_t b = 1; b != 0; b <<= 1)
			if (o->allow & b)
				assert_string_not_equal(vg_allow_name(b), "unknown");
		assert_int_equal(vg_reason_status(o->wrong_key), VG_ST_BAD_INPUT);
		assert_int_equal(vg_reason_status(o->denied), VG_ST_NOT_ALLOWED);
		if (o->key_type == 0) {
			/* the algorithm decides: ALG required, and each
			 * algorithm's bit is one the operation lists */
			const vg_alg_info *a;
			assert_int_equal(o->req[VG_T_ALG], VG_RULE_REQ);
			for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++)
				assert_true(one_bit(a->allow) && (a->allow & o->allow) == a->allow);
		} else {
			assert_non_null(vg_key_type_get(o->key_type));
			assert_true(one_bit(o->allow));
		}
	}
}

static void test_op_item_rules(void **state)
{
	(void)state;
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vg_op_info *o = vg_op_get(op);
		assert_int_equal(o->req[0], VG_RULE_NO);
		assert_int_equal(o->rep[0], VG_RULE_NO);
		for (int t = 1; t <= VG_T_MAX; t++) {
			uint8_t q = o->req[t], p = o->rep[t];
			assert_true(q == VG_RULE_NO || q == VG_RULE_OPT || q == VG_RULE_REQ ||
				    q == VG_RULE_TLS || q == VG_RULE_FMT);
			assert_true(p == VG_RULE_NO || p == VG_RULE_OPT || p == VG_RULE_REQ ||
				    p == VG_RULE_MANY || p == VG_RULE_SOME);
			/* reply-only tags are never allowed in a request,
			 * request-only ones never in a reply (PROTOCOL.md 4.1:
			 * KEY, ALG, DATA, TLS_ROLE, SIG_FORMAT, CLIENT_CPU are "req") */
			int req_only = t <= VG_T_TLS_ROLE || t == VG_T_SIG_FORMAT ||
				       t == VG_T_CLIENT_CPU;
			/* DIRECT: in hello's request and reply (6.11), nowhere
			 * else. */
			if (t == VG_T_DIRECT) {
				int h = op == VG_OP_HELLO;
				assert_int_equal(q, h ? VG_RULE_OPT : VG_RULE_NO);
				assert_int_equal(p, h ? VG_RULE_OPT : VG_RULE_NO);
				continue;
			}
			if (!req_only)
				assert_int_equal(q, VG_RULE_NO);
			if (req_only || t == VG_T_REASON)
				assert_int_equal(p, VG_RULE_NO);
			/* the decoder reads ALG's byte for a TLS or FMT rule */
			if (q == VG_RULE_TLS || q == VG_RULE_FMT)
				assert_int_equal(o->req[VG_T_ALG], VG_RULE_REQ);
		}
		if (o->req[VG_T_DATA] != VG_RULE_NO) {
			assert_int_equal(vg_reason_status(o->data_reason), VG_ST_BAD_INPUT);
			if (o->data_by_alg)
				assert_int_equal(o->req[VG_T_ALG], VG_RULE_REQ);
			else
				assert_true(o->data_min <= o->data_max &&
					    o->data_max <= VG_PROTO_MAX_DATA);
		}
		/* key operations answer with a RESULT */
		if (o->kind == VG_OPK_KEY)
			assert_int_equal(o->rep[VG_T_RESULT], VG_RULE_REQ);
	}
	/* PROTOCOL.md 6.6, 6.7, 5 */
	assert_int_equal(vg_op_get(VG_OP_X25519)->data_min, 32);
	assert_int_equal(vg_op_get(VG_OP_X25519)->data_max, 32);
	assert_int_equal(vg_op_get(VG_OP_RSA_PRIVATE)->data_min, 256);
	assert_int_equal(vg_op_get(VG_OP_RSA_PRIVATE)->data_max, 512);
	assert_int_equal(vg_op_get(VG_OP_PING)->data_max, 1024);
}

/* ---- algorithms ---- */

static void test_alg_rows(void **state)
{
	const vg_alg_info *a;
	int seen[VG_ALG_MAX + 1] = { 0 };
	size_t i;

	(void)state;
	for (i = 0; (a = vg_alg_at(i)) != NULL; i++) {
		assert_true(a->alg >= 1 && a->alg <= VG_ALG_MAX);
		assert_int_equal(seen[a->alg]++, 0);
		assert_ptr_equal(vg_alg_get(a->alg), a);
		assert_string_equal(vg_alg_name(a->alg), a->name);
		assert_int_equal(vg_alg_from_name(a->name), a->alg);
		assert_true(a->pad == VG_PAD_NONE || a->pad == VG_PAD_PKCS1 ||
			    a->pad == VG_PAD_PSS);
		if (a->pad != VG_PAD_NONE)
			assert_int_equal(a->key_type, VG_KEY_RSA);
		/* a format choice only for ECDSA, which signs a digest */
		int ec = a->key_type == VG_KEY_ECDSA_P256 || a->key_type == VG_KEY_ECDSA_P384;
		assert_int_equal(a->formats, ec);
		if (ec)
			assert_int_equal(a->data, VG_DATA_DIGEST);
		switch (a->data) {
		case VG_DATA_MESSAGE:
			assert_int_equal(a->digest, VG_DIGEST_NONE);
			assert_true(vg_alg_data_len_ok(a->alg, 0));
			assert_true(vg_alg_data_len_ok(a->alg, VG_PROTO_MAX_DATA));
			assert_false(vg_alg_data_len_ok(a->alg, VG_PROTO_MAX_DATA + 1));
			assert_int_equal(vg_alg_digest_len(a->alg), 0);
			break;
		case VG_DATA_DIGEST: {
			size_t dl = vg_digest_len(a->digest);
			assert_int_not_equal(dl, 0);
			assert_int_equal(vg_alg_digest_len(a->alg), dl);
			for (size_t n = 0; n <= 128; n++)
				assert_int_equal(vg_alg_data_len_ok(a->alg, n), n == dl);
			break;
		}
		case VG_DATA_CSR_INFO:
			/* the mode: the key's csr row signs; tls13's bit, which
			 * the config's `sign` sets too, permits it */
			assert_int_equal(a->key_type, 0);
			assert_int_equal(a->tls13, 0);
			assert_int_equal(a->allow, VG_ALLOW_SIGN_TLS13);
			assert_int_equal(vg_alg_digest_len(a->alg), 0);
			assert_false(vg_alg_data_len_ok(a->alg, 0));
			assert_false(vg_alg_data_len_ok(a->alg, 52));
			assert_true(vg_alg_data_len_ok(a->alg, 53));
			assert_true(vg_alg_data_len_ok(a->alg, 8192));
			assert_false(vg_alg_data_len_ok(a->alg, 8193));
			break;
		case VG_DATA_TLS13_HASH:
			/* the mode: the key's own row signs */
			assert_int_equal(a->key_type, 0);
			assert_int_equal(a->tls13, 0);
			assert_int_equal(a->allow, VG_ALLOW_SIGN_TLS13);
			for (size_t n = 0; n <= 128; n++)
				assert_int_equal(vg_alg_data_len_ok(a->alg, n),
						 n == 32 || n == 48 || n == 64);
			break;
		default:
			fail_msg("alg %d: DATA rule %d", a->alg, a->data);
		}
		if (a->key_type != 0) {
			assert_non_null(vg_key_type_get(a->key_type));
			assert_int_equal(a->allow, VG_ALLOW_SIGN);
			/* unique (key type, padding, digest): what the provider looks up */
			assert_ptr_equal(vg_alg_find(a->key_type, a->pad, a->digest), a);
		}
		/* TLS 1.3 forbids PKCS#1 v1.5 in CertificateVerify */
		if (a->pad == VG_PAD_PKCS1)
			assert_int_equal(a->tls13, 0);
	}
	/* Dense: every wire value has its row. */
	assert_int_equal(i, VG_ALG_MAX);
	assert_null(vg_alg_get(0));
	assert_null(vg_alg_get(VG_ALG_MAX + 1));
	assert_null(vg_alg_find(0, VG_PAD_NONE, VG_DIGEST_NONE));
	assert_null(vg_alg_find(VG_KEY_X25519, VG_PAD_NONE, VG_DIGEST_NONE));
}

/* The rows against PROTOCOL.md 4.2 and RFC 8446 4.2.3. */
static void test_alg_spec(void **state)
{
	static const struct {
		int alg;
		const char *name;
		int key, pad, digest;
		uint16_t scheme;
	} spec[] = {
		{ VG_ALG_ED25519, "ed25519", VG_KEY_ED25519, VG_PAD_NONE, VG_DIGEST_NONE, 0x0807 },
		{ VG_ALG_RSA_PKCS1_SHA256, "rsa-pkcs1-sha256", VG_KEY_RSA, VG_PAD_PKCS1,
		  VG_DIGEST_SHA256, 0 },
		{ VG_ALG_RSA_PKCS1_SHA384, "rsa-pkcs1-sha384", VG_KEY_RSA, VG_PAD_PKCS1,
		  VG_DIGEST_SHA384, 0 },
		{ VG_ALG_RSA_PKCS1_SHA512, "rsa-pkcs1-sha512", VG_KEY_RSA, VG_PAD_PKCS1,
		  VG_DIGEST_SHA512, 0 },
		{ VG_ALG_RSA_PSS_SHA256, "rsa-pss-sha256", VG_KEY_RSA, VG_PAD_PSS, VG_DIGEST_SHA256,
		  0x0804 },
		{ VG_ALG_RSA_PSS_SHA384, "rsa-pss-sha384", VG_KEY_RSA, VG_PAD_PSS, VG_DIGEST_SHA384,
		  0x0805 },
		{ VG_ALG_RSA_PSS_SHA512, "rsa-pss-sha512", VG_KEY_RSA, VG_PAD_PSS, VG_DIGEST_SHA512,
		  0x0806 },
		{ VG_ALG_TLS13, "tls13", 0, VG_PAD_NONE, VG_DIGEST_NONE, 0 },
		/* RFC 8446 4.2.3: ecdsa_secp256r1_sha256, ecdsa_secp384r1_sha384;
		 * the other hashes only outside TLS 1.3 (the curve fixes it) */
		{ VG_ALG_ECDSA_P256_SHA256, "ecdsa-p256-sha256", VG_KEY_ECDSA_P256, VG_PAD_NONE,
		  VG_DIGEST_SHA256, 0x0403 },
		{ VG_ALG_ECDSA_P384_SHA384, "ecdsa-p384-sha384", VG_KEY_ECDSA_P384, VG_PAD_NONE,
		  VG_DIGEST_SHA384, 0x0503 },
		{ VG_ALG_ECDSA_P256_SHA384, "ecdsa-p256-sha384", VG_KEY_ECDSA_P256, VG_PAD_NONE,
		  VG_DIGEST_SHA384, 0 },
		{ VG_ALG_ECDSA_P256_SHA512, "ecdsa-p256-sha512", VG_KEY_ECDSA_P256, VG_PAD_NONE,
		  VG_DIGEST_SHA512, 0 },
		{ VG_ALG_ECDSA_P384_SHA256, "ecdsa-p384-sha256", VG_KEY_ECDSA_P384, VG_PAD_NONE,
		  VG_DIGEST_SHA256, 0 },
		{ VG_ALG_ECDSA_P384_SHA512, "ecdsa-p384-sha512", VG_KEY_ECDSA_P384, VG_PAD_NONE,
		  VG_DIGEST_SHA512, 0 },
		/* a mode, like tls13: the key's own type signs (PROTOCOL.md 6.5.2) */
		{ VG_ALG_CSR, "csr", 0, VG_PAD_NONE, VG_DIGEST_NONE, 0 },
	};

	(void)state;
	assert_int_equal(sizeof spec / sizeof spec[0], VG_ALG_MAX);
	for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		const vg_alg_info *a = vg_alg_get(spec[i].alg);
		assert_non_null(a);
		assert_string_equal(a->name, spec[i].name);
		assert_int_equal(a->key_type, spec[i].key);
		assert_int_equal(a->pad, spec[i].pad);
		assert_int_equal(a->digest, spec[i].digest);
		assert_int_equal(a->tls13, spec[i].scheme);
	}
	assert_int_equal(vg_alg_from_name("ED25519"), 0);
	assert_int_equal(vg_alg_from_name(""), 0);
	assert_int_equal(vg_alg_from_name(NULL), 0);
}

/* Which row signs in TLS 1.3 mode (PROTOCOL.md 6.5.1). */
static void test_alg_tls13(void **state)
{
	static const size_t lens[] = { 32, 48, 64 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(vg_alg_tls13(VG_KEY_ED25519, lens[i])->alg, VG_ALG_ED25519);
		assert_null(vg_alg_tls13(VG_KEY_X25519, lens[i]));
		assert_null(vg_alg_tls13(0, lens[i]));
	}
	assert_int_equal(vg_alg_tls13(VG_KEY_RSA, 32)->alg, VG_ALG_RSA_PSS_SHA256);
	assert_int_equal(vg_alg_tls13(VG_KEY_RSA, 48)->alg, VG_ALG_RSA_PSS_SHA384);
	assert_int_equal(vg_alg_tls13(VG_KEY_RSA, 64)->alg, VG_ALG_RSA_PSS_SHA512);
	/* RFC 8446 4.2.3: an ECDSA curve is bound to its hash, whatever the
	 * transcript hash (the suite's) is */
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(vg_alg_tls13(VG_KEY_ECDSA_P256, lens[i])->alg,
				 VG_ALG_ECDSA_P256_SHA256);
		assert_int_equal(vg_alg_tls13(VG_KEY_ECDSA_P384, lens[i])->alg,
				 VG_ALG_ECDSA_P384_SHA384);
	}
	assert_null(vg_alg_tls13(VG_KEY_ECDSA_P256, 20));
	assert_null(vg_alg_tls13(VG_KEY_RSA, 20));
	assert_null(vg_alg_tls13(VG_KEY_ED25519, 0));
	assert_null(vg_alg_tls13(VG_KEY_ED25519, 65));
}

/* Which row signs a certificate request (ALG csr, PROTOCOL.md 6.5.2):
 * the X.509 signature algorithms for each key (RFC 8410 Ed25519, RFC 5758
 * ecdsa-with-SHA256/384, RFC 4055 sha256WithRSAEncryption). X25519 cannot
 * sign, and the csr row itself (key type 0) is never a provider's pick. */
static void test_alg_csr(void **state)
{
	(void)state;
	assert_int_equal(vg_alg_csr(VG_KEY_ED25519)->alg, VG_ALG_ED25519);
	assert_int_equal(vg_alg_csr(VG_KEY_ECDSA_P256)->alg, VG_ALG_ECDSA_P256_SHA256);
	assert_int_equal(vg_alg_csr(VG_KEY_ECDSA_P384)->alg, VG_ALG_ECDSA_P384_SHA384);
	assert_int_equal(vg_alg_csr(VG_KEY_RSA)->alg, VG_ALG_RSA_PKCS1_SHA256);
	assert_null(vg_alg_csr(VG_KEY_X25519));
	assert_null(vg_alg_csr(0));
	assert_null(vg_alg_csr(VG_KEY_MAX + 1));
	/* Their AlgorithmIdentifiers, written from the RFCs' OIDs: Ed25519
	 * 1.3.101.112 and the ECDSA ones without parameters, RSA's with NULL. */
	static const struct {
		int kt;
		uint8_t der[15];
		size_t len;
	} ids[] = {
		{VG_KEY_ED25519, {0x30, 5, 6, 3, 43, 101, 112}, 7},
		{VG_KEY_ECDSA_P256, {0x30, 10, 6, 8, 42, 134, 72, 206, 61, 4, 3, 2}, 12},
		{VG_KEY_ECDSA_P384, {0x30, 10, 6, 8, 42, 134, 72, 206, 61, 4, 3, 3}, 12},
		{VG_KEY_RSA, {0x30, 13, 6, 9, 42, 134, 72, 134, 247, 13, 1, 1, 11, 5, 0}, 15},
	};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		size_t len = 99;
		const uint8_t *id = vg_alg_csr_id(ids[i].kt, &len);
		assert_non_null(id);
		assert_int_equal(len, ids[i].len);
		assert_memory_equal(id, ids[i].der, len);
	}
	size_t none = 99;
	assert_null(vg_alg_csr_id(VG_KEY_X25519, &none));
	assert_int_equal(none, 0);
	for (int kt = 1; kt <= VG_KEY_MAX; kt++) {
		const vg_alg_info *a = vg_alg_csr(kt);
		size_t idl;
		assert_true((a == NULL) == (vg_alg_csr_id(kt, &idl) == NULL));
		if (a != NULL)
			assert_int_equal(a->key_type, kt);
		for (int pad = VG_PAD_NONE; pad <= VG_PAD_PSS; pad++)
			for (int d = 0; d <= VG_DIGEST_MAX; d++) {
				const vg_alg_info *f = vg_alg_find(kt, pad, d);
				assert_true(f == NULL || f->alg != VG_ALG_CSR);
			}
		/* the csr row adds no policy bit to a key type */
		assert_int_equal(vg_key_type_allow(kt) &
					 ~(uint32_t)(VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13 |
						     VG_ALLOW_X25519 | VG_ALLOW_RSA_PRIVATE),
				 0);
	}
	assert_int_equal(vg_key_type_allow(VG_KEY_X25519), VG_ALLOW_X25519);
	/* TLS_ROLE and SIG_FORMAT do not go with it */
	assert_false(vg_alg_format_ok(VG_ALG_CSR, VG_SIGFMT_DER));
	assert_false(vg_alg_format_ok(VG_ALG_CSR, VG_SIGFMT_RAW));
}

/* ---- key types, digests, bits ---- */

static void test_key_types(void **state)
{
	(void)state;
	for (int t = 1; t <= VG_KEY_MAX; t++) {
		const vg_key_type_info *k = vg_key_type_get(t);
		assert_non_null(k);
		assert_int_equal(k->type, t);
		assert_string_equal(vg_key_type_name(t), k->name);
		assert_true(one_bit(k->cap));
		assert_string_not_equal(vg_cap_name(k->cap), "unknown");
		for (int u = 1; u < t; u++)
			assert_string_not_equal(vg_key_type_get(u)->name, k->name);
	}
	assert_null(vg_key_type_get(0));
	assert_null(vg_key_type_get(VG_KEY_MAX + 1));
	assert_string_equal(vg_key_type_name(VG_KEY_RSA), "rsa");
	assert_string_equal(vg_key_type_name(0), "unknown");
	/* PROTOCOL.md 6.9: what each key type can be allowed to do */
	assert_int_equal(vg_key_type_allow(VG_KEY_ED25519), VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13);
	assert_int_equal(vg_key_type_allow(VG_KEY_X25519), VG_ALLOW_X25519);
	assert_int_equal(vg_key_type_allow(VG_KEY_RSA),
			 VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13 | VG_ALLOW_RSA_PRIVATE);
	assert_int_equal(vg_key_type_allow(VG_KEY_ECDSA_P256), VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13);
	assert_int_equal(vg_key_type_allow(VG_KEY_ECDSA_P384), VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13);
	/* PROTOCOL.md 4.1 KEY_TYPE and 6.1 CAPS */
	assert_string_equal(vg_key_type_name(VG_KEY_ECDSA_P256), "ecdsa-p256");
	assert_string_equal(vg_key_type_name(VG_KEY_ECDSA_P384), "ecdsa-p384");
	assert_int_equal(vg_key_type_get(VG_KEY_ECDSA_P256)->cap, VG_CAP_ECDSA);
	assert_int_equal(vg_key_type_get(VG_KEY_ECDSA_P384)->cap, VG_CAP_ECDSA);
	assert_int_equal(vg_key_type_get(VG_KEY_ECDSA_P256)->bits, 256);
	assert_int_equal(vg_key_type_get(VG_KEY_ECDSA_P384)->bits, 384);
	assert_int_equal(vg_key_type_allow(0), 0);
	assert_int_equal(vg_key_type_allow(VG_KEY_MAX + 1), 0);
}

static void test_digests(void **state)
{
	(void)state;
	assert_int_equal(vg_digest_len(VG_DIGEST_SHA256), 32);
	assert_int_equal(vg_digest_len(VG_DIGEST_SHA384), 48);
	assert_int_equal(vg_digest_len(VG_DIGEST_SHA512), 64);
	assert_int_equal(vg_digest_len(VG_DIGEST_NONE), 0);
	assert_int_equal(vg_digest_len(VG_DIGEST_MAX + 1), 0);
	for (int d = 1; d <= VG_DIGEST_MAX; d++) {
		assert_int_equal(vg_digest_from_len(vg_digest_len(d)), d);
		assert_true(vg_digest_len(d) <= VG_DIGEST_MAX_LEN);
	}
	assert_int_equal(vg_digest_from_len(0), VG_DIGEST_NONE);
	assert_int_equal(vg_digest_from_len(33), VG_DIGEST_NONE);
}

static void test_bit_names(void **state)
{
	(void)state;
	/* The words of the config's `allow =` (vgd.conf(5)) and of hello's CAPS
	 * (PROTOCOL.md 6.1). */
	assert_string_equal(vg_allow_name(VG_ALLOW_SIGN), "sign");
	assert_string_equal(vg_allow_name(VG_ALLOW_SIGN_TLS13), "tls13");
	assert_string_equal(vg_allow_name(VG_ALLOW_X25519), "x25519");
	assert_string_equal(vg_allow_name(VG_ALLOW_RSA_PRIVATE), "rsa-private");
	assert_string_equal(vg_allow_name(1u << 4), "unknown");
	assert_string_equal(vg_allow_name(VG_ALLOW_SIGN | VG_ALLOW_X25519), "unknown");
	assert_string_equal(vg_cap_name(VG_CAP_PIPELINE), "pipeline");
	assert_string_equal(vg_cap_name(VG_CAP_TLS13), "tls13");
	assert_string_equal(vg_cap_name(VG_CAP_ED25519), "ed25519");
	assert_string_equal(vg_cap_name(VG_CAP_X25519), "x25519");
	assert_string_equal(vg_cap_name(VG_CAP_RSA), "rsa");
	assert_string_equal(vg_cap_name(VG_CAP_ECDSA), "ecdsa");
	assert_int_equal(VG_CAP_ECDSA, 0x20);
	assert_string_equal(vg_cap_name(VG_CAP_CPU_HINT), "cpu-hint");
	assert_int_equal(VG_CAP_CPU_HINT, 0x40);
	assert_string_equal(vg_cap_name(VG_CAP_DIRECT), "direct");
	assert_int_equal(VG_CAP_DIRECT, 0x80);
	assert_string_equal(vg_cap_name(1u << 8), "unknown");
	/* What the tables give; the daemon adds DIRECT when it has slots
	 * (PROTOCOL.md 11.5: 0xff). */
	assert_int_equal(vg_caps(), 0x7f);
}

/* ---- reasons ---- */

static void test_reasons(void **state)
{
	(void)state;
	for (int r = 0; r < VG_R_COUNT; r++) {
		const char *t = vg_reason(r);
		int st = vg_reason_status(r);
		assert_true(strlen(t) > 0 && strlen(t) <= VG_PROTO_MAX_REASON);
		assert_string_not_equal(t, "unknown");
		assert_true(st >= VG_ST_OK && st <= VG_ST_MAX);
		assert_int_equal(st == VG_ST_OK, r == VG_R_OK);
		/* one text per condition */
		for (int q = 0; q < r; q++)
			assert_string_not_equal(vg_reason(q), t);
	}
	assert_string_equal(vg_reason(-1), "unknown");
	assert_string_equal(vg_reason(VG_R_COUNT), "unknown");
	assert_int_equal(vg_reason_status(VG_R_COUNT), VG_ST_INTERNAL);
	/* texts clients and tests see (PROTOCOL.md 11, tests/integration) */
	assert_string_equal(vg_reason(VG_R_NO_SUCH_KEY), "no such key");
	assert_int_equal(vg_reason_status(VG_R_NO_SUCH_KEY), VG_ST_UNKNOWN_KEY);
	assert_string_equal(vg_reason(VG_R_BAD_MAGIC), "not a vgd frame (bad magic)");
	assert_string_equal(vg_reason(VG_R_TOO_MANY_CONNECTIONS), "too many connections");
}

/* The request header rules and their reasons, in PROTOCOL.md 3.1's order:
 * each refusal from the 16 header bytes alone, whatever the body length. */
static void test_request_frame_check(void **state)
{
	static const struct {
		uint8_t version, opcode, status, reserved;
		uint32_t body_len;
		long ret;
		int why;
	} cases[] = {
		{ 1, VG_OP_PING, 0, 0, 0, 16, VG_R_OK },
		{ 1, VG_OP_SIGN, 0, 0, 100, 0, VG_R_OK }, /* body to come */
		{ 2, VG_OP_PING, 3, 1, 1u << 20, -VG_ST_BAD_VERSION, VG_R_BAD_VERSION },
		{ 1, VG_OP_PING, 3, 1, 1u << 20, -VG_ST_MALFORMED, VG_R_BAD_HEADER },
		{ 1, VG_OP_PING | VG_OP_REPLY, 3, 0, 1u << 20, -VG_ST_TOO_LARGE,
		  VG_R_FRAME_TOO_LARGE },
		{ 1, VG_OP_PING | VG_OP_REPLY, 3, 0, 100, -VG_ST_MALFORMED, VG_R_STATUS_IN_REQUEST },
		{ 1, VG_OP_RESERVED | VG_OP_REPLY, 0, 0, 100, -VG_ST_MALFORMED, VG_R_REPLY_BIT },
		{ 1, VG_OP_RESERVED, 0, 0, 100, -VG_ST_MALFORMED, VG_R_RESERVED_OP },
		{ 1, 0x7e, 0, 0, 0, 16, VG_R_OK }, /* unknown, not reserved: UNKNOWN_OP later */
	};
	uint8_t h[16];
	vg_frame_hdr fh;
	int why;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(h, 0, sizeof h);
		h[0] = 0x56;
		h[1] = 0x47;
		h[2] = cases[i].version;
		h[3] = cases[i].opcode;
		h[4] = cases[i].status;
		h[6] = cases[i].reserved;
		h[11] = 9;
		h[12] = (uint8_t)(cases[i].body_len >> 24);
		h[13] = (uint8_t)(cases[i].body_len >> 16);
		h[14] = (uint8_t)(cases[i].body_len >> 8);
		h[15] = (uint8_t)cases[i].body_len;
		why = -1;
		assert_int_equal(vg_request_frame_check(h, sizeof h, &fh, &why), cases[i].ret);
		if (cases[i].ret < 0) {
			assert_int_equal(why, cases[i].why);
			assert_int_equal(vg_reason_status(why), -cases[i].ret);
			assert_int_equal(fh.id, 9); /* the header was read */
		}
		/* 15 bytes are not yet a header: nothing but the magic judged */
		assert_int_equal(vg_request_frame_check(h, 15, &fh, &why), 0);
	}
	/* A wrong magic byte: refused at once, no header. */
	h[0] = 'G';
	assert_int_equal(vg_request_frame_check(h, 1, &fh, &why), -VG_ST_MALFORMED);
	assert_int_equal(why, VG_R_BAD_MAGIC);
	assert_int_equal(fh.id, 0);
	/* The reply side's check does not apply the request rules. */
	h[0] = 0x56;
	h[2] = 1;
	h[3] = VG_OP_PING | VG_OP_REPLY;
	h[4] = 5;
	h[6] = 0;
	memset(h + 12, 0, 4);
	assert_int_equal(vg_frame_check(h, sizeof h, NULL), 16);
}

/* Which form the answer to a refused header takes (PROTOCOL.md 7.1). */
static void test_frame_error_form(void **state)
{
	uint8_t out[128];
	vg_frame_hdr h = { .version = 2, .opcode = VG_OP_SIGN, .id = 9 };
	vg_reply rep;
	long n;

	(void)state;
	/* a header that was read: a reply to that frame */
	n = vg_frame_error_encode(&h, VG_R_BAD_VERSION, out, sizeof out);
	assert_true(n > 0);
	assert_int_equal(vg_reply_decode(out, (size_t)n, &rep), VG_ST_OK);
	assert_false(rep.conn_error);
	assert_int_equal(out[3], VG_OP_SIGN | VG_OP_REPLY);
	assert_int_equal(rep.id, 9);
	assert_int_equal(rep.status, VG_ST_BAD_VERSION);
	assert_int_equal(rep.reason_len, strlen(vg_reason(VG_R_BAD_VERSION)));
	/* no header (bad magic): a connection error, id 0 */
	memset(&h, 0, sizeof h);
	n = vg_frame_error_encode(&h, VG_R_BAD_MAGIC, out, sizeof out);
	assert_int_equal(vg_reply_decode(out, (size_t)n, &rep), VG_ST_OK);
	assert_true(rep.conn_error);
	assert_int_equal(out[3], VG_OP_CONN_ERROR);
	assert_int_equal(rep.id, 0);
	assert_int_equal(rep.status, VG_ST_MALFORMED);
	/* the reserved opcode, with or without the reply bit: a reply to it
	 * would look like a connection error, so it is one */
	h = (vg_frame_hdr){ .version = 1, .opcode = VG_OP_RESERVED, .id = 77 };
	n = vg_frame_error_encode(&h, VG_R_RESERVED_OP, out, sizeof out);
	assert_int_equal(vg_reply_decode(out, (size_t)n, &rep), VG_ST_OK);
	assert_true(rep.conn_error);
	assert_int_equal(rep.id, 0);
	h.opcode = VG_OP_CONN_ERROR;
	n = vg_frame_error_encode(&h, VG_R_REPLY_BIT, out, sizeof out);
	assert_int_equal(vg_reply_decode(out, (size_t)n, &rep), VG_ST_OK);
	assert_true(rep.conn_error);
	/* PROTOCOL.md 8: the form is the opcode's, the status and reason the
	 * first failure's: a reserved opcode after a bad version is still a
	 * connection error, saying BAD_VERSION */
	h = (vg_frame_hdr){ .version = 2, .opcode = VG_OP_CONN_ERROR, .id = 14 };
	n = vg_frame_error_encode(&h, VG_R_BAD_VERSION, out, sizeof out);
	assert_int_equal(vg_reply_decode(out, (size_t)n, &rep), VG_ST_OK);
	assert_true(rep.conn_error);
	assert_int_equal(rep.id, 0);
	assert_int_equal(rep.status, VG_ST_BAD_VERSION);
	assert_int_equal(out[2], 1); /* version 1 framing */
	/* a connection error is never a success */
	assert_true(vg_conn_error_encode(VG_ST_OK, "ok", out, sizeof out) < 0);
}

/* A sign request with ALG alg and the optional items asked for, encoded
 * by hand (the encoder would refuse some of them); returns its length. */
enum { WITH_ROLE = 1, WITH_FORMAT = 2, FORMAT_FIRST = 4, CPU_3 = 8 };
static size_t sign_frame(uint8_t *buf, size_t cap, uint8_t alg, int with)
{
	static const uint8_t digest[32];
	vg_writer w;

	vg_frame_begin(&w, buf, cap, VG_OP_SIGN, 0, 5);
	if (with & FORMAT_FIRST)
		vg_put_u8(&w, VG_T_SIG_FORMAT, VG_SIGFMT_RAW);
	vg_put_str(&w, VG_T_KEY, "k");
	vg_put_u8(&w, VG_T_ALG, alg);
	vg_put(&w, VG_T_DATA, digest, sizeof digest);
	if (with & WITH_ROLE)
		vg_put_u8(&w, VG_T_TLS_ROLE, VG_TLS_SERVER);
	if ((with & WITH_FORMAT) && !(with & FORMAT_FIRST))
		vg_put_u8(&w, VG_T_SIG_FORMAT, VG_SIGFMT_RAW);
	if (with & CPU_3)
		vg_put(&w, VG_T_CLIENT_CPU, "\0\0\1", 3);
	long n = vg_frame_end(&w);
	assert_true(n > 0);
	return (size_t)n;
}

/* PROTOCOL.md 4.2, 4.3, 6.5 and 8 step 3: ALG's value decides whether
 * TLS_ROLE and SIG_FORMAT may stand in a sign request, and an unknown
 * value allows neither (MALFORMED, whatever the item order); without them
 * an unknown ALG is BAD_INPUT. Fixed widths are structure too: a 3-byte
 * CLIENT_CPU is MALFORMED even beside an unknown ALG. */
static void test_sign_structure_rules(void **state)
{
	static const struct {
		uint8_t alg;
		int with;
		int status, why;
	} cases[] = {
		{ 99, 0, VG_ST_BAD_INPUT, VG_R_UNKNOWN_ALG },
		{ 99, WITH_FORMAT, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ 99, WITH_FORMAT | FORMAT_FIRST, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ 99, WITH_ROLE, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ 0, WITH_FORMAT, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ 99, CPU_3, VG_ST_MALFORMED, VG_R_BAD_ITEM_LENGTH },
		{ VG_ALG_ECDSA_P256_SHA256, CPU_3, VG_ST_MALFORMED, VG_R_BAD_ITEM_LENGTH },
		{ VG_ALG_ECDSA_P256_SHA256, WITH_FORMAT, VG_ST_OK, VG_R_OK },
		{ VG_ALG_ECDSA_P256_SHA256, WITH_FORMAT | WITH_ROLE, VG_ST_MALFORMED,
		  VG_R_ITEM_NOT_ALLOWED },
		{ VG_ALG_RSA_PSS_SHA256, WITH_FORMAT, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ VG_ALG_TLS13, WITH_ROLE | WITH_FORMAT, VG_ST_MALFORMED, VG_R_ITEM_NOT_ALLOWED },
		{ VG_ALG_TLS13, 0, VG_ST_MALFORMED, VG_R_MISSING_ITEM },
	};
	uint8_t buf[256];
	vg_request rq;
	const char *reason;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = sign_frame(buf, sizeof buf, cases[i].alg, cases[i].with);
		assert_int_equal(vg_request_decode(buf, n, &rq, &reason), cases[i].status);
		assert_string_equal(reason, vg_reason(cases[i].why));
	}
}

/* Policy refusals name what the policy allows, in the config's words. */
static void test_reason_policy(void **state)
{
	char buf[128];

	(void)state;
	assert_string_equal(vg_reason_policy(VG_R_SIGN_DENIED, VG_ALLOW_RSA_PRIVATE, buf, sizeof buf),
			    "key policy does not allow sign; it allows only rsa-private");
	assert_string_equal(vg_reason_policy(VG_R_RSA_PRIVATE_DENIED,
					     VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13, buf, sizeof buf),
			    "key policy does not allow rsa-private; it allows only sign");
	/* (tls13 is named alone only: the config's "sign" includes it) */
	assert_string_equal(vg_reason_policy(VG_R_SIGN_DENIED, VG_ALLOW_SIGN_TLS13 |
					     VG_ALLOW_RSA_PRIVATE, buf, sizeof buf),
			    "key policy does not allow sign; it allows only tls13, rsa-private");
	/* cut, still terminated */
	vg_reason_policy(VG_R_SIGN_DENIED, VG_ALLOW_SIGN_TLS13, buf, 10);
	assert_string_equal(buf, "key polic");
	/* the longest fits a keyholder record's reason (112 bytes with NUL) */
	vg_reason_policy(VG_R_RSA_PRIVATE_DENIED, VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13 |
			 VG_ALLOW_X25519 | VG_ALLOW_RSA_PRIVATE, buf, sizeof buf);
	assert_true(strlen(buf) < 112);
}

/* ---- reply rules ---- */

static uint8_t frame[4096];

/* Decode a reply written by the caller (w), then check it. */
static int check(vg_writer *w)
{
	vg_reply rep;
	long n = vg_frame_end(w);

	assert_true(n > 0);
	assert_int_equal(vg_reply_decode(frame, (size_t)n, &rep), VG_ST_OK);
	return vg_reply_check(&rep);
}

static void begin(vg_writer *w, uint8_t op, uint8_t status)
{
	vg_frame_begin(w, frame, sizeof frame, op | VG_OP_REPLY, status, 1);
}

static void put_limit(vg_writer *w)
{
	vg_put_open(w, VG_T_LIMIT);
	vg_put_u32(w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
	vg_put_u32(w, VG_T_LIM_MAX_INFLIGHT, 128);
	vg_put_close(w);
}

static void put_keyinfo(vg_writer *w)
{
	static const uint8_t pub[32];

	vg_put_open(w, VG_T_KEYINFO);
	vg_put_str(w, VG_T_KEY, "k");
	vg_put_u8(w, VG_T_KEY_TYPE, VG_KEY_ED25519);
	vg_put(w, VG_T_PUBKEY, pub, sizeof pub);
	vg_put_u32(w, VG_T_OPS, VG_ALLOW_SIGN);
	vg_put_close(w);
}

static void test_reply_check(void **state)
{
	static const uint8_t sig[64];
	vg_writer w;

	(void)state;
	/* A key operation's success must carry exactly one RESULT. */
	begin(&w, VG_OP_SIGN, VG_ST_OK);
	assert_int_equal(check(&w), VG_T_RESULT);
	begin(&w, VG_OP_SIGN, VG_ST_OK);
	vg_put(&w, VG_T_RESULT, sig, sizeof sig);
	assert_int_equal(check(&w), 0);
	begin(&w, VG_OP_X25519, VG_ST_OK);
	vg_put(&w, VG_T_SERVER, "x", 1); /* an item the rules do not name */
	assert_int_equal(check(&w), VG_T_RESULT);
	/* An error reply carries a reason, not a result. */
	begin(&w, VG_OP_SIGN, VG_ST_BAD_INPUT);
	vg_put_str(&w, VG_T_REASON, "no");
	assert_int_equal(check(&w), 0);
	/* hello: one or more VERSION, one CAPS and LIMIT, SERVER optional. */
	begin(&w, VG_OP_HELLO, VG_ST_OK);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u8(&w, VG_T_VERSION, 2);
	vg_put_u32(&w, VG_T_CAPS, 0);
	put_limit(&w);
	assert_int_equal(check(&w), 0);
	begin(&w, VG_OP_HELLO, VG_ST_OK);
	vg_put_u32(&w, VG_T_CAPS, 0);
	put_limit(&w);
	assert_int_equal(check(&w), VG_T_VERSION);
	begin(&w, VG_OP_HELLO, VG_ST_OK);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 0);
	assert_int_equal(check(&w), VG_T_LIMIT);
	/* a known item the operation does not return */
	begin(&w, VG_OP_HELLO, VG_ST_OK);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 0);
	put_limit(&w);
	vg_put(&w, VG_T_RESULT, sig, 1);
	assert_int_equal(check(&w), VG_T_RESULT);
	begin(&w, VG_OP_SIGN, VG_ST_OK);
	vg_put(&w, VG_T_RESULT, sig, sizeof sig);
	put_keyinfo(&w);
	assert_int_equal(check(&w), VG_T_KEYINFO);
	/* list-keys may be empty; public-key has exactly one KEYINFO. */
	begin(&w, VG_OP_LIST_KEYS, VG_ST_OK);
	assert_int_equal(check(&w), 0);
	begin(&w, VG_OP_PUBLIC_KEY, VG_ST_OK);
	put_keyinfo(&w);
	put_keyinfo(&w);
	assert_int_equal(check(&w), VG_T_KEYINFO);
	begin(&w, VG_OP_PUBLIC_KEY, VG_ST_OK);
	put_keyinfo(&w);
	assert_int_equal(check(&w), 0);
	/* ping's RESULT is optional but single. */
	begin(&w, VG_OP_PING, VG_ST_OK);
	assert_int_equal(check(&w), 0);
	/* Unknown operations pass: the client matches opcodes itself. */
	begin(&w, 0x55, VG_ST_OK);
	assert_int_equal(check(&w), 0);
	/* Unknown tags are skipped (PROTOCOL.md 4.1). */
	begin(&w, VG_OP_STATS, VG_ST_OK);
	vg_put(&w, 0x4242, sig, 3);
	assert_int_equal(check(&w), 0);
}

/* ---- TLS 1.3 content ---- */

/* RFC 8446 4.4.3, written out: 64 spaces, the context string, 0, hash. */
static size_t expected_content(uint8_t *out, const char *ctx, const uint8_t *h, size_t hl)
{
	memset(out, ' ', 64);
	memcpy(out + 64, ctx, 33);
	out[97] = 0;
	memcpy(out + 98, h, hl);
	return 98 + hl;
}

static void test_tls13_content(void **state)
{
	static const size_t lens[] = { 32, 48, 64 };
	uint8_t hash[64], got[VG_TLS13_CONTENT_MAX + 1], want[200];
	const uint8_t *hp;
	size_t hl;

	(void)state;
	assert_int_equal(VG_TLS13_CONTENT_MAX, 162);
	for (size_t i = 0; i < sizeof hash; i++)
		hash[i] = (uint8_t)(0xa0 + i);
	for (size_t i = 0; i < 3; i++) {
		size_t n = vg_tls13_content(got, VG_TLS_SERVER, hash, lens[i]);
		size_t m = expected_content(want, "TLS 1.3, server CertificateVerify", hash,
					    lens[i]);
		assert_int_equal(n, m);
		assert_memory_equal(got, want, m);
		assert_int_equal(vg_tls13_parse(got, n, &hp, &hl), VG_TLS_SERVER);
		assert_ptr_equal(hp, got + 98);
		assert_int_equal(hl, lens[i]);

		n = vg_tls13_content(got, VG_TLS_CLIENT, hash, lens[i]);
		m = expected_content(want, "TLS 1.3, client CertificateVerify", hash,
				     lens[i]);
		assert_int_equal(n, m);
		assert_memory_equal(got, want, m);
		assert_int_equal(vg_tls13_parse(got, n, &hp, &hl), VG_TLS_CLIENT);
	}
	/* refused inputs write nothing */
	memset(got, 0xee, sizeof got);
	assert_int_equal(vg_tls13_content(got, 0, hash, 32), 0);
	assert_int_equal(vg_tls13_content(got, 3, hash, 32), 0);
	assert_int_equal(vg_tls13_content(got, VG_TLS_SERVER, hash, 20), 0);
	assert_int_equal(vg_tls13_content(got, VG_TLS_SERVER, NULL, 32), 0);
	assert_int_equal(got[0], 0xee);
}

static void test_tls13_parse_rejects(void **state)
{
	uint8_t hash[32] = { 1 }, m[200];
	const uint8_t *hp = NULL;
	size_t hl = 0, n = expected_content(m, "TLS 1.3, server CertificateVerify", hash, 32);

	(void)state;
	assert_int_equal(vg_tls13_parse(m, n, &hp, &hl), VG_TLS_SERVER);
	/* other lengths: too short, between the hash sizes, too long */
	assert_int_equal(vg_tls13_parse(m, n - 1, &hp, &hl), 0);
	assert_int_equal(vg_tls13_parse(m, n + 1, &hp, &hl), 0);
	assert_int_equal(vg_tls13_parse(m, 98, &hp, &hl), 0);
	assert_int_equal(vg_tls13_parse(m, 10, &hp, &hl), 0);
	assert_int_equal(vg_tls13_parse(NULL, n, &hp, &hl), 0);
	/* any wrong byte of the head */
	for (size_t i = 0; i < 98; i++) {
		m[i] ^= 0x01;
		assert_int_equal(vg_tls13_parse(m, n, &hp, &hl), 0);
		m[i] ^= 0x01;
	}
	expected_content(m, "TLS 1.3, server Certificateverify", hash, 32);
	assert_int_equal(vg_tls13_parse(m, n, &hp, &hl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_rows),
		cmocka_unit_test(test_op_kinds),
		cmocka_unit_test(test_op_key_rules),
		cmocka_unit_test(test_op_item_rules),
		cmocka_unit_test(test_alg_rows),
		cmocka_unit_test(test_alg_spec),
		cmocka_unit_test(test_alg_tls13),
		cmocka_unit_test(test_alg_csr),
		cmocka_unit_test(test_key_types),
		cmocka_unit_test(test_digests),
		cmocka_unit_test(test_bit_names),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_request_frame_check),
		cmocka_unit_test(test_frame_error_form),
		cmocka_unit_test(test_sign_structure_rules),
		cmocka_unit_test(test_reason_policy),
		cmocka_unit_test(test_reply_check),
		cmocka_unit_test(test_tls13_content),
		cmocka_unit_test(test_tls13_parse_rejects),
	};

	return cmocka_run_group_tests_name("protocol-tables", tests, NULL, NULL);
}
