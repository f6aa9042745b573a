/* front_kh.c: the front's keyholder channels (see front_internal.h).
 * Holds no key material: records carry inputs out and public results
 * back; every reply is checked before use. */
#include "front_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "log.h"
#include "vg/proto_reason.h"
#include "vg/wipe.h"

/* ---- keyholders ---- */
void vgd_front_kh_close(front *f, khslot *k)
{
	if (k->ev) {
		event_free(k->ev);
		k->ev = NULL;
	}
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	(void)f;
}

/* A keyholder is gone: its jobs go back to the head of the queue, unless
 * they have already outlived MAX_ATTEMPTS keyholders (a poison request). */
static void kh_lost(front *f, khslot *k)
{
	vgd_warn("keyholder channel closed with %zu request(s) in flight; retrying them",
		 k->out.len);
	vgd_front_kh_close(f, k);
	while (k->out.tail) {
		job *j = k->out.tail;
		vgd_front_q_remove(&k->out, j);
		if (++j->attempts >= MAX_ATTEMPTS) {
			vgd_front_job_finish(f, j, VG_ST_INTERNAL, NULL, 0,
				   vg_reason(VG_R_KEYHOLDER_CRASHED));
			continue;
		}
		f->stats.retries++;
		j->t_queued_ms = vgd_now_ms();
		vgd_front_q_push_head(&f->queue, j);
	}
	k->full = 0;
	vgd_front_want_pump(f);
}

static int kh_valid_reply(const uint8_t *buf, ssize_t n, const vgd_krep **out)
{
	if (n < (ssize_t)sizeof(vgd_krep))
		return 0;
	const vgd_krep *r = (const vgd_krep *)buf;
	if (r->magic != VGD_KREP_MAGIC || r->result_len > VGD_RESULT_MAX ||
	    (size_t)n != sizeof(vgd_krep) + r->result_len || r->status > VG_ST_MAX ||
	    memchr(r->reason, 0, sizeof(r->reason)) == NULL)
		return 0;
	*out = r;
	return 1;
}

static void kh_readable(evutil_socket_t fd, short what, void *arg);

static void kh_retire_done(front *f, khslot *k)
{
	/* Closing the channel tells the keyholder to exit. */
	vgd_front_kh_close(f, k);
	k->retiring = 0;
}

/* Receive up to want replies in one recvmmsg. Returns how many arrived,
 * 0 if none is waiting, -1 if the channel is closed or broken (a
 * zero-length record is how a closed SOCK_SEQPACKET peer reads). */
