/* hint.c: the CLIENT_CPU hint (PROTOCOL.md 6.10) on libvgclient's side.
 * Whether a connection's daemon takes it is learnt from one hello per
 * connection, sent by the library itself ahead of the first request that
 * could carry it, from a synchronous or an asynchronous call alike, and
 * not waited for (async.c sends it; this file says when, and reads its
 * answer). That hello is the library's own request: the caller owes
 * no callback for it and vg_client_pending() does not count it. A request
 * sent again on a new connection goes without the hint, since the daemon
 * there may be an older one that would refuse the item. */
#include <string.h>

#include "internal.h"
#include "req.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void vgc_hint_learn(vg_client *c, uint32_t caps)
{
	c->cpu_hint = caps & VG_CAP_CPU_HINT ? CPU_HINT_YES : CPU_HINT_NO;
}

void vgc_hint_caps_done(vg_client *c, void *arg, int st, const vg_reply *rep, const char *reason)
{
	(void)arg;
	(void)reason;
	uint32_t caps = 0;
	if (st == 0 && rep) {
		vg_cursor cur = rep->items;
		vg_item it;
		while (vg_item_next(&cur, &it) == 1)
			if (it.tag == VG_T_CAPS && it.len == 4)
				caps = be32(it.val);
	}
	vgc_hint_learn(c, caps);
}

int vgc_hint_hello(vg_client *c, uint8_t op, vg_request *hello)
{
	if (c->state != CS_UP || c->cpu_hint != CPU_HINT_UNKNOWN || !vgc_op_takes_cpu(op) ||
	    vgc_req_key(hello, VG_OP_HELLO, NULL) != 0)
		return 0;
	return 1;
}

void vgc_hint_strip(struct vgc_req *r)
{
	uint8_t *f = r->frame ? r->frame : r->inl;
	size_t off = VG_PROTO_HDR_LEN, len = r->frame_len;
	while (off + 4 <= len) {
		uint16_t tag = (uint16_t)(f[off] << 8 | f[off + 1]);
		size_t ilen = (size_t)(f[off + 2] << 8 | f[off + 3]);
		if (off + 4 + ilen > len)
			return; /* not ours to judge: the encoder checked it */
		if (tag == VG_T_CLIENT_CPU) {
			size_t cut = 4 + ilen;
			memmove(f + off, f + off + cut, len - off - cut);
			r->frame_len = len - cut;
			uint32_t body = (uint32_t)(r->frame_len - VG_PROTO_HDR_LEN);
			f[12] = (uint8_t)(body >> 24);
			f[13] = (uint8_t)(body >> 16);
			f[14] = (uint8_t)(body >> 8);
			f[15] = (uint8_t)body;
			return;
		}
		off += 4 + ilen;
	}
}
