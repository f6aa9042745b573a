/* front_uid.c: the front's per-uid accounting and queues (see
 * front_internal.h):
 * how many connections and requests in flight each client uid has, so
 * one caller cannot starve the others (max_connections_per_uid refuses
 * its next connection, and the last places are kept for uids holding
 * few; max_inflight_per_uid pauses reading its
 * connections until its requests are answered, as max_inflight does for
 * one connection), and each uid's queue of jobs waiting for a keyholder,
 * served by deficit round robin weighted by each job's cost: a uid that
 * floods with RSA-4096 gets a keyholder's worth of work per turn like
 * every other uid, so a cheap request is never behind a queue of
 * expensive ones from someone else. A leaf below front_conn.c, except that a uid falling
 * under its limit asks front_conn.c to resume its connections. Holds no
 * key material; uids are SO_PEERCRED's. */
#include "front_internal.h"

#include <stdlib.h>

struct uidacct {
	uidacct *next; /* hash chain */
	uid_t uid;
	unsigned nconns;   /* open connections (not yet closed) */
	unsigned inflight; /* key requests not yet answered, closed connections' too */
	conn *conns;       /* its connections, open or closed with jobs out */
	/* Its jobs waiting for a keyholder, oldest first, and its place in
	 * the round robin while it has any (front.fair_cur's ring). */
	jobq q;
	uint64_t deficit; /* work it may still send in its current turn */
	uidacct *ring_next, *ring_prev;
};

static unsigned bucket(uid_t uid) { return (unsigned)(uid * 2654435761u) % VGD_UID_BUCKETS; }

static uidacct *find(front *f, uid_t uid)
{
	for (uidacct *a = f->uids[bucket(uid)]; a; a = a->next)
		if (a->uid == uid)
			return a;
	return NULL;
}

/* Whether uid may open another connection (max_connections itself is
 * the caller's check): below its share (max_connections_per_uid), and,
 * for the last max_connections/16 places, only while it holds few
 * (fewer than one eighth of those places, plus one). So the uids that
 * filled the rest cannot take the places another uid needs: with the
 * defaults (1024, 256 per uid), four uids at their share leave 64 places
 * to uids holding fewer than 9. Below 16 connections nothing is kept. */
int vgd_front_uid_may_connect(front *f, uid_t uid)
{
	uidacct *a = find(f, uid);
	unsigned held = a ? a->nconns : 0;
	size_t max = (size_t)f->cfg->max_connections;
	size_t reserve = max / 16;
	if (held >= (unsigned)f->lim.max_conns_per_uid)
		return 0;
	if (f->nconns + reserve >= max && held >= reserve / 8 + 1)
		return 0;
	return 1;
}

int vgd_front_uid_attach(front *f, conn *c)
{
	uidacct *a = find(f, c->uid);
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return -1;
		a->uid = c->uid;
		unsigned b = bucket(c->uid);
		a->next = f->uids[b];
		f->uids[b] = a;
	}
	a->nconns++;
	c->ua = a;
	c->uid_next = a->conns;
	c->uid_prev = NULL;
	if (a->conns)
		a->conns->uid_prev = c;
	a->conns = c;
	return 0;
}

static void maybe_free(front *f, uidacct *a)
{
	if (a->nconns || a->inflight || a->conns || a->q.len)
		return;
	uidacct **p = &f->uids[bucket(a->uid)];
	while (*p != a)
		p = &(*p)->next;
	*p = a->next;
	free(a);
}

void vgd_front_uid_closed(front *f, conn *c)
{
	if (c->ua)
		c->ua->nconns--;
	(void)f;
}

void vgd_front_uid_detach(front *f, conn *c)
{
	uidacct *a = c->ua;
	if (!a)
		return;
	if (c->uid_prev)
		c->uid_prev->uid_next = c->uid_next;
	else
		a->conns = c->uid_next;
	if (c->uid_next)
		c->uid_next->uid_prev = c->uid_prev;
	c->uid_next = c->uid_prev = NULL;
	c->ua = NULL;
	maybe_free(f, a);
}

int vgd_front_uid_full(const front *f, const conn *c)
{
	return c->ua && c->ua->inflight >= (unsigned)f->lim.max_inflight_per_uid;
}

void vgd_front_uid_add(conn *c, unsigned n)
{
	if (c->ua)
		c->ua->inflight += n;
}

/* n of c's requests are answered (or dropped). If its uid drops below its
 * limit, its paused connections may read on. */
void vgd_front_uid_done(front *f, conn *c, unsigned n)
{
	uidacct *a = c->ua;
	if (!a || n == 0)
		return;
	int was_full = a->inflight >= (unsigned)f->lim.max_inflight_per_uid;
	a->inflight -= n;
	if (was_full && a->inflight < (unsigned)f->lim.max_inflight_per_uid)
		for (conn *o = a->conns; o; o = o->uid_next)
			vgd_front_conn_maybe_resume(f, o);
}

