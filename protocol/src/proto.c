/* proto.c: the vgd v1 codec: frame boundaries, the bounded item cursor,
 * request validation driven by the operation table (optab.c), the bounded
 * writer, and reply decoding. Every input byte is untrusted; nothing here is
 * secret (frames carry public values, digests and signatures). */
#include "vg/proto.h"

#include <string.h>

#include "vg/proto_reason.h"
#include "vg/proto_tables.h"

_Static_assert(VG_T_MAX < 32, "the seen-set of request items is a uint32_t bitmask");
_Static_assert(VG_PROTO_MAX_FRAME <= 65536, "body_len and item lengths assume a 64 KiB frame");
_Static_assert(VG_PROTO_MAX_DATA + 4 <= VG_PROTO_MAX_BODY, "a maximal DATA item fits a frame");
_Static_assert(VG_PROTO_MAX_ITEM == UINT16_MAX, "item length is a u16");

/* ---- big-endian, the only place where bytes become integers ---- */

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* strnlen is POSIX, not C11: a local bound keeps this file plain C11. */
static size_t bounded_strlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] != '\0')
		n++;
	return n;
}

/* ---- cursor primitives: every read checks what is left first ---- */

static int cur_take(vg_cursor *c, size_t n, const uint8_t **out)
{
	if (c->left < n)
		return -1;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

static int cur_u8(vg_cursor *c, uint8_t *v)
{
	const uint8_t *p;

	if (cur_take(c, 1, &p) < 0)
		return -1;
	*v = p[0];
	return 0;
}

static int cur_u16(vg_cursor *c, uint16_t *v)
{
	const uint8_t *p;

	if (cur_take(c, 2, &p) < 0)
		return -1;
	*v = rd16(p);
	return 0;
}

static int cur_u32(vg_cursor *c, uint32_t *v)
{
	const uint8_t *p;

	if (cur_take(c, 4, &p) < 0)
		return -1;
	*v = rd32(p);
	return 0;
}

/* ---- frame boundaries ---- */

/* vg_frame_check with the reason of a refusal (VG_R_*) in *why. */
static long frame_check(const uint8_t *buf, size_t avail, vg_frame_hdr *hdr, int *why)
{
	static const uint8_t magic[2] = { VG_PROTO_MAGIC >> 8, VG_PROTO_MAGIC & 0xff };
	vg_frame_hdr h = { 0 };
	vg_cursor c;
	uint16_t m;
	const uint8_t *reserved;

	/* Written up front so the caller's id for an error reply is 0 until a
	 * header with our magic has been read, whatever path returns. */
	if (hdr != NULL)
		*hdr = h;
	*why = VG_R_BAD_MAGIC;
	if (buf == NULL)
		return avail == 0 ? 0 : -VG_ST_MALFORMED;
	/* A foreign byte stream is refused from its first wrong byte: waiting
	 * for 16 bytes would only hold the connection until the timeout. */
	for (size_t i = 0; i < sizeof magic && i < avail; i++) {
		if (buf[i] != magic[i])
			return -VG_ST_MALFORMED;
	}
	/* Everything else waits for the whole header, so the error reply can
	 * carry the request id however the stream was split into reads. */
	if (avail < VG_PROTO_HDR_LEN)
		return 0;

	c.p = buf;
	c.left = VG_PROTO_HDR_LEN;
	if (cur_u16(&c, &m) < 0 || cur_u8(&c, &h.version) < 0 || cur_u8(&c, &h.opcode) < 0 ||
	    cur_u8(&c, &h.status) < 0 || cur_take(&c, 3, &reserved) < 0 || cur_u32(&c, &h.id) < 0 ||
	    cur_u32(&c, &h.body_len) < 0)
		return -VG_ST_MALFORMED; /* unreachable: 16 bytes are there */
	if (hdr != NULL)
		*hdr = h;

	/* Version first: another version may give the reserved bytes a use. */
	*why = VG_R_BAD_VERSION;
	if (h.version != VG_PROTO_VERSION)
		return -VG_ST_BAD_VERSION;
	*why = VG_R_BAD_HEADER;
	if ((reserved[0] | reserved[1] | reserved[2]) != 0)
		return -VG_ST_MALFORMED;
	*why = VG_R_FRAME_TOO_LARGE;
	if (h.body_len > VG_PROTO_MAX_BODY)
		return -VG_ST_TOO_LARGE;
	*why = VG_R_OK;
	if (avail - VG_PROTO_HDR_LEN < h.body_len)
		return 0;
	return (long)(VG_PROTO_HDR_LEN + h.body_len);
}

long vg_frame_check(const uint8_t *buf, size_t avail, vg_frame_hdr *hdr)
{
	int why;

	return frame_check(buf, avail, hdr, &why);
}

long vg_request_frame_check(const uint8_t *buf, size_t avail, vg_frame_hdr *hdr, int *why)
{
	vg_frame_hdr h;
	int unused;
	long n;

	if (why == NULL)
		why = &unused;
	n = frame_check(buf, avail, &h, why);
	if (hdr != NULL)
		*hdr = h;
	if (n < 0 || avail < VG_PROTO_HDR_LEN)
		return n;
	/* The request rules are the header's too: judged before any of the
	 * body, so a header alone is answered at once (PROTOCOL.md 3.1). */
	if (h.status != VG_ST_OK) {
		*why = VG_R_STATUS_IN_REQUEST;
		return -VG_ST_MALFORMED;
	}
	if (h.opcode & VG_OP_REPLY) {
		*why = VG_R_REPLY_BIT;
		return -VG_ST_MALFORMED;
	}
	if (h.opcode == VG_OP_RESERVED) {
		*why = VG_R_RESERVED_OP;
		return -VG_ST_MALFORMED;
	}
	return n;
}

int vg_status_closes(int status)
{
	return status == VG_ST_MALFORMED || status == VG_ST_BAD_VERSION ||
	       status == VG_ST_TOO_LARGE;
}

/* ---- items ---- */

int vg_item_next(vg_cursor *c, vg_item *it)
{
	vg_cursor t = *c; /* commit only a whole item: an error leaves c as it was */
	uint16_t tag, len;
	const uint8_t *val;

	if (t.left == 0)
		return 0;
	if (cur_u16(&t, &tag) < 0 || cur_u16(&t, &len) < 0 || cur_take(&t, len, &val) < 0)
		return -1;
	it->tag = tag;
	it->len = len;
	it->val = val;
	*c = t;
	return 1;
}

int vg_item_u8(const vg_item *it, uint8_t *v)
{
	if (it->len != 1)
		return -1;
	*v = it->val[0];
	return 0;
}

int vg_item_u32(const vg_item *it, uint32_t *v)
{
	if (it->len != 4)
		return -1;
	*v = rd32(it->val);
	return 0;
}

int vg_item_u64(const vg_item *it, uint64_t *v)
{
	if (it->len != 8)
		return -1;
	*v = (uint64_t)rd32(it->val) << 32 | rd32(it->val + 4);
	return 0;
}

vg_cursor vg_item_cursor(const vg_item *it)
{
	vg_cursor c = { it->val, it->len };

	return c;
}

/* Value shape of each known tag, shared by request and reply checks. */
enum kind { K_NONE, K_BYTES, K_STR, K_U8, K_U32, K_U64, K_NEST };

static const uint8_t tag_kind[VG_T_MAX + 1] = {
	[VG_T_KEY] = K_STR,
	[VG_T_ALG] = K_U8,
	[VG_T_DATA] = K_BYTES,
	[VG_T_TLS_ROLE] = K_U8,
	[VG_T_RESULT] = K_BYTES,
	[VG_T_REASON] = K_STR,
	[VG_T_VERSION] = K_U8,
	[VG_T_CAPS] = K_U32,
	[VG_T_LIMIT] = K_NEST,
	[VG_T_KEYINFO] = K_NEST,
	[VG_T_KEY_TYPE] = K_U8,
	[VG_T_PUBKEY] = K_BYTES,
	[VG_T_RSA_E] = K_BYTES,
	[VG_T_OPS] = K_U32,
	[VG_T_STAT] = K_NEST,
	[VG_T_STAT_NAME] = K_STR,
	[VG_T_STAT_VALUE] = K_U64,
	[VG_T_LIM_MAX_FRAME] = K_U32,
	[VG_T_LIM_MAX_INFLIGHT] = K_U32,
	[VG_T_SERVER] = K_STR,
	[VG_T_SIG_FORMAT] = K_U8,
	[VG_T_CLIENT_CPU] = K_U32,
	[VG_T_USE] = K_NEST,
	[VG_T_USE_KEY] = K_STR,
	[VG_T_USE_UID] = K_U32,
	[VG_T_USE_OK] = K_U64,
	[VG_T_USE_ERRORS] = K_U64,
	[VG_T_USE_REFUSED] = K_U64,
	[VG_T_USE_LAST_MS] = K_U64,
	[VG_T_USE_LAST_PID] = K_U32,
	[VG_T_DIRECT] = K_U64,
};

/* 1 if a known fixed-width tag has the wrong length. */
static int bad_width(uint16_t tag, uint16_t len)
{
	if (tag == 0 || tag > VG_T_MAX)
		return 0;
	switch (tag_kind[tag]) {
	case K_U8: return len != 1;
	case K_U32: return len != 4;
	case K_U64: return len != 8;
	default: return 0;
	}
}

/* ---- request validation (the rules are the operation table's) ---- */

int vg_key_name_ok(const uint8_t *s, size_t n)
{
	if (n < 1 || n > VG_PROTO_MAX_KEY_NAME)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t ch = s[i];
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
		if (!ok)
			return 0;
	}
	return 1;
}

