/* front_kh.c: the front's keyholder channels (see front_internal.h):
 * records out (sendmmsg) and in (recvmmsg), the jobs each channel holds,
 * and the set of retiring channels. Holds no key material: records carry
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
#include <sys/uio.h>
#include <unistd.h>

#include "log.h"

_Static_assert(VGD_KH_DEPTH <= 32, "a channel's slots fit khchan.used");
_Static_assert(VGD_KH_DEPTH <= 256, "a slot index fits the low 8 bits of a job id");

static uint64_t wire_id(const job *j)
{
	return j->id << 8 | j->kh_index;
}

/* A channel for keyholder fd in a live slot; its read event calls
 * on_readable with the channel as argument. NULL if out of memory (fd is
 * then closed). */
khchan *vgd_front_kh_open(front *f, int slot, int fd, event_callback_fn on_readable)
{
	khchan *k = calloc(1, sizeof(*k));
	if (k)
		k->ev = event_new(f->base, fd, EV_READ | EV_PERSIST, on_readable, k);
	if (!k || !k->ev || event_add(k->ev, NULL) < 0) {
		vgd_err("cannot watch keyholder channel %d: out of memory", slot);
		if (k && k->ev)
			event_free(k->ev);
		free(k);
		close(fd);
		return NULL;
	}
	int sz = VGD_KH_SOCKBUF;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	k->f = f;
	k->fd = fd;
	k->slot = slot;
	k->ri = -1;
	return k;
}

/* Closing the channel tells the keyholder to exit. Its jobs stay. */
void vgd_front_kh_close(khchan *k)
{
	if (k->ev) {
		event_free(k->ev);
		k->ev = NULL;
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

/* Send the k->unsent jobs at the tail of k->out in one sendmmsg. Those
 * the socket refused go back to the head of refused (the queue), in
 * order, and the keyholder counts as full until it answers. Returns -1 if
 * the channel is broken (the refused jobs are already back). */
int vgd_front_kh_send(khchan *k, jobq *refused)
{
	vgd_kreq h[VGD_KH_DEPTH];
	struct iovec iov[VGD_KH_DEPTH][2];
	struct mmsghdr mm[VGD_KH_DEPTH];
	job *js[VGD_KH_DEPTH];
	int n = k->unsent;
	k->unsent = 0;
	job *j = k->out.tail;
	for (int i = n - 1; i >= 0; i--, j = j->prev)
		js[i] = j;
	memset(mm, 0, sizeof(mm[0]) * (size_t)n);
	for (int i = 0; i < n; i++) {
		kreq_fill(&h[i], js[i]);
		iov[i][0] = (struct iovec){&h[i], sizeof(h[i])};
		iov[i][1] = (struct iovec){js[i]->data, js[i]->data_len};
		mm[i].msg_hdr.msg_iov = iov[i];
		mm[i].msg_hdr.msg_iovlen = js[i]->data_len ? 2 : 1;
	}
	int sent = sendmmsg(k->fd, mm, (unsigned)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	int broken = sent < 0 && errno != EAGAIN && errno != ENOBUFS;
	if (sent < 0)
		sent = 0;
	/* A datagram is sent whole or not at all. */
	for (int i = n - 1; i >= sent; i--) {
		vgd_front_kh_unassign(k, js[i]);
		vgd_front_q_push_head(refused, js[i]);
	}
	if (sent < n)
		k->full = 1;
	return broken ? -1 : 0;
}

/* Receive up to want replies into rec in one recvmmsg. Returns how many
 * arrived, 0 if none is waiting, -1 if the channel is closed or broken (a
 * zero-length record is how a closed SOCK_SEQPACKET peer reads). */
int vgd_front_kh_recv(khchan *k, uint8_t rec[][VGD_KREP_MAX], int want,
		      size_t len[VGD_KH_DEPTH])
{
	struct iovec iov[VGD_KH_DEPTH];
	struct mmsghdr mm[VGD_KH_DEPTH];
	memset(mm, 0, sizeof(mm[0]) * (size_t)want);
	for (int i = 0; i < want; i++) {
		iov[i] = (struct iovec){rec[i], VGD_KREP_MAX};
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	int n = recvmmsg(k->fd, mm, (unsigned)want, MSG_DONTWAIT, NULL);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (mm[i].msg_len == 0)
			return -1;
		len[i] = mm[i].msg_len;
	}
	return n;
}
