/* test_proto.c: unit tests of the v1 codec: round trips of every request and
 * reply, every class of malformed input, writer bounds, nesting and names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vg/proto.h"
#include "vg/proto_tables.h"

#define BUF 70000 /* larger than any frame, so limits are the codec's */

static uint8_t buf[BUF];
static uint8_t big[BUF];

/* ---- helpers ---- */

static vg_request mkreq(uint8_t op, uint32_t id, const char *key, uint8_t alg, uint8_t role,
			const uint8_t *data, size_t data_len, int has_data)
{
	vg_request r;

	memset(&r, 0, sizeof r);
	r.op = op;
	r.id = id;
	if (key != NULL)
		strcpy(r.key, key);
	r.alg = alg;
	r.tls_role = role;
	r.data = data;
	r.data_len = data_len;
	r.has_data = has_data;
	return r;
}

/* Encode, decode, and compare every field. */
static void roundtrip(const vg_request *in)
{
	vg_request out;
	const char *why = NULL;
	long n = vg_request_encode(in, buf, sizeof buf);

	assert_true(n >= VG_PROTO_HDR_LEN);
	assert_int_equal(vg_frame_check(buf, (size_t)n, NULL), n);
	assert_int_equal(vg_request_decode(buf, (size_t)n, &out, &why), VG_ST_OK);
	assert_string_equal(why, "ok");
	assert_int_equal(out.op, in->op);
	assert_int_equal(out.id, in->id);
	assert_string_equal(out.key, in->key);
	assert_int_equal(out.alg, in->alg);
	assert_int_equal(out.tls_role, in->tls_role);
	assert_int_equal(out.sig_format, in->sig_format);
	assert_int_equal(out.has_data, in->has_data);
	if (in->has_data) {
		assert_int_equal(out.data_len, in->data_len);
		if (in->data_len)
			assert_memory_equal(out.data, in->data, in->data_len);
		/* DATA points into the frame, not at the caller's copy. */
		assert_true(out.data >= buf && out.data + out.data_len <= buf + n);
	} else {
		assert_null(out.data);
		assert_int_equal(out.data_len, 0);
	}
}

/* Decode frame[0..n) as a request and expect status and reason. */
static void expect_req(const uint8_t *f, size_t n, int status, const char *reason)
{
	vg_request r;
	const char *why = NULL;

	assert_int_equal(vg_request_decode(f, n, &r, &why), status);
	assert_non_null(why);
	if (reason != NULL)
		assert_string_equal(why, reason);
}

/* Raw request frames through the writer, which does not validate. */
static vg_writer W;

static void raw_begin(uint8_t op)
{
	vg_frame_begin(&W, buf, sizeof buf, op, 0, 42);
}

static size_t raw_end(void)
{
	long n = vg_frame_end(&W);

	assert_true(n >= VG_PROTO_HDR_LEN);
	return (size_t)n;
}

/* Append raw bytes to the body (for broken item framing), fixing body_len. */
static size_t raw_append(size_t n, const void *bytes, size_t len)
{
	uint32_t body;

	memcpy(buf + n, bytes, len);
	n += len;
	body = (uint32_t)(n - VG_PROTO_HDR_LEN);
	buf[12] = (uint8_t)(body >> 24);
	buf[13] = (uint8_t)(body >> 16);
	buf[14] = (uint8_t)(body >> 8);
	buf[15] = (uint8_t)body;
	return n;
}

static const uint8_t zeros[1024];
static const uint8_t d32[32] = { 1 }, d48[48] = { 2 }, d64[64] = { 3 };

/* ---- request round trips ---- */

static void test_rt_simple_ops(void **state)
{
	vg_request r;

	(void)state;
	r = mkreq(VG_OP_HELLO, 1, NULL, 0, 0, NULL, 0, 0);
	roundtrip(&r);
	r = mkreq(VG_OP_PING, 2, NULL, 0, 0, NULL, 0, 0);
	roundtrip(&r);
	r = mkreq(VG_OP_PING, 3, NULL, 0, 0, (const uint8_t *)"", 0, 1); /* empty DATA */
	roundtrip(&r);
	r = mkreq(VG_OP_PING, 4, NULL, 0, 0, zeros, 1024, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_LIST_KEYS, 5, NULL, 0, 0, NULL, 0, 0);
	roundtrip(&r);
	r = mkreq(VG_OP_STATS, 0xffffffffu, NULL, 0, 0, NULL, 0, 0);
	roundtrip(&r);
	r = mkreq(VG_OP_PUBLIC_KEY, 0, "a", 0, 0, NULL, 0, 0);
	roundtrip(&r);
	r = mkreq(VG_OP_PUBLIC_KEY, 6,
		  "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._", 0, 0, NULL,
		  0, 0);
	roundtrip(&r);
}

static void test_rt_sign(void **state)
{
	static const uint8_t msg[] = "hi";
	vg_request r;

	(void)state;
	r = mkreq(VG_OP_SIGN, 10, "demo", VG_ALG_ED25519, 0, msg, 2, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_SIGN, 11, "demo", VG_ALG_ED25519, 0, msg, 0, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_SIGN, 12, "demo", VG_ALG_ED25519, 0, big, VG_PROTO_MAX_DATA, 1);
	roundtrip(&r);
	for (int a = VG_ALG_RSA_PKCS1_SHA256; a <= VG_ALG_RSA_PSS_SHA512; a++) {
		size_t dl = vg_alg_digest_len(a);
		r = mkreq(VG_OP_SIGN, (uint32_t)a, "rsa-2048", (uint8_t)a, 0, big, dl, 1);
		roundtrip(&r);
	}
	/* ECDSA: the digest, with or without SIG_FORMAT (PROTOCOL.md 4.2). */
	static const struct {
		uint8_t alg;
		size_t len;
	} ec[] = {
		{VG_ALG_ECDSA_P256_SHA256, 32}, {VG_ALG_ECDSA_P384_SHA384, 48},
		{VG_ALG_ECDSA_P256_SHA384, 48}, {VG_ALG_ECDSA_P256_SHA512, 64},
		{VG_ALG_ECDSA_P384_SHA256, 32}, {VG_ALG_ECDSA_P384_SHA512, 64},
	};
	for (size_t i = 0; i < sizeof ec / sizeof ec[0]; i++) {
		for (uint8_t fmt = 0; fmt <= VG_SIGFMT_RAW; fmt++) {
			r = mkreq(VG_OP_SIGN, 40, "web-ec", ec[i].alg, 0, big, ec[i].len, 1);
			r.sig_format = fmt;
			roundtrip(&r);
		}
	}
	for (uint8_t role = VG_TLS_SERVER; role <= VG_TLS_CLIENT; role++) {
		r = mkreq(VG_OP_SIGN, 20, "web", VG_ALG_TLS13, role, d32, 32, 1);
		roundtrip(&r);
		r = mkreq(VG_OP_SIGN, 21, "web", VG_ALG_TLS13, role, d48, 48, 1);
		roundtrip(&r);
		r = mkreq(VG_OP_SIGN, 22, "web", VG_ALG_TLS13, role, d64, 64, 1);
		roundtrip(&r);
	}
}

static void test_rt_x25519_rsa(void **state)
{
	vg_request r;

	(void)state;
	r = mkreq(VG_OP_X25519, 30, "ech", 0, 0, d32, 32, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_RSA_PRIVATE, 31, "rsa", 0, 0, big, 256, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_RSA_PRIVATE, 32, "rsa", 0, 0, big, 384, 1);
	roundtrip(&r);
	r = mkreq(VG_OP_RSA_PRIVATE, 33, "rsa", 0, 0, big, 512, 1);
	roundtrip(&r);
}

/* The example of PROTOCOL.md, byte for byte. */
static void test_worked_example(void **state)
{
	static const uint8_t want[] = {
		0x56, 0x47, 0x01, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
		0x00, 0x00, 0x00, 0x13, 0x00, 0x01, 0x00, 0x04, 'd',  'e',  'm',  'o',
		0x00, 0x02, 0x00, 0x01, 0x01, 0x00, 0x03, 0x00, 0x02, 'h',  'i',
	};
	vg_request r = mkreq(VG_OP_SIGN, 7, "demo", VG_ALG_ED25519, 0, (const uint8_t *)"hi", 2, 1);

	(void)state;
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), sizeof want);
	assert_memory_equal(buf, want, sizeof want);
}

/* ---- reply round trips ---- */

static void reply_ok(long n, uint8_t op, uint32_t id, vg_reply *rep)
{
	assert_true(n > 0);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, rep), VG_ST_OK);
	assert_int_equal(rep->op, op);
	assert_int_equal(rep->id, id);
	assert_int_equal(rep->status, VG_ST_OK);
}

