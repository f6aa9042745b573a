/* client.c: libvgclient's connection and synchronous calls. Nothing here
 * is secret except X25519 shared values passing through, which are wiped
 * from the receive buffer. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "vg/proto.h"
#include "vg/wipe.h"
#include "vgclient.h"

_Static_assert((int)VGC_ALG_TLS13 == (int)VG_ALG_TLS13, "algorithm values match the protocol");
_Static_assert((int)VGC_OPS_RSA_PRIVATE == (int)VG_ALLOW_RSA_PRIVATE, "ops bits match the protocol");
_Static_assert((int)VGC_E_UNAVAILABLE == -100 - (int)VG_ST_UNAVAILABLE, "status codes map");

struct vg_client {
	char path[108];
	int fd;
	pid_t pid; /* process that opened fd */
	int timeout_ms;
	uint32_t next_id;
	size_t rlen; /* bytes buffered in rbuf */
	char errmsg[320];
	uint8_t wbuf[VG_PROTO_MAX_FRAME];
	uint8_t rbuf[2 * VG_PROTO_MAX_FRAME];
};

static int set_err(vg_client *c, int err, const char *reason, size_t rlen)
{
	if (reason && rlen)
		snprintf(c->errmsg, sizeof(c->errmsg), "%s: %.*s", vg_client_strerror(err), (int)rlen,
			 reason);
	else
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", vg_client_strerror(err));
	return err;
}

vg_client *vg_client_new(const char *path)
{
	if (!path || !*path)
		path = getenv("VGD_SOCKET");
	if (!path || !*path)
		path = VGC_DEFAULT_SOCKET;
	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return NULL;
	vg_client *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->fd = -1;
	c->timeout_ms = 5000;
	return c;
}

static void disconnect(vg_client *c)
{
	/* In a forked child the descriptor is the parent's connection: close
	 * our copy only (the parent keeps using its own). */
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->rlen = 0;
}

void vg_client_free(vg_client *c)
{
	if (!c)
		return;
	disconnect(c);
	vg_wipe(c->rbuf, sizeof(c->rbuf));
	free(c);
}

void vg_client_set_timeout(vg_client *c, int ms) { c->timeout_ms = ms; }

int vg_client_connect(vg_client *c)
{
	if (c->fd >= 0 && c->pid == getpid())
		return 0;
	disconnect(c);
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, c->path, strlen(c->path));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return set_err(c, VGC_E_CONNECT, strerror(errno), strlen(strerror(errno)));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		char why[200];
		snprintf(why, sizeof(why), "%s: %s", c->path, strerror(errno));
		close(fd);
		return set_err(c, VGC_E_CONNECT, why, strlen(why));
	}
	c->fd = fd;
	c->pid = getpid();
	c->rlen = 0;
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int wait_fd(vg_client *c, short ev, long long deadline)
{
	for (;;) {
		int t = -1;
		if (c->timeout_ms > 0) {
			long long left = deadline - now_ms();
			if (left <= 0)
				return VGC_E_TIMEOUT;
			t = (int)left;
		}
		struct pollfd p = {c->fd, ev, 0};
		int r = poll(&p, 1, t);
		if (r > 0)
			return 0;
		if (r == 0)
			return VGC_E_TIMEOUT;
		if (errno != EINTR)
			return VGC_E_IO;
	}
}

static int send_all(vg_client *c, const uint8_t *p, size_t n, long long deadline)
{
	while (n) {
		ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			int r = wait_fd(c, POLLOUT, deadline);
			if (r < 0)
				return r;
			continue;
		}
		return w < 0 && errno == EPIPE ? VGC_E_CLOSED : VGC_E_IO;
	}
	return 0;
}

/* Read until the buffer holds a whole frame; returns its length. */
static long read_frame(vg_client *c, long long deadline)
{
	for (;;) {
		vg_frame_hdr h;
		long r = vg_frame_check(c->rbuf, c->rlen, &h);
		if (r < 0)
			return VGC_E_PROTOCOL;
		if (r > 0)
			return r;
		ssize_t n = recv(c->fd, c->rbuf + c->rlen, sizeof(c->rbuf) - c->rlen, MSG_DONTWAIT);
		if (n > 0) {
			c->rlen += (size_t)n;
			continue;
		}
		if (n == 0)
			return VGC_E_CLOSED;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return VGC_E_IO;
		int w = wait_fd(c, POLLIN, deadline);
		if (w < 0)
			return w;
	}
}