/* New limits: every uid's paused connections may read on. */
void vgd_front_uid_resume_all(front *f)
{
	for (unsigned b = 0; b < VGD_UID_BUCKETS; b++)
		for (uidacct *a = f->uids[b]; a; a = a->next)
			for (conn *o = a->conns; o; o = o->uid_next)
				vgd_front_conn_maybe_resume(f, o);
}

/* ---- the uids' queues: deficit round robin ---- */
/* The ring holds the uids with queued jobs; fair_cur is the one whose
 * turn it is. A turn adds VGD_FAIR_QUANTUM to its deficit; it sends jobs
 * while its oldest costs no more than the deficit, then the turn passes.
 * A uid that leaves the ring (its queue empty) loses what it had left, so
 * idling earns nothing. */
static void ring_add(front *f, uidacct *a)
{
	if (!f->fair_cur) {
		a->ring_next = a->ring_prev = a;
		f->fair_cur = a;
		f->fair_fresh = 1;
	} else { /* last in the round: just before the current one */
		uidacct *cur = f->fair_cur;
		a->ring_next = cur;
		a->ring_prev = cur->ring_prev;
		cur->ring_prev->ring_next = a;
		cur->ring_prev = a;
	}
	f->nfair_uids++;
}

static void ring_remove(front *f, uidacct *a)
{
	if (a->ring_next == a) {
		f->fair_cur = NULL;
	} else {
		a->ring_prev->ring_next = a->ring_next;
		a->ring_next->ring_prev = a->ring_prev;
		if (f->fair_cur == a) {
			f->fair_cur = a->ring_next;
			f->fair_fresh = 1;
		}
	}
	a->ring_next = a->ring_prev = NULL;
	a->deficit = 0;
	f->nfair_uids--;
}

static void turn_passes(front *f)
{
	f->fair_cur = f->fair_cur->ring_next;
	f->fair_fresh = 1;
}

/* A new job, at the tail of its uid's queue. */
void vgd_front_fair_push(front *f, job *j)
{
	uidacct *a = j->c->ua;
	vgd_front_q_push_tail(&a->q, j);
	f->nfair++;
	if (a->q.len == 1)
		ring_add(f, a);
}

/* The job to send next, left queued (vgd_front_fair_take sends it), or
 * NULL. room: the most work a keyholder can take now (VGD_ROOM_ANY: one
 * is idle); a uid whose oldest job costs more waits without losing its
 * turn's deficit, and the others go on. */
job *vgd_front_fair_next(front *f, uint32_t room)
{
	unsigned blocked = 0;
	while (f->fair_cur) {
		uidacct *a = f->fair_cur;
		job *h = a->q.head;
		if (room != VGD_ROOM_ANY && h->cost > room) {
			if (++blocked >= f->nfair_uids)
				return NULL; /* nobody's oldest fits anywhere */
			turn_passes(f);
			continue;
		}
		blocked = 0;
		if (f->fair_fresh) {
			a->deficit += VGD_FAIR_QUANTUM;
			f->fair_fresh = 0;
		}
		if (h->cost <= a->deficit)
			return h;
		turn_passes(f);
	}
	return NULL;
}

/* Off its uid's queue, without charging it (dropped, timed out). */
void vgd_front_fair_remove(front *f, job *j)
{
	uidacct *a = j->c->ua;
	vgd_front_q_remove(&a->q, j);
	f->nfair--;
	if (a->q.len == 0)
		ring_remove(f, a);
}

/* Off its uid's queue to a keyholder: its cost is charged to the turn. */
void vgd_front_fair_take(front *f, job *j)
{
	uidacct *a = j->c->ua;
	a->deficit = a->deficit > j->cost ? a->deficit - j->cost : 0;
	vgd_front_fair_remove(f, j);
}

/* A queued job that has waited more than max_ms (each uid's oldest is its
 * longest waiting), or NULL. */
job *vgd_front_fair_expired(front *f, uint64_t now_ms, uint64_t max_ms)
{
	uidacct *a = f->fair_cur;
	for (unsigned i = 0; a && i < f->nfair_uids; i++, a = a->ring_next)
		if (vgd_ms_since(now_ms, a->q.head->t_queued_ms) > max_ms)
			return a->q.head;
	return NULL;
}

job *vgd_front_fair_any(front *f)
{
	return f->fair_cur ? f->fair_cur->q.head : NULL;
}

/* Drop and free the queued jobs of a closed connection; how many. */
unsigned vgd_front_fair_drop_owner(front *f, const conn *c)
{
	uidacct *a = c->ua;
	if (!a || a->q.len == 0)
		return 0;
	unsigned n = vgd_front_q_drop_owner(&a->q, &f->pool, c);
	f->nfair -= n;
	if (n && a->q.len == 0)
		ring_remove(f, a);
	return n;
}