static void test_reply_hello(void **state)
{
	vg_writer w;
	vg_reply rep;
	vg_item it, in;
	vg_cursor c;
	uint8_t v8;
	uint32_t v32, lim_frame = 0, lim_inflight = 0, caps = 0;
	int versions = 0, got_server = 0;

	(void)state;
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u8(&w, VG_T_VERSION, 2);
	vg_put_u32(&w, VG_T_CAPS, VG_CAP_PIPELINE | VG_CAP_TLS13);
	vg_put_open(&w, VG_T_LIMIT);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
	vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, VG_PROTO_MAX_INFLIGHT);
	vg_put_close(&w);
	vg_put_str(&w, VG_T_SERVER, "vgd 0.1.0");
	reply_ok(vg_frame_end(&w), VG_OP_HELLO, 1, &rep);
	assert_null(rep.result);
	assert_null(rep.reason);

	c = rep.items;
	while (vg_item_next(&c, &it) == 1) {
		switch (it.tag) {
		case VG_T_VERSION:
			assert_int_equal(vg_item_u8(&it, &v8), 0);
			assert_int_equal(v8, 1 + versions++);
			break;
		case VG_T_CAPS:
			assert_int_equal(vg_item_u32(&it, &caps), 0);
			break;
		case VG_T_LIMIT: {
			vg_cursor n = vg_item_cursor(&it);
			while (vg_item_next(&n, &in) == 1) {
				assert_int_equal(vg_item_u32(&in, &v32), 0);
				if (in.tag == VG_T_LIM_MAX_FRAME)
					lim_frame = v32;
				else if (in.tag == VG_T_LIM_MAX_INFLIGHT)
					lim_inflight = v32;
			}
			break;
		}
		case VG_T_SERVER:
			assert_int_equal(it.len, 9);
			assert_memory_equal(it.val, "vgd 0.1.0", 9);
			got_server = 1;
			break;
		default:
			fail();
		}
	}
	assert_int_equal(c.left, 0);
	assert_int_equal(versions, 2);
	assert_int_equal(caps, VG_CAP_PIPELINE | VG_CAP_TLS13);
	assert_int_equal(lim_frame, VG_PROTO_MAX_FRAME);
	assert_int_equal(lim_inflight, VG_PROTO_MAX_INFLIGHT);
	assert_true(got_server);
}

static void put_keyinfo(vg_writer *w, const char *name, uint8_t type, const uint8_t *pub,
			size_t pub_len, const uint8_t *e, size_t e_len, uint32_t ops)
{
	vg_put_open(w, VG_T_KEYINFO);
	vg_put_str(w, VG_T_KEY, name);
	vg_put_u8(w, VG_T_KEY_TYPE, type);
	vg_put(w, VG_T_PUBKEY, pub, pub_len);
	if (e != NULL)
		vg_put(w, VG_T_RSA_E, e, e_len);
	vg_put_u32(w, VG_T_OPS, ops);
	vg_put_close(w);
}

static void test_reply_keys(void **state)
{
	static const uint8_t e[] = { 0x01, 0x00, 0x01 };
	vg_writer w;
	vg_reply rep;
	vg_item it, in;
	vg_cursor c, k;
	int n = 0, saw_e = 0;
	uint8_t type = 0;
	uint32_t ops = 0;

	(void)state;
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 9);
	put_keyinfo(&w, "ed", VG_KEY_ED25519, d32, 32, NULL, 0, VG_ALLOW_SIGN);
	put_keyinfo(&w, "rsa", VG_KEY_RSA, big, 256, e, 3, VG_ALLOW_SIGN_TLS13);
	put_keyinfo(&w, "x", VG_KEY_X25519, d32, 32, NULL, 0, VG_ALLOW_X25519);
	reply_ok(vg_frame_end(&w), VG_OP_LIST_KEYS, 9, &rep);
	c = rep.items;
	while (vg_item_next(&c, &it) == 1) {
		assert_int_equal(it.tag, VG_T_KEYINFO);
		k = vg_item_cursor(&it);
		while (vg_item_next(&k, &in) == 1) {
			if (in.tag == VG_T_KEY_TYPE)
				assert_int_equal(vg_item_u8(&in, &type), 0);
			if (in.tag == VG_T_OPS)
				assert_int_equal(vg_item_u32(&in, &ops), 0);
			if (in.tag == VG_T_RSA_E) {
				assert_int_equal(in.len, 3);
				saw_e++;
			}
		}
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(saw_e, 1);
	assert_int_equal(type, VG_KEY_X25519);
	assert_int_equal(ops, VG_ALLOW_X25519);

	/* public-key: one KEYINFO. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PUBLIC_KEY | VG_OP_REPLY, 0, 10);
	put_keyinfo(&w, "rsa", VG_KEY_RSA, big, 512, e, 3, VG_ALLOW_RSA_PRIVATE);
	reply_ok(vg_frame_end(&w), VG_OP_PUBLIC_KEY, 10, &rep);
	c = rep.items;
	assert_int_equal(vg_item_next(&c, &it), 1);
	assert_int_equal(it.tag, VG_T_KEYINFO);
	assert_int_equal(it.len, 4 + 3 + 4 + 1 + 4 + 512 + 4 + 3 + 4 + 4);
	assert_int_equal(vg_item_next(&c, &it), 0);
}

static void test_reply_results(void **state)
{
	static const uint8_t ops[] = { VG_OP_PING, VG_OP_SIGN, VG_OP_X25519, VG_OP_RSA_PRIVATE };
	static const size_t lens[] = { 2, 64, 32, 512 };
	vg_writer w;
	vg_reply rep;

	(void)state;
	for (size_t i = 0; i < sizeof ops; i++) {
		vg_frame_begin(&w, buf, sizeof buf, ops[i] | VG_OP_REPLY, 0, (uint32_t)i);
		vg_put(&w, VG_T_RESULT, big, lens[i]);
		reply_ok(vg_frame_end(&w), ops[i], (uint32_t)i, &rep);
		assert_non_null(rep.result);
		assert_int_equal(rep.result_len, lens[i]);
		assert_ptr_equal(rep.result, buf + VG_PROTO_HDR_LEN + 4);
	}
	/* ping without DATA: empty reply body. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PING | VG_OP_REPLY, 0, 77);
	reply_ok(vg_frame_end(&w), VG_OP_PING, 77, &rep);
	assert_null(rep.result);
	assert_int_equal(rep.items.left, 0);
}

static void test_reply_stats(void **state)
{
	vg_writer w;
	vg_reply rep;
	vg_item it, in;
	vg_cursor c, s;
	uint64_t v, sum = 0;
	int n = 0;

	(void)state;
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 3);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "requests");
	vg_put_u64(&w, VG_T_STAT_VALUE, 0x0102030405060708ull);
	vg_put_close(&w);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "errors");
	vg_put_u64(&w, VG_T_STAT_VALUE, 1);
	vg_put_close(&w);
	reply_ok(vg_frame_end(&w), VG_OP_STATS, 3, &rep);
	c = rep.items;
	while (vg_item_next(&c, &it) == 1) {
		assert_int_equal(it.tag, VG_T_STAT);
		s = vg_item_cursor(&it);
		while (vg_item_next(&s, &in) == 1) {
			if (in.tag == VG_T_STAT_VALUE) {
				assert_int_equal(vg_item_u64(&in, &v), 0);
				sum += v;
			}
		}
		n++;
	}
	assert_int_equal(n, 2);
	assert_true(sum == 0x0102030405060709ull);
}

static void test_reply_error(void **state)
{
	char longr[400];
	vg_reply rep;
	long n;

	(void)state;
	n = vg_error_encode(VG_OP_SIGN, 5, VG_ST_NOT_ALLOWED, "tls13 only", buf, sizeof buf);
	assert_true(n > 0);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.op, VG_OP_SIGN);
	assert_int_equal(rep.status, VG_ST_NOT_ALLOWED);
	assert_int_equal(rep.id, 5);
	assert_int_equal(rep.reason_len, 10);
	assert_memory_equal(rep.reason, "tls13 only", 10);

	/* NULL reason: the status name. */
	n = vg_error_encode(VG_OP_HELLO, 0, VG_ST_INTERNAL, NULL, buf, sizeof buf);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.reason_len, strlen("internal"));

	/* A long reason is cut to 255 bytes, at a UTF-8 character boundary:
	 * 254 ASCII bytes then a 2-byte character straddling byte 255. */
	memset(longr, 'a', 254);
	longr[254] = (char)0xc3;
	longr[255] = (char)0xa9;
	longr[256] = '\0';
	n = vg_error_encode(VG_OP_SIGN, 1, VG_ST_BAD_INPUT, longr, buf, sizeof buf);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.reason_len, 254);
	memset(longr, 'b', sizeof longr - 1);
	longr[sizeof longr - 1] = '\0';
	n = vg_error_encode(VG_OP_SIGN, 1, VG_ST_BAD_INPUT, longr, buf, sizeof buf);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.reason_len, VG_PROTO_MAX_REASON);

	/* An error for an unknown opcode echoes it. */
	n = vg_error_encode(0x33, 8, VG_ST_UNKNOWN_OP, "unknown opcode", buf, sizeof buf);
	assert_int_equal(buf[3], 0x33 | VG_OP_REPLY);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.op, 0x33);
	/* Too small a buffer. */
	assert_int_equal(vg_error_encode(VG_OP_SIGN, 1, 1, "x", buf, 20), -VG_ST_TOO_LARGE);
}