static void consume(vg_client *c, size_t n)
{
	memmove(c->rbuf, c->rbuf + n, c->rlen - n);
	c->rlen -= n;
}

/* Send one request and wait for its reply, reconnecting once if the
 * connection turns out to be dead before anything was answered. The reply
 * frame stays at the start of rbuf until the next call; *rep points into
 * it. */
static int call(vg_client *c, const vg_request *rq, vg_reply *rep, size_t *frame_len)
{
	vg_request r = *rq;
	r.id = ++c->next_id;
	long n = vg_request_encode(&r, c->wbuf, sizeof(c->wbuf));
	if (n < 0)
		return set_err(c, VGC_E_INVALID, "request too large", 17);
	for (int attempt = 0; attempt < 2; attempt++) {
		if (c->fd >= 0 && c->pid != getpid())
			disconnect(c); /* forked: never share the parent's stream */
		int err = vg_client_connect(c);
		if (err < 0)
			return err;
		long long deadline = now_ms() + c->timeout_ms;
		err = send_all(c, c->wbuf, (size_t)n, deadline);
		long fl = err < 0 ? err : read_frame(c, deadline);
		/* A connection the daemon closed (restart, idle timeout) fails
		 * before any reply: retry once on a fresh one. Requests are
		 * idempotent, so a retry cannot double an effect. */
		if ((fl == VGC_E_CLOSED || fl == VGC_E_IO) && attempt == 0) {
			disconnect(c);
			continue;
		}
		if (fl < 0) {
			disconnect(c);
			return set_err(c, (int)fl, NULL, 0);
		}
		if (vg_reply_decode(c->rbuf, (size_t)fl, rep) != 0) {
			disconnect(c);
			return set_err(c, VGC_E_PROTOCOL, NULL, 0);
		}
		if (rep->id != r.id || rep->op != r.op) {
			/* An id-0 reply is the daemon refusing the connection
			 * (too many connections, shutting down). */
			if (rep->id == 0 && rep->status != VG_ST_OK) {
				int e = -100 - rep->status;
				set_err(c, e, rep->reason, rep->reason_len);
				disconnect(c);
				return e;
			}
			disconnect(c);
			return set_err(c, VGC_E_PROTOCOL, "reply to another request", 24);
		}
		*frame_len = (size_t)fl;
		if (rep->status != VG_ST_OK) {
			int e = -100 - rep->status;
			set_err(c, e, rep->reason, rep->reason_len);
			consume(c, *frame_len);
			if (vg_status_closes(rep->status))
				disconnect(c);
			return e;
		}
		return 0;
	}
	return set_err(c, VGC_E_CLOSED, NULL, 0);
}

static int key_request(vg_request *rq, uint8_t op, const char *key)
{
	memset(rq, 0, sizeof(*rq));
	rq->op = op;
	if (!key || strlen(key) == 0 || strlen(key) > VG_PROTO_MAX_KEY_NAME)
		return VGC_E_INVALID;
	memcpy(rq->key, key, strlen(key) + 1);
	return 0;
}

static int result_out(vg_client *c, const vg_reply *rep, size_t fl, uint8_t *out, size_t cap,
		      size_t *out_len)
{
	int r = 0;
	if (!rep->result)
		r = set_err(c, VGC_E_PROTOCOL, "reply without a result", 22);
	else if (rep->result_len > cap)
		r = set_err(c, VGC_E_BUFFER, NULL, 0);
	else {
		memcpy(out, rep->result, rep->result_len);
		if (out_len)
			*out_len = rep->result_len;
	}
	vg_wipe(c->rbuf, fl);
	consume(c, fl);
	return r;
}

int vg_client_ping(vg_client *c)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_PING;
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	if (r == 0)
		consume(c, fl);
	return r;
}