#define BIT(tag) (1u << (tag))

/* Report a failure: its text and its status, from the reason table. */
static int fail(const char **reason, int why)
{
	*reason = vg_reason(why);
	return vg_reason_status(why);
}

/* 1 if an ALG value selects TLS 1.3 mode (where TLS_ROLE belongs). */
static int alg_is_tls13(uint8_t alg)
{
	const vg_alg_info *a = vg_alg_get(alg);

	return a != NULL && a->data == VG_DATA_TLS13_HASH;
}

/* 1 if an ALG value's signature has an encoding to choose (SIG_FORMAT). */
static int alg_has_formats(uint8_t alg)
{
	const vg_alg_info *a = vg_alg_get(alg);

	return a != NULL && a->formats;
}

int vg_request_decode(const uint8_t *frame, size_t len, vg_request *req, const char **reason)
{
	const char *unused;
	const vg_op_info *rule;
	vg_frame_hdr h;
	vg_cursor c;
	vg_item it, got[VG_T_MAX + 1];
	uint32_t seen = 0;
	long n;
	int r, tls, why;

	if (reason == NULL)
		reason = &unused;
	memset(req, 0, sizeof *req);
	*reason = vg_reason(VG_R_OK);

	n = vg_request_frame_check(frame, len, &h, &why);
	req->op = h.opcode;
	req->id = h.id;
	if (n < 0)
		return fail(reason, why);
	if (n == 0 || (size_t)n != len)
		return fail(reason, VG_R_FRAME_LENGTH);
	/* The frame length is known, so the stream stays in step: an unknown
	 * opcode is answered without looking at its (opaque) items. */
	rule = vg_op_get(h.opcode);
	if (rule == NULL)
		return fail(reason, VG_R_UNKNOWN_OP);

	/* Pass 1, structure (MALFORMED): item framing, tags allowed for this
	 * opcode, no duplicates, fixed widths. It runs to the end before any
	 * value is judged so that a structural fault always wins over a value
	 * fault, whatever the item order: the status decides whether the
	 * connection closes, so it must not depend on the order. */
	c.p = frame + VG_PROTO_HDR_LEN;
	c.left = len - VG_PROTO_HDR_LEN;
	while ((r = vg_item_next(&c, &it)) == 1) {
		if (it.tag == 0 || it.tag > VG_T_MAX)
			return fail(reason, VG_R_UNKNOWN_ITEM);
		if (rule->req[it.tag] == VG_RULE_NO)
			return fail(reason, VG_R_ITEM_NOT_ALLOWED);
		if (seen & BIT(it.tag))
			return fail(reason, VG_R_DUPLICATE_ITEM);
		if (bad_width(it.tag, it.len))
			return fail(reason, VG_R_BAD_ITEM_LENGTH);
		seen |= BIT(it.tag);
		got[it.tag] = it;
	}
	if (r < 0)
		return fail(reason, VG_R_ITEM_OVERRUN);
	for (unsigned t = 1; t <= VG_T_MAX; t++) {
		if (rule->req[t] == VG_RULE_REQ && !(seen & BIT(t)))
			return fail(reason, VG_R_MISSING_ITEM);
	}
	/* ALG is required wherever VG_RULE_TLS or VG_RULE_FMT appears (a
	 * table test checks it), so got[VG_T_ALG] is set and one byte long. */
	for (unsigned t = 1; t <= VG_T_MAX; t++) {
		if (rule->req[t] == VG_RULE_FMT) {
			if ((seen & BIT(t)) && !alg_has_formats(got[VG_T_ALG].val[0]))
				return fail(reason, VG_R_ITEM_NOT_ALLOWED);
			continue;
		}
		if (rule->req[t] != VG_RULE_TLS)
			continue;
		tls = alg_is_tls13(got[VG_T_ALG].val[0]);
		if (tls && !(seen & BIT(t)))
			return fail(reason, VG_R_MISSING_ITEM);
		if (!tls && (seen & BIT(t)))
			return fail(reason, VG_R_ITEM_NOT_ALLOWED);
	}

	/* Pass 2, values (BAD_INPUT): the request is well framed from here on,
	 * so the connection stays open whatever is wrong with it. */
	if (seen & BIT(VG_T_KEY)) {
		it = got[VG_T_KEY];
		if (!vg_key_name_ok(it.val, it.len))
			return fail(reason, VG_R_BAD_KEY_NAME);
		memcpy(req->key, it.val, it.len); /* it.len <= VG_PROTO_MAX_KEY_NAME */
		req->key[it.len] = '\0';
	}
	if (seen & BIT(VG_T_ALG)) {
		req->alg = got[VG_T_ALG].val[0];
		if (vg_alg_get(req->alg) == NULL)
			return fail(reason, VG_R_UNKNOWN_ALG);
	}
	if (seen & BIT(VG_T_TLS_ROLE)) {
		req->tls_role = got[VG_T_TLS_ROLE].val[0];
		if (req->tls_role != VG_TLS_SERVER && req->tls_role != VG_TLS_CLIENT)
			return fail(reason, VG_R_BAD_TLS_ROLE);
	}
	if (seen & BIT(VG_T_SIG_FORMAT)) {
		req->sig_format = got[VG_T_SIG_FORMAT].val[0];
		if (req->sig_format != VG_SIGFMT_DER && req->sig_format != VG_SIGFMT_RAW)
			return fail(reason, VG_R_BAD_SIG_FORMAT);
	}
	if (seen & BIT(VG_T_CLIENT_CPU)) {
		/* A hint: any value is accepted, the front checks it against the
		 * CPUs it may run on. */
		req->cpu = (uint32_t)got[VG_T_CLIENT_CPU].val[0] << 24 |
			   (uint32_t)got[VG_T_CLIENT_CPU].val[1] << 16 |
			   (uint32_t)got[VG_T_CLIENT_CPU].val[2] << 8 | got[VG_T_CLIENT_CPU].val[3];
		req->has_cpu = 1;
	}
	if (seen & BIT(VG_T_DIRECT)) {
		/* The slot layout the client speaks; the front grants a slot
		 * only for the one it has (vg/direct.h). */
		for (int i = 0; i < 8; i++)
			req->direct = req->direct << 8 | got[VG_T_DIRECT].val[i];
	}
	if (seen & BIT(VG_T_DATA)) {
		it = got[VG_T_DATA];
		if (!vg_op_data_len_ok(rule, req->alg, it.len))
			return fail(reason, rule->data_reason);
		req->data = it.val;
		req->data_len = it.len;
		req->has_data = 1;
	}
	return VG_ST_OK;
}

