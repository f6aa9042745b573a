/* record.h: the fixed-layout records between the front and the keyholders
 * (in the rings of khring.h, one record per slot), and between the supervisor
 * and the front. The receiver checks every field again; nothing here is
 * secret except X25519 shared values in replies. */
#ifndef VGD_RECORD_H
#define VGD_RECORD_H

#include <stdint.h>

#include "config.h"
#include "keystore.h"
#include "vg/proto.h"

#define VGD_KREQ_MAGIC 0x76674b51u /* "vgKQ" */
#define VGD_KREP_MAGIC 0x76674b50u /* "vgKP" */
#define VGD_RESULT_MAX VG_PROTO_MAX_RESULT
/* A reason in a keyholder reply, NUL included: room for the longest text
 * the keyholder sends (the reason table's and the kernels' messages;
 * tests/daemon/test_keyops.c checks that each fits). */
#define VGD_KREP_REASON_LEN 112u

typedef struct {
	uint32_t magic;
	uint32_t data_len; /* bytes of data following this header */
	uint64_t job;      /* the front's job id, echoed in the reply */
	/* The client's SO_PEERCRED: the keyholder checks the key's uids/gids
	 * again, as it checks the policy again. */
	uint32_t uid, gid;
	char key[VG_PROTO_MAX_KEY_NAME + 1]; /* NUL-terminated */
	uint8_t op, alg, role;
	uint8_t fmt; /* SIG_FORMAT (enum vg_sig_format), 0 if absent */
	uint8_t pad[3];
} vgd_kreq;

typedef struct {
	uint32_t magic;
	uint32_t result_len; /* bytes of result following this header */
	uint64_t job;
	uint8_t status; /* VG_ST_* */
	uint8_t pad[7];
	char reason[VGD_KREP_REASON_LEN]; /* NUL-terminated */
} vgd_krep;

#define VGD_KREQ_MAX (sizeof(vgd_kreq) + VG_PROTO_MAX_DATA)
#define VGD_KREP_MAX (sizeof(vgd_krep) + VGD_RESULT_MAX)

/* ---- limits the supervisor, the front and the keyholders share ---- */
/* Keyholder slots: processes per key-set generation (the most the
 * `keyholders` setting gets). */
#define VGD_KH_MAX 256
/* Keyholder processes alive at once: the current generation plus older
 * ones finishing their jobs after reloads. The supervisor tracks this many
 * processes; the front keeps this many channels (live and retiring): past
 * it, a replaced keyholder is dropped (its jobs retried elsewhere) instead
 * of retiring. */
#define VGD_KH_PROCS_MAX (4 * VGD_KH_MAX)
/* Jobs the front keeps outstanding per keyholder, which is also the size
 * of its rings (khring.h): enough queued work (3 ms of
 * RSA-2048) that a busy keyholder does not run dry while the front, which
 * does not preempt it (SCHED_BATCH, see supervisor_spawn.c), waits for a
 * CPU. */
#define VGD_KH_DEPTH 16
/* A keyholder holds finished replies while more requests of its batch run,
 * at most this long: one doorbell (one wake-up of the front) for a run of
 * short operations, while a long one (RSA) is answered as soon as it is
 * done and does not delay the replies before it. */
#define VGD_KH_HOLD_US 50
/* The supervisor's send buffer on the control channel: a reload sends the
 * whole key set (a vgd_ctl per key) before the front reads any of it. */
#define VGD_CTL_SOCKBUF (4 << 20)
/* Control messages the supervisor holds for a front that does not read
 * them (its socket is non-blocking: it never waits for a child). Room for
 * a reload with every key and keyholder twice over; past it messages are
 * dropped and counted, and the front, which has missed state, is
 * restarted. */
#define VGD_CTL_QUEUE_MAX (2 * (VGD_MAX_KEYS + VGD_KH_MAX + 8))
/* Messages the supervisor reads from one child's channel per wake-up: a
 * child that floods its channel cannot keep the supervisor from its other
 * work. */
