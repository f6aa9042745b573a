/* front_dispatch.c: the front's jobs between the queue and the
 * keyholders (see front_internal.h): dispatch to an idle keyholder on the
 * front's CPU or else the least-loaded one, each reply checked and
 * matched to its job's answer, a lost keyholder's jobs back to the
 * queue, new keyholders attached and replaced ones retired. Holds no key
 * material: replies pass through to front_reply.c (an X25519 result is a
 * shared secret: the receive buffer is wiped once it is in its reply
 * frame). */
#include "front_internal.h"

#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"
#include "vg/wipe.h"

/* Take a channel out of the front: off its live slot or the retiring set,
 * then closed and freed. Its jobs must be gone. */
static void kh_drop(front *f, khchan *k)
{
	if (k->slot >= 0)
		f->kh[k->slot] = NULL;
	else
		vgd_front_kh_unretire(f, k);
	vgd_front_kh_free(k);
}

/* A keyholder is gone: its jobs go back to the head of the queue, in
 * order, as suspects (each is retried alone: vgd_front_pump), unless one
 * was already alone with a keyholder that died (MAX_ATTEMPTS): a poison
 * request, answered INTERNAL, counted and logged. The slot waits for the
 * supervisor's replacement. */
static void kh_lost(front *f, khchan *k)
{
	vgd_warn("keyholder channel closed with %zu request(s) in flight; retrying them",
		 k->out.len);
	vgd_front_kh_close(k);
	while (k->out.tail) {
		job *j = k->out.tail;
		vgd_front_kh_unassign(k, j);
		if (++j->attempts >= MAX_ATTEMPTS) {
			f->stats.poisoned++;
			vgd_front_log(f, VGD_LK_POISON,
				      "giving up on a request of uid %u pid %d (%s, key '%s'): "
				      "%d keyholders died with it",
				      (unsigned)j->uid, j->c ? (int)j->c->pid : -1,
				      vg_op_name(j->op), j->key, (int)j->attempts);
			vgd_front_job_finish(f, j, VG_ST_INTERNAL, NULL, 0,
					     vg_reason(VG_R_KEYHOLDER_CRASHED));
			continue;
		}
		f->stats.retries++;
		j->t_queued_ms = vgd_now_ms();
		vgd_front_q_push_head(&f->queue, j);
	}
	kh_drop(f, k);
	vgd_front_want_pump(f);
}

/* 1 if buf[0, n) is a well-formed reply record (*out then points at its
 * header), else 0. */
static int kh_valid_reply(const uint8_t *buf, size_t n, const vgd_krep **out)
{
	if (n < sizeof(vgd_krep))
		return 0;
	const vgd_krep *r = (const vgd_krep *)buf;
	if (r->magic != VGD_KREP_MAGIC || r->result_len > VGD_RESULT_MAX ||
	    n != sizeof(vgd_krep) + r->result_len || r->status > VG_ST_MAX ||
	    memchr(r->reason, 0, sizeof(r->reason)) == NULL)
		return 0;
	*out = r;
	return 1;
}

/* One reply: find its job and answer. Returns -1 if the record is
 * invalid (the channel is then dropped). */
static int kh_take_reply(front *f, khchan *k, const uint8_t *rec, size_t n)
{
	const vgd_krep *r;
	if (!kh_valid_reply(rec, n, &r)) {
		vgd_err("invalid record from a keyholder; dropping its channel");
		return -1;
	}
	job *j = vgd_front_kh_take(k, r->job);
	if (!j) {
		vgd_err("keyholder answered unknown job %llu", (unsigned long long)r->job);
		return 0;
	}
	vgd_front_job_finish(f, j, r->status, rec + sizeof(vgd_krep), r->result_len, r->reason);
	return 0;
}

/* The keyholder rang its doorbell (or its end closed): take every reply
 * in its ring. Each is copied out of the ring (and the slot wiped) before
 * it is checked, then wiped here once it is in its reply frame. */