/* ---- bounded writer ----
 * Invariant: w->len <= w->cap <= VG_PROTO_MAX_FRAME, and once overflow is
 * set nothing more is written; every put checks room before touching buf. */

static int room(vg_writer *w, size_t n)
{
	if (w->overflow || w->len > w->cap || w->cap - w->len < n) {
		w->overflow = 1;
		return 0;
	}
	return 1;
}

void vg_frame_begin(vg_writer *w, uint8_t *buf, size_t cap, uint8_t opcode, uint8_t status,
		    uint32_t id)
{
	memset(w, 0, sizeof *w);
	/* The frame limit is a second cap: a big buffer cannot make a frame
	 * the peer would refuse. */
	w->buf = buf;
	w->cap = buf == NULL ? 0 : cap < VG_PROTO_MAX_FRAME ? cap : VG_PROTO_MAX_FRAME;
	if (!room(w, VG_PROTO_HDR_LEN))
		return;
	wr16(buf, VG_PROTO_MAGIC);
	buf[2] = VG_PROTO_VERSION;
	buf[3] = opcode;
	buf[4] = status;
	buf[5] = buf[6] = buf[7] = 0;
	wr32(buf + 8, id);
	wr32(buf + 12, 0); /* patched by vg_frame_end */
	w->len = VG_PROTO_HDR_LEN;
}

