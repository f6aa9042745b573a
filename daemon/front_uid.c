/* front_uid.c: the front's per-uid accounting (see front_internal.h):
 * how many connections and requests in flight each client uid has, so
 * one caller cannot starve the others (max_connections_per_uid refuses
 * its next connection, and the last places are kept for uids holding
 * few; max_inflight_per_uid pauses reading its
 * connections until its requests are answered, as max_inflight does for
 * one connection). A leaf below front_conn.c, except that a uid falling
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
	if (a->nconns || a->inflight || a->conns)
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