static void kh_readable(evutil_socket_t fd, short what, void *arg)
{
	khchan *k = arg;
	front *f = k->f;
	(void)fd;
	(void)what;
	if (vgd_front_kh_doorbell(k) < 0) {
		kh_lost(f, k);
		return;
	}
	for (;;) {
		size_t len;
		int n = vgd_front_kh_next_reply(k, f->rec, &len);
		if (n == 0)
			break;
		int bad = n < 0 || kh_take_reply(f, k, f->rec, len) < 0;
		if (n > 0)
			vg_wipe(f->rec, len);
		if (bad) {
			if (n < 0)
				vgd_err("invalid reply ring from a keyholder; dropping its channel");
			kh_lost(f, k);
			return;
		}
	}
	if (k->slot < 0 && k->out.len == 0)
		kh_drop(f, k); /* retired: all answered */
	vgd_front_want_pump(f);
}

/* Whether k may take job j now: room, and suspects (jobs that were with
 * a keyholder that died) alone: one only to an idle keyholder, and
 * nothing beside it, so if it kills that keyholder too, it is the cause. */
static int kh_may_take(const khchan *k, const job *j)
{
	if (!k || k->full || k->out.len >= VGD_KH_DEPTH)
		return 0;
	if (k->out.len > 0 && (j->attempts > 0 || k->out.head->attempts > 0))
		return 0;
	return 1;
}

/* An idle live keyholder pinned to cpu, or NULL. */
static khchan *idle_on_cpu(front *f, int cpu)
{
	for (int i = 0; i < f->nkh; i++) {
		khchan *k = f->kh[i];
		if (k && f->kh_cpu[i] == cpu && k->out.len == 0 && !k->full)
			return k;
	}
	return NULL;
}

/* Work in flight on k (its jobs' costs). */
static uint32_t kh_cost(const khchan *k)
{
	uint32_t c = 0;
	for (const job *j = k->out.head; j; j = j->next)
		c += j->cost;
	return c;
}

/* Whether k, with cost in flight, may take j: kh_may_take, and within
 * VGD_KH_COST_MAX unless it has nothing in flight. */
static int kh_fits(const khchan *k, uint32_t cost, const job *j)
{
	return kh_may_take(k, j) && (cost == 0 || cost + j->cost <= VGD_KH_COST_MAX);
}

/* The most work any keyholder can take now (VGD_ROOM_ANY: one is idle). */
static uint32_t kh_room(front *f, const uint32_t *cost)
{
	uint32_t room = 0;
	for (int i = 0; i < f->nkh; i++) {
		khchan *k = f->kh[i];
		if (!k || k->full || k->out.len >= VGD_KH_DEPTH ||
		    (k->out.len > 0 && k->out.head->attempts > 0))
			continue;
		if (cost[i] == 0)
			return VGD_ROOM_ANY;
		if (cost[i] < VGD_KH_COST_MAX && VGD_KH_COST_MAX - cost[i] > room)
			room = VGD_KH_COST_MAX - cost[i];
	}
	return room;
}

/* Hand queued jobs to keyholders: retries first, in order, then the
 * uids' queues by deficit round robin (front_uid.c), each job to an idle
 * keyholder pinned to the CPU the front runs on, if there is one (its
 * wake-up is no inter-processor interrupt, and the keyholder's reply
 * wakes the front where it slept: daemon/DESIGN-cpu.md), else to the
 * live keyholder with the least work in flight, within VGD_KH_COST_MAX:
 * a keyholder takes its requests as one batch, so what matters to a cheap
 * request is the work ahead of it there, not how many jobs. Assign
 * first, then one publish per keyholder. sched_getcpu is the vDSO or
 * rseq's cpu_id: no system call on x86-64 Linux (getcpu is allowed for
 * other systems). */