void vg_put(vg_writer *w, uint16_t tag, const void *val, size_t len)
{
	if (len > VG_PROTO_MAX_ITEM || (val == NULL && len != 0)) {
		w->overflow = 1;
		return;
	}
	if (!room(w, 4 + len))
		return;
	wr16(w->buf + w->len, tag);
	wr16(w->buf + w->len + 2, (uint16_t)len);
	if (len != 0)
		memcpy(w->buf + w->len + 4, val, len);
	w->len += 4 + len;
}

void vg_put_u8(vg_writer *w, uint16_t tag, uint8_t v)
{
	vg_put(w, tag, &v, 1);
}

void vg_put_u32(vg_writer *w, uint16_t tag, uint32_t v)
{
	uint8_t b[4];

	wr32(b, v);
	vg_put(w, tag, b, sizeof b);
}

void vg_put_u64(vg_writer *w, uint16_t tag, uint64_t v)
{
	uint8_t b[8];

	wr32(b, (uint32_t)(v >> 32));
	wr32(b + 4, (uint32_t)v);
	vg_put(w, tag, b, sizeof b);
}

void vg_put_str(vg_writer *w, uint16_t tag, const char *s)
{
	size_t n;

	if (s == NULL) {
		w->overflow = 1;
		return;
	}
	/* Bounded: never scan past what one item could hold. */
	n = bounded_strlen(s, VG_PROTO_MAX_ITEM + 1);
	vg_put(w, tag, s, n); /* n > VG_PROTO_MAX_ITEM sets overflow */
}

