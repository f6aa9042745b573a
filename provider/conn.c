/* conn.c: the provider's connections to vgd: a libvgclient client under a
 * lock, reference counted (a key and its copies share one, and so do the
 * async jobs waiting on it), and the call that runs one request either
 * asynchronously (inside an OpenSSL async job: async.c) or blocking.
 * Secret: rsa-private results pass through the caller's buffer only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/async.h>

#include "conn.h"
#include "vgdprov_stats.h"

vg_prov_conn *vg_prov_conn_new(const char *socket, int timeout_ms)
{
	vg_prov_conn *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (pthread_mutex_init(&c->lock, NULL) != 0 || (socket && !(c->socket = strdup(socket)))) {
		free(c);
		return NULL;
	}
	c->refs = 1;
	c->timeout_ms = timeout_ms;
	vg_prov_async_init(&c->async);
	return c;
}

void vg_prov_conn_ref(vg_prov_conn *c)
{
	__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

void vg_prov_conn_unref(vg_prov_conn *c)
{
	if (!c || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	/* No job waits on it (each holds a reference), so no callback of
	 * ours is pending. */
	vg_client_free(c->client);
	vg_prov_async_destroy(&c->async);
	pthread_mutex_destroy(&c->lock);
	free(c->socket);
	free(c);
}

vg_client *vg_prov_conn_client(vg_prov_conn *c)
{
	if (!c->client) {
		c->client = vg_client_new(c->socket);
		if (c->client)
			vg_client_set_timeout(c->client, c->timeout_ms);
	}
	return c->client;
}

static int fail(vg_prov_conn *c, vg_client *cl, int r, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", cl ? vg_client_errmsg(cl) : vg_client_strerror(r));
	if (r == VGC_E_CONNECT)
		vg_prov_explain_connect(c, err, errlen);
	return r;
}

int vg_prov_conn_call(vg_prov_conn *c, const vg_prov_req *rq, uint8_t *out, size_t cap,
		      size_t *out_len, char *err, size_t errlen)
{
	int status;
	if (ASYNC_get_current_job() &&
	    vg_prov_async_call(c, rq, out, cap, out_len, err, errlen, &status))
		return status;
	vg_prov_stat_add(VG_PROV_ST_SYNC, 1);
	pthread_mutex_lock(&c->lock);
	vg_client *cl = vg_prov_conn_client(c);
	int r = VGC_E_NOMEM;
	if (cl && rq->kind == VG_PROV_OP_SIGN)
		r = vg_client_sign(cl, rq->key, rq->alg, rq->data, rq->len, out, cap, out_len);
	else if (cl && rq->kind == VG_PROV_OP_TLS13)
		r = vg_client_sign_tls13(cl, rq->key, rq->role, rq->data, rq->len, out, cap,
					 out_len);
	else if (cl && rq->kind == VG_PROV_OP_RSA)
		r = vg_client_rsa_private(cl, rq->key, rq->data, rq->len, out, cap, out_len);
	if (r != VGC_E_CONNECT)
		c->told = 0; /* vgd answered: its next absence is reported again */
	if (r < 0)
		fail(c, cl, r, err, errlen);
	pthread_mutex_unlock(&c->lock);
	return r < 0 ? r : 0;
}

int vg_prov_conn_public_key(vg_prov_conn *c, const char *name, vgc_key_info *info, char *err,
			    size_t errlen)
{
	pthread_mutex_lock(&c->lock);
	vg_client *cl = vg_prov_conn_client(c);
	int r = cl ? vg_client_public_key(cl, name, info) : VGC_E_NOMEM;
	if (r != VGC_E_CONNECT)
		c->told = 0; /* vgd answered: its next absence is reported again */
	if (r < 0)
		fail(c, cl, r, err, errlen);
	pthread_mutex_unlock(&c->lock);
	return r < 0 ? r : 0;
}