void vgd_front_pump(front *f)
{
	int cpu = f->queue.head || f->nfair ? sched_getcpu() : -1;
	khchan *local = cpu >= 0 ? idle_on_cpu(f, cpu) : NULL;
	uint32_t cost[VGD_KH_MAX];
	for (int i = 0; i < f->nkh; i++)
		cost[i] = f->kh[i] ? kh_cost(f->kh[i]) : 0;
	int retry_blocked = 0;
	for (;;) {
		int retry = !retry_blocked && f->queue.head;
		job *j = retry ? f->queue.head : vgd_front_fair_next(f, kh_room(f, cost));
		if (!j)
			break;
		khchan *best = local && kh_fits(local, 0, j) ? local : NULL;
		int bi = best ? best->slot : -1;
		for (int i = 0; !best && i < f->nkh; i++) {
			khchan *k = f->kh[i];
			if (!kh_fits(k, cost[i], j))
				continue;
			if (bi < 0 || cost[i] < cost[bi] ||
			    (cost[i] == cost[bi] && k->out.len < f->kh[bi]->out.len))
				bi = i;
		}
		if (!best && bi >= 0)
			best = f->kh[bi];
		local = NULL;
		if (!best) {
			if (retry) { /* a suspect waits for an idle keyholder */
				retry_blocked = 1;
				continue;
			}
			break;
		}
		if (retry)
			vgd_front_q_remove(&f->queue, j);
		else
			vgd_front_fair_take(f, j);
		vgd_front_kh_assign(best, j);
		cost[bi] += j->cost;
		if (cpu >= 0 && best->slot >= 0 && f->kh_cpu[best->slot] == cpu)
			f->stats.dispatch_local++;
		else
			f->stats.dispatch_remote++;
	}
	/* Send every batch before handling a broken channel: kh_lost()
	 * must not find another keyholder's jobs assigned but unsent. */
	khchan *lost[VGD_KH_MAX];
	int nlost = 0;
	for (int i = 0; i < f->nkh; i++)
		if (f->kh[i] && f->kh[i]->unsent && vgd_front_kh_send(f->kh[i], &f->queue) < 0)
			lost[nlost++] = f->kh[i];
	for (int i = 0; i < nlost; i++)
		kh_lost(f, lost[i]); /* requeues; asks for another pump */
	vgd_front_sched_dispatched(f);
	if (f->queue.len + f->nfair > f->stats.queue_max)
		f->stats.queue_max = f->queue.len + f->nfair;
}

/* A keyholder for slot index. One that replaces a live keyholder (a
 * reload's new generation) lets the old one finish its jobs while
 * retiring. */
void vgd_front_kh_attach(front *f, int index, int fd, int mfd)
{
	if (index < 0 || index >= f->nkh) {
		close(fd);
		if (mfd >= 0)
			close(mfd);
		return;
	}
	khchan *old = f->kh[index];
	if (old) {
		if (old->out.len == 0)
			kh_drop(f, old); /* nothing to finish: it exits now */
		else if (vgd_front_kh_retire(f, old) < 0)
			kh_lost(f, old);
		else
			f->kh[index] = NULL;
	}
	f->kh[index] = vgd_front_kh_open(f, index, fd, mfd, kh_readable);
	vgd_front_want_pump(f);
}

/* Keyholders with jobs that have made no progress (no reply) for
 * job_timeout are hung: their jobs are retried on others now (each try
 * counts towards MAX_ATTEMPTS, so a request that hangs every keyholder
 * ends as INTERNAL), and the channel is closed, so the keyholder exits
 * when it runs again; the supervisor's ping restarts it sooner. A reply
 * that comes later goes nowhere. */
void vgd_front_kh_check_progress(front *f, uint64_t now_ms)
{
	for (int i = 0; i < f->nkh + f->nretiring; i++) {
		khchan *k = i < f->nkh ? f->kh[i] : f->retiring[i - f->nkh];
		if (!k || k->out.len == 0 ||
		    vgd_ms_since(now_ms, k->progress_ms) <= (uint64_t)f->lim.job_timeout_ms)
			continue;
		f->stats.keyholders_hung++;
		vgd_warn("keyholder %d answered nothing for %d ms with %zu request(s) in flight; "
			 "giving up on it",
			 k->slot, f->lim.job_timeout_ms, k->out.len);
		int retiring = k->slot < 0;
		kh_lost(f, k);
		if (retiring)
			i--; /* kh_lost moved the last retiring channel here */
	}
}

/* Drain deadline: every job with a keyholder gets its one answer now and
 * every channel closes (the keyholders' late answers go nowhere: the
 * front exits). */
void vgd_front_kh_fail_all(front *f, int status, const char *reason)
{
	for (int i = 0; i < f->nkh + f->nretiring; i++) {
		khchan *k = i < f->nkh ? f->kh[i] : f->retiring[i - f->nkh];
		if (!k)
			continue;
		vgd_front_kh_close(k);
		while (k->out.head) {
			job *j = k->out.head;
			vgd_front_kh_unassign(k, j);
			vgd_front_job_finish(f, j, status, NULL, 0, reason);
		}
	}
}
