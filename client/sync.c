/* sync.c: libvgclient's blocking calls. Each submits its request into the
 * same queue as the asynchronous calls and drives vgc_process() with
 * poll() until its own completion runs, so sync and async calls share one
 * connection, one in-flight limit and one retry rule. Copies results
 * (which may be X25519 secrets or raw RSA outputs) only into the caller's
 * buffers; the library's copy is wiped by async.c. */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "req.h"
#include "vg/direct.h"

struct sync_ctx {
	int done;
	int status;
	/* Reads a successful reply into the caller's output; 0 or error. */
	int (*take)(vg_client *c, struct sync_ctx *x, const vg_reply *rep);
	uint8_t *out;
	size_t cap;
	size_t *out_len;
	void *obj;
};

static void sync_done(vg_client *c, void *arg, int st, const vg_reply *rep, const char *reason)
{
	struct sync_ctx *x = arg;
	x->done = 1;
	if (st == 0 && x->take) {
		x->status = x->take(c, x, rep);
		return;
	}
	x->status = st;
	if (st == 0)
		return;
	if (rep)
		vgc_set_err(c, st, reason, strlen(reason));
	else if (st != VGC_E_CONNECT || !c->errmsg[0])
		vgc_set_err(c, st, NULL, 0); /* a connect error keeps the path and errno text */
}

