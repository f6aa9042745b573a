/* client.c: libvgclient's public life cycle and asynchronous entry points
 * (new/free, connect, fd/events/timeout/process, submit_*): fork check,
 * re-entrancy guard, then async.c and conn.c do the work. No secrets. */
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "internal.h"
#include "req.h"

/* The public header repeats protocol values and limits under its own
 * names (vgclient.h must stand alone): each must equal the protocol's.
 * (Algorithm values: tests/client/test_client_tables.c walks the
 * protocol's table; status codes: vgc_err_from_status in errors.c.) */
_Static_assert((int)VGC_OPS_SIGN == (int)VG_ALLOW_SIGN &&
		       (int)VGC_OPS_SIGN_TLS13 == (int)VG_ALLOW_SIGN_TLS13 &&
		       (int)VGC_OPS_X25519 == (int)VG_ALLOW_X25519 &&
		       (int)VGC_OPS_RSA_PRIVATE == (int)VG_ALLOW_RSA_PRIVATE,
	       "ops bits match the protocol");
_Static_assert((int)VGC_KEY_ED25519 == (int)VG_KEY_ED25519 &&
		       (int)VGC_KEY_X25519 == (int)VG_KEY_X25519 &&
		       (int)VGC_KEY_RSA == (int)VG_KEY_RSA &&
		       (int)VGC_KEY_ECDSA_P256 == (int)VG_KEY_ECDSA_P256 &&
		       (int)VGC_KEY_ECDSA_P384 == (int)VG_KEY_ECDSA_P384 && VG_KEY_MAX == 5,
	       "key types match the protocol");
_Static_assert((int)VGC_SIG_DER == (int)VG_SIGFMT_DER && (int)VGC_SIG_RAW == (int)VG_SIGFMT_RAW &&
		       VGC_SIG_DEFAULT == 0,
	       "signature formats match the protocol (0: the item is not sent)");
_Static_assert((int)VGC_TLS_SERVER == (int)VG_TLS_SERVER &&
		       (int)VGC_TLS_CLIENT == (int)VG_TLS_CLIENT,
	       "TLS roles match the protocol");
_Static_assert(VGC_KEY_NAME_MAX == VG_PROTO_MAX_KEY_NAME && VGC_PUBKEY_MAX == VG_PROTO_MAX_PUBKEY &&
		       VGC_RSA_E_MAX == VG_PROTO_MAX_RSA_E && VGC_RESULT_MAX == VG_PROTO_MAX_RESULT,
	       "sizes match the protocol's limits");
_Static_assert(VGC_MAX_SLOTS <= 0x10000u, "slot index fits the low 16 bits of an id");

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
	c->rbuf = malloc(VGC_RBUF_SIZE);
	if (!c->rbuf) {
		free(c);
		return NULL;
	}
	memcpy(c->path, path, strlen(path) + 1);
	c->fd = -1;
	c->state = CS_NONE;
	c->fork_gen = vgc_fork_gen();
	c->timeout_ms = 5000;
	c->spin_us = VGC_SPIN_US_DEFAULT;
	const char *spin = getenv("VGD_SPIN_US");
	if (spin && *spin) {
		char *end;
		long v = strtol(spin, &end, 10);
		if (!*end && v >= 0) /* anything else: the default */
			c->spin_us = v > VGC_SPIN_US_MAX ? VGC_SPIN_US_MAX : (int)v;
	}
	/* VGD_DIRECT=0: no direct slot (direct.c), read once like the spin. */
	const char *direct = getenv("VGD_DIRECT");
	c->direct_off = direct && strcmp(direct, "0") == 0;
	c->max_inflight = VG_PROTO_MAX_INFLIGHT;
	c->free_head = c->q_head = c->q_tail = -1;
	return c;
}

void vg_client_free(vg_client *c)
{
	if (!c || c->in_cb)
		return;
	vgc_forked_check(c);
	c->closing = 1;
	vg_client_cancel_all(c);
	vgc_drop_all(c);
	vgc_conn_close(c);
	free(c->reqs);
	free(c->wbuf);
	explicit_bzero(c->rbuf, VGC_RBUF_SIZE);
	free(c->rbuf);
	free(c);
}

void vg_client_set_timeout(vg_client *c, int ms)
{
	c->timeout_ms = ms > 0 ? ms : 0;
	if (c->state == CS_UP)
		vgc_conn_set_rcvtimeo(c);
}