/* Encode, then decode: the decoder's verdict. */
static int decode_w(vg_writer *w)
{
	vg_reply rep;
	long n = vg_frame_end(w);

	assert_true(n > 0);
	return vg_reply_decode(buf, (size_t)n, &rep);
}

static void put_limit(vg_writer *w, int frame, int inflight)
{
	vg_put_open(w, VG_T_LIMIT);
	if (frame)
		vg_put_u32(w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
	if (inflight)
		vg_put_u32(w, VG_T_LIM_MAX_INFLIGHT, 128);
	vg_put_close(w);
}

/* A KEYINFO with every required child but `without` (0: all). */
static void keyinfo_but(vg_writer *w, int without, int extra)
{
	vg_put_open(w, VG_T_KEYINFO);
	if (without != VG_T_KEY)
		vg_put_str(w, VG_T_KEY, "k");
	if (without != VG_T_KEY_TYPE)
		vg_put_u8(w, VG_T_KEY_TYPE, VG_KEY_ED25519);
	if (without != VG_T_PUBKEY)
		vg_put(w, VG_T_PUBKEY, d32, 32);
	if (without != VG_T_OPS)
		vg_put_u32(w, VG_T_OPS, VG_ALLOW_SIGN);
	if (extra)
		vg_put(w, (uint16_t)extra, d32, 4);
	vg_put_close(w);
}

/* PROTOCOL.md 4 and 7, as strict as written: where each item stands, how
 * often, what a nested item must hold, what an error carries. */
static void test_reply_strict(void **state)
{
	vg_writer w;
	char big_server[300];

	(void)state;
	/* every known item at most once where it stands (top level) ... */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 0);
	put_limit(&w, 1, 1);
	put_limit(&w, 1, 1);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put_str(&w, VG_T_SERVER, "a");
	vg_put_str(&w, VG_T_SERVER, "b");
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	/* ... and inside a nested item */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PUBLIC_KEY | VG_OP_REPLY, 0, 1);
	keyinfo_but(&w, 0, VG_T_KEY);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_LIMIT);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, 1);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, 1);
	vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 1);
	vg_put_close(&w);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	/* the repeatable ones repeat */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
	keyinfo_but(&w, 0, 0);
	keyinfo_but(&w, 0, 0);
	assert_int_equal(decode_w(&w), VG_ST_OK);
	/* a nested item holds its required children */
	static const int kids[] = { VG_T_KEY, VG_T_KEY_TYPE, VG_T_PUBKEY, VG_T_OPS };
	for (size_t i = 0; i < 4; i++) {
		vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
		keyinfo_but(&w, kids[i], 0);
		assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	}
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	put_limit(&w, 1, 0);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "x");
	vg_put_close(&w);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	/* known items only where the spec puts them */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_str(&w, VG_T_STAT_NAME, "x");
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_DATA, d32, 32); /* request-only */
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
	keyinfo_but(&w, 0, VG_T_RESULT);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	/* unknown items are skipped everywhere: top, LIMIT, KEYINFO, STAT */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put(&w, 0x1234, d32, 3);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 0);
	vg_put_open(&w, VG_T_LIMIT);
	vg_put(&w, 0x1235, d32, 9);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, 1);
	vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 1);
	vg_put_close(&w);
	assert_int_equal(decode_w(&w), VG_ST_OK);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "x");
	vg_put(&w, VG_T_MAX + 1, d32, 2); /* the first unknown tag */
	vg_put_u64(&w, VG_T_STAT_VALUE, 1);
	vg_put_close(&w);
	assert_int_equal(decode_w(&w), VG_ST_OK);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
	keyinfo_but(&w, 0, 0xfff0);
	assert_int_equal(decode_w(&w), VG_ST_OK);
	/* an error carries exactly one REASON and no other known item */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, VG_ST_BAD_INPUT, 1);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, VG_ST_BAD_INPUT, 1);
	vg_put_str(&w, VG_T_REASON, "no");
	vg_put(&w, VG_T_RESULT, d32, 32);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, VG_ST_BAD_INPUT, 1);
	vg_put_str(&w, VG_T_REASON, "no");
	vg_put(&w, 0x2222, d32, 32); /* unknown: skipped */
	assert_int_equal(decode_w(&w), VG_ST_OK);
	/* a success carries no REASON */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, d64, 64);
	vg_put_str(&w, VG_T_REASON, "fine");
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	/* SERVER is at most 255 bytes */
	memset(big_server, 's', sizeof big_server - 1);
	big_server[sizeof big_server - 1] = '\0';
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_SERVER, big_server, VG_PROTO_MAX_SERVER + 1);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_SERVER, big_server, VG_PROTO_MAX_SERVER);
	assert_int_equal(decode_w(&w), VG_ST_OK);
}

/* A connection error (PROTOCOL.md 7.1): opcode 0xff, id 0, an error with
 * its REASON; told apart from every reply. */
/* A USE item (PROTOCOL.md 6.8) with its counters, and key/uid unless
 * NULL; skip: one child left out (0: none). */
static void put_use(vg_writer *w, const char *key, int skip)
{
	vg_put_open(w, VG_T_USE);
	if (key && skip != VG_T_USE_KEY)
		vg_put_str(w, VG_T_USE_KEY, key);
	if (key && skip != VG_T_USE_UID)
		vg_put_u32(w, VG_T_USE_UID, 33);
	static const uint16_t u64s[] = {VG_T_USE_OK, VG_T_USE_ERRORS, VG_T_USE_REFUSED,
					VG_T_USE_LAST_MS};
	for (size_t i = 0; i < sizeof u64s / sizeof u64s[0]; i++)
		if (skip != u64s[i])
			vg_put_u64(w, u64s[i], 7);
	if (skip != VG_T_USE_LAST_PID)
		vg_put_u32(w, VG_T_USE_LAST_PID, 4242);
	vg_put_close(w);
}

/* The stats reply's USE rows: repeatable beside STAT, the other row
 * names neither key nor uid, a row names both or neither, each counter
 * is required, and only stats carries them. */
static void test_reply_use(void **state)
{
	vg_writer w;
	vg_reply rep;

	(void)state;
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 3);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "use.rows");
	vg_put_u64(&w, VG_T_STAT_VALUE, 2);
	vg_put_close(&w);
	put_use(&w, "web", 0);
	put_use(&w, "mail", 0);
	put_use(&w, NULL, 0);
	reply_ok(vg_frame_end(&w), VG_OP_STATS, 3, &rep);
	assert_int_equal(vg_reply_check(&rep), 0);
	static const int required[] = {VG_T_USE_OK,      VG_T_USE_ERRORS,   VG_T_USE_REFUSED,
				       VG_T_USE_LAST_MS, VG_T_USE_LAST_PID, VG_T_USE_KEY,
				       VG_T_USE_UID};
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 3);
		put_use(&w, "web", required[i]);
		assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	}
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 3);
	put_use(&w, "web", 0);
	reply_ok(vg_frame_end(&w), VG_OP_LIST_KEYS, 3, &rep);
	assert_int_equal(vg_reply_check(&rep), VG_T_USE);
}

static void test_conn_error(void **state)
{
	vg_writer w;
	vg_reply rep;
	long n;

	(void)state;
	n = vg_conn_error_encode(VG_ST_OVERLOADED, "too many connections", buf, sizeof buf);
	assert_true(n > 0);
	assert_int_equal(buf[3], VG_OP_CONN_ERROR);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_true(rep.conn_error);
	assert_int_equal(rep.status, VG_ST_OVERLOADED);
	assert_int_equal(rep.id, 0);
	assert_int_equal(rep.reason_len, 20);
	assert_false(vg_status_closes(rep.status)); /* as a reply it would not close */
	/* a reply to opcode 0 is a reply, not a connection error */
	n = vg_error_encode(0, 0, VG_ST_UNKNOWN_OP, "unknown opcode", buf, sizeof buf);
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_false(rep.conn_error);
	assert_int_equal(rep.op, 0);
	/* malformed connection errors: an id, status 0, no REASON */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_CONN_ERROR, VG_ST_OVERLOADED, 3);
	vg_put_str(&w, VG_T_REASON, "x");
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_CONN_ERROR, VG_ST_OK, 0);
	vg_put_str(&w, VG_T_REASON, "x");
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_CONN_ERROR, VG_ST_UNAVAILABLE, 0);
	assert_int_equal(decode_w(&w), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_CONN_ERROR, VG_ST_UNAVAILABLE, 0);
	vg_put_str(&w, VG_T_REASON, "daemon is shutting down");
	assert_int_equal(decode_w(&w), VG_ST_OK);
}