int vg_client_sign(vg_client *c, const char *key, int alg, const void *data, size_t len,
		   uint8_t *sig, size_t cap, size_t *sig_len)
{
	vg_request rq;
	if (key_request(&rq, VG_OP_SIGN, key) < 0 || alg < 1 || alg >= VG_ALG_TLS13 ||
	    len > VG_PROTO_MAX_DATA || (len && !data))
		return set_err(c, VGC_E_INVALID, NULL, 0);
	rq.alg = (uint8_t)alg;
	rq.data = data;
	rq.data_len = len;
	rq.has_data = 1;
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	return r < 0 ? r : result_out(c, &rep, fl, sig, cap, sig_len);
}

int vg_client_sign_tls13(vg_client *c, const char *key, int role, const void *hash,
			 size_t hash_len, uint8_t *sig, size_t cap, size_t *sig_len)
{
	vg_request rq;
	if (key_request(&rq, VG_OP_SIGN, key) < 0 || (role != VGC_TLS_SERVER && role != VGC_TLS_CLIENT) ||
	    (hash_len != 32 && hash_len != 48 && hash_len != 64) || !hash)
		return set_err(c, VGC_E_INVALID, NULL, 0);
	rq.alg = VG_ALG_TLS13;
	rq.tls_role = (uint8_t)role;
	rq.data = hash;
	rq.data_len = hash_len;
	rq.has_data = 1;
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	return r < 0 ? r : result_out(c, &rep, fl, sig, cap, sig_len);
}

int vg_client_x25519(vg_client *c, const char *key, const uint8_t peer[32], uint8_t shared[32])
{
	vg_request rq;
	if (key_request(&rq, VG_OP_X25519, key) < 0 || !peer)
		return set_err(c, VGC_E_INVALID, NULL, 0);
	rq.data = peer;
	rq.data_len = 32;
	rq.has_data = 1;
	vg_reply rep;
	size_t fl, n = 0;
	int r = call(c, &rq, &rep, &fl);
	if (r < 0)
		return r;
	r = result_out(c, &rep, fl, shared, 32, &n);
	if (r == 0 && n != 32)
		r = set_err(c, VGC_E_PROTOCOL, "shared secret is not 32 bytes", 29);
	return r;
}

int vg_client_rsa_private(vg_client *c, const char *key, const void *in, size_t len,
			  uint8_t *out, size_t cap, size_t *out_len)
{
	vg_request rq;
	if (key_request(&rq, VG_OP_RSA_PRIVATE, key) < 0 || !in || len > VG_PROTO_MAX_DATA)
		return set_err(c, VGC_E_INVALID, NULL, 0);
	rq.data = in;
	rq.data_len = len;
	rq.has_data = 1;
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	return r < 0 ? r : result_out(c, &rep, fl, out, cap, out_len);
}

static uint64_t be_uint(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Decode a KEYINFO item's children. */
static int parse_keyinfo(const vg_item *it, vgc_key_info *k)
{
	memset(k, 0, sizeof(*k));
	vg_cursor cc = {it->val, it->len};
	vg_item ch;
	int r;
	while ((r = vg_item_next(&cc, &ch)) == 1) {
		switch (ch.tag) {
		case VG_T_KEY:
			if (ch.len == 0 || ch.len > 64)
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
			break; /* newer daemons may add fields */
		}
	}
	return r == 0 && k->name[0] ? 0 : -1;
}

int vg_client_list_keys(vg_client *c, vgc_key_info **keys)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_LIST_KEYS;
	vg_reply rep;
	size_t fl;
	*keys = NULL;
	int r = call(c, &rq, &rep, &fl);
	if (r < 0)
		return r;
	size_t n = 0, cap = 0;
	vgc_key_info *out = NULL;
	vg_cursor cur = rep.items;
	vg_item it;
	while ((r = vg_item_next(&cur, &it)) == 1) {
		if (it.tag != VG_T_KEYINFO)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			vgc_key_info *nk = realloc(out, cap * sizeof(*out));
			if (!nk) {
				free(out);
				consume(c, fl);
				return set_err(c, VGC_E_NOMEM, NULL, 0);
			}
			out = nk;
		}
		if (parse_keyinfo(&it, &out[n]) < 0) {
			r = -1;
			break;
		}
		n++;
	}
	consume(c, fl);
	if (r < 0) {
		free(out);
		return set_err(c, VGC_E_PROTOCOL, NULL, 0);
	}
	*keys = out;
	return (int)n;
}

