/* front_direct.c: the front's part in direct slots (direct.h): granting a
 * slot to a connection that asks in its hello, binding it to the
 * connection's uid and gid for good, passing its descriptor, and taking
 * the lease back when the connection ends. The front never maps a slot;
 * it writes only vgd's own directory. Nothing here is secret. */
#include "front_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vg/proto_tables.h"

#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

int vgd_front_direct_init(front *f, const vgd_direct *d, int n)
{
	f->direct = d;
	f->ndirect = d ? n : 0;
	if (f->ndirect == 0)
		return 0;
	f->dheld = calloc((size_t)f->ndirect, sizeof(*f->dheld));
	f->dseen = calloc((size_t)f->ndirect, sizeof(*f->dseen));
	f->useen = calloc((size_t)f->ndirect, sizeof(*f->useen));
	if (!f->dheld || !f->dseen || !f->useen)
		return -1;
	/* An earlier front's connections are gone: their leases end here
	 * (a client that kept its mapping gets "not leased" and goes back to
	 * the socket). */
	for (int k = 0; k < f->ndirect; k++)
		for (int i = 0; i < d[k].nslots; i++) {
			STORE(&d[k].dir->slot[i].lease, 0);
			f->dseen[k][i][0] = d[k].dir->served[i];
			f->dseen[k][i][1] = d[k].dir->denied[i];
			f->dseen[k][i][2] = d[k].dir->unknown[i];
		}
	for (int k = 0; k < f->ndirect; k++)
		for (int u = 0; u < VGD_DUSE; u++) {
			for (int o = 0; o < VGD_ACCT_OUTCOMES; o++)
				f->useen[k][u][o] = d[k].dir->use[u].n[o];
		}
	f->lease_next = vgd_now_us() << 16;
	return 0;
}

/* The first free slot that uid/gid may have (pass 0: bound to it; pass
 * 1: bound to nobody yet), starting at keyholder start and looking at
 * count keyholders: 0 and *k, *i, or -1. */
static int find_free(const front *f, const conn *c, int pass, int start, int count, int *k,
		     int *i)
{
	for (int n = 0; n < count; n++) {
		int kk = (start + n) % f->ndirect;
		const vgd_direct *d = &f->direct[kk];
		for (int j = 0; j < d->nslots; j++) {
			const vgd_dslot_owner *o = &d->dir->slot[j];
			if (f->dheld[kk][j])
				continue;
			int fits = pass == 0 ? o->bound && o->uid == (uint32_t)c->uid &&
						       o->gid == (uint32_t)c->gid
					     : !o->bound;
			if (fits) {
				*k = kk;
				*i = j;
				return 0;
			}
		}
	}
	return -1;
}

int vgd_front_direct_grant(front *f, conn *c, int cpu, uint64_t *lease, int *fd)
{
	if (f->ndirect == 0)
		return -1;
	if (c->has_direct) /* a second hello: the same slot */
		vgd_front_direct_release(f, c);
	int k, i, start = (int)(f->direct_rr++ % (unsigned)f->ndirect), here = -1;
	/* A client that says where it runs gets, if one is free, a slot of
	 * the keyholder pinned to that CPU: its request then stays on its
	 * CPU (it yields while it spins, the keyholder runs: two context
	 * switches) instead of waking another, possibly idle, CPU for each
	 * request. Otherwise any keyholder's, round robin. */
	for (int kk = 0; cpu >= 0 && kk < f->ndirect && here < 0; kk++)
		if (f->kh_cpu[kk] == cpu)
			here = kk;
	if ((here < 0 || (find_free(f, c, 0, here, 1, &k, &i) < 0 &&
			  find_free(f, c, 1, here, 1, &k, &i) < 0)) &&
	    find_free(f, c, 0, start, f->ndirect, &k, &i) < 0 &&
	    find_free(f, c, 1, start, f->ndirect, &k, &i) < 0)
		return -1;
	vgd_dslot_owner *o = &f->direct[k].dir->slot[i];
	if (!o->bound) {
		/* Bound for good: a mapping cannot be taken back. */
		o->uid = (uint32_t)c->uid;
		o->gid = (uint32_t)c->gid;
		STORE(&o->bound, 1);
	}
	uint64_t l = ++f->lease_next;
	STORE(&o->lease, l);
	f->dheld[k][i] = c;
	c->has_direct = 1;
	c->dk = k;
	c->di = i;
	*lease = l;
	*fd = f->direct[k].slot_fd[i];
	return 0;
}

void vgd_front_direct_release(front *f, conn *c)
{
	if (!c->has_direct)
		return;
	STORE(&f->direct[c->dk].dir->slot[c->di].lease, 0);
	f->dheld[c->dk][c->di] = NULL;
	c->has_direct = 0;
}

int vgd_front_direct_send(conn *c, const uint8_t *frame, long n, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof(u));
	struct iovec iov = {(void *)frame, (size_t)n};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	ssize_t w;
	do
		w = sendmsg(c->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w <= 0)
		return -1;
	if (w < n)
		vgd_front_conn_send(c, frame + w, n - w);
	return 0;
}

/* The refusals the keyholder of k queued, logged as the front logs its
 * own (front_ops.c), rate limits included. */