static void test_reply_malformed(void **state)
{
	vg_writer w;
	vg_reply rep;
	size_t n;
	static const uint8_t partial[] = { 0x00, 0x05, 0x00 };

	(void)state;
	/* No reply bit. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PING, 0, 1);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	/* Duplicate RESULT, duplicate REASON. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, d32, 32);
	vg_put(&w, VG_T_RESULT, d32, 32);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 1, 1);
	vg_put_str(&w, VG_T_REASON, "a");
	vg_put_str(&w, VG_T_REASON, "b");
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	/* Wrong width of a fixed-size item, top level and nested. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_CAPS, d32, 3);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	vg_put(&w, VG_T_STAT_VALUE, d32, 4);
	vg_put_close(&w);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	/* A nested item whose children overrun it. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_KEYINFO, partial, sizeof partial);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	/* Nested items nest once: a STAT inside a STAT is out of place ... */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	vg_put_open(&w, VG_T_STAT);
	vg_put_close(&w);
	vg_put_close(&w);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_MALFORMED);
	/* ... and an unknown tag is opaque: not recursed into. */
	{
		static const uint8_t five[] = {
			0x7f, 0x0f, 0x00, 0x10, 0x00, 0x0f, 0x00, 0x0c, 0x00, 0x0f,
			0x00, 0x08, 0x00, 0x0f, 0x00, 0x04, 0x00, 0x0f, 0x00, 0x00,
		};
		vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
		n = raw_append((size_t)vg_frame_end(&w), five, sizeof five);
		assert_int_equal(vg_reply_decode(buf, n, &rep), VG_ST_OK);
	}
	/* Unknown tags are skipped (forward compatible), if well framed. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 0, 1);
	vg_put(&w, 999, d32, 5);
	vg_put(&w, VG_T_RESULT, d64, 64);
	assert_int_equal(vg_reply_decode(buf, (size_t)vg_frame_end(&w), &rep), VG_ST_OK);
	assert_int_equal(rep.result_len, 64);
	/* Trailing partial item header. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_SIGN | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, d64, 64);
	n = raw_append((size_t)vg_frame_end(&w), partial, 2);
	assert_int_equal(vg_reply_decode(buf, n, &rep), VG_ST_MALFORMED);
	/* Length mismatch and bad headers. */
	assert_int_equal(vg_reply_decode(buf, n - 1, &rep), VG_ST_MALFORMED);
	buf[2] = 9;
	assert_int_equal(vg_reply_decode(buf, n, &rep), VG_ST_BAD_VERSION);
	assert_int_equal(vg_reply_decode(buf, 3, &rep), VG_ST_MALFORMED);
}

/* ---- frame_check ---- */

static void test_frame_check_prefixes(void **state)
{
	vg_request r = mkreq(VG_OP_SIGN, 0x01020304, "demo", VG_ALG_ED25519, 0, big, 300, 1);
	vg_frame_hdr h;
	long n = vg_request_encode(&r, buf, sizeof buf);

	(void)state;
	assert_true(n > 0);
	/* Every strict prefix needs more, header prefixes included. */
	for (long i = 0; i < n; i++) {
		assert_int_equal(vg_frame_check(buf, (size_t)i, &h), 0);
		if (i < VG_PROTO_HDR_LEN)
			assert_int_equal(h.id, 0);
		else
			assert_int_equal(h.id, 0x01020304);
	}
	assert_int_equal(vg_frame_check(buf, (size_t)n, &h), n);
	assert_int_equal(h.version, 1);
	assert_int_equal(h.opcode, VG_OP_SIGN);
	assert_int_equal(h.status, 0);
	assert_int_equal(h.body_len, n - VG_PROTO_HDR_LEN);
	/* A following frame's bytes do not change the first frame's length. */
	assert_int_equal(vg_frame_check(buf, (size_t)n + 5, &h), n);
	assert_int_equal(vg_frame_check(NULL, 0, &h), 0);
	assert_int_equal(vg_frame_check(NULL, 5, &h), -VG_ST_MALFORMED);
}

static void test_frame_check_bad_header(void **state)
{
	vg_request r = mkreq(VG_OP_PING, 0xabcdef01, NULL, 0, 0, NULL, 0, 0);
	vg_frame_hdr h;
	long n = vg_request_encode(&r, buf, sizeof buf);

	(void)state;
	assert_int_equal(n, VG_PROTO_HDR_LEN);
	/* Wrong magic: refused from the first wrong byte; id stays 0. */
	buf[0] = 'X';
	assert_int_equal(vg_frame_check(buf, 1, &h), -VG_ST_MALFORMED);
	assert_int_equal(vg_frame_check(buf, 16, &h), -VG_ST_MALFORMED);
	assert_int_equal(h.id, 0);
	buf[0] = 0x56;
	buf[1] = 0x48;
	assert_int_equal(vg_frame_check(buf, 1, &h), 0);
	assert_int_equal(vg_frame_check(buf, 2, &h), -VG_ST_MALFORMED);
	expect_req(buf, 16, VG_ST_MALFORMED, "not a vgd frame (bad magic)");
	expect_req(buf, 1, VG_ST_MALFORMED, "frame length does not match its header");
	buf[1] = 0x47;

	/* Wrong version: BAD_VERSION with the header (id) filled. */
	for (int v = 0; v < 256; v++) {
		if (v == VG_PROTO_VERSION)
			continue;
		buf[2] = (uint8_t)v;
		assert_int_equal(vg_frame_check(buf, 15, &h), 0);
		assert_int_equal(vg_frame_check(buf, 16, &h), -VG_ST_BAD_VERSION);
		assert_int_equal(h.id, 0xabcdef01);
		assert_int_equal(h.version, v);
	}
	expect_req(buf, 16, VG_ST_BAD_VERSION, "unsupported protocol version");
	buf[2] = 1;

	/* Nonzero reserved bytes. */
	for (int i = 5; i < 8; i++) {
		buf[i] = 1;
		assert_int_equal(vg_frame_check(buf, 16, &h), -VG_ST_MALFORMED);
		assert_int_equal(h.id, 0xabcdef01);
		expect_req(buf, 16, VG_ST_MALFORMED, "nonzero reserved bytes in the frame header");
		buf[i] = 0;
	}

	/* Oversized: refused from 16 bytes alone, for every length above max. */
	static const uint32_t sizes[] = { VG_PROTO_MAX_BODY + 1, 0x10000, 0x7fffffff, 0xffffffff };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		buf[12] = (uint8_t)(sizes[i] >> 24);
		buf[13] = (uint8_t)(sizes[i] >> 16);
		buf[14] = (uint8_t)(sizes[i] >> 8);
		buf[15] = (uint8_t)sizes[i];
		assert_int_equal(vg_frame_check(buf, 16, &h), -VG_ST_TOO_LARGE);
		assert_int_equal(h.body_len, sizes[i]);
		assert_int_equal(h.id, 0xabcdef01);
		expect_req(buf, 16, VG_ST_TOO_LARGE, "frame larger than the maximum");
	}
	/* The maximum itself is accepted (waits for the body). */
	buf[12] = 0;
	buf[13] = 0;
	buf[14] = (uint8_t)(VG_PROTO_MAX_BODY >> 8);
	buf[15] = (uint8_t)VG_PROTO_MAX_BODY;
	assert_int_equal(vg_frame_check(buf, 16, &h), 0);
	assert_int_equal(vg_frame_check(buf, VG_PROTO_MAX_FRAME, &h), VG_PROTO_MAX_FRAME);
}

static void test_status_closes(void **state)
{
	(void)state;
	for (int s = -1; s <= VG_ST_MAX + 1; s++) {
		int want = s == VG_ST_MALFORMED || s == VG_ST_BAD_VERSION || s == VG_ST_TOO_LARGE;
		assert_int_equal(vg_status_closes(s), want);
	}
}

/* ---- malformed requests ---- */

