/* direct.h: direct slots (vg/direct.h, PROTOCOL.md 6.11) on vgd's side.
 *
 * Per keyholder index, the supervisor makes at start one directory and
 * `direct_slots` slots, each a sealed memfd (no shrinking or growing, so a
 * client cannot pull a page from under a keyholder), and keeps them for
 * the daemon's life: a restarted or reloaded keyholder maps the same ones,
 * so a request in a slot outlives the keyholder that took it.
 *
 * The directory is vgd's own (never given to a client): the front writes
 * which uid/gid a slot is bound to and the lease of the connection that
 * holds it; the keyholder reads them (its own copy) for every request, and
 * runs the request as that uid. A slot once bound to a uid is only ever
 * given to that uid again, since a client can keep its mapping after its
 * connection ends: all it can do with it then is what it could do anyway.
 *
 * Which keyholder serves a directory's slots: the supervisor names the
 * process it wants (want, its pid); the keyholder that holds owner gives
 * it up when want names another, after answering what it took, and the
 * supervisor clears owner when it reaps its holder. A keyholder that
 * takes owner over looks for a request its predecessor took and did not
 * answer: it runs it once more, and answers INTERNAL if that one died on
 * it too. So every published request is answered exactly once.
 * Nothing here is secret. */
#ifndef VGD_DIRECT_H
#define VGD_DIRECT_H

#include <stdint.h>

#include "vg/direct.h"
#include "vg/proto.h"

/* Most slots per keyholder: the keyholder waits on all of them and its
 * ring with one futex_waitv, which takes 128 words at most. */
#define VGD_DIRECT_MAX 64

typedef struct {
	uint32_t bound;   /* 1 once given to uid/gid: for good */
	uint32_t uid, gid;
	uint32_t retried; /* a req_seq run again after a keyholder died on it */
	uint64_t lease;   /* the holding connection's lease; 0: none */
} vgd_dslot_owner;

/* A refusal the front logs as it logs its own (the keyholder's words). */
#define VGD_DENY_RING 64
typedef struct {
	uint32_t slot;
	uint8_t op, status; /* VG_ST_NOT_ALLOWED or VG_ST_UNKNOWN_KEY */
	char key[VG_PROTO_MAX_KEY_NAME + 1];  /* as the client wrote it: checked before it is logged */
	char why[VG_DIRECT_REASON_LEN];
} vgd_deny;

/* Uses of a key through a slot, counted by the serving keyholder per
 * (slot, key name) so that the front's use table (acct.h) sees direct
 * requests too; the front takes the differences in. Counts only grow. */
#define VGD_DUSE 256
typedef struct {
	uint32_t used; /* 1 once the entry is a (slot, key) pair's */
	uint32_t slot;
	char key[VG_PROTO_MAX_KEY_NAME + 1];
	uint64_t n[3]; /* uses by outcome: enum vgd_acct_outcome (acct.h) */
} vgd_duse;

typedef struct {
	_Alignas(64) uint32_t want;  /* supervisor: the pid that should serve */
	_Alignas(64) uint32_t owner; /* the pid serving now, 0: none */
	_Alignas(64) vgd_dslot_owner slot[VGD_DIRECT_MAX];
	/* The serving keyholder's counts, for the front's stats. */
	_Alignas(64) uint64_t count[VG_OP_MAX + 1];
	uint64_t errors[VG_OP_MAX + 1];
	uint64_t poisoned; /* requests answered INTERNAL: their keyholder died twice */
	uint64_t refused;  /* requests with a stale lease or an invalid record */
	/* Per slot, for the front: requests answered (its connection is not
	 * idle while they come), refused by a policy (NOT_ALLOWED) and for a
	 * key the slot's uid may not use or that does not exist (UNKNOWN_KEY):
	 * the front counts and logs those as it does its own. */
	uint64_t served[VGD_DIRECT_MAX];
	uint64_t denied[VGD_DIRECT_MAX];
	uint64_t unknown[VGD_DIRECT_MAX];
	/* Refusals to log, written by the serving keyholder (head), taken by
	 * the front (tail); a full ring drops the newest, as a rate limit. */
	_Alignas(64) uint32_t deny_head;
	_Alignas(64) uint32_t deny_tail;
	vgd_deny deny[VGD_DENY_RING];
	vgd_duse use[VGD_DUSE];
	uint64_t use_overflowed; /* uses of pairs past VGD_DUSE (not in the table) */
} vgd_ddir;

#define VGD_DDIR_SIZE (((sizeof(vgd_ddir) + 4095) / 4096) * 4096)

/* One keyholder index's region: the supervisor's and the front's
 * descriptors, and whoever maps them. */
typedef struct {
	int nslots;
	int dir_fd;
	int slot_fd[VGD_DIRECT_MAX];
	vgd_ddir *dir;
	vg_direct_slot *slot[VGD_DIRECT_MAX];
} vgd_direct;

/* The supervisor: a region of n slots (descriptors only, unmapped) for
 * keyholder slot index, whose number the memfds' name carries; 0, or -1
 * with nothing left open. */
int vgd_direct_create(vgd_direct *d, int n, int index);
/* Map the directory (and, with slots, every slot); 0 or -1. */
int vgd_direct_map(vgd_direct *d, int slots);
void vgd_direct_unmap(vgd_direct *d);
/* Unmap the directory only (a keyholder drops the supervisor's mapping
 * it inherited, having made its own). */
void vgd_direct_unmap_dir_only(vgd_direct *d);
/* Close the descriptors (after mapping, in a keyholder). */
void vgd_direct_close_fds(vgd_direct *d);

/* Shared futexes (the pages are mapped by several processes). */
void vgd_direct_wake(uint32_t *word);
/* Wait until *word differs from seen, up to timeout_ms. */
void vgd_direct_wait(uint32_t *word, uint32_t seen, int timeout_ms);

#endif
