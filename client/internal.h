/* internal.h: libvgclient's private state shared by conn.c (the socket),
 * async.c (the request table and event loop step), sync.c (blocking calls
 * on top of it) and errors.c. Nothing in here is exported. */
#ifndef VGCLIENT_INTERNAL_H
#define VGCLIENT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "vg/proto.h"
#include "vg/proto_tables.h"
#include "vgclient.h"

#define VGC_HIDDEN __attribute__((visibility("hidden")))

/* Connection states. */
enum { CS_NONE, CS_CONNECTING, CS_RETRY, CS_UP };
/* Request slot states. QUEUED and SENT owe a callback; a ZOMBIE was sent,
 * its callback already ran (timeout or cancel), and its id stays reserved
 * until its late reply arrives or the connection goes. */
enum { RQ_FREE, RQ_QUEUED, RQ_SENT, RQ_ZOMBIE, RQ_DONE };

enum { CPU_HINT_UNKNOWN, CPU_HINT_ASKED, CPU_HINT_YES, CPU_HINT_NO };
/* A connection's direct slot: not asked yet, none (the daemon gave none,
 * or VGD_DIRECT=0), or mapped. */
enum { DIRECT_UNKNOWN, DIRECT_NONE, DIRECT_UP };

/* 1 if op's requests may carry CLIENT_CPU (the operation table says). */
static inline int vgc_op_takes_cpu(uint8_t op)
{
	const vg_op_info *o = vg_op_get(op);
	return o && o->req[VG_T_CLIENT_CPU] != VG_RULE_NO;
}

/* What a successful reply's RESULT may be, worked out from the request
 * when it is submitted (req.c vgc_expect_of) and checked on the reply
 * (vgc_expect_ok) before any caller sees it, synchronous or not. The
 * result is accepted if it fits one of the shapes: a length in [min, max],
 * or (der != 0) a DER ECDSA-Sig-Value whose r and s are at most der bytes.
 * More than one shape when the request leaves the key type open (TLS 1.3
 * mode: Ed25519, RSA or either ECDSA curve). */
#define VGC_EXPECT_MAX 4
struct vgc_shape {
	uint8_t der;
	uint16_t min, max;
};
struct vgc_expect {
	uint8_t n;
	struct vgc_shape s[VGC_EXPECT_MAX];
};

/* Request frames up to this size are kept in the request slot itself. */
#define VGC_INLINE_FRAME 224

/* Internal completion: sees the whole decoded reply (rep NULL on a local
 * error) so synchronous calls can read hello/list-keys/stats items. */
typedef void (*vgc_icb)(vg_client *c, void *arg, int status, const vg_reply *rep,
			const char *reason);

struct vgc_req {
	uint32_t id;     /* (generation << 16) | slot index; never 0 */
	uint8_t state;   /* RQ_* */
	uint8_t op;
	uint8_t tries;   /* connections this request was sent on, minus one */
	uint8_t keep_id; /* RQ_DONE: it was sent and is unanswered, so after its
			  * callback it stays as a zombie, holding its id */
	uint8_t own;     /* the library's own request (hint.c's hello): no
			  * callback of the caller's, not in npending */
	int32_t next;    /* queue or free list link, -1 at the end */
	long long deadline; /* CLOCK_MONOTONIC ms, 0: none */
	uint8_t *frame;  /* the encoded request, kept for a retry: malloc'ed, or
			  * NULL when it is in inl (vgc_req_frame) */
	size_t frame_len;
	uint8_t inl[VGC_INLINE_FRAME]; /* a small frame (every sign request of a
					* TLS handshake), so none is allocated */
	vg_client_cb cb;
	vgc_icb icb;     /* used instead of cb when set */
	void *arg;
	int status;      /* RQ_DONE: the status to report */
	struct vgc_expect expect; /* what its RESULT may be */
};

struct vg_client {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd;
	int state;        /* CS_* */
	unsigned long fork_gen; /* the fork generation (conn.c) that owns fd and the
				 * pending requests */
	long long retry_at; /* CS_RETRY: when to try connect() again */
	int timeout_ms;
	int spin_us;      /* sync.c: how long a blocking call spins before it
			   * sleeps (VGD_SPIN_US, default VGC_SPIN_US_DEFAULT) */
	int in_cb;        /* > 0 while a callback runs */
	int closing;      /* vg_client_free is running callbacks */
	int broken;       /* a write failed outside process(): handled there */
	int more;         /* process() stopped before EAGAIN: run it again */
	int blocking;     /* conn.c: fd is up and in blocking mode (every send
			   * and recv but vgc_conn_read_wait's passes
			   * MSG_DONTWAIT), its SO_RCVTIMEO the timeout */
	size_t preread;   /* bytes vgc_conn_read_wait put after rlen, which
			   * the next vgc_conn_read hands on */
	uint32_t max_inflight;
	/* Whether this connection's daemon takes the CLIENT_CPU hint
	 * (PROTOCOL.md 6.10): CPU_HINT_* below; conn.c resets it with every
	 * new connection, hint.c asks with a hello. */
	int cpu_hint;
	/* The direct slot (direct.c, vg/direct.h): DIRECT_* below, the
	 * mapped slot, its lease and the last req_seq used. */
	int dstate;
	int direct_off;   /* VGD_DIRECT=0 when vg_client_new ran */
	struct vg_direct_slot_s *dslot;
	uint64_t dlease;
	uint32_t dseq;
	uint32_t inflight; /* SENT + ZOMBIE */
	uint32_t zombies;
	size_t npending;   /* QUEUED + SENT, not own: callbacks owed */
	uint16_t gen;
	long long min_deadline; /* lower bound of pending deadlines, 0: none */
	struct vgc_req *reqs;
	uint32_t nreqs, capreqs;
	int32_t free_head;
	int32_t q_head, q_tail;
	uint8_t *wbuf;     /* frames not yet written: [woff, wlen) */
	size_t woff, wlen, wcap;
	uint8_t *rbuf;     /* bytes read, not yet a whole frame */
	size_t rlen;
	char errmsg[320];
};

