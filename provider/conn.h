/* conn.h: the provider's connection to vgd (conn.c) and its asynchronous
 * side (async.c), shared by those two files only. A connection is a
 * libvgclient client (not thread-safe: every use under the lock) that a
 * key and the async jobs waiting on it share; it is reference counted so
 * a job whose SSL is freed while it waits never outlives what it points
 * to. Secret: the results of rsa-private (the raw RSA decryption) pass
 * through a slot's result buffer and are wiped after use. */
#ifndef VG_PROV_CONN_H
#define VG_PROV_CONN_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "vgdprov.h"

typedef struct vg_prov_slot vg_prov_slot;

/* The asynchronous state of a connection (async.c), under the lock.
 *
 * The connection's socket and the deadline timer sit in the connection's
 * own epoll descriptor (the watch), registered with no server. One waiting
 * job at a time, the holder, has the watch in its slot's epoll descriptor
 * (one per ASYNC_WAIT_CTX, registered on it); when woken it reads every
 * reply, completing the others' requests. Every other waiting job is
 * woken through its slot's eventfd, which its callback writes. When the
 * holder is done the watch leaves its epoll descriptor and passes to the
 * newest waiting job. A slot registers one descriptor when its first
 * request is submitted (an epoll descriptor if it will hold the watch, an
 * eventfd if not) and at most one more (async.c says when). Each belongs
 * to one wait context and is closed with it: HAProxy files an async
 * descriptor under one connection, never closes it (the engine does), and
 * relies on that close to drop it from its threads' epoll sets; so slot
 * descriptors are never reused. */
typedef struct {
	int tfd;            /* timerfd; -1 until first use */
	int wfd;            /* the watch: epoll holding tfd and sock; -1 until first use */
	uint64_t fork_gen;  /* the fork generation that made them */
	int sock;           /* the socket in wfd, -1 */
	uint32_t sock_ev;   /* its epoll events */
	long long armed_ms; /* the timer's expiry (monotonic ms), 0: not armed */
	vg_prov_slot *holder;
	int holder_state;          /* HOLD_* (async.c) */
	vg_prov_slot *head, *tail; /* slots with a request pending, oldest first */
	unsigned npending;
	vg_prov_slot *running; /* the slot whose job is reading replies now */
} vg_prov_async;

struct vg_prov_conn {
	int refs; /* atomic */
	pthread_mutex_t lock;
	vg_client *client; /* made on first use */
	char *socket;      /* NULL: $VGD_SOCKET or the default */
	int timeout_ms;
	int told; /* the unreachable socket was reported on stderr (reach.c) */
	vg_prov_async async;
};

/* conn.c: the client, made on first use; called with the lock held. */
vg_client *vg_prov_conn_client(vg_prov_conn *c);

/* reach.c: after a failed connect (VGC_E_CONNECT) to c's socket, replace
 * err with one line naming the socket, the errno and its likely cause
 * (err is left alone when the socket accepts a connection now), and write
 * that line to stderr once until a request succeeds again (c->told).
 * Called with c's lock held. */
void vg_prov_explain_connect(vg_prov_conn *c, char *err, size_t errlen);

/* async.c */
void vg_prov_async_init(vg_prov_async *a);
/* Close the timer and the watch (no job is waiting: each holds a
 * reference). */
void vg_prov_async_destroy(vg_prov_async *a);
/* In an OpenSSL async job: submit rq, pause the job until its reply, and
 * copy the result as vg_prov_conn_call does. Returns 1 when it ran (the
 * outcome in *status), 0 when the job cannot wait here (no wait context,
 * out of descriptors): the caller blocks instead. */
int vg_prov_async_call(vg_prov_conn *c, const vg_prov_req *rq, uint8_t *out, size_t cap,
		       size_t *out_len, char *err, size_t errlen, int *status);

#endif