#define VGD_SUP_READ_BUDGET 64
/* A keyholder waiting for requests wakes this often to answer the
 * supervisor's pings and to see whether the front has gone (its filter
 * allows no poll: it waits on its ring's futex with this timeout). */
#define VGD_KH_PING_POLL_MS 200

/* Supervisor <-> front control messages. */
enum vgd_ctl_type {
	VGD_CTL_KH_ATTACH = 1, /* + SCM_RIGHTS fd: a keyholder's channel */
	VGD_CTL_KEYS_BEGIN,    /* a new key set follows */
	VGD_CTL_KEYINFO,       /* one key's public description */
	VGD_CTL_KEYS_END,      /* the key set is complete: switch to it */
	VGD_CTL_COUNTERS,      /* supervisor counters for stats */
	VGD_CTL_DRAIN,         /* stop accepting, finish in-flight, exit */
	VGD_CTL_READY,         /* front -> supervisor: accepting (a vgd_supmsg) */
	VGD_CTL_LIMITS,        /* reloaded limits (vgd_limits) */
	VGD_CTL_PING,          /* liveness: answer with a PONG carrying seq */
	VGD_CTL_KH_RING,       /* + SCM_RIGHTS fd: the ring (khring.h) of the
				* keyholder whose KH_ATTACH follows */
	VGD_CTL_UIDNAME,       /* index: a uid, info.name: its user name (acct.h) */
};

/* What a child sends the supervisor on its own channel (the front on its
 * control channel, a keyholder on its supervisor channel): small, fixed,
 * and believed only as far as the channel it came on names the child. */
enum vgd_sup_type {
	VGD_SUP_READY = VGD_CTL_READY, /* front: accepting */
	VGD_SUP_PONG = 20,             /* answer to VGD_CTL_PING (seq) */
	VGD_SUP_VIOLATION,             /* the SIGSYS handler: nr is the system call */
};

typedef struct {
	uint32_t type; /* enum vgd_sup_type (supervisor -> keyholder: VGD_CTL_PING) */
	uint32_t seq;  /* PING / PONG */
	int32_t nr;    /* VIOLATION */
	uint32_t pad;
} vgd_supmsg;

/* The limits a reload may change without a restart. (max_connections is
 * not here: the front's RLIMIT_NOFILE is fixed when it starts.) */
typedef struct {
	int32_t max_inflight;
	int32_t max_queue;
	int32_t idle_timeout_ms;
	int32_t frame_timeout_ms;
	int32_t drain_timeout_ms;
	int32_t log_level;
	int32_t busy_poll_us;
	int32_t job_timeout_ms;       /* a keyholder silent this long with jobs is hung */
	int32_t max_conns_per_uid;    /* connections one uid may hold */
	int32_t max_inflight_per_uid; /* requests one uid may have in flight */
	int32_t follow_clients;       /* 1: the front follows CLIENT_CPU hints */
	uint32_t n_csr_uids;          /* csr_uids: who may ask for ALG csr */
	uint32_t csr_uids[VGD_MAX_ACL];
} vgd_limits;

typedef struct {
	uint32_t type;
	uint32_t index;      /* KH_ATTACH: keyholder slot */
	uint32_t generation; /* KH_ATTACH / KEYS_BEGIN: key set generation */
	uint32_t count;      /* KEYS_BEGIN: number of keys */
	uint32_t seq;        /* PING */
	uint64_t restarts;   /* COUNTERS: keyholders restarted */
	uint64_t violations; /* COUNTERS: children that died of a sandbox violation */
	uint64_t front_restarts; /* COUNTERS */
	uint64_t hung;           /* COUNTERS: children killed for missing a ping's deadline */
	uint64_t dropped;        /* COUNTERS: child messages and control messages dropped */
	vgd_keyinfo info;    /* KEYINFO */
	vgd_limits limits;   /* LIMITS */
} vgd_ctl;

#endif