static void test_req_header_fields(void **state)
{
	vg_frame_hdr h;
	size_t n;

	(void)state;
	/* Nonzero status in a request. */
	vg_frame_begin(&W, buf, sizeof buf, VG_OP_HELLO, VG_ST_INTERNAL, 1);
	n = raw_end();
	expect_req(buf, n, VG_ST_MALFORMED, "status set in a request");
	/* Reply bit in a request. */
	vg_frame_begin(&W, buf, sizeof buf, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	n = raw_end();
	expect_req(buf, n, VG_ST_MALFORMED, "reply bit set in a request");
	/* Unknown opcodes keep the connection: UNKNOWN_OP, items unread. */
	static const uint8_t unknown_ops[] = { 0, VG_OP_MAX + 1, 0x42, 0x7e };
	for (size_t i = 0; i < sizeof unknown_ops; i++) {
		vg_frame_begin(&W, buf, sizeof buf, unknown_ops[i], 0, 5);
		vg_put(&W, 0xffff, d32, 7);
		n = raw_end();
		n = raw_append(n, "\x00", 1); /* even broken items: opaque */
		expect_req(buf, n, VG_ST_UNKNOWN_OP, "unknown opcode");
		assert_int_equal(vg_frame_check(buf, n, &h), (long)n);
		assert_false(vg_status_closes(VG_ST_UNKNOWN_OP));
	}
	/* 0x7f is reserved (a reply to it would carry the connection error
	 * opcode): MALFORMED, judged with the header. */
	vg_frame_begin(&W, buf, sizeof buf, VG_OP_RESERVED, 0, 5);
	n = raw_end();
	expect_req(buf, n, VG_ST_MALFORMED, "reserved opcode 0x7f");
	/* The decoder wants exactly one frame. */
	raw_begin(VG_OP_HELLO);
	n = raw_end();
	expect_req(buf, n + 1, VG_ST_MALFORMED, "frame length does not match its header");
	expect_req(buf, n - 1, VG_ST_MALFORMED, "frame length does not match its header");
	expect_req(buf, 0, VG_ST_MALFORMED, NULL);
	/* The request id is reported even when decoding fails. */
	{
		vg_request r;
		vg_frame_begin(&W, buf, sizeof buf, VG_OP_SIGN, 0, 0x55aa);
		n = raw_end();
		assert_int_equal(vg_request_decode(buf, n, &r, NULL), VG_ST_MALFORMED);
		assert_int_equal(r.id, 0x55aa);
		assert_int_equal(r.op, VG_OP_SIGN);
	}
}

static void test_req_item_framing(void **state)
{
	static const uint8_t hdr_only[] = { 0x00, 0x03, 0x00, 0x10 }; /* DATA of 16, absent */
	size_t n;

	(void)state;
	/* Item overrunning the body. */
	raw_begin(VG_OP_PING);
	n = raw_append(raw_end(), hdr_only, sizeof hdr_only);
	expect_req(buf, n, VG_ST_MALFORMED, "item overruns the frame");
	n = raw_append(n, d32, 15); /* one byte short */
	expect_req(buf, n, VG_ST_MALFORMED, "item overruns the frame");
	n = raw_append(n, d32, 1);
	expect_req(buf, n, VG_ST_OK, NULL);
	/* Trailing bytes: a partial item header of 1, 2, 3 bytes. */
	for (size_t t = 1; t < 4; t++) {
		raw_begin(VG_OP_SIGN);
		vg_put_str(&W, VG_T_KEY, "k");
		vg_put_u8(&W, VG_T_ALG, VG_ALG_ED25519);
		vg_put(&W, VG_T_DATA, d32, 3);
		n = raw_end();
		expect_req(buf, n, VG_ST_OK, NULL);
		n = raw_append(n, hdr_only, t);
		expect_req(buf, n, VG_ST_MALFORMED, "item overruns the frame");
	}
}

static void test_req_item_rules(void **state)
{
	(void)state;
	/* Duplicate item. */
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put_str(&W, VG_T_KEY, "a");
	vg_put_str(&W, VG_T_KEY, "a");
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "duplicate item");
	raw_begin(VG_OP_PING);
	vg_put(&W, VG_T_DATA, d32, 1);
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "duplicate item");

	/* Missing required items, for each op that has them. */
	raw_begin(VG_OP_PUBLIC_KEY);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put_u8(&W, VG_T_ALG, VG_ALG_ED25519);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");
	raw_begin(VG_OP_SIGN);
	vg_put_u8(&W, VG_T_ALG, VG_ALG_ED25519);
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");
	raw_begin(VG_OP_X25519);
	vg_put_str(&W, VG_T_KEY, "k");
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");
	raw_begin(VG_OP_RSA_PRIVATE);
	vg_put(&W, VG_T_DATA, big, 256);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "missing item");

	/* Unknown tags. */
	static const uint16_t unknown_tags[] = { 0, VG_T_MAX + 1, 0x1234, 0xffff };
	for (size_t i = 0; i < sizeof unknown_tags / sizeof unknown_tags[0]; i++) {
		raw_begin(VG_OP_HELLO);
		vg_put(&W, unknown_tags[i], NULL, 0);
		expect_req(buf, raw_end(), VG_ST_MALFORMED, "unknown item");
	}
	/* Known tags forbidden for the opcode: every reply-only tag in sign,
	 * and every tag at all in hello (but DIRECT: test_req_direct, and
	 * CLIENT_CPU, which says where a direct slot is wanted),
	 * list-keys and stats. */
	for (uint16_t t = VG_T_RESULT; t <= VG_T_MAX; t++) {
		if (t == VG_T_CLIENT_CPU) /* allowed in sign (test_req_client_cpu) */
			continue;
		raw_begin(VG_OP_SIGN);
		vg_put_str(&W, VG_T_KEY, "k");
		vg_put_u8(&W, VG_T_ALG, VG_ALG_ED25519);
		vg_put(&W, VG_T_DATA, d32, 1);
		vg_put(&W, t, d32, 1);
		expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	}
	static const uint8_t bare_ops[] = { VG_OP_HELLO, VG_OP_LIST_KEYS, VG_OP_STATS };
	for (size_t i = 0; i < sizeof bare_ops; i++) {
		for (uint16_t t = 1; t <= VG_T_MAX; t++) {
			if (bare_ops[i] == VG_OP_HELLO && (t == VG_T_DIRECT || t == VG_T_CLIENT_CPU))
				continue;
			raw_begin(bare_ops[i]);
			vg_put(&W, t, d32, 1);
			expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
		}
	}
	raw_begin(VG_OP_PING);
	vg_put_str(&W, VG_T_KEY, "k");
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	raw_begin(VG_OP_X25519);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put_u8(&W, VG_T_ALG, VG_ALG_ED25519);
	vg_put(&W, VG_T_DATA, d32, 32);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");

	/* u8 items must be exactly one byte. */
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put(&W, VG_T_ALG, "\x00\x01", 2);
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "bad item length");
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "k");
	vg_put(&W, VG_T_ALG, NULL, 0);
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "bad item length");

	/* Structure beats values whatever the order: a bad key name first,
	 * a duplicate later, is MALFORMED (the connection closes). */
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put_str(&W, VG_T_KEY, "bad name");
	vg_put(&W, VG_T_DATA, d32, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
}

/* A sign request with these items (role 0 = absent). */
static size_t sign_frame(uint8_t alg, uint8_t role, const uint8_t *data, size_t len)
{
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "key");
	vg_put_u8(&W, VG_T_ALG, alg);
	if (role != 0)
		vg_put_u8(&W, VG_T_TLS_ROLE, role);
	vg_put(&W, VG_T_DATA, data, len);
	return raw_end();
}