static void log_denials(front *f, int k)
{
	vgd_ddir *dir = f->direct[k].dir;
	uint32_t tail = dir->deny_tail, head = __atomic_load_n(&dir->deny_head, __ATOMIC_SEQ_CST);
	if (head - tail > VGD_DENY_RING)
		tail = head - VGD_DENY_RING; /* not the keyholder's to break */
	for (; tail != head; tail++) {
		vgd_deny e = dir->deny[tail % VGD_DENY_RING];
		e.key[VG_PROTO_MAX_KEY_NAME] = 0;
		e.why[sizeof(e.why) - 1] = 0;
		const vgd_dslot_owner *o = &dir->slot[e.slot % VGD_DIRECT_MAX];
		conn *c = f->dheld[k][e.slot % VGD_DIRECT_MAX];
		int pid = c ? (int)c->pid : 0;
		/* A name a client wrote: logged only if it is a key name. */
		int named = vg_key_name_ok((const uint8_t *)e.key, strlen(e.key));
		const char *key = named ? e.key : "(not a key name)";
		if (e.status == VG_ST_NOT_ALLOWED) {
			vgd_front_log(f, VGD_LK_DENIED, "denied: uid %u pid %d, key '%s': %s (direct slot)",
				      (unsigned)o->uid, pid, key, e.why);
			continue;
		}
		int exists = 0;
		for (size_t i = 0; i < f->nkeys && !exists; i++)
			exists = strcmp(f->keys[i].name, e.key) == 0;
		vgd_front_log(f, VGD_LK_DENIED, "denied: uid %u gid %u pid %d %s key '%s' (%s, direct slot)",
			      (unsigned)o->uid, (unsigned)o->gid, pid,
			      exists ? "may not use" : "asked for unknown", key, vg_op_name(e.op));
	}
	__atomic_store_n(&dir->deny_tail, tail, __ATOMIC_SEQ_CST);
}

/* The uses counted through k's slots since the last look, into the
 * front's use table (acct.h) as if the front had seen them: the slot's
 * uid, its connection's pid, the key by name in the current set (a name
 * that is no key, as on the socket, is not counted). */
static void take_uses(front *f, int k)
{
	vgd_ddir *dir = f->direct[k].dir;
	uint64_t wall = 0;
	for (int u = 0; u < VGD_DUSE; u++) {
		vgd_duse *e = &dir->use[u];
		if (!__atomic_load_n(&e->used, __ATOMIC_SEQ_CST))
			continue;
		uint64_t now[VGD_ACCT_OUTCOMES];
		for (int o = 0; o < VGD_ACCT_OUTCOMES; o++)
			now[o] = __atomic_load_n(&e->n[o], __ATOMIC_SEQ_CST);
		uint64_t *seen = f->useen[k][u];
		if (memcmp(now, seen, sizeof(now)) == 0)
			continue;
		char key[VG_PROTO_MAX_KEY_NAME + 1];
		memcpy(key, e->key, sizeof(key));
		key[VG_PROTO_MAX_KEY_NAME] = 0;
		size_t ki = 0;
		while (ki < f->nkeys && strcmp(f->keys[ki].name, key) != 0)
			ki++;
		uint32_t slot = e->slot % VGD_DIRECT_MAX;
		const conn *c = f->dheld[k][slot];
		if (!wall)
			wall = vgd_acct_wall_ms();
		for (int o = 0; o < VGD_ACCT_OUTCOMES; o++) {
			/* A count can only grow; one that did not is not ours
			 * to believe. */
			uint64_t n = now[o] > seen[o] ? now[o] - seen[o] : 0;
			for (; ki < f->nkeys && n > 0; n--)
				vgd_acct_note(&f->acct, (uint32_t)ki, dir->slot[slot].uid,
					      c ? (uint32_t)c->pid : 0, (enum vgd_acct_outcome)o, wall);
			seen[o] = now[o];
		}
	}
}

void vgd_front_direct_sync(front *f, uint64_t now_ms)
{
	for (int k = 0; k < f->ndirect; k++) {
		vgd_ddir *dir = f->direct[k].dir;
		for (int i = 0; i < f->direct[k].nslots; i++) {
			uint64_t *seen = f->dseen[k][i];
			uint64_t served = __atomic_load_n(&dir->served[i], __ATOMIC_RELAXED);
			uint64_t denied = __atomic_load_n(&dir->denied[i], __ATOMIC_RELAXED);
			uint64_t unknown = __atomic_load_n(&dir->unknown[i], __ATOMIC_RELAXED);
			conn *c = f->dheld[k][i];
			if (served != seen[0] && c)
				c->last_active_ms = now_ms;
			f->stats.denied += denied - seen[1];
			f->stats.unknown_key += unknown - seen[2];
			seen[0] = served;
			seen[1] = denied;
			seen[2] = unknown;
		}
		log_denials(f, k);
		take_uses(f, k);
	}
}

uint64_t vgd_front_direct_count(const front *f, int op, int errors)
{
	uint64_t v = 0;
	for (int k = 0; k < f->ndirect; k++)
		v += errors ? f->direct[k].dir->errors[op] : f->direct[k].dir->count[op];
	return v;
}

void vgd_front_direct_totals(const front *f, uint64_t *held, uint64_t *refused,
			     uint64_t *poisoned)
{
	*held = *refused = *poisoned = 0;
	for (int k = 0; k < f->ndirect; k++) {
		const vgd_direct *d = &f->direct[k];
		for (int i = 0; i < d->nslots; i++)
			*held += f->dheld[k][i] != NULL;
		*refused += d->dir->refused;
		*poisoned += d->dir->poisoned;
	}
}
