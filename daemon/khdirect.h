/* khdirect.h: a keyholder's side of its direct slots (direct.h): taking
 * requests out of the slots it serves, answering into them, handing the
 * slots over to the next keyholder of its index, and the words it sleeps
 * on. Slots hold client-written bytes: each request is copied into the
 * keyholder's memory (as a vgd_kreq record, like the ring's) before any of
 * its fields is looked at, and its uid and gid are the slot's binding,
 * read from vgd's own directory. */
#ifndef VGD_KHDIRECT_H
#define VGD_KHDIRECT_H

#include <linux/futex.h>
#include <stddef.h>
#include <stdint.h>

#include "direct.h"
#include "record.h"

/* A record's job id: the ring's jobs are the front's serials (below 2^63);
 * a direct request's is this bit, its slot and its req_seq. */
#define VGD_JOB_DIRECT (1ull << 63)

typedef struct {
	vgd_direct *d; /* NULL: this keyholder serves no direct slots */
	uint32_t self; /* its pid, as the supervisor knows it */
	int owner;     /* 1 while it serves the slots */
	uint32_t want_seen, owner_seen;
	uint32_t seen[VGD_DIRECT_MAX];  /* each slot's req_seq last taken */
	uint64_t lease[VGD_DIRECT_MAX]; /* and that request's lease */
	uint8_t op[VGD_DIRECT_MAX];     /* and operation, for the counts */
	char key[VGD_DIRECT_MAX][VG_PROTO_MAX_KEY_NAME + 1]; /* and key, for the log */
} vgd_khdirect;

void vgd_khdirect_init(vgd_khdirect *k, vgd_direct *d, uint32_t self);
/* Take the slots over, or hand them over, as want and owner say; with
 * nothing of the slots' in progress (between passes). */
void vgd_khdirect_claim(vgd_khdirect *k);
/* Give the slots up (the keyholder is leaving; everything taken is
 * answered). */
void vgd_khdirect_release(vgd_khdirect *k);
/* Copy up to room newly published requests into in[] as records (one per
 * slot at most: a client that publishes all the time gets its turn like
 * the others). A request that cannot become a record (a stale lease, a
 * length out of bounds) is answered here. Returns how many. */
int vgd_khdirect_take(vgd_khdirect *k, uint8_t in[][VGD_KREQ_MAX], size_t len[], int room);
/* Answer the direct job rep->job with rep and its result. */
void vgd_khdirect_reply(vgd_khdirect *k, const vgd_krep *rep, const uint8_t *result);
/* Answer a record (already taken) with a status and reason only. */
void vgd_khdirect_refuse(vgd_khdirect *k, uint64_t job, int status, const char *why);
/* Before sleeping: mark it in the served slots (their clients then wake
 * it), and say whether a request came meanwhile (then do not sleep). */
int vgd_khdirect_sleep_begin(vgd_khdirect *k);
void vgd_khdirect_sleep_end(vgd_khdirect *k);
/* The words to sleep on besides the ring's: want, owner and each served
 * slot's req_seq. Returns how many it put in w (at most max). */
int vgd_khdirect_waitv(const vgd_khdirect *k, struct futex_waitv *w, int max);

#endif