static uint64_t be_uint(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static int run(vg_client *c, int err, const vg_request *rq, struct sync_ctx *x)
{
	if (c->in_cb)
		return vgc_set_err(c, VGC_E_BUSY, NULL, 0);
	vgc_forked_check(c);
	if (err < 0)
		return vgc_set_err(c, err, NULL, 0);
	x->done = 0;
	/* Through the connection's direct slot when it has one (direct.c):
	 * the same completion, the same checks. */
	int dst;
	vg_reply drep;
	if (vgc_direct_call(c, rq, &dst, &drep)) {
		char reason[VG_DIRECT_REASON_LEN];
		memcpy(reason, drep.reason, drep.reason_len);
		reason[drep.reason_len] = 0;
		sync_done(c, x, dst, dst == VGC_E_TIMEOUT ? NULL : &drep, reason);
		vgc_direct_done(c);
		return x->status;
	}
	int r = vgc_submit(c, rq, NULL, sync_done, x);
	if (r < 0)
		return r == VGC_E_CONNECT ? r : vgc_set_err(c, r, NULL, 0);
	/* A request that went out whole has no reply yet: wait before the
	 * first read (a recv that would say EAGAIN, saved). */
	int wait_first = c->state == CS_UP && !c->broken && c->woff == c->wlen &&
			 c->q_head < 0 && !c->more;
	/* Spin a little before sleeping. A thread that sleeps leaves its CPU
	 * idle: the reply then has to wake that CPU (on a VM an interrupt and
	 * an exit, on bare metal a C-state exit), and the kernel is free to
	 * move the thread, so vgd's front (follow_clients) cannot stay on the
	 * caller's CPU. Yielding lets the front and the keyholder run here
	 * when they are on this CPU; a reply within the spin costs no sleep,
	 * and a thread that sleeps anyway has lost spin_us at most. */
	if (wait_first && c->spin_us > 0) {
		long long end = vgc_now_us() + c->spin_us;
		do {
			vgc_process(c);
			if (x->done)
				return x->status;
			sched_yield();
		} while (vgc_now_us() < end);
	}
	while (!x->done) {
		/* The first wait is one blocking recv where the descriptor
		 * allows it (conn.c): its bytes are then processed at once. */
		if (wait_first && vgc_conn_read_wait(c) > 0)
			wait_first = 0;
		if (!wait_first)
			vgc_process(c);
		wait_first = 0;
		if (x->done)
			break;
		int ev = vg_client_events(c), t = vg_client_timeout(c);
		struct pollfd p = {c->fd, (short)ev, 0};
		int watch = ev && c->fd >= 0;
		/* Pending requests always leave something to wait for: an fd
		 * event or a timer (see vg_client_events/timeout). */
		if (poll(watch ? &p : NULL, watch ? 1 : 0, t) < 0 && errno != EINTR)
			return vgc_set_err(c, VGC_E_IO, NULL, 0);
	}
	return x->status;
}

/* The result's length already fits the request (async.c checked it
 * against req.c's rule before this runs); what is left is the caller's
 * cap. */
static int take_result(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	if (rep->result_len > x->cap)
		return vgc_set_err(c, VGC_E_BUFFER, NULL, 0);
	memcpy(x->out, rep->result, rep->result_len);
	if (x->out_len)
		*x->out_len = rep->result_len;
	return 0;
}

int vg_client_ping(vg_client *c)
{
	vg_request rq;
	struct sync_ctx x = {0};
	int e = vgc_req_key(&rq, VG_OP_PING, NULL);
	return run(c, e, &rq, &x);
}

int vg_client_sign(vg_client *c, const char *key, int alg, const void *data, size_t len,
		   uint8_t *sig, size_t cap, size_t *sig_len)
{
	return vg_client_sign_format(c, key, alg, VGC_SIG_DEFAULT, data, len, sig, cap, sig_len);
}

int vg_client_sign_format(vg_client *c, const char *key, int alg, int format, const void *data,
			  size_t len, uint8_t *sig, size_t cap, size_t *sig_len)
{
	vg_request rq;
	struct sync_ctx x = {.take = take_result, .out = sig, .cap = cap, .out_len = sig_len};
	int e = vgc_req_sign(&rq, key, alg, format, data, len);
	return run(c, e || !sig ? VGC_E_INVALID : 0, &rq, &x);
}

int vg_client_sign_tls13(vg_client *c, const char *key, int role, const void *hash,
			 size_t hash_len, uint8_t *sig, size_t cap, size_t *sig_len)
{
	vg_request rq;
	struct sync_ctx x = {.take = take_result, .out = sig, .cap = cap, .out_len = sig_len};
	int e = vgc_req_tls13(&rq, key, role, hash, hash_len);
	return run(c, e || !sig ? VGC_E_INVALID : 0, &rq, &x);
}

int vg_client_x25519(vg_client *c, const char *key, const uint8_t peer[32], uint8_t shared[32])
{
	vg_request rq;
	struct sync_ctx x = {.take = take_result, .out = shared, .cap = 32};
	int e = vgc_req_x25519(&rq, key, peer);
	return run(c, e || !shared ? VGC_E_INVALID : 0, &rq, &x);
}

int vg_client_rsa_private(vg_client *c, const char *key, const void *in, size_t len,
			  uint8_t *out, size_t cap, size_t *out_len)
{
	vg_request rq;
	struct sync_ctx x = {.take = take_result, .out = out, .cap = cap, .out_len = out_len};
	int e = vgc_req_rsa(&rq, key, in, len);
	return run(c, e || !out ? VGC_E_INVALID : 0, &rq, &x);
}

/* A KEYINFO item's children; unknown children are skipped (PROTOCOL.md
 * 6.3). -1 if a known one is malformed or the name is missing. */
static int parse_keyinfo(const vg_item *it, vgc_key_info *k)
{
	memset(k, 0, sizeof(*k));
	vg_cursor cc = vg_item_cursor(it);
	vg_item ch;
	int r;
	while ((r = vg_item_next(&cc, &ch)) == 1) {
		switch (ch.tag) {
		case VG_T_KEY:
			if (ch.len == 0 || ch.len > VG_PROTO_MAX_KEY_NAME)
				return -1;
			memcpy(k->name, ch.val, ch.len);
			k->name[ch.len] = 0;
			break;
		case VG_T_KEY_TYPE:
			if (ch.len != 1)
				return -1;
			k->type = ch.val[0];
			break;
		case VG_T_PUBKEY:
			if (ch.len > sizeof(k->pub))
				return -1;
			memcpy(k->pub, ch.val, ch.len);
			k->pub_len = ch.len;
			break;
		case VG_T_RSA_E:
			if (ch.len > sizeof(k->rsa_e))
				return -1;
			memcpy(k->rsa_e, ch.val, ch.len);
			k->rsa_e_len = ch.len;
			break;
		case VG_T_OPS:
			if (ch.len != 4)
				return -1;
			k->ops = (uint32_t)be_uint(ch.val, 4);
			break;
		default:
			break;
		}
	}
	return r == 0 && k->name[0] ? 0 : -1;
}

static int take_keys(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	size_t n = 0, cap = 0;
	vgc_key_info *out = NULL;
	vg_cursor cur = rep->items;
	vg_item it;
	int r;
	while ((r = vg_item_next(&cur, &it)) == 1) {
		if (it.tag != VG_T_KEYINFO)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			vgc_key_info *nk = realloc(out, cap * sizeof(*out));
			if (!nk) {
				free(out);
				return vgc_set_err(c, VGC_E_NOMEM, NULL, 0);
			}
			out = nk;
		}
		if (parse_keyinfo(&it, &out[n]) < 0) {
			r = -1;
			break;
		}
		n++;
	}
	if (r < 0 || n > 0x7fffffff) {
		free(out);
		return vgc_set_err(c, VGC_E_PROTOCOL, "bad key list", 12);
	}
	*(vgc_key_info **)x->obj = out;
	return (int)n;
}

