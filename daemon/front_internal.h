/* front_internal.h: the front's shared types and the functions its files
 * call across (see front.h). Holds no key material. Calls go one way,
 * down this list (front_jobs.c is called by several; nothing calls up):
 *   front.c          the loop: deferred work (settle), the supervisor
 *                    control channel, tick (timeouts, drain), limits, keys;
 *   front_read.c     client input: accept, read, split into frames, the
 *                    connections queued for resumption;
 *   front_ops.c      one frame: decoding, policy, local ops, job creation;
 *   front_dispatch.c jobs between the queue and the keyholders: dispatch,
 *                    keyholder replies, keyholder loss, attach and retire;
 *   front_reply.c    answers: every request ends here exactly once;
 *   front_kh.c       keyholder channels: records out and in, each
 *                    channel's in-flight jobs, the live and retiring sets;
 *   front_conn.c     client connections: replies out, interest, close,
 *                    the resume and dirty queues;
 *   front_uid.c      per-uid counts of connections and requests in
 *                    flight (max_connections_per_uid, _inflight_per_uid);
 *   front_sched.c    the front's scheduling policy: SCHED_BATCH only
 *                    while every CPU has a busy keyholder and jobs wait;
 *   front_follow.c   the front's CPU: pinned to the one its clients name
 *                    in CLIENT_CPU hints while vgd is not saturated;
 *   acct.c           (not front-only) the per-key, per-uid use table,
 *                    fed by front_ops.c (refusals) and front_reply.c
 *                    (keyholders' answers), logged at the tick;
 *   front_jobs.c     the job pool and job queues (a leaf).
 * A keyholder's reply thus never parses requests on its own stack: it
 * queues its connection for resumption, and the loop's settle step reads
 * on (front_read.c). */
#ifndef VGD_FRONT_INTERNAL_H
#define VGD_FRONT_INTERNAL_H

#include <event2/event.h>
#include <event2/listener.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "acct.h"
#include "clock.h"
#include "front.h"
#include "khring.h"
#include "ratelog.h"
#include "record.h"
#include "stats.h"
#include "vg/proto.h"

/* Keyholders a job may be with when they die: one retry. A job that was
 * with a keyholder that died is a suspect: it is retried alone on an idle
 * keyholder (front_dispatch.c), so a second death is its own, and it is
 * answered INTERNAL (counted: requests.poisoned) instead of killing every
 * keyholder in turn; the jobs that shared the first keyholder with it are
 * each retried alone too, and survive. */
#define MAX_ATTEMPTS 2
#define QUEUE_TIMEOUT_MS 30000 /* a job waiting this long for a keyholder fails */
#define TICK_MS 100
#define INLINE_DATA 512
#define JOB_SPARE_MAX 1024 /* freed jobs kept for reuse after a burst */
#define CONN_IN_START 4096 /* most frames are short; grows to one max frame */
#define CONN_OUT_START 4096 /* replies waiting to be written; grows as needed */
/* A connection whose unwritten replies pass this is not read until they
 * drop to a quarter of it: a client that sends and never reads must not
 * grow the front without bound (local operations such as list-keys are
 * not limited by max_inflight). It is larger than the biggest reply and
 * than what the socket itself holds, so a client that reads keeps the
 * connection streaming. All connections together are bounded by
 * max_reply_buffers (vgd_front_conn_no_room; doc/design.md, "Memory of
 * the front"). */
#define CONN_OUT_HIGH (256u << 10)
/* A connection over max_connections or its uid's share is held (never
 * read) for one to two VGD_HOLD_MS rounds before it is refused, so that
 * the loop reads the ends of connections its client closed just before:
 * at least one epoll_wait lies between. At most VGD_HELD_MAX are held;
 * past them the listener pauses until the next round, so refusals leave
 * at thousands a second (PROTOCOL.md 7.1: within 100 ms). */
#define VGD_HOLD_MS 10
#define VGD_HELD_MAX VGD_FRONT_HELD_MAX

/* The front's rate-limited log events (ratelog.h): what a client can make
 * it log. Each kind's suppressed count is a stat (log.suppressed.NAME). */
enum vgd_log_kind {
	VGD_LK_MALFORMED, /* a connection closed for a malformed frame */
	VGD_LK_TIMEOUT,   /* a connection closed for a stalled frame */
	VGD_LK_DENIED,    /* a request refused for its key (unknown, ACL, policy) */
	VGD_LK_REFUSED,   /* a connection refused (max_connections, per uid) */
	VGD_LK_POISON,    /* a request that crashed keyholders, given up on */
	VGD_LK_COUNT
};