#define NEST_MAX ((int)(sizeof(((vg_writer *)0)->nest) / sizeof(size_t)))

void vg_put_open(vg_writer *w, uint16_t tag)
{
	if (w->depth < 0 || w->depth >= NEST_MAX) {
		w->overflow = 1;
		return;
	}
	/* Depth is tracked even after an overflow so open/close stay paired. */
	w->nest[w->depth++] = w->len;
	if (!room(w, 4))
		return;
	wr16(w->buf + w->len, tag);
	wr16(w->buf + w->len + 2, 0); /* patched by vg_put_close */
	w->len += 4;
}

void vg_put_close(vg_writer *w)
{
	size_t at, inner;

	if (w->depth <= 0 || w->depth > NEST_MAX) {
		w->overflow = 1;
		return;
	}
	at = w->nest[--w->depth];
	if (w->overflow)
		return;
	inner = w->len - at - 4; /* at + 4 <= len: the open wrote 4 bytes at `at` */
	if (inner > VG_PROTO_MAX_ITEM) {
		w->overflow = 1;
		return;
	}
	wr16(w->buf + at + 2, (uint16_t)inner);
}

long vg_frame_end(vg_writer *w)
{
	if (w->depth != 0)
		w->overflow = 1; /* an unclosed nested item */
	if (w->overflow || w->len < VG_PROTO_HDR_LEN || w->len > w->cap)
		return -VG_ST_TOO_LARGE;
	wr32(w->buf + 12, (uint32_t)(w->len - VG_PROTO_HDR_LEN));
	return (long)w->len;
}

long vg_request_encode(const vg_request *req, uint8_t *buf, size_t cap)
{
	vg_writer w;
	vg_request check;
	size_t klen = bounded_strlen(req->key, sizeof req->key);
	long n;
	int st;

	if (klen == sizeof req->key)
		return -VG_ST_BAD_INPUT; /* not NUL-terminated */
	vg_frame_begin(&w, buf, cap, req->op, VG_ST_OK, req->id);
	if (klen != 0)
		vg_put(&w, VG_T_KEY, req->key, klen);
	if (req->alg != 0)
		vg_put_u8(&w, VG_T_ALG, req->alg);
	if (req->tls_role != 0)
		vg_put_u8(&w, VG_T_TLS_ROLE, req->tls_role);
	if (req->sig_format != 0)
		vg_put_u8(&w, VG_T_SIG_FORMAT, req->sig_format);
	if (req->has_cpu)
		vg_put_u32(&w, VG_T_CLIENT_CPU, req->cpu);
	if (req->has_data)
		vg_put(&w, VG_T_DATA, req->data, req->data_len);
	n = vg_frame_end(&w);
	if (n < 0)
		return n;
	/* The daemon's own rules, run on the bytes we would send. */
	st = vg_request_decode(buf, (size_t)n, &check, NULL);
	return st == VG_ST_OK ? n : -(long)st;
}