int vg_client_list_keys(vg_client *c, vgc_key_info **keys)
{
	vg_request rq;
	if (!keys)
		return vgc_set_err(c, VGC_E_INVALID, NULL, 0);
	*keys = NULL;
	struct sync_ctx x = {.take = take_keys, .obj = keys};
	int e = vgc_req_key(&rq, VG_OP_LIST_KEYS, NULL);
	return run(c, e, &rq, &x);
}

static int take_pubkey(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	vg_cursor cur = rep->items;
	vg_item it;
	int found = 0;
	while (vg_item_next(&cur, &it) == 1)
		if (it.tag == VG_T_KEYINFO && parse_keyinfo(&it, x->obj) == 0)
			found = 1;
	return found ? 0 : vgc_set_err(c, VGC_E_PROTOCOL, "no key in the reply", 19);
}

int vg_client_public_key(vg_client *c, const char *key, vgc_key_info *out)
{
	vg_request rq;
	struct sync_ctx x = {.take = take_pubkey, .obj = out};
	int e = vgc_req_key(&rq, VG_OP_PUBLIC_KEY, key);
	return run(c, e || !out ? VGC_E_INVALID : 0, &rq, &x);
}

static int take_stats(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	size_t n = 0, cap = 0;
	vgc_stat *out = NULL;
	vg_cursor cur = rep->items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1) {
		if (it.tag != VG_T_STAT)
			continue;
		vg_cursor cc = vg_item_cursor(&it);
		vg_item ch;
		vgc_stat s;
		memset(&s, 0, sizeof(s));
		while (vg_item_next(&cc, &ch) == 1) {
			if (ch.tag == VG_T_STAT_NAME && ch.len < sizeof(s.name))
				memcpy(s.name, ch.val, ch.len);
			else if (ch.tag == VG_T_STAT_VALUE && ch.len == 8)
				s.value = be_uint(ch.val, 8);
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			vgc_stat *ns = realloc(out, cap * sizeof(*out));
			if (!ns) {
				free(out);
				return vgc_set_err(c, VGC_E_NOMEM, NULL, 0);
			}
			out = ns;
		}
		out[n++] = s;
	}
	*(vgc_stat **)x->obj = out;
	return (int)n;
}

int vg_client_stats(vg_client *c, vgc_stat **stats)
{
	vg_request rq;
	if (!stats)
		return vgc_set_err(c, VGC_E_INVALID, NULL, 0);
	*stats = NULL;
	struct sync_ctx x = {.take = take_stats, .obj = stats};
	int e = vgc_req_key(&rq, VG_OP_STATS, NULL);
	return run(c, e, &rq, &x);
}