typedef struct conn conn;
typedef struct job job;
typedef struct khchan khchan;
typedef struct front front;
typedef struct uidacct uidacct;
/* Buckets of the per-uid table (front_uid.c). */
#define VGD_UID_BUCKETS 256

/* A request on its way to a keyholder. The queues below hold it by its
 * links; c is its connection, which front_jobs.c never dereferences. */
struct job {
	job *next, *prev;
	conn *c;
	uint64_t id;     /* unique serial (the front's next_job) */
	uint64_t t_start_us;
	uint64_t t_queued_ms;
	uint32_t req_id;
	uint32_t uid, gid; /* the client's, for the keyholder's ACL check */
	uint8_t op, alg, role, attempts;
	uint8_t sig_format; /* SIG_FORMAT, 0 if absent */
	uint8_t kh_index; /* with a keyholder: its place in khchan.inflight */
	uint16_t cost;    /* its work, in Ed25519 signatures (vg_key_type_info.cost) */
	uint32_t key_index; /* its key in front.keys of generation key_gen (acct.h) */
	unsigned key_gen;
	char key[VG_PROTO_MAX_KEY_NAME + 1];
	uint32_t data_len;
	uint8_t *data;
	uint8_t inline_data[INLINE_DATA];
};

typedef struct {
	job *head, *tail;
	size_t len;
} jobq;

/* Freed jobs, reused instead of a malloc per request. */
typedef struct {
	job *spare;
	size_t nspare;
} jobpool;

/* One keyholder's channel. Live channels sit in front.kh[slot]; after a
 * reload replaces one, it moves to front.retiring until its jobs are
 * answered (slot is then -1). Its read event's argument is the channel
 * itself, and a job it holds is found by the index the record's job id
 * carries (front_kh.c), so a reply costs no search. */
struct khchan {
	front *f;
	int fd;        /* the channel socket: the keyholder's doorbell, and EOF when it dies */
	vgd_khring *ring; /* requests out and replies in (khring.h) */
	unsigned req_head, rep_tail; /* the front's own ring counters (the truth) */
	int slot;      /* live slot, or -1 while retiring */
	int ri;        /* while retiring: its index in front.retiring */
	int full;      /* the ring refused a record: wait for a reply */
	int unsent;    /* jobs at the tail of out that vgd_front_kh_send() has yet to send */
	uint64_t progress_ms; /* last reply, or when out last became non-empty */
	struct event *ev;
	jobq out;      /* assigned to this keyholder, oldest first */
	uint32_t used; /* bit i: inflight[i] holds a job */
	job *inflight[VGD_KH_DEPTH];
};

/* A client connection. Reads go straight into in[] (one recv per
 * readable event, no FIONREAD); replies collect in out and are written
 * once per loop iteration (see vgd_front_flush_dirty), so write interest is only
 * registered when the socket refused part of them. */
struct conn {
	conn *next, *prev;
	conn *dirty_next;  /* on the front's dirty list: replies not yet written */
	conn *resume_next; /* on the front's resume list: to be read on */
	front *front;
	int fd;
	struct event *rev, *wev;
	int reading, writing, dirty; /* rev / wev added; on the dirty list */
	int resume_queued;           /* on the resume list */
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
	uidacct *ua;               /* its uid's account (front_uid.c) */
	conn *uid_next, *uid_prev; /* the uid's connections */
	unsigned inflight;
	int dead;    /* socket closed; freed when inflight drains */
	int closing; /* read no more; close once answered and flushed */
	int paused;  /* not reading: too many requests in flight, or replies
		      * unwritten (CONN_OUT_HIGH, max_reply_buffers); complete
		      * frames may wait in in[], so it stays set until
		      * front_read.c reads on */
	int eof;     /* client finished sending: close once answered */
	int has_direct; /* holds direct slot (dk, di) (front_direct.c) */
	int dk, di;
	uint64_t last_active_ms;
	uint64_t partial_since_ms;
};