static void test_req_sign_values(void **state)
{
	static const size_t try_lens[] = { 0, 1, 20, 28, 31, 32, 33, 47, 48, 49, 63, 64, 65, 128 };

	(void)state;
	/* RSA and ECDSA algorithms: exactly the hash length, nothing else. */
	for (int a = VG_ALG_RSA_PKCS1_SHA256; a <= VG_ALG_MAX; a++) {
		if (a == VG_ALG_TLS13 || a == VG_ALG_CSR)
			continue;
		size_t want = vg_alg_digest_len(a);
		assert_true(want == 32 || want == 48 || want == 64);
		for (size_t i = 0; i < sizeof try_lens / sizeof try_lens[0]; i++) {
			size_t n = sign_frame((uint8_t)a, 0, big, try_lens[i]);
			if (try_lens[i] == want)
				expect_req(buf, n, VG_ST_OK, "ok");
			else
				expect_req(buf, n, VG_ST_BAD_INPUT,
					   "data length does not fit the algorithm");
		}
	}
	/* tls13: 32, 48 or 64. */
	for (size_t i = 0; i < sizeof try_lens / sizeof try_lens[0]; i++) {
		size_t l = try_lens[i];
		size_t n = sign_frame(VG_ALG_TLS13, VG_TLS_CLIENT, big, l);
		expect_req(buf, n, (l == 32 || l == 48 || l == 64) ? VG_ST_OK : VG_ST_BAD_INPUT,
			   NULL);
	}
	/* csr: a CertificationRequestInfo of 53..8192 bytes (its content is
	 * the keyholder's to check); no TLS_ROLE. */
	static const size_t csr_lens[] = {0, 32, 52, 53, 1000, 8192, 8193, 20000};
	for (size_t i = 0; i < sizeof csr_lens / sizeof csr_lens[0]; i++) {
		size_t l = csr_lens[i];
		expect_req(buf, sign_frame(VG_ALG_CSR, 0, big, l),
			   l >= 53 && l <= 8192 ? VG_ST_OK : VG_ST_BAD_INPUT, NULL);
	}
	expect_req(buf, sign_frame(VG_ALG_CSR, VG_TLS_SERVER, big, 100), VG_ST_MALFORMED,
		   "item not allowed");
	/* ed25519: 0..VG_PROTO_MAX_DATA. */
	expect_req(buf, sign_frame(VG_ALG_ED25519, 0, big, VG_PROTO_MAX_DATA), VG_ST_OK, NULL);
	expect_req(buf, sign_frame(VG_ALG_ED25519, 0, big, VG_PROTO_MAX_DATA + 1), VG_ST_BAD_INPUT,
		   NULL);
	/* Bad algorithm values (well framed: BAD_INPUT). */
	static const uint8_t bad_algs[] = { 0, VG_ALG_MAX + 1, 0x80, 0xff };
	for (size_t i = 0; i < sizeof bad_algs; i++)
		expect_req(buf, sign_frame(bad_algs[i], 0, d32, 32), VG_ST_BAD_INPUT,
			   "unknown algorithm");
	/* TLS_ROLE: required with tls13, forbidden otherwise, values 1..2. */
	expect_req(buf, sign_frame(VG_ALG_TLS13, 0, d32, 32), VG_ST_MALFORMED, "missing item");
	for (int a = VG_ALG_ED25519; a < VG_ALG_TLS13; a++)
		expect_req(buf, sign_frame((uint8_t)a, VG_TLS_SERVER, d32, 32), VG_ST_MALFORMED,
			   "item not allowed");
	expect_req(buf, sign_frame(0, VG_TLS_SERVER, d32, 32), VG_ST_MALFORMED, "item not allowed");
	static const uint8_t bad_roles[] = { 3, 0x80, 0xff };
	for (size_t i = 0; i < sizeof bad_roles; i++)
		expect_req(buf, sign_frame(VG_ALG_TLS13, bad_roles[i], d32, 32), VG_ST_BAD_INPUT,
			   "bad tls role");
	/* role 0 is present-but-invalid, unlike absent. */
	raw_begin(VG_OP_SIGN);
	vg_put_str(&W, VG_T_KEY, "key");
	vg_put_u8(&W, VG_T_ALG, VG_ALG_TLS13);
	vg_put_u8(&W, VG_T_TLS_ROLE, 0);
	vg_put(&W, VG_T_DATA, d32, 32);
	expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad tls role");
	/* SIG_FORMAT: optional with an ECDSA ALG (values 1..2), forbidden
	 * with the others (tls13 mode included: TLS uses DER). */
	for (int a = 1; a <= VG_ALG_MAX; a++) {
		int ecdsa = a >= VG_ALG_ECDSA_P256_SHA256 && a <= VG_ALG_ECDSA_P384_SHA512;
		size_t dl = a == VG_ALG_TLS13 ? 32 : vg_alg_digest_len(a);
		for (uint8_t fmt = VG_SIGFMT_DER; fmt <= VG_SIGFMT_RAW; fmt++) {
			raw_begin(VG_OP_SIGN);
			vg_put_str(&W, VG_T_KEY, "key");
			vg_put_u8(&W, VG_T_ALG, (uint8_t)a);
			vg_put_u8(&W, VG_T_SIG_FORMAT, fmt);
			if (a == VG_ALG_TLS13)
				vg_put_u8(&W, VG_T_TLS_ROLE, VG_TLS_SERVER);
			vg_put(&W, VG_T_DATA, big, dl);
			if (ecdsa)
				expect_req(buf, raw_end(), VG_ST_OK, "ok");
			else
				expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
		}
	}
	static const uint8_t bad_formats[] = {0, 3, 0x80, 0xff};
	for (size_t i = 0; i < sizeof bad_formats; i++) {
		raw_begin(VG_OP_SIGN);
		vg_put_u8(&W, VG_T_SIG_FORMAT, bad_formats[i]);
		vg_put(&W, VG_T_DATA, d48, 48);
		vg_put_u8(&W, VG_T_ALG, VG_ALG_ECDSA_P384_SHA384);
		vg_put_str(&W, VG_T_KEY, "key");
		expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad signature format");
	}
	raw_begin(VG_OP_SIGN); /* one byte, like every u8 item */
	vg_put_str(&W, VG_T_KEY, "key");
	vg_put_u8(&W, VG_T_ALG, VG_ALG_ECDSA_P256_SHA256);
	vg_put(&W, VG_T_SIG_FORMAT, "\x00\x02", 2);
	vg_put(&W, VG_T_DATA, d32, 32);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "bad item length");
	raw_begin(VG_OP_SIGN); /* an unknown ALG has no format choice: structure first */
	vg_put_str(&W, VG_T_KEY, "key");
	vg_put_u8(&W, VG_T_ALG, VG_ALG_MAX + 1);
	vg_put_u8(&W, VG_T_SIG_FORMAT, VG_SIGFMT_RAW);
	vg_put(&W, VG_T_DATA, d32, 32);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	raw_begin(VG_OP_X25519); /* only sign takes it */
	vg_put_str(&W, VG_T_KEY, "x");
	vg_put_u8(&W, VG_T_SIG_FORMAT, VG_SIGFMT_DER);
	vg_put(&W, VG_T_DATA, d32, 32);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	/* The encoder refuses what the decoder would. */
	vg_request bad = mkreq(VG_OP_SIGN, 1, "k", VG_ALG_RSA_PSS_SHA256, 0, d32, 32, 1);
	bad.sig_format = VG_SIGFMT_RAW;
	assert_int_equal(vg_request_encode(&bad, buf, sizeof buf), -VG_ST_MALFORMED);
	bad = mkreq(VG_OP_SIGN, 1, "k", VG_ALG_ECDSA_P256_SHA256, 0, d32, 32, 1);
	bad.sig_format = 7;
	assert_int_equal(vg_request_encode(&bad, buf, sizeof buf), -VG_ST_BAD_INPUT);
	/* Item order is free. */
	raw_begin(VG_OP_SIGN);
	vg_put(&W, VG_T_DATA, d48, 48);
	vg_put_u8(&W, VG_T_TLS_ROLE, VG_TLS_SERVER);
	vg_put_u8(&W, VG_T_ALG, VG_ALG_TLS13);
	vg_put_str(&W, VG_T_KEY, "key");
	expect_req(buf, raw_end(), VG_ST_OK, "ok");
}

/* CLIENT_CPU: an optional u32 hint in the requests a client sends per
 * operation (ping, sign, x25519, rsa-private), any value; four bytes or
 * malformed; not allowed elsewhere; encoded and decoded back. */
static void test_req_client_cpu(void **state)
{
	(void)state;
	static const uint32_t cpus[] = {0, 1, 63, 0x12345678u, 0xffffffffu};
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
		static const uint8_t ops[] = {VG_OP_PING, VG_OP_SIGN, VG_OP_X25519,
					      VG_OP_RSA_PRIVATE, VG_OP_HELLO};
		for (size_t k = 0; k < sizeof ops; k++) {
			vg_request q = {.op = ops[k], .id = 7, .has_cpu = 1, .cpu = cpus[i]};
			uint8_t in[256] = {1};
			if (ops[k] != VG_OP_PING && ops[k] != VG_OP_HELLO)
				strcpy(q.key, "key");
			if (ops[k] == VG_OP_SIGN)
				q.alg = VG_ALG_ED25519;
			q.has_data = ops[k] != VG_OP_PING && ops[k] != VG_OP_HELLO;
			q.data = in;
			q.data_len = ops[k] == VG_OP_X25519 ? 32 : ops[k] == VG_OP_RSA_PRIVATE ? 256 : 5;
			long n = vg_request_encode(&q, buf, sizeof buf);
			assert_true(n > 0);
			vg_request r;
			const char *why = NULL;
			assert_int_equal(vg_request_decode(buf, (size_t)n, &r, &why), VG_ST_OK);
			assert_int_equal(r.has_cpu, 1);
			assert_int_equal(r.cpu, cpus[i]);
		}
	}
	vg_request r;
	const char *why = NULL;
	raw_begin(VG_OP_PING); /* absent: has_cpu 0 */
	assert_int_equal(vg_request_decode(buf, raw_end(), &r, &why), VG_ST_OK);
	assert_int_equal(r.has_cpu, 0);
	raw_begin(VG_OP_PING);
	vg_put(&W, VG_T_CLIENT_CPU, "\x00\x01", 2);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "bad item length");
	static const uint8_t not_here[] = {VG_OP_LIST_KEYS, VG_OP_PUBLIC_KEY, VG_OP_STATS};
	for (size_t i = 0; i < sizeof not_here; i++) {
		raw_begin(not_here[i]);
		if (not_here[i] == VG_OP_PUBLIC_KEY)
			vg_put_str(&W, VG_T_KEY, "key");
		vg_put_u32(&W, VG_T_CLIENT_CPU, 1);
		expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	}
}

/* DIRECT (PROTOCOL.md 6.11): an optional u64 in hello only, decoded into
 * req.direct; eight bytes or malformed; absent gives 0. */