int vg_client_public_key(vg_client *c, const char *key, vgc_key_info *out)
{
	vg_request rq;
	if (key_request(&rq, VG_OP_PUBLIC_KEY, key) < 0)
		return set_err(c, VGC_E_INVALID, NULL, 0);
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	if (r < 0)
		return r;
	vg_cursor cur = rep.items;
	vg_item it;
	r = VGC_E_PROTOCOL;
	while (vg_item_next(&cur, &it) == 1)
		if (it.tag == VG_T_KEYINFO && parse_keyinfo(&it, out) == 0)
			r = 0;
	consume(c, fl);
	return r < 0 ? set_err(c, r, NULL, 0) : 0;
}

int vg_client_stats(vg_client *c, vgc_stat **stats)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_STATS;
	vg_reply rep;
	size_t fl;
	*stats = NULL;
	int r = call(c, &rq, &rep, &fl);
	if (r < 0)
		return r;
	size_t n = 0, cap = 0;
	vgc_stat *out = NULL;
	vg_cursor cur = rep.items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1) {
		if (it.tag != VG_T_STAT)
			continue;
		vg_cursor cc = {it.val, it.len};
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
				consume(c, fl);
				return set_err(c, VGC_E_NOMEM, NULL, 0);
			}
			out = ns;
		}
		out[n++] = s;
	}
	consume(c, fl);
	*stats = out;
	return (int)n;
}

int vg_client_hello(vg_client *c, vgc_hello *out)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_HELLO;
	vg_reply rep;
	size_t fl;
	int r = call(c, &rq, &rep, &fl);
	if (r < 0)
		return r;
	memset(out, 0, sizeof(*out));
	vg_cursor cur = rep.items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1) {
		if (it.tag == VG_T_VERSION && it.len == 1 && out->n_versions < 8)
			out->versions[out->n_versions++] = it.val[0];
		else if (it.tag == VG_T_CAPS && it.len == 4)
			out->caps = (uint32_t)be_uint(it.val, 4);
		else if (it.tag == VG_T_SERVER && it.len < sizeof(out->server))
			memcpy(out->server, it.val, it.len);
		else if (it.tag == VG_T_LIMIT) {
			vg_cursor cc = {it.val, it.len};
			vg_item ch;
			while (vg_item_next(&cc, &ch) == 1) {
				if (ch.tag == VG_T_LIM_MAX_FRAME && ch.len == 4)
					out->max_frame = (uint32_t)be_uint(ch.val, 4);
				else if (ch.tag == VG_T_LIM_MAX_INFLIGHT && ch.len == 4)
					out->max_inflight = (uint32_t)be_uint(ch.val, 4);
			}
		}
	}
	consume(c, fl);
	return 0;
}

const char *vg_client_strerror(int err)
{
	switch (err) {
	case VGC_OK: return "success";
	case VGC_E_CONNECT: return "cannot connect to vgd";
	case VGC_E_IO: return "input/output error";
	case VGC_E_TIMEOUT: return "timed out waiting for vgd";
	case VGC_E_PROTOCOL: return "protocol error in vgd's reply";
	case VGC_E_CLOSED: return "vgd closed the connection";
	case VGC_E_NOMEM: return "out of memory";
	case VGC_E_INVALID: return "invalid argument";
	case VGC_E_BUFFER: return "output buffer too small";
	case VGC_E_MALFORMED: return "vgd: malformed request";
	case VGC_E_BAD_VERSION: return "vgd: unsupported protocol version";
	case VGC_E_UNKNOWN_OP: return "vgd: unknown operation";
	case VGC_E_UNKNOWN_KEY: return "vgd: unknown key";
	case VGC_E_NOT_ALLOWED: return "vgd: not allowed";
	case VGC_E_BAD_INPUT: return "vgd: bad input";
	case VGC_E_TOO_LARGE: return "vgd: request too large";
	case VGC_E_OVERLOADED: return "vgd: overloaded, try again";
	case VGC_E_INTERNAL: return "vgd: internal error";
	case VGC_E_UNAVAILABLE: return "vgd: unavailable (shutting down)";
	}
	return "unknown error";
}

const char *vg_client_errmsg(const vg_client *c) { return c->errmsg[0] ? c->errmsg : "no error"; }