struct front {
	const vgd_config *cfg;
	struct event_base *base;
	struct evconnlistener *listener;
	struct event *ctl_ev, *tick;
	/* key set (public descriptions) */
	vgd_keyinfo *keys;
	size_t nkeys;
	unsigned generation;
	vgd_keyinfo *pending;
	size_t npending, pending_cap;
	unsigned pending_gen;
	/* keyholders: live channels by slot (NULL while a slot has none), and
	 * replaced ones that still owe replies */
	khchan *kh[VGD_KH_MAX];
	int kh_ring_fd[VGD_KH_MAX]; /* a slot's ring, received before its channel */
	int nkh;
	int kh_cpu[VGD_KH_MAX]; /* the CPU slot i's keyholder is pinned to, or -1 */
	/* Direct slots (front_direct.c): the supervisor's regions (their
	 * directories mapped, their slots' descriptors), which connection
	 * holds each slot, and where the next grant starts looking. */
	const vgd_direct *direct;
	int ndirect;
	conn *(*dheld)[VGD_DIRECT_MAX];
	/* The directory's per-slot counts as last taken in (served,
	 * denied, unknown key). */
	uint64_t (*dseen)[VGD_DIRECT_MAX][3];
	uint64_t (*useen)[VGD_DUSE][VGD_ACCT_OUTCOMES]; /* and each use entry's counts */
	unsigned direct_rr;
	uint64_t lease_next;
	khchan *retiring[VGD_KH_PROCS_MAX];
	int nretiring;
	/* Jobs waiting for a keyholder: retries and jobs a keyholder's ring
	 * refused in queue (served first, in order), new jobs in their uid's
	 * queue (front_uid.c), served by deficit round robin. */
	jobq queue;
	size_t nfair;       /* jobs in the uids' queues */
	uidacct *fair_cur;  /* the uid whose turn it is */
	int fair_fresh;     /* its turn has not had its quantum yet */
	unsigned nfair_uids; /* uids with queued jobs (the ring) */
	uint64_t next_job;
	conn *conns;
	/* Accepted over a limit, not yet admitted or refused
	 * (vgd_front_decide_held): at most VGD_HELD_MAX, for one or two
	 * rounds of VGD_HOLD_MS, never read. */
	int held[VGD_HELD_MAX];
	unsigned held_round[VGD_HELD_MAX]; /* hold_round when it was held */
	int nheld;
	unsigned hold_round;   /* advanced by each firing of held_ev */
	int listener_paused;   /* held[] is full: accept no more for now */
	struct event *held_ev; /* every VGD_HOLD_MS while any is held */
	conn *released; /* closed and answered: freed at the next tick, so no
			 * caller up the stack is left holding a freed conn */
	size_t nconns;
	conn *dirty;  /* connections with replies to write this iteration */
	conn *resume; /* paused connections that may read on */
	uidacct *uids[VGD_UID_BUCKETS]; /* per-uid connections and requests */
	jobpool pool;
	/* Work deferred to the end of the loop iteration (settle()): one
	 * dispatch to the keyholders and one write per connection however
	 * many frames and replies the iteration's callbacks produced. */
	struct event *defer_ev;
	int deferred, pump_wanted;
	uint64_t settled; /* settle() passes: the loop did work (busy polling) */
	int ncpus;
	int batch;       /* SCHED_BATCH now (front_sched.c) */
	int sched_fixed; /* the policy cannot be changed: stop trying */
	uint64_t batch_until_ms; /* back to SCHED_OTHER at the first tick after */
	/* Following the clients' CPU (front_follow.c). */
	cpu_set_t follow_mask; /* the CPUs the front started with */
	int follow_fixed;      /* affinity cannot be read or set: stop trying */
	int follow_cpu;        /* the CPU the front is pinned to, or -1 */
	int follow_cand;       /* the CPU the latest hints name, or -1 */
	unsigned follow_streak; /* hints in a row naming follow_cand */
	uint64_t follow_moved_ms;
	int draining;
	uint64_t drain_deadline_ms;
	/* Reply buffers of all connections (front_conn.c): bytes allocated,
	 * the bound (max_reply_buffers), whether a connection paused for it
	 * and whether the total has since fallen back (the loop then lets the
	 * paused connections read on). */
	size_t out_bytes, out_limit;
	int out_over, out_relief;
	vgd_limits lim; /* from the config, replaced by a reload */
	vgd_stats stats;
	vgd_acct acct; /* who used which key (acct.h) */
	vgd_ratelog logs[VGD_LK_COUNT];
	uint8_t frame[VG_PROTO_MAX_FRAME];
	uint8_t rec[VGD_KREP_MAX]; /* one keyholder reply, copied out of its ring */
};