#define VGC_RBUF_SIZE (2 * VG_PROTO_MAX_FRAME)
/* A blocking call's spin before it sleeps: longer than a same-CPU round
 * trip through vgd for ping, Ed25519, ECDSA and X25519 (daemon/DESIGN-cpu.md,
 * "A blocking call spins before it sleeps"). */
#define VGC_SPIN_US_DEFAULT 100
#define VGC_SPIN_US_MAX 1000000
#define VGC_MAX_SLOTS 65535u

/* conn.c */
VGC_HIDDEN long long vgc_now_ms(void);
VGC_HIDDEN long long vgc_now_us(void);
/* This process's fork generation: bumped in every child fork() makes. */
VGC_HIDDEN unsigned long vgc_fork_gen(void);
VGC_HIDDEN int vgc_forked_check(vg_client *c);
VGC_HIDDEN int vgc_conn_start(vg_client *c);
VGC_HIDDEN int vgc_conn_step(vg_client *c);
VGC_HIDDEN void vgc_conn_close(vg_client *c);
VGC_HIDDEN int vgc_conn_flush(vg_client *c);
VGC_HIDDEN int vgc_conn_read(vg_client *c);
/* A blocking call's wait for its reply, and the read of it, in one
 * recv that blocks (up to the timeout: SO_RCVTIMEO): the bytes go to the
 * read buffer, and the next vgc_conn_read returns them without a system
 * call. > 0 bytes read; 0 if nothing came (timeout, signal, end of
 * stream, error, or a descriptor not in blocking mode): the caller then
 * waits and reads as usual, which sees any end or error again. */
VGC_HIDDEN int vgc_conn_read_wait(vg_client *c);
/* Apply c->timeout_ms to an up connection's SO_RCVTIMEO. */
VGC_HIDDEN void vgc_conn_set_rcvtimeo(vg_client *c);

/* async.c */
/* A caller's request; ahead of it, when hint.c says so, the library's
 * own hello (which completes through its icb only, and counts neither in
 * vg_client_pending() nor among the callbacks run). */
VGC_HIDDEN int vgc_submit(vg_client *c, const vg_request *rq, vg_client_cb cb, vgc_icb icb,
			  void *arg);
VGC_HIDDEN int vgc_process(vg_client *c);
/* The request's encoded frame (in the slot or allocated). */
VGC_HIDDEN const uint8_t *vgc_req_frame(const struct vgc_req *r);
VGC_HIDDEN void vgc_drop_all(vg_client *c);

/* hint.c */
/* Before a request of op: 1 with *hello built when the hello that learns
 * whether the daemon takes CLIENT_CPU should go first (once per
 * connection; async.c sends it as the library's own request, with
 * vgc_hint_caps_done as its completion, and marks c->cpu_hint asked),
 * else 0. */
VGC_HIDDEN int vgc_hint_hello(vg_client *c, uint8_t op, vg_request *hello);
/* That hello's completion: its CAPS, or the hint off on a failure. */
VGC_HIDDEN void vgc_hint_caps_done(vg_client *c, void *arg, int st, const vg_reply *rep,
				   const char *reason);
/* A hello's CAPS, read by hint.c's or the caller's hello. */
VGC_HIDDEN void vgc_hint_learn(vg_client *c, uint32_t caps);
/* Remove CLIENT_CPU from r's frame: it goes to a new connection. */
VGC_HIDDEN void vgc_hint_strip(struct vgc_req *r);

/* direct.c */
/* A blocking call's request through the connection's direct slot,
 * asking for one first when the connection has none yet and is idle.
 * Returns 1 with *st and rep (its result points into the slot until the
 * next call) filled, or 0: the call goes through the socket. */
VGC_HIDDEN int vgc_direct_call(vg_client *c, const vg_request *rq, int *st, vg_reply *rep);
/* After rep's result has been copied: wipe the slot's copy. */
VGC_HIDDEN void vgc_direct_done(vg_client *c);
/* The connection goes (closed, reset or forked): so does its slot
 * (forked: the child never had the mapping, MADV_DONTFORK). */
VGC_HIDDEN void vgc_direct_drop(vg_client *c, int forked);

/* errors.c */
VGC_HIDDEN int vgc_set_err(vg_client *c, int err, const char *reason, size_t rlen);
/* The boundary from the wire to the API: a reply's status as a VGC_E_*
 * code (0 for VG_ST_OK; an unnamed status keeps its number, as vgclient.h
 * promises). */
VGC_HIDDEN int vgc_err_from_status(int status);

#endif
