/* front_internal.h: the front's shared types and the functions its files
 * call across (see front.h). Holds no key material. Who owns what:
 *   front.c       the loop, deferred work (settle), the supervisor control
 *                 channel, tick (timeouts, drain), limits, the key set;
 *   front_jobs.c  the job pool, the job queues, answers to requests;
 *   front_kh.c    the keyholder channels: dispatch, replies, loss, attach;
 *   front_conn.c  client connections: accept, read, frames, replies out,
 *                 close;
 *   front_ops.c   requests: decoding, policy, local ops, job creation. */
#ifndef VGD_FRONT_INTERNAL_H
#define VGD_FRONT_INTERNAL_H

#include <event2/event.h>
#include <event2/listener.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "clock.h"
#include "front.h"
#include "record.h"
#include "stats.h"
#include "vg/proto.h"

/* Jobs outstanding per keyholder: enough queued work (3 ms of RSA-2048)
 * that a busy keyholder does not run dry while the front, which does not
 * preempt it (SCHED_BATCH, see spawn_front), waits for a CPU. */
#define KH_DEPTH 16
#define MAX_ATTEMPTS 3         /* keyholder crashes a job may survive */
#define QUEUE_TIMEOUT_MS 30000 /* a job waiting this long for a keyholder fails */
#define TICK_MS 100
#define INLINE_DATA 512
#define JOB_SPARE_MAX 1024 /* freed jobs kept for reuse after a burst */
#define CONN_IN_START 4096 /* most frames are short; grows to one max frame */
#define CONN_OUT_START 4096 /* replies waiting to be written; grows as needed */
/* A connection whose unwritten replies pass this is not read until they
 * drop to a quarter of it: a client that sends and never reads must not
 * grow the front without bound (local operations such as list-keys are
 * not limited by max_inflight). With max_connections (default 1024) it
 * bounds the front's buffers (~400 MB at most with the defaults). It
 * is larger than the biggest reply and than what the socket itself holds,
 * so a client that reads keeps the connection streaming. */
#define CONN_OUT_HIGH (256u << 10)

typedef struct conn conn;
typedef struct job job;

struct job {
	job *next, *prev;
	conn *c;
	uint64_t id;
	uint64_t t_start_us;
	uint64_t t_queued_ms;
	uint32_t req_id;
	uint8_t op, alg, role, attempts;
	char key[VG_PROTO_MAX_KEY_NAME + 1];
	uint32_t data_len;
	uint8_t *data;
	uint8_t inline_data[INLINE_DATA];
};

typedef struct {
	job *head, *tail;
	size_t len;
} jobq;

typedef struct {
	int fd;
	unsigned gen;
	int retiring;
	int full; /* the socket buffer refused a record: wait for a reply */
	int unsent; /* jobs at the tail of out that vgd_front_pump() has yet to send */
	struct event *ev;
	jobq out; /* sent, awaiting reply */
} khslot;

/* A client connection. Reads go straight into in[] (one recv per
 * readable event, no FIONREAD); replies collect in out and are written
 * once per loop iteration (see vgd_front_flush_dirty), so write interest is only
 * registered when the socket refused part of them. */
struct conn {
	conn *next, *prev;
	conn *dirty_next; /* on the front's dirty list: replies not yet written */
	void *front;
	int fd;
	struct event *rev, *wev;
	int reading, writing, dirty; /* rev / wev added; on the dirty list */
	uint8_t *in;                 /* unparsed bytes: in[0, in_len) */
	size_t in_len, in_cap;
	/* Replies not yet written: out[out_off, out_len). Our own buffer, not
	 * an evbuffer, so that every byte is wiped once written and no freed
	 * chunk keeps a copy: X25519 and rsa-private results are secret. */
	uint8_t *out;
	size_t out_off, out_len, out_cap;
	uid_t uid;
	gid_t gid;
	pid_t pid;
	unsigned inflight;
	int dead;    /* socket closed; freed when inflight drains */
	int closing; /* read no more; close once answered and flushed */
	int paused;  /* not reading: too many requests in flight, or replies
		      * unwritten (CONN_OUT_HIGH) */
	int eof;     /* client finished sending: close once answered */
	uint64_t last_active_ms;
	uint64_t partial_since_ms;
};