/* The loop's deferred work: raised from anywhere below the loop, done
 * once at the end of the iteration by front.c's settle(). event_active on
 * our own loop is no system call: the callback runs after the callbacks
 * already made active by this epoll_wait, so their frames and replies are
 * batched. */
static inline void vgd_front_schedule(front *f)
{
	if (f->deferred)
		return;
	f->deferred = 1;
	event_active(f->defer_ev, EV_TIMEOUT, 0);
}

/* Log one event of a kind, rate-limited (ratelog.h). */
#define vgd_front_log(f, kind, ...) vgd_ratelog_event(&(f)->logs[kind], vgd_now_ms(), __VA_ARGS__)

static inline void vgd_front_want_pump(front *f)
{
	f->pump_wanted = 1;
	vgd_front_schedule(f);
}

/* front_read.c: client input. */
void vgd_front_on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			 int salen, void *arg);
void vgd_front_read_resumed(front *f);
void vgd_front_decide_held(front *f);
void vgd_front_on_hold_round(evutil_socket_t fd, short what, void *arg);

/* front_ops.c: one complete frame from a client. */
void vgd_front_handle_frame(front *f, conn *c, const uint8_t *frame, size_t len);

/* front_dispatch.c: jobs to keyholders and their replies back. */
void vgd_front_pump(front *f);
void vgd_front_kh_attach(front *f, int index, int fd, int mfd);
void vgd_front_kh_fail_all(front *f, int status, const char *reason);
void vgd_front_kh_check_progress(front *f, uint64_t now_ms);

/* A key operation's outcome for the use table (acct.h): key is its index
 * in f->keys, c the caller (SO_PEERCRED's uid and pid). */
static inline void vgd_front_acct(front *f, const conn *c, size_t key, int outcome)
{
	vgd_acct_note(&f->acct, (uint32_t)key, (uint32_t)c->uid, (uint32_t)c->pid,
		      (enum vgd_acct_outcome)outcome, vgd_acct_wall_ms());
}

/* front_reply.c: every request is answered through vgd_front_answer() or
 * vgd_front_send_error() (directly or through vgd_front_job_finish())
 * exactly once. */
void vgd_front_send_error(front *f, conn *c, uint8_t op, uint32_t id, int status,
			  const char *reason);
void vgd_front_send_frame_error(front *f, conn *c, const vg_frame_hdr *h, int why);
void vgd_front_answer(front *f, conn *c, uint8_t op, uint32_t id, int status,
		      const uint8_t *res, size_t rlen, const char *reason, uint64_t t_start_us);
void vgd_front_job_finish(front *f, job *j, int status, const uint8_t *res, size_t rlen,
			  const char *reason);

/* front_kh.c: keyholder channels. */
khchan *vgd_front_kh_open(front *f, int slot, int fd, int mfd, event_callback_fn on_readable);
void vgd_front_kh_close(khchan *k);
void vgd_front_kh_free(khchan *k);
int vgd_front_kh_retire(front *f, khchan *k);
void vgd_front_kh_unretire(front *f, khchan *k);
void vgd_front_kh_assign(khchan *k, job *j);
void vgd_front_kh_unassign(khchan *k, job *j);
job *vgd_front_kh_take(khchan *k, uint64_t wire_id);
int vgd_front_kh_send(khchan *k, jobq *refused);
int vgd_front_kh_doorbell(khchan *k);
int vgd_front_kh_next_reply(khchan *k, uint8_t rec[VGD_KREP_MAX], size_t *len);

/* front_conn.c: client connections. */
static inline size_t vgd_front_conn_out_pending(const conn *c) { return c->out_len - c->out_off; }
conn *vgd_front_conn_new(front *f, int fd, const struct ucred *cred,
			 event_callback_fn on_readable);
ssize_t vgd_front_conn_write_out(conn *c);
/* Why a connection may not take another frame (vgd_front_conn_no_room). */
enum { VGD_NOROOM_CONN = 1, VGD_NOROOM_FRONT = 2 };
int vgd_front_conn_no_room(const front *f, const conn *c, int resume);
void vgd_front_conn_maybe_resume(front *f, conn *c);
void vgd_front_conn_set_reading(conn *c, int on);
void vgd_front_conn_maybe_finish(front *f, conn *c);
void vgd_front_conn_start_closing(conn *c);
void vgd_front_conn_send(conn *c, const uint8_t *frame, long len);
void vgd_front_conn_job_done(front *f, conn *c);
void vgd_front_flush_dirty(front *f);
void vgd_front_conn_close(front *f, conn *c);
void vgd_front_conn_free_released(front *f);