/* A reason's length on the wire: at most VG_PROTO_MAX_REASON bytes, cut
 * at a character boundary so it stays valid UTF-8 (back off while
 * reason[n] is a continuation byte). */
static size_t reason_len(const char *reason)
{
	size_t n = bounded_strlen(reason, VG_PROTO_MAX_REASON + 1);

	if (n > VG_PROTO_MAX_REASON) {
		n = VG_PROTO_MAX_REASON;
		while (n > 0 && ((uint8_t)reason[n] & 0xc0) == 0x80)
			n--;
	}
	return n;
}

long vg_error_encode(uint8_t opcode, uint32_t id, uint8_t status, const char *reason,
		     uint8_t *buf, size_t cap)
{
	vg_writer w;

	if (reason == NULL)
		reason = vg_status_name(status);
	vg_frame_begin(&w, buf, cap, (uint8_t)(opcode | VG_OP_REPLY), status, id);
	vg_put(&w, VG_T_REASON, reason, reason_len(reason));
	return vg_frame_end(&w);
}

long vg_conn_error_encode(uint8_t status, const char *reason, uint8_t *buf, size_t cap)
{
	if (status == VG_ST_OK)
		return -VG_ST_INTERNAL; /* a connection error is an error */
	return vg_error_encode(VG_OP_CONN_ERROR, 0, status, reason, buf, cap);
}

long vg_frame_error_encode(const vg_frame_hdr *hdr, int why, uint8_t *buf, size_t cap)
{
	uint8_t status = (uint8_t)vg_reason_status(why);

	if (why == VG_R_BAD_MAGIC || (hdr->opcode & ~VG_OP_REPLY) == VG_OP_RESERVED)
		return vg_conn_error_encode(status, vg_reason(why), buf, cap);
	return vg_error_encode(hdr->opcode, hdr->id, status, vg_reason(why), buf, cap);
}

/* ---- replies ----
 * Where each known tag may stand in a reply (PROTOCOL.md 4.1): at the top
 * level or inside one nested item; request-only tags nowhere. */

enum place { P_NONE = 0, P_TOP, P_LIMIT, P_KEYINFO, P_STAT, P_USE };

static const uint8_t reply_place[VG_T_MAX + 1] = {
	[VG_T_KEY] = P_KEYINFO,
	[VG_T_RESULT] = P_TOP,
	[VG_T_REASON] = P_TOP,
	[VG_T_VERSION] = P_TOP,
	[VG_T_CAPS] = P_TOP,
	[VG_T_LIMIT] = P_TOP,
	[VG_T_KEYINFO] = P_TOP,
	[VG_T_KEY_TYPE] = P_KEYINFO,
	[VG_T_PUBKEY] = P_KEYINFO,
	[VG_T_RSA_E] = P_KEYINFO,
	[VG_T_OPS] = P_KEYINFO,
	[VG_T_STAT] = P_TOP,
	[VG_T_STAT_NAME] = P_STAT,
	[VG_T_STAT_VALUE] = P_STAT,
	[VG_T_LIM_MAX_FRAME] = P_LIMIT,
	[VG_T_LIM_MAX_INFLIGHT] = P_LIMIT,
	[VG_T_SERVER] = P_TOP,
	[VG_T_USE] = P_TOP,
	[VG_T_USE_KEY] = P_USE,
	[VG_T_USE_UID] = P_USE,
	[VG_T_USE_OK] = P_USE,
	[VG_T_USE_ERRORS] = P_USE,
	[VG_T_USE_REFUSED] = P_USE,
	[VG_T_USE_LAST_MS] = P_USE,
	[VG_T_USE_LAST_PID] = P_USE,
	[VG_T_DIRECT] = P_TOP,
};

/* Tags that may repeat at the top level; every other known tag appears
 * at most once where it stands. */
#define REPEATABLE (BIT(VG_T_VERSION) | BIT(VG_T_KEYINFO) | BIT(VG_T_STAT) | BIT(VG_T_USE))

/* The children a nested item must have (PROTOCOL.md 6.1, 6.3, 6.8). A
 * USE names its key and uid, or neither (the "other" row). */