#define MAX_SLOTS 1024

typedef struct {
	const vgd_config *cfg;
	struct event_base *base;
	struct evconnlistener *listener;
	struct event *ctl_ev, *tick;
	int ctl_fd;
	/* key set (public descriptions) */
	vgd_keyinfo *keys;
	size_t nkeys;
	unsigned generation;
	vgd_keyinfo *pending;
	size_t npending, pending_cap;
	unsigned pending_gen;
	/* keyholders: slots [0, nkh) current; retiring ones after them */
	khslot kh[MAX_SLOTS];
	int nkh, nslots;
	jobq queue;
	uint64_t next_job;
	conn *conns;
	conn *released; /* closed and answered: freed at the next tick, so no
			 * caller up the stack is left holding a freed conn */
	size_t nconns;
	conn *dirty; /* connections with replies to write this iteration */
	job *spare;  /* freed jobs, reused instead of a malloc per request */
	size_t nspare;
	/* Work deferred to the end of the loop iteration (settle()): one
	 * dispatch to the keyholders and one write per connection however
	 * many frames and replies the iteration's callbacks produced. */
	struct event *defer_ev;
	int deferred, pump_wanted;
	uint64_t settled; /* settle() passes: the loop did work (busy polling) */
	int ncpus;
	int draining;
	uint64_t drain_deadline_ms;
	vgd_limits lim; /* from the config, replaced by a reload */
	vgd_stats stats;
	uint8_t frame[VG_PROTO_MAX_FRAME];
	uint8_t rec[KH_DEPTH][VGD_KREP_MAX]; /* keyholder replies, one recvmmsg */
} front;


/* front.c: end-of-iteration work. */
void vgd_front_schedule(front *f);
void vgd_front_want_pump(front *f);

/* front_jobs.c: job pool and queues; every request is answered through
 * vgd_front_answer() or vgd_front_send_error() (directly or through
 * vgd_front_job_finish()) exactly once. */
void vgd_front_q_push_tail(jobq *q, job *j);
void vgd_front_q_push_head(jobq *q, job *j);
void vgd_front_q_remove(jobq *q, job *j);
job *vgd_front_job_alloc(front *f);
void vgd_front_job_free(front *f, job *j);
void vgd_front_send_error(front *f, conn *c, uint8_t op, uint32_t id, int status,
			  const char *reason);
void vgd_front_answer(front *f, conn *c, uint8_t op, uint32_t id, int status,
		      const uint8_t *res, size_t rlen, const char *reason, uint64_t t_start_us);
void vgd_front_job_finish(front *f, job *j, int status, const uint8_t *res, size_t rlen,
			  const char *reason);

/* front_kh.c: keyholder channels. */
void vgd_front_kh_close(front *f, khslot *k);
void vgd_front_pump(front *f);
void vgd_front_kh_attach(front *f, int index, unsigned gen, int fd);

/* front_conn.c: client connections. */
static inline size_t vgd_front_conn_out_pending(const conn *c) { return c->out_len - c->out_off; }
ssize_t vgd_front_conn_write_out(conn *c);
void vgd_front_conn_maybe_resume(front *f, conn *c);
void vgd_front_conn_set_reading(conn *c, int on);
void vgd_front_conn_maybe_finish(front *f, conn *c);
void vgd_front_conn_start_closing(conn *c);
void vgd_front_conn_send(conn *c, const uint8_t *frame, long len);
void vgd_front_flush_dirty(front *f);
void vgd_front_conn_release(front *f, conn *c);
void vgd_front_conn_close(front *f, conn *c);
void vgd_front_conn_free(conn *c);
void vgd_front_conn_process(front *f, conn *c);
void vgd_front_on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			 int salen, void *arg);

/* front_ops.c: one complete frame from a client. */
void vgd_front_handle_frame(front *f, conn *c, const uint8_t *frame, size_t len);

#endif