static void test_req_direct(void **state)
{
	(void)state;
	vg_request r;
	const char *why = NULL;
	raw_begin(VG_OP_HELLO);
	assert_int_equal(vg_request_decode(buf, raw_end(), &r, &why), VG_ST_OK);
	assert_int_equal(r.direct, 0);
	static const uint64_t vals[] = {1, 2, 0x0102030405060708ull, ~0ull};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		raw_begin(VG_OP_HELLO);
		vg_put_u64(&W, VG_T_DIRECT, vals[i]);
		assert_int_equal(vg_request_decode(buf, raw_end(), &r, &why), VG_ST_OK);
		assert_true(r.direct == vals[i]);
	}
	raw_begin(VG_OP_HELLO);
	vg_put_u32(&W, VG_T_DIRECT, 1);
	expect_req(buf, raw_end(), VG_ST_MALFORMED, "bad item length");
	static const uint8_t not_here[] = {VG_OP_PING, VG_OP_LIST_KEYS, VG_OP_STATS};
	for (size_t i = 0; i < sizeof not_here; i++) {
		raw_begin(not_here[i]);
		vg_put_u64(&W, VG_T_DIRECT, 1);
		expect_req(buf, raw_end(), VG_ST_MALFORMED, "item not allowed");
	}
	/* In a reply: a hello's, at the top level, eight bytes. */
	uint8_t rb[128];
	vg_writer w;
	vg_frame_begin(&w, rb, sizeof rb, VG_OP_HELLO | VG_OP_REPLY, VG_ST_OK, 1);
	vg_put_u64(&w, VG_T_DIRECT, 42);
	vg_reply rep;
	long n = vg_frame_end(&w);
	assert_int_equal(vg_reply_decode(rb, (size_t)n, &rep), VG_ST_OK);
	vg_frame_begin(&w, rb, sizeof rb, VG_OP_HELLO | VG_OP_REPLY, VG_ST_OK, 1);
	vg_put_u32(&w, VG_T_DIRECT, 42);
	n = vg_frame_end(&w);
	assert_int_equal(vg_reply_decode(rb, (size_t)n, &rep), VG_ST_MALFORMED);
}

static void test_req_other_values(void **state)
{
	(void)state;
	/* x25519 peer: exactly 32. */
	static const size_t xl[] = { 0, 1, 31, 33, 64 };
	for (size_t i = 0; i < sizeof xl / sizeof xl[0]; i++) {
		raw_begin(VG_OP_X25519);
		vg_put_str(&W, VG_T_KEY, "x");
		vg_put(&W, VG_T_DATA, big, xl[i]);
		expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "x25519 peer key must be 32 bytes");
	}
	/* rsa-private: 256..512. */
	static const size_t rl[] = { 0, 128, 255, 256, 300, 512, 513, 1024 };
	for (size_t i = 0; i < sizeof rl / sizeof rl[0]; i++) {
		raw_begin(VG_OP_RSA_PRIVATE);
		vg_put_str(&W, VG_T_KEY, "r");
		vg_put(&W, VG_T_DATA, big, rl[i]);
		expect_req(buf, raw_end(), rl[i] >= 256 && rl[i] <= 512 ? VG_ST_OK : VG_ST_BAD_INPUT,
			   NULL);
	}
	/* ping: at most 1024. */
	raw_begin(VG_OP_PING);
	vg_put(&W, VG_T_DATA, big, 1025);
	expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "ping data over 1024 bytes");
}

static void test_req_key_names(void **state)
{
	static const char *const bad[] = { "", "a b", "a/b", "../x", "k:1", "é", "a\tb", "a+b" };
	char name[VG_PROTO_MAX_KEY_NAME + 2];
	vg_request r;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		raw_begin(VG_OP_PUBLIC_KEY);
		vg_put_str(&W, VG_T_KEY, bad[i]);
		expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad key name");
	}
	/* Embedded NUL and high bytes. */
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put(&W, VG_T_KEY, "ab\0c", 4);
	expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad key name");
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put(&W, VG_T_KEY, "\x80", 1);
	expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad key name");
	/* 64 bytes fine, 65 too long. */
	memset(name, 'k', sizeof name);
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put(&W, VG_T_KEY, name, VG_PROTO_MAX_KEY_NAME);
	expect_req(buf, raw_end(), VG_ST_OK, NULL);
	raw_begin(VG_OP_PUBLIC_KEY);
	vg_put(&W, VG_T_KEY, name, VG_PROTO_MAX_KEY_NAME + 1);
	expect_req(buf, raw_end(), VG_ST_BAD_INPUT, "bad key name");
	/* The encoder refuses what the decoder would. */
	r = mkreq(VG_OP_PUBLIC_KEY, 1, "a b", 0, 0, NULL, 0, 0);
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_BAD_INPUT);
	memset(r.key, 'k', sizeof r.key); /* no NUL */
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_BAD_INPUT);
	r = mkreq(VG_OP_SIGN, 1, "k", VG_ALG_TLS13, 0, d32, 32, 1);
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_MALFORMED);
	r = mkreq(VG_OP_X25519, 1, "k", 0, 0, d32, 31, 1);
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_BAD_INPUT);
	r = mkreq(VG_OP_MAX + 1, 1, NULL, 0, 0, NULL, 0, 0);
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_UNKNOWN_OP);
	r = mkreq(VG_OP_PING, 1, NULL, 0, 0, NULL, 5, 1); /* NULL data with a length */
	assert_int_equal(vg_request_encode(&r, buf, sizeof buf), -VG_ST_TOO_LARGE);
}

/* ---- writer ---- */

#define CANARY 0xa5

/* Encode a fixed reply into exactly cap bytes followed by canaries. */
static long encode_capped(size_t cap)
{
	vg_writer w;

	memset(big, CANARY, 2048);
	vg_frame_begin(&w, big, cap, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_KEYINFO);
	vg_put_str(&w, VG_T_KEY, "some-key");
	vg_put_u8(&w, VG_T_KEY_TYPE, VG_KEY_RSA);
	vg_put(&w, VG_T_PUBKEY, d64, 64);
	vg_put(&w, VG_T_RSA_E, "\x01\x00\x01", 3);
	vg_put_u32(&w, VG_T_OPS, VG_ALLOW_SIGN);
	vg_put_close(&w);
	vg_put_u64(&w, 0x4000, 5); /* an unknown (skipped) item */
	return vg_frame_end(&w);
}

static void test_writer_overflow(void **state)
{
	long full = encode_capped(2000);
	vg_reply rep;

	(void)state;
	assert_true(full > 0);
	assert_int_equal(vg_reply_decode(big, (size_t)full, &rep), VG_ST_OK);
	for (size_t cap = 0; cap <= (size_t)full + 8; cap++) {
		long n = encode_capped(cap);
		for (size_t i = cap; i < 2048; i++)
			assert_int_equal(big[i], CANARY);
		if (cap < (size_t)full)
			assert_int_equal(n, -VG_ST_TOO_LARGE);
		else
			assert_int_equal(n, full);
	}
	/* Request encoding too. */
	vg_request r = mkreq(VG_OP_SIGN, 1, "demo", VG_ALG_ED25519, 0, d32, 32, 1);
	long rn = vg_request_encode(&r, buf, sizeof buf);
	for (size_t cap = 0; cap < (size_t)rn; cap++) {
		memset(big, CANARY, 256);
		assert_int_equal(vg_request_encode(&r, big, cap), -VG_ST_TOO_LARGE);
		for (size_t i = cap; i < 256; i++)
			assert_int_equal(big[i], CANARY);
	}
	/* NULL buffer. */
	vg_writer w;
	vg_frame_begin(&w, NULL, 100, 1, 0, 0);
	vg_put_u8(&w, 1, 1);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
}

static void test_writer_limits(void **state)
{
	vg_writer w;
	long n;

	(void)state;
	/* An item above 65535 bytes. */
	vg_frame_begin(&w, big, sizeof big, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, buf, 65536);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	/* The frame limit binds even with a larger buffer: the biggest body
	 * is one item of VG_PROTO_MAX_BODY - 4 bytes. */
	vg_frame_begin(&w, big, sizeof big, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, zeros, 0);
	vg_put(&w, VG_T_RESULT, buf, VG_PROTO_MAX_BODY - 8);
	n = vg_frame_end(&w);
	assert_int_equal(n, VG_PROTO_MAX_FRAME);
	assert_int_equal(vg_frame_check(big, (size_t)n, NULL), n);
	vg_frame_begin(&w, big, sizeof big, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, buf, VG_PROTO_MAX_BODY - 3);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	/* Overflow is sticky: a later small put does not revive it. */
	vg_frame_begin(&w, buf, 20, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put(&w, VG_T_RESULT, d32, 8);
	vg_put(&w, VG_T_RESULT, NULL, 0);
	assert_true(w.overflow);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	/* A string longer than an item. */
	memset(big, 'x', 66000);
	big[66000] = '\0';
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put_str(&w, VG_T_REASON, (const char *)big);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_PING | VG_OP_REPLY, 0, 1);
	vg_put_str(&w, VG_T_REASON, NULL);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
}