static int kh_recv(front *f, int fd, int want, size_t len[KH_DEPTH])
{
	struct iovec iov[KH_DEPTH];
	struct mmsghdr mm[KH_DEPTH];
	memset(mm, 0, sizeof(mm[0]) * (size_t)want);
	for (int i = 0; i < want; i++) {
		iov[i] = (struct iovec){f->rec[i], sizeof(f->rec[i])};
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	int n = recvmmsg(fd, mm, (unsigned)want, MSG_DONTWAIT, NULL);
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

/* One reply: match it to its job and answer. Returns -1 if the record is
 * invalid (the channel is then dropped). */
static int kh_take_reply(front *f, khslot *k, const uint8_t *rec, size_t n)
{
	const vgd_krep *r;
	if (!kh_valid_reply(rec, (ssize_t)n, &r)) {
		vgd_err("invalid record from a keyholder; dropping its channel");
		return -1;
	}
	job *j = k->out.head;
	while (j && j->id != r->job)
		j = j->next;
	if (!j) {
		vgd_err("keyholder answered unknown job %llu", (unsigned long long)r->job);
		return 0;
	}
	vgd_front_q_remove(&k->out, j);
	k->full = 0;
	vgd_front_job_finish(f, j, r->status, rec + sizeof(vgd_krep), r->result_len, r->reason);
	return 0;
}

/* Replies: as many as are owed in each recvmmsg. Stop as soon as a call
 * brings fewer than asked (the socket is empty) or nothing more is owed:
 * a recv that would only say EAGAIN costs a system call, and a close or
 * stray record still wakes us (level triggered). */
static void kh_readable(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	khslot *k = NULL;
	for (int i = 0; i < f->nslots; i++)
		if (f->kh[i].fd == fd)
			k = &f->kh[i];
	if (!k)
		return;
	for (int budget = 0; budget < 16; budget++) {
		int want = k->out.len == 0 ? 1 : k->out.len > KH_DEPTH ? KH_DEPTH : (int)k->out.len;
		size_t len[KH_DEPTH];
		int n = kh_recv(f, fd, want, len);
		if (n < 0) {
			kh_lost(f, k);
			return;
		}
		int bad = 0;
		for (int i = 0; i < n; i++) {
			if (!bad && kh_take_reply(f, k, f->rec[i], len[i]) < 0)
				bad = 1;
			/* An X25519 result is a shared secret: once it is in
			 * its reply frame, no copy stays here. */
			vg_wipe(f->rec[i], len[i]);
		}
		if (bad) {
			kh_lost(f, k);
			return;
		}
		if (n < want || k->out.len == 0)
			break;
	}
	if (k->retiring && k->out.len == 0)
		kh_retire_done(f, k);
	vgd_front_want_pump(f);
	(void)what;
}

static void kreq_fill(vgd_kreq *h, const job *j)
{
	memset(h, 0, sizeof(*h));
	h->magic = VGD_KREQ_MAGIC;
	h->data_len = j->data_len;
	h->job = j->id;
	memcpy(h->key, j->key, sizeof(h->key));
	h->op = j->op;
	h->alg = j->alg;
	h->role = j->role;
}

/* Send the k->unsent jobs at the tail of k->out in one sendmmsg. Those
 * the socket refused go back to the head of the queue, in order, and the
 * keyholder counts as full until it answers. Returns -1 if the channel is
 * broken (the refused jobs are already back in the queue). */
static int kh_send_batch(front *f, khslot *k)
{
	vgd_kreq h[KH_DEPTH];
	struct iovec iov[KH_DEPTH][2];
	struct mmsghdr mm[KH_DEPTH];
	job *js[KH_DEPTH];
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
		vgd_front_q_remove(&k->out, js[i]);
		vgd_front_q_push_head(&f->queue, js[i]);
	}
	if (sent < n)
		k->full = 1;
	return broken ? -1 : 0;
}

/* Hand queued jobs to the least-loaded current keyholders: assign first,
 * then one sendmmsg per keyholder. */
void vgd_front_pump(front *f)
{
	while (f->queue.head) {
		khslot *best = NULL;
		for (int i = 0; i < f->nkh; i++) {
			khslot *k = &f->kh[i];
			if (k->fd < 0 || k->full || k->out.len >= KH_DEPTH)
				continue;
			if (!best || k->out.len < best->out.len)
				best = k;
		}
		if (!best)
			break;
		job *j = f->queue.head;
		vgd_front_q_remove(&f->queue, j);
		vgd_front_q_push_tail(&best->out, j);
		best->unsent++;
	}
	/* Send every batch before handling a broken channel: kh_lost()
	 * must not find another keyholder's jobs assigned but unsent. */
	int lost[MAX_SLOTS], nlost = 0;
	for (int i = 0; i < f->nkh; i++)
		if (f->kh[i].unsent && kh_send_batch(f, &f->kh[i]) < 0)
			lost[nlost++] = i;
	for (int i = 0; i < nlost; i++)
		kh_lost(f, &f->kh[lost[i]]); /* requeues; asks for another pump */
	f->stats.queue_depth = f->queue.len;
	if (f->queue.len > f->stats.queue_max)
		f->stats.queue_max = f->queue.len;
}

void vgd_front_kh_attach(front *f, int index, unsigned gen, int fd)
{
	if (index < 0 || index >= f->nkh) {
		close(fd);
		return;
	}
	khslot *k = &f->kh[index];
	if (k->fd >= 0) {
		/* A newer generation replaces a live keyholder: let the old one
		 * finish its jobs in a retiring slot. */
		int r = f->nslots;
		for (int i = f->nkh; i < f->nslots; i++)
			if (f->kh[i].fd < 0 && !f->kh[i].out.len) {
				r = i;
				break;
			}
		if (r == MAX_SLOTS) {
			kh_lost(f, k);
		} else {
			if (r == f->nslots)
				f->nslots++;
			f->kh[r] = *k;
			f->kh[r].retiring = 1;
			/* The moved jobs keep their links; fix the event arg. */
			event_free(f->kh[r].ev);
			f->kh[r].ev = event_new(f->base, f->kh[r].fd, EV_READ | EV_PERSIST,
						kh_readable, f);
			event_add(f->kh[r].ev, NULL);
			if (f->kh[r].out.len == 0)
				kh_retire_done(f, &f->kh[r]);
			k->ev = NULL;
			k->out.head = k->out.tail = NULL;
			k->out.len = 0;
		}
	}
	int sz = 1 << 20;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	k->fd = fd;
	k->gen = gen;
	k->full = 0;
	k->retiring = 0;
	k->ev = event_new(f->base, fd, EV_READ | EV_PERSIST, kh_readable, f);
	event_add(k->ev, NULL);
	vgd_front_want_pump(f);
}