/* One USE item: its children into u (unknown ones skipped). */
static void parse_use(const vg_item *it, vgc_key_use *u)
{
	vg_cursor cc = vg_item_cursor(it);
	vg_item ch;
	memset(u, 0, sizeof(*u));
	u->other = 1;
	while (vg_item_next(&cc, &ch) == 1) {
		switch (ch.tag) {
		case VG_T_USE_KEY:
			if (ch.len < sizeof(u->key)) {
				memcpy(u->key, ch.val, ch.len);
				u->other = 0;
			}
			break;
		case VG_T_USE_UID:
			u->uid = (uint32_t)be_uint(ch.val, 4);
			break;
		case VG_T_USE_OK:
			u->ok = be_uint(ch.val, 8);
			break;
		case VG_T_USE_ERRORS:
			u->errors = be_uint(ch.val, 8);
			break;
		case VG_T_USE_REFUSED:
			u->refused = be_uint(ch.val, 8);
			break;
		case VG_T_USE_LAST_MS:
			u->last_ms = be_uint(ch.val, 8);
			break;
		case VG_T_USE_LAST_PID:
			u->last_pid = (uint32_t)be_uint(ch.val, 4);
			break;
		}
	}
}

/* vg_reply_decode has checked each USE's children and their widths. */
static int take_uses(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	size_t n = 0, cap = 0;
	vgc_key_use *out = NULL;
	vg_cursor cur = rep->items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1) {
		if (it.tag != VG_T_USE)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			vgc_key_use *nu = realloc(out, cap * sizeof(*out));
			if (!nu) {
				free(out);
				return vgc_set_err(c, VGC_E_NOMEM, NULL, 0);
			}
			out = nu;
		}
		parse_use(&it, &out[n++]);
	}
	*(vgc_key_use **)x->obj = out;
	return (int)n;
}

int vg_client_key_use(vg_client *c, vgc_key_use **uses)
{
	vg_request rq;
	if (!uses)
		return vgc_set_err(c, VGC_E_INVALID, NULL, 0);
	*uses = NULL;
	struct sync_ctx x = {.take = take_uses, .obj = uses};
	int e = vgc_req_key(&rq, VG_OP_STATS, NULL);
	return run(c, e, &rq, &x);
}

static int take_hello(vg_client *c, struct sync_ctx *x, const vg_reply *rep)
{
	vgc_hello *out = x->obj;
	memset(out, 0, sizeof(*out));
	vg_cursor cur = rep->items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1) {
		if (it.tag == VG_T_VERSION && it.len == 1 && out->n_versions < 8)
			out->versions[out->n_versions++] = it.val[0];
		else if (it.tag == VG_T_CAPS && it.len == 4)
			out->caps = (uint32_t)be_uint(it.val, 4);
		else if (it.tag == VG_T_SERVER) {
			/* Cut to fit, at a character boundary (back off while
			 * the first byte left out continues a character), and
			 * NUL-terminated (out was zeroed). */
			size_t n = it.len;
			if (n >= sizeof(out->server)) {
				n = sizeof(out->server) - 1;
				while (n > 0 && (it.val[n] & 0xc0) == 0x80)
					n--;
			}
			memcpy(out->server, it.val, n);
		}
		else if (it.tag == VG_T_LIMIT) {
			vg_cursor cc = vg_item_cursor(&it);
			vg_item ch;
			while (vg_item_next(&cc, &ch) == 1) {
				if (ch.tag == VG_T_LIM_MAX_FRAME && ch.len == 4)
					out->max_frame = (uint32_t)be_uint(ch.val, 4);
				else if (ch.tag == VG_T_LIM_MAX_INFLIGHT && ch.len == 4)
					out->max_inflight = (uint32_t)be_uint(ch.val, 4);
			}
		}
	}
	vgc_hint_learn(c, out->caps);
	/* A daemon configured below the protocol's 128 would stop reading
	 * us earlier: queue locally at its limit instead. */
	if (out->max_inflight > 0 && out->max_inflight < c->max_inflight)
		c->max_inflight = out->max_inflight;
	return 0;
}

int vg_client_hello(vg_client *c, vgc_hello *out)
{
	vg_request rq;
	struct sync_ctx x = {.take = take_hello, .obj = out};
	int e = vgc_req_key(&rq, VG_OP_HELLO, NULL);
	return run(c, e || !out ? VGC_E_INVALID : 0, &rq, &x);
}