static void test_writer_nesting(void **state)
{
	vg_writer w;
	vg_item it;
	vg_cursor c;
	long n;
	int depth;

	(void)state;
	/* Four levels, with the lengths patched at each. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	for (int i = 0; i < 4; i++)
		vg_put_open(&w, (uint16_t)(100 + i));
	vg_put_u8(&w, 200, 7);
	for (int i = 0; i < 4; i++)
		vg_put_close(&w);
	n = vg_frame_end(&w);
	assert_int_equal(n, 16 + 4 * 4 + 5);
	c.p = buf + 16;
	c.left = (size_t)n - 16;
	for (depth = 0; depth < 4; depth++) {
		assert_int_equal(vg_item_next(&c, &it), 1);
		assert_int_equal(it.tag, 100 + depth);
		assert_int_equal(it.len, 4 * (3 - depth) + 5);
		assert_int_equal(vg_item_next(&c, &(vg_item){ 0 }), 0);
		c = vg_item_cursor(&it);
	}
	assert_int_equal(vg_item_next(&c, &it), 1);
	assert_int_equal(it.tag, 200);
	/* A fifth level overflows. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	for (int i = 0; i < 5; i++)
		vg_put_open(&w, 1);
	for (int i = 0; i < 5; i++)
		vg_put_close(&w);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	/* Unbalanced: close without open, open without close. */
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_close(&w);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	vg_frame_begin(&w, buf, sizeof buf, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	/* Open that does not fit, then close: still fails, no write past cap. */
	memset(buf, CANARY, 64);
	vg_frame_begin(&w, buf, 18, VG_OP_STATS | VG_OP_REPLY, 0, 1);
	vg_put_open(&w, VG_T_STAT);
	vg_put_close(&w);
	assert_int_equal(vg_frame_end(&w), -VG_ST_TOO_LARGE);
	for (int i = 18; i < 64; i++)
		assert_int_equal(buf[i], CANARY);
}

static void test_item_cursor(void **state)
{
	static const uint8_t body[] = { 0x00, 0x07, 0x00, 0x01, 0x01, 0x00, 0x08, 0x00, 0x05 };
	vg_cursor c = { body, sizeof body };
	vg_item it;
	uint8_t v8;
	uint32_t v32;
	uint64_t v64;

	(void)state;
	assert_int_equal(vg_item_next(&c, &it), 1);
	assert_int_equal(vg_item_u8(&it, &v8), 0);
	assert_int_equal(v8, 1);
	it.len = 2;
	assert_int_equal(vg_item_u8(&it, &v8), -1);
	it.len = 1;
	assert_int_equal(vg_item_u32(&it, &v32), -1);
	assert_int_equal(vg_item_u64(&it, &v64), -1);
	/* The overrunning item fails, and keeps failing, without moving. */
	assert_int_equal(vg_item_next(&c, &it), -1);
	assert_int_equal(c.left, 4);
	assert_int_equal(vg_item_next(&c, &it), -1);
	c.left = 0;
	assert_int_equal(vg_item_next(&c, &it), 0);
}

/* ---- names ---- */

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(vg_status_name(VG_ST_OK), "ok");
	assert_string_equal(vg_status_name(VG_ST_TOO_LARGE), "too-large");
	assert_string_equal(vg_status_name(VG_ST_UNAVAILABLE), "unavailable");
	assert_string_equal(vg_status_name(VG_ST_MAX + 1), "unknown");
	assert_string_equal(vg_status_name(-1), "unknown");
	for (int s = 0; s <= VG_ST_MAX; s++)
		assert_string_not_equal(vg_status_name(s), "unknown");

	assert_string_equal(vg_op_name(VG_OP_LIST_KEYS), "list-keys");
	assert_string_equal(vg_op_name(VG_OP_RSA_PRIVATE | VG_OP_REPLY), "rsa-private");
	assert_string_equal(vg_op_name(0), "unknown");
	assert_string_equal(vg_op_name(VG_OP_MAX + 1), "unknown");
	assert_string_equal(vg_op_name(-5), "unknown");
	assert_string_equal(vg_op_name(0x1000), "unknown");
	for (int o = 1; o <= VG_OP_MAX; o++)
		assert_string_not_equal(vg_op_name(o), "unknown");

	for (int a = 1; a <= VG_ALG_MAX; a++) {
		assert_string_not_equal(vg_alg_name(a), "unknown");
		assert_int_equal(vg_alg_from_name(vg_alg_name(a)), a);
	}
	assert_string_equal(vg_alg_name(VG_ALG_RSA_PSS_SHA384), "rsa-pss-sha384");
	assert_int_equal(vg_alg_from_name("tls13"), VG_ALG_TLS13);
	assert_int_equal(vg_alg_from_name("rsa-pkcs1-sha512"), VG_ALG_RSA_PKCS1_SHA512);
	assert_int_equal(vg_alg_from_name("ED25519"), 0);
	assert_int_equal(vg_alg_from_name("unknown"), 0);
	assert_int_equal(vg_alg_from_name(""), 0);
	assert_int_equal(vg_alg_from_name(NULL), 0);
	assert_string_equal(vg_alg_name(0), "unknown");
	assert_string_equal(vg_alg_name(VG_ALG_MAX + 1), "unknown");

	assert_int_equal(vg_alg_digest_len(VG_ALG_ED25519), 0);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PKCS1_SHA256), 32);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PKCS1_SHA384), 48);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PKCS1_SHA512), 64);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PSS_SHA256), 32);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PSS_SHA384), 48);
	assert_int_equal(vg_alg_digest_len(VG_ALG_RSA_PSS_SHA512), 64);
	assert_int_equal(vg_alg_digest_len(VG_ALG_TLS13), 0);
	assert_int_equal(vg_alg_digest_len(VG_ALG_ECDSA_P256_SHA256), 32);
	assert_int_equal(vg_alg_digest_len(VG_ALG_ECDSA_P384_SHA384), 48);
	assert_int_equal(vg_alg_digest_len(VG_ALG_ECDSA_P384_SHA256), 32);
	assert_int_equal(vg_alg_digest_len(99), 0);
	assert_true(vg_alg_format_ok(VG_ALG_ECDSA_P256_SHA256, 0));
	assert_true(vg_alg_format_ok(VG_ALG_ECDSA_P256_SHA256, VG_SIGFMT_DER));
	assert_true(vg_alg_format_ok(VG_ALG_ECDSA_P384_SHA512, VG_SIGFMT_RAW));
	assert_false(vg_alg_format_ok(VG_ALG_ECDSA_P384_SHA512, 3));
	assert_true(vg_alg_format_ok(VG_ALG_RSA_PSS_SHA256, 0));
	assert_false(vg_alg_format_ok(VG_ALG_RSA_PSS_SHA256, VG_SIGFMT_DER));
	assert_false(vg_alg_format_ok(VG_ALG_TLS13, VG_SIGFMT_RAW));
	assert_false(vg_alg_format_ok(0, 0));
	assert_true(vg_alg_data_len_ok(VG_ALG_TLS13, 48));
	assert_false(vg_alg_data_len_ok(VG_ALG_TLS13, 0));
	assert_true(vg_alg_data_len_ok(VG_ALG_ED25519, 0));
	assert_false(vg_alg_data_len_ok(0, 32));

	assert_string_equal(vg_key_type_name(VG_KEY_RSA), "rsa");
	assert_string_equal(vg_key_type_name(VG_KEY_X25519), "x25519");
	assert_string_equal(vg_key_type_name(0), "unknown");
	assert_string_equal(vg_key_type_name(VG_KEY_ECDSA_P256), "ecdsa-p256");
	assert_string_equal(vg_key_type_name(VG_KEY_ECDSA_P384), "ecdsa-p384");
	assert_string_equal(vg_key_type_name(VG_KEY_MAX + 1), "unknown");
	assert_string_equal(vg_tag_name(VG_T_SIG_FORMAT), "sig-format");
	assert_string_equal(vg_tag_name(VG_T_KEYINFO), "keyinfo");
	assert_string_equal(vg_tag_name(0), "unknown");
	assert_string_equal(vg_tag_name(VG_T_MAX + 1), "unknown");
	for (int t = 1; t <= VG_T_MAX; t++)
		assert_string_not_equal(vg_tag_name(t), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rt_simple_ops),
		cmocka_unit_test(test_rt_sign),
		cmocka_unit_test(test_rt_x25519_rsa),
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_reply_hello),
		cmocka_unit_test(test_reply_keys),
		cmocka_unit_test(test_reply_results),
		cmocka_unit_test(test_reply_stats),
		cmocka_unit_test(test_reply_use),
		cmocka_unit_test(test_reply_error),
		cmocka_unit_test(test_reply_malformed),
		cmocka_unit_test(test_reply_strict),
		cmocka_unit_test(test_conn_error),
		cmocka_unit_test(test_frame_check_prefixes),
		cmocka_unit_test(test_frame_check_bad_header),
		cmocka_unit_test(test_status_closes),
		cmocka_unit_test(test_req_header_fields),
		cmocka_unit_test(test_req_item_framing),
		cmocka_unit_test(test_req_item_rules),
		cmocka_unit_test(test_req_sign_values),
		cmocka_unit_test(test_req_client_cpu),
		cmocka_unit_test(test_req_direct),
		cmocka_unit_test(test_req_other_values),
		cmocka_unit_test(test_req_key_names),
		cmocka_unit_test(test_writer_overflow),
		cmocka_unit_test(test_writer_limits),
		cmocka_unit_test(test_writer_nesting),
		cmocka_unit_test(test_item_cursor),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("protocol", tests, NULL, NULL);
}
