/* front_kh.c: the front's keyholder channels (see front_internal.h):
 * records out and in through the channel's rings (khring.h), the jobs
 * each channel holds, and the set of retiring channels. Holds no key material: records carry
 * inputs out and results back; every reply is checked before use. What a
 * reply says (checked there) and means for its request is
 * front_dispatch.c's.
 *
 * The job id a record carries is the job's serial shifted left by 8 with
 * its index in the channel's inflight[] below: a reply names its slot,
 * and the whole id must match that slot's job, so a stale or forged id
 * finds nothing. */
#include "front_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "vg/wipe.h"

_Static_assert(VGD_KH_DEPTH <= 32, "a channel's slots fit khchan.used");
_Static_assert(VGD_KH_DEPTH <= 256, "a slot index fits the low 8 bits of a job id");

static uint64_t wire_id(const job *j)
{
	return j->id << 8 | j->kh_index;
}

/* A channel for keyholder fd, with its ring mfd, in a live slot; its read
 * event (the doorbell, or the keyholder's end closing) calls on_readable
 * with the channel as argument. NULL on failure (fd and mfd are then
 * closed). */
khchan *vgd_front_kh_open(front *f, int slot, int fd, int mfd, event_callback_fn on_readable)
{
	khchan *k = calloc(1, sizeof(*k));
	vgd_khring *ring = mfd >= 0 ? vgd_khring_map(mfd) : NULL;
	if (mfd >= 0)
		close(mfd);
	if (k && ring)
		k->ev = event_new(f->base, fd, EV_READ | EV_PERSIST, on_readable, k);
	if (!k || !ring || !k->ev || event_add(k->ev, NULL) < 0) {
		vgd_err("cannot attach keyholder channel %d: %s", slot,
			mfd < 0 ? "no ring came with it" : !ring ? "cannot map its ring"
							     : "out of memory");
		if (k && k->ev)
			event_free(k->ev);
		vgd_khring_unmap(ring);
		free(k);
		close(fd);
		return NULL;
	}
	k->f = f;
	k->fd = fd;
	k->ring = ring;
	k->slot = slot;
	k->ri = -1;
	return k;
}

/* Closing the channel tells the keyholder to exit: the ring's closing
 * flag for one that is waiting, the socket's end for one that missed it.
 * Its jobs stay. */