static uint32_t required_children(int place)
{
	switch (place) {
	case P_LIMIT: return BIT(VG_T_LIM_MAX_FRAME) | BIT(VG_T_LIM_MAX_INFLIGHT);
	case P_KEYINFO:
		return BIT(VG_T_KEY) | BIT(VG_T_KEY_TYPE) | BIT(VG_T_PUBKEY) | BIT(VG_T_OPS);
	case P_STAT: return BIT(VG_T_STAT_NAME) | BIT(VG_T_STAT_VALUE);
	case P_USE:
		return BIT(VG_T_USE_OK) | BIT(VG_T_USE_ERRORS) | BIT(VG_T_USE_REFUSED) |
		       BIT(VG_T_USE_LAST_MS) | BIT(VG_T_USE_LAST_PID);
	default: return 0;
	}
}

static int nested_place(uint16_t tag)
{
	switch (tag) {
	case VG_T_LIMIT: return P_LIMIT;
	case VG_T_KEYINFO: return P_KEYINFO;
	case VG_T_STAT: return P_STAT;
	case VG_T_USE: return P_USE;
	default: return P_NONE;
	}
}

/* The items at one place of a reply: framing, placement, widths, counts,
 * value bounds; nested items checked the same way (they hold no nested
 * items of their own, so the recursion is one level). The known tags
 * seen go to *seen. -1 if anything breaks a rule. */
static int check_reply_items(vg_cursor c, int place, uint32_t *seen)
{
	vg_item it;
	int r;

	*seen = 0;
	while ((r = vg_item_next(&c, &it)) == 1) {
		if (it.tag == 0 || it.tag > VG_T_MAX)
			continue; /* unknown: skipped (a later revision's item) */
		if (reply_place[it.tag] != place || bad_width(it.tag, it.len))
			return -1;
		if ((*seen & BIT(it.tag)) && !(place == P_TOP && (REPEATABLE & BIT(it.tag))))
			return -1;
		*seen |= BIT(it.tag);
		if ((it.tag == VG_T_REASON && it.len > VG_PROTO_MAX_REASON) ||
		    (it.tag == VG_T_SERVER && it.len > VG_PROTO_MAX_SERVER))
			return -1;
		if (tag_kind[it.tag] == K_NEST) {
			int inner = nested_place(it.tag);
			uint32_t kids;
			if (check_reply_items(vg_item_cursor(&it), inner, &kids) < 0 ||
			    (kids & required_children(inner)) != required_children(inner))
				return -1;
			if (inner == P_USE &&
			    !(kids & BIT(VG_T_USE_KEY)) != !(kids & BIT(VG_T_USE_UID)))
				return -1;
		}
	}
	return r;
}

int vg_reply_decode(const uint8_t *frame, size_t len, vg_reply *rep)
{
	vg_frame_hdr h;
	vg_cursor c;
	vg_item it;
	uint32_t seen;
	long n;

	memset(rep, 0, sizeof *rep);
	n = vg_frame_check(frame, len, &h);
	rep->op = (uint8_t)(h.opcode & ~VG_OP_REPLY);
	rep->conn_error = h.opcode == VG_OP_CONN_ERROR;
	rep->status = h.status;
	rep->id = h.id;
	if (n < 0)
		return (int)-n;
	if (n == 0 || (size_t)n != len || !(h.opcode & VG_OP_REPLY))
		return VG_ST_MALFORMED;
	/* A connection error answers no request and is always an error. */
	if (rep->conn_error && (h.id != 0 || h.status == VG_ST_OK))
		return VG_ST_MALFORMED;

	c.p = frame + VG_PROTO_HDR_LEN;
	c.left = len - VG_PROTO_HDR_LEN;
	if (check_reply_items(c, P_TOP, &seen) < 0)
		return VG_ST_MALFORMED;
	/* An error carries its REASON and nothing else we know; a success
	 * never carries one. */
	if (h.status != VG_ST_OK ? seen != BIT(VG_T_REASON) : (seen & BIT(VG_T_REASON)) != 0)
		return VG_ST_MALFORMED;
	rep->items = c;
	while (vg_item_next(&c, &it) == 1) {
		if (it.tag == VG_T_RESULT) {
			rep->result = it.val;
			rep->result_len = it.len;
		} else if (it.tag == VG_T_REASON) {
			rep->reason = (const char *)it.val;
			rep->reason_len = it.len;
		}
	}
	return VG_ST_OK;
}