int vg_client_connect_start(vg_client *c)
{
	vgc_forked_check(c);
	return vgc_conn_start(c);
}

int vg_client_connect(vg_client *c)
{
	vgc_forked_check(c);
	long long deadline = c->timeout_ms > 0 ? vgc_now_ms() + c->timeout_ms : 0;
	int r = vgc_conn_start(c);
	while (r == 1) {
		long long left = deadline ? deadline - vgc_now_ms() : 1000;
		if (left <= 0) {
			vgc_conn_close(c);
			return vgc_set_err(c, VGC_E_TIMEOUT, "connect", 7);
		}
		struct pollfd p = {c->fd, POLLOUT, 0};
		/* CS_RETRY has nothing to wait for but time. */
		int wait = c->state == CS_RETRY ? 5 : (int)(left < 1000 ? left : 1000);
		poll(c->state == CS_RETRY ? NULL : &p, c->state == CS_RETRY ? 0 : 1, wait);
		r = vgc_conn_step(c);
	}
	return r;
}

int vg_client_fd(vg_client *c)
{
	vgc_forked_check(c);
	return c->fd;
}

int vg_client_events(vg_client *c)
{
	vgc_forked_check(c);
	switch (c->state) {
	case CS_CONNECTING:
		return POLLOUT;
	case CS_UP:
		if (c->broken || c->woff < c->wlen ||
		    (c->q_head >= 0 && c->inflight < c->max_inflight))
			return POLLIN | POLLOUT;
		return POLLIN;
	default:
		return 0;
	}
}

int vg_client_timeout(vg_client *c)
{
	vgc_forked_check(c);
	long long now = vgc_now_ms(), t = -1;
	if (c->state == CS_RETRY)
		t = c->retry_at > now ? c->retry_at - now : 0;
	if (c->min_deadline) {
		long long d = c->min_deadline > now ? c->min_deadline - now : 0;
		if (t < 0 || d < t)
			t = d;
	}
	if (c->more || (c->state == CS_NONE && c->q_head >= 0))
		t = 0;
	return t > INT_MAX ? INT_MAX : (int)t;
}

int vg_client_process(vg_client *c)
{
	if (c->in_cb)
		return VGC_E_BUSY;
	vgc_forked_check(c);
	return vgc_process(c);
}

size_t vg_client_pending(vg_client *c)
{
	vgc_forked_check(c);
	return c->npending;
}

static int submit(vg_client *c, int err, const vg_request *rq, vg_client_cb cb, void *arg)
{
	vgc_forked_check(c);
	if (err < 0 || !cb)
		return VGC_E_INVALID;
	return vgc_submit(c, rq, cb, NULL, arg);
}

int vg_client_submit_ping(vg_client *c, vg_client_cb cb, void *arg)
{
	vg_request rq;
	int e = vgc_req_key(&rq, VG_OP_PING, NULL);
	return submit(c, e, &rq, cb, arg);
}

int vg_client_submit_sign(vg_client *c, const char *key, int alg, const void *data, size_t len,
			  vg_client_cb cb, void *arg)
{
	return vg_client_submit_sign_format(c, key, alg, VGC_SIG_DEFAULT, data, len, cb, arg);
}

int vg_client_submit_sign_format(vg_client *c, const char *key, int alg, int format,
				 const void *data, size_t len, vg_client_cb cb, void *arg)
{
	vg_request rq;
	int e = vgc_req_sign(&rq, key, alg, format, data, len);
	return submit(c, e, &rq, cb, arg);
}

int vg_client_submit_sign_tls13(vg_client *c, const char *key, int role, const void *hash,
				size_t hash_len, vg_client_cb cb, void *arg)
{
	vg_request rq;
	int e = vgc_req_tls13(&rq, key, role, hash, hash_len);
	return submit(c, e, &rq, cb, arg);
}

int vg_client_submit_x25519(vg_client *c, const char *key, const uint8_t peer[32],
			    vg_client_cb cb, void *arg)
{
	vg_request rq;
	int e = vgc_req_x25519(&rq, key, peer);
	return submit(c, e, &rq, cb, arg);
}

int vg_client_submit_rsa_private(vg_client *c, const char *key, const void *in, size_t len,
				 vg_client_cb cb, void *arg)
{
	vg_request rq;
	int e = vgc_req_rsa(&rq, key, in, len);
	return submit(c, e, &rq, cb, arg);
}