/* The quantum of the uids' round robin: one RSA-4096 signature's worth of
 * work per turn (vg_key_type_info.cost units). */
#define VGD_FAIR_QUANTUM 130
/* Work one keyholder is given at once (the sum of its jobs' costs), unless
 * it has none: a keyholder takes its ring's requests as one batch, so a
 * cheap request sent to it waits for what is ahead of it, at most two
 * RSA-4096 signatures' worth (room for a pair to share one multi-buffer
 * private operation). */
#define VGD_KH_COST_MAX 300
/* Room for any job: a keyholder with nothing in flight takes any cost. */
#define VGD_ROOM_ANY UINT32_MAX

/* front_uid.c: per-uid limits, and the uids' queues. */
int vgd_front_uid_may_connect(front *f, uid_t uid);
int vgd_front_uid_attach(front *f, conn *c);
void vgd_front_uid_closed(front *f, conn *c);
void vgd_front_uid_detach(front *f, conn *c);
int vgd_front_uid_full(const front *f, const conn *c);
void vgd_front_uid_add(conn *c, unsigned n);
void vgd_front_uid_done(front *f, conn *c, unsigned n);
void vgd_front_uid_resume_all(front *f);
void vgd_front_fair_push(front *f, job *j);
job *vgd_front_fair_next(front *f, uint32_t room);
void vgd_front_fair_take(front *f, job *j);
void vgd_front_fair_remove(front *f, job *j);
job *vgd_front_fair_expired(front *f, uint64_t now_ms, uint64_t max_ms);
job *vgd_front_fair_any(front *f);
unsigned vgd_front_fair_drop_owner(front *f, const conn *c);

#ifdef VGD_TEST_HOOKS
/* front_hooks.c: vgd-testhooks only. 1 if data named a hook (done; out
 * says what came of it), else 0. */
int vgd_front_test_hook(front *f, conn *c, const uint8_t *data, size_t len, char *out,
			size_t cap);
#endif

/* front_sched.c: SCHED_BATCH while saturated. After each dispatch, and
 * at the tick. */
void vgd_front_sched_dispatched(front *f);
void vgd_front_sched_tick(front *f, uint64_t now_ms);

/* front_follow.c: the front's CPU. init before the loop; hint for each
 * request's CLIENT_CPU; release when vgd saturates or following is
 * turned off (back to every CPU the front started with). */
void vgd_front_follow_init(front *f);
void vgd_front_follow_hint(front *f, uint32_t cpu);
void vgd_front_follow_release(front *f);

/* front_jobs.c: job pool and queues. */
void vgd_front_q_push_tail(jobq *q, job *j);
void vgd_front_q_push_head(jobq *q, job *j);
void vgd_front_q_remove(jobq *q, job *j);
job *vgd_front_job_alloc(jobpool *p);
void vgd_front_job_free(jobpool *p, job *j);
unsigned vgd_front_q_drop_owner(jobq *q, jobpool *p, const conn *owner);

/* front_direct.c */
/* Start: no lease of an earlier front's connections holds any more. */
int vgd_front_direct_init(front *f, const vgd_direct *d, int n);
/* A direct slot for c (a hello's DIRECT): its lease and descriptor, or -1
 * when none is free for c's uid. */
int vgd_front_direct_grant(front *f, conn *c, int cpu, uint64_t *lease, int *fd);
/* c's slot, if any, is free again; its lease no longer holds. */
void vgd_front_direct_release(front *f, conn *c);
/* Send a reply frame with fd attached (SCM_RIGHTS) on its first byte;
 * what the socket does not take at once is queued. 0, or -1 (nothing
 * sent). */
int vgd_front_direct_send(conn *c, const uint8_t *frame, long n, int fd);
/* Take in what the keyholders did through the slots: a held slot's
 * connection is active while its requests come; refusals are counted and
 * logged as the front's own are. From the tick and before stats. */
void vgd_front_direct_sync(front *f, uint64_t now_ms);
/* The direct slots' counts, added to the front's stats. */
uint64_t vgd_front_direct_count(const front *f, int op, int errors);
/* Slots held by connections now, and the slots' refused and poisoned
 * requests since vgd started. */
void vgd_front_direct_totals(const front *f, uint64_t *held, uint64_t *refused,
			     uint64_t *poisoned);

#endif