void vgd_front_kh_close(khchan *k)
{
	if (k->ev) {
		event_free(k->ev);
		k->ev = NULL;
	}
	if (k->ring) {
		atomic_store(&k->ring->closing, 1);
		vgd_khring_wake(k->ring);
		vgd_khring_unmap(k->ring);
		k->ring = NULL;
	}
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/* Close and free a channel that holds no job any more. */
void vgd_front_kh_free(khchan *k)
{
	vgd_front_kh_close(k);
	free(k);
}

/* Move a live channel whose slot was taken by a newer keyholder to the
 * retiring set, where it finishes its jobs. -1 if the set is full (the
 * supervisor tracks no more keyholders either). */
int vgd_front_kh_retire(front *f, khchan *k)
{
	if (f->nkh + f->nretiring >= VGD_KH_PROCS_MAX)
		return -1;
	k->slot = -1;
	k->ri = f->nretiring;
	f->retiring[f->nretiring++] = k;
	return 0;
}

/* Take a channel out of the retiring set (it is done or lost). */
void vgd_front_kh_unretire(front *f, khchan *k)
{
	int last = --f->nretiring;
	f->retiring[k->ri] = f->retiring[last];
	f->retiring[k->ri]->ri = k->ri;
	f->retiring[last] = NULL;
	k->ri = -1;
}

/* ---- jobs on a channel ---- */
/* Assign j to k (the caller checked k->out.len < VGD_KH_DEPTH); it goes
 * out with the next vgd_front_kh_send(). */
void vgd_front_kh_assign(khchan *k, job *j)
{
	unsigned i = (unsigned)__builtin_ctz(~k->used);
	if (k->out.len == 0)
		k->progress_ms = vgd_now_ms(); /* its job_timeout starts now */
	k->used |= 1u << i;
	k->inflight[i] = j;
	j->kh_index = (uint8_t)i;
	vgd_front_q_push_tail(&k->out, j);
	k->unsent++;
}

void vgd_front_kh_unassign(khchan *k, job *j)
{
	k->used &= ~(1u << j->kh_index);
	k->inflight[j->kh_index] = NULL;
	vgd_front_q_remove(&k->out, j);
}

/* The job a reply's id names, taken off the channel; NULL if it names
 * none (the keyholder answered something it was not sent). */
job *vgd_front_kh_take(khchan *k, uint64_t id)
{
	unsigned i = (unsigned)(id & 0xff);
	if (i >= VGD_KH_DEPTH)
		return NULL;
	job *j = k->inflight[i];
	if (!j || wire_id(j) != id)
		return NULL;
	vgd_front_kh_unassign(k, j);
	k->full = 0;
	k->progress_ms = vgd_now_ms();
	return j;
}

/* ---- records ---- */
static void kreq_fill(vgd_kreq *h, const job *j)
{
	memset(h, 0, sizeof(*h));
	h->magic = VGD_KREQ_MAGIC;
	h->data_len = j->data_len;
	h->job = wire_id(j);
	h->uid = j->uid;
	h->gid = j->gid;
	memcpy(h->key, j->key, sizeof(h->key));
	h->op = j->op;
	h->alg = j->alg;
	h->role = j->role;
	h->fmt = j->sig_format;
}

/* Put the k->unsent jobs at the tail of k->out in the request ring and
 * publish them; wake the keyholder if it sleeps. Those the ring has no
 * room for (a keyholder that has not taken what it was given) go back to
 * the head of refused (the queue), in order, and the keyholder counts as
 * full until it answers. Returns -1 if the channel is closed. */
int vgd_front_kh_send(khchan *k, jobq *refused)
{
	job *js[VGD_KH_DEPTH];
	int n = k->unsent;
	k->unsent = 0;
	job *j = k->out.tail;
	for (int i = n - 1; i >= 0; i--, j = j->prev)
		js[i] = j;
	if (!k->ring)
		return -1;
	vgd_khring *r = k->ring;
	unsigned tail = atomic_load_explicit(&r->req_tail, memory_order_acquire);
	unsigned used = k->req_head - tail;
	unsigned room = used > VGD_KH_RING ? 0 : VGD_KH_RING - used;
	int sent = 0;
	for (; sent < n && (unsigned)sent < room; sent++) {
		vgd_khreq_slot *s = &r->req[k->req_head % VGD_KH_RING];
		kreq_fill((vgd_kreq *)s->rec, js[sent]);
		memcpy(s->rec + sizeof(vgd_kreq), js[sent]->data, js[sent]->data_len);
		s->len = (uint32_t)(sizeof(vgd_kreq) + js[sent]->data_len);
		k->req_head++;
	}
	if (sent > 0) {
		atomic_store(&r->req_head, k->req_head);
		/* Paired with the keyholder setting kh_asleep before its last
		 * look at req_head (keyholder.c): either it sees these
		 * requests or this sees it asleep and wakes it. */
		if (atomic_load(&r->kh_asleep))
			vgd_khring_wake(r);
	}
	for (int i = n - 1; i >= sent; i--) {
		vgd_front_kh_unassign(k, js[i]);
		vgd_front_q_push_head(refused, js[i]);
	}
	if (sent < n)
		k->full = 1;
	return 0;
}

/* The doorbell rang (or the socket closed): khring.c drains it and
 * re-arms it. -1 if the channel is closed or broken. */
int vgd_front_kh_doorbell(khchan *k)
{
	return k->ring ? vgd_khring_doorbell(k->ring, k->fd) : -1;
}

/* Copy the next published reply into rec, wipe its slot (an X25519
 * result is a shared secret) and free it. 1 with *len set, 0 if there is
 * none, -1 if the ring is broken (more replies than slots, or a length
 * out of bounds). The length is read once and bounded before the copy. */
int vgd_front_kh_next_reply(khchan *k, uint8_t rec[VGD_KREP_MAX], size_t *len)
{
	if (!k->ring)
		return -1;
	vgd_khring *r = k->ring;
	unsigned head = atomic_load_explicit(&r->rep_head, memory_order_acquire);
	if (head == k->rep_tail)
		return 0;
	if (head - k->rep_tail > VGD_KH_RING)
		return -1;
	vgd_khrep_slot *s = &r->rep[k->rep_tail % VGD_KH_RING];
	uint32_t l = *(volatile uint32_t *)&s->len;
	if (l > VGD_KREP_MAX)
		return -1;
	memcpy(rec, s->rec, l);
	vg_wipe(s->rec, l);
	*len = l;
	k->rep_tail++;
	atomic_store_explicit(&r->rep_tail, k->rep_tail, memory_order_release);
	return 1;
}
