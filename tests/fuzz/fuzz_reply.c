/* fuzz_reply.c: libFuzzer target for the client's reply path: reply
 * decoding, walking every item with nested cursors and typed getters, and
 * the property that re-writing the top-level items reproduces the frame. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "vg/proto.h"
#include "vg/proto_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[VG_PROTO_MAX_FRAME];
static const uint8_t *lo, *hi; /* the input, for bounds checks */
static volatile unsigned sink;

static void in_bounds(const uint8_t *p, size_t n)
{
	CHECK(p >= lo && n <= (size_t)(hi - p));
}

/* Walk items as a client would; depth bounded like the decoder's. */
static void walk(vg_cursor c, int depth)
{
	vg_item it;
	uint8_t v8;
	uint32_t v32;
	uint64_t v64;
	int r;

	CHECK(depth < 8);
	while ((r = vg_item_next(&c, &it)) == 1) {
		in_bounds(it.val, it.len);
		for (size_t i = 0; i < it.len; i++)
			sink += it.val[i]; /* touch every byte: ASan checks them */
		sink += (unsigned)strlen(vg_tag_name(it.tag));
		switch (it.tag) {
		case VG_T_VERSION:
		case VG_T_KEY_TYPE:
			CHECK(vg_item_u8(&it, &v8) == 0); /* widths were checked */
			sink += strlen(vg_key_type_name(v8));
			break;
		case VG_T_CAPS:
		case VG_T_OPS:
		case VG_T_LIM_MAX_FRAME:
		case VG_T_LIM_MAX_INFLIGHT:
			CHECK(vg_item_u32(&it, &v32) == 0);
			break;
		case VG_T_STAT_VALUE:
			CHECK(vg_item_u64(&it, &v64) == 0);
			break;
		case VG_T_LIMIT:
		case VG_T_KEYINFO:
		case VG_T_STAT:
			walk(vg_item_cursor(&it), depth + 1);
			break;
		default:
			/* Unknown or opaque: the getters must still be safe. */
			(void)vg_item_u8(&it, &v8);
			(void)vg_item_u32(&it, &v32);
			(void)vg_item_u64(&it, &v64);
			break;
		}
	}
	CHECK(r == 0); /* the decoder validated nested framing too */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	vg_reply rep;
	vg_writer w;
	vg_cursor c;
	vg_item it;
	long n, m;
	int st;

	lo = data;
	hi = data + size;
	n = vg_frame_check(data, size, NULL);
	st = vg_reply_decode(data, n > 0 ? (size_t)n : size, &rep);
	CHECK(st >= VG_ST_OK && st <= VG_ST_MAX);
	if (n <= 0)
		CHECK(st != VG_ST_OK);
	if (st != VG_ST_OK)
		return 0;
	hi = data + n;
	CHECK(rep.op == (data[3] & 0x7f) && (data[3] & VG_OP_REPLY));
	CHECK(rep.items.p == data + VG_PROTO_HDR_LEN && rep.items.left == (size_t)n - 16);
	if (rep.result != NULL)
		in_bounds(rep.result, rep.result_len);
	if (rep.reason != NULL) {
		in_bounds((const uint8_t *)rep.reason, rep.reason_len);
		CHECK(rep.reason_len <= VG_PROTO_MAX_REASON);
	}
	sink += (unsigned)strlen(vg_op_name(rep.op)) + (unsigned)strlen(vg_status_name(rep.status));
	walk(rep.items, 0);
	/* The client's check of the operation's reply rules: a tag or 0. */
	st = vg_reply_check(&rep);
	CHECK(st >= 0 && st <= VG_T_MAX);
	CHECK(st == 0 || (rep.status == VG_ST_OK && vg_op_get(rep.op) != NULL));

	/* Differential: the writer reproduces the frame from its items. */
	vg_frame_begin(&w, out, sizeof out, data[3], rep.status, rep.id);
	c = rep.items;
	while (vg_item_next(&c, &it) == 1)
		vg_put(&w, it.tag, it.val, it.len);
	m = vg_frame_end(&w);
	CHECK(m == n);
	CHECK(memcmp(out, data, (size_t)n) == 0);
	return 0;
}
