/* direct.c: libvgclient's direct slot (vg/direct.h, PROTOCOL.md 6.11). A
 * blocking sign, x25519 or rsa-private call on an idle, up connection
 * asks once, with a hello carrying DIRECT, for a slot; the daemon passes
 * the slot's memfd on that reply. From then on such calls write their
 * request into the slot and wait on it, skipping the socket and vgd's
 * front: two system calls per request at most (a wake-up, a wait), none
 * when the reply comes within the spin. Anything unexpected (no slot,
 * a revoked lease, a timeout) sends the call, and the ones after it,
 * back to the socket. The slot's reply can hold an X25519 shared value:
 * it is wiped once copied (vgc_direct_done). */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "req.h"
#include "vg/direct.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
/* The id of the hello that asks for a slot: outside the request table's
 * ids (its slot index 0xffff is never used, VGC_MAX_SLOTS). */
#define DIRECT_HELLO_ID 0xffffffffu
/* How long a request waits in the slot before it goes to the socket
 * instead (wait_reply): far above a keyholder's pass with a full batch
 * (tens of ms for RSA-4096), and below vgd's own liveness deadlines, so a
 * stopped or restarting keyholder delays a call by this much at most. */
#define VGC_DIRECT_PATIENCE_MS 1000

void vgc_direct_drop(vg_client *c, int forked)
{
	if (c->dslot && !forked)
		(void)munmap(c->dslot, VG_DIRECT_SLOT_SIZE);
	c->dslot = NULL;
	c->dlease = 0;
	c->dstate = DIRECT_UNKNOWN;
}

/* Give the slot up for this connection; later calls use the socket. */
static void give_up(vg_client *c)
{
	vgc_direct_drop(c, 0);
	c->dstate = DIRECT_NONE;
}

/* Read one whole frame (the hello's reply) into buf, and the descriptor
 * that came with it, if any, into *fd. The socket is blocking, with the
 * client's timeout (SO_RCVTIMEO). Frame length, or -1. */
static long read_reply(vg_client *c, uint8_t *buf, size_t cap, int *fd)
{
	size_t have = 0;
	for (;;) {
		vg_frame_hdr h;
		long n = vg_frame_check(buf, have, &h);
		if (n < 0)
			return -1;
		if (n > 0 && (size_t)n <= have)
			return have == (size_t)n ? n : -1; /* nothing else was asked */
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(sizeof(int))];
		} u;
		struct iovec iov = {buf + have, cap - have};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
				   .msg_controllen = sizeof(u.b)};
		ssize_t r = recvmsg(c->fd, &m, MSG_CMSG_CLOEXEC);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || cap == have)
			return -1;
		for (struct cmsghdr *ch = CMSG_FIRSTHDR(&m); ch; ch = CMSG_NXTHDR(&m, ch)) {
			if (ch->cmsg_level != SOL_SOCKET || ch->cmsg_type != SCM_RIGHTS)
				continue;
			size_t k = (ch->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < k; i++) {
				int x;
				memcpy(&x, CMSG_DATA(ch) + i * sizeof(int), sizeof(int));
				if (*fd < 0)
					*fd = x;
				else
					close(x);
			}
		}
		have += (size_t)r;
	}
}

/* Ask for a slot with a hello; map it if one comes. */
static void setup(vg_client *c)
{
	if (c->direct_off) {
		c->dstate = DIRECT_NONE;
		return;
	}
	/* Only on an idle connection: the reply is the next frame. */
	if (c->state != CS_UP || !c->blocking || c->inflight || c->npending ||
	    c->woff != c->wlen || c->rlen || c->preread)
		return;
	c->dstate = DIRECT_NONE;
	uint8_t buf[VG_PROTO_MAX_FRAME];
	vg_writer w;
	vg_frame_begin(&w, buf, sizeof(buf), VG_OP_HELLO, VG_ST_OK, DIRECT_HELLO_ID);
	vg_put_u64(&w, VG_T_DIRECT, VG_DIRECT_VERSION);
	/* Where this thread runs: vgd then gives a slot of the keyholder on
	 * this CPU, if it has one free (PROTOCOL.md 6.11). */
	int cpu = sched_getcpu();
	if (cpu >= 0)
		vg_put_u32(&w, VG_T_CLIENT_CPU, (uint32_t)cpu);
	long n = vg_frame_end(&w);
	ssize_t s;
	do
		s = send(c->fd, buf, (size_t)n, MSG_NOSIGNAL);
	while (s < 0 && errno == EINTR);
	int fd = -1;
	long len = s == n ? read_reply(c, buf, sizeof(buf), &fd) : -1;
	vg_reply rep;
	if (len < 0 || vg_reply_decode(buf, (size_t)len, &rep) != VG_ST_OK ||
	    rep.id != DIRECT_HELLO_ID || rep.op != VG_OP_HELLO || rep.status != VG_ST_OK) {
		/* The stream is out of step or gone: start afresh. */
		if (fd >= 0)
			close(fd);
		vgc_conn_close(c);
		c->dstate = DIRECT_NONE;
		return;
	}
	uint64_t lease = 0;
	vg_cursor cur = rep.items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1)
		if (it.tag == VG_T_DIRECT)
			(void)vg_item_u64(&it, &lease);
	if (fd < 0 || lease == 0) {
		if (fd >= 0)
			close(fd);
		return; /* none to be had: the socket it is */
	}
	void *p = mmap(NULL, VG_DIRECT_SLOT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return;
	/* A child of fork() must not share it: it starts on its own. */
	(void)madvise(p, VG_DIRECT_SLOT_SIZE, MADV_DONTFORK);
	c->dslot = p;
	c->dlease = lease;
	c->dseq = LOAD(&c->dslot->rep_seq);
	c->dstate = DIRECT_UP;
}

static void futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	(void)syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/* Wait for the reply to seq: spin (yielding) for spin_us, then sleep on
 * rep_seq. 0; -1 on the timeout; -2 when the slot has not answered within
 * VGC_DIRECT_PATIENCE_MS, shorter than the timeout: its keyholder is down
 * or stopped, and the socket, where vgd's front moves a request to
 * another keyholder, answers sooner. */
static int wait_reply(vg_client *c, uint32_t seq)
{
	vg_direct_slot *s = c->dslot;
	long long now = vgc_now_us();
	long long deadline = c->timeout_ms > 0 ? now + (long long)c->timeout_ms * 1000 : 0;
	int patient = !deadline || c->timeout_ms > 2 * VGC_DIRECT_PATIENCE_MS;
	if (patient)
		deadline = now + (long long)VGC_DIRECT_PATIENCE_MS * 1000;
	for (long long end = now + c->spin_us; LOAD(&s->rep_seq) != seq;) {
		if (vgc_now_us() >= end)
			break;
		sched_yield();
	}
	while (LOAD(&s->rep_seq) != seq) {
		struct timespec ts = {1, 0}, *tp = NULL;
		if (deadline) {
			long long left = deadline - vgc_now_us();
			if (left <= 0)
				return patient ? -2 : -1;
			ts.tv_sec = (time_t)(left / 1000000);
			ts.tv_nsec = (long)(left % 1000000) * 1000;
			tp = &ts;
		}
		STORE(&s->client_waits, 1);
		uint32_t cur = LOAD(&s->rep_seq);
		if (cur != seq)
			futex(&s->rep_seq, FUTEX_WAIT, cur, tp);
		STORE(&s->client_waits, 0);
	}
	return 0;
}

int vgc_direct_call(vg_client *c, const vg_request *rq, int *st, vg_reply *rep)
{
	if (rq->op != VG_OP_SIGN && rq->op != VG_OP_X25519 && rq->op != VG_OP_RSA_PRIVATE)
		return 0;
	/* A certificate request is vgd's front's to allow (csr_uids), which a
	 * slot skips: vgd refuses it there, so it goes by the socket. */
	const vg_alg_info *a = rq->op == VG_OP_SIGN ? vg_alg_get(rq->alg) : NULL;
	if (a != NULL && a->data == VG_DATA_CSR_INFO)
		return 0;
	if (c->dstate == DIRECT_UNKNOWN)
		setup(c);
	if (c->dstate != DIRECT_UP || rq->data_len > VG_PROTO_MAX_DATA)
		return 0;
	vg_direct_slot *s = c->dslot;
	struct vg_direct_req *q = &s->req;
	q->lease = c->dlease;
	q->op = rq->op;
	q->alg = rq->alg;
	q->tls_role = rq->tls_role;
	q->sig_format = rq->sig_format;
	memset(q->key, 0, sizeof(q->key));
	memcpy(q->key, rq->key, strnlen(rq->key, VG_PROTO_MAX_KEY_NAME));
	q->data_len = (uint32_t)rq->data_len;
	if (rq->data_len)
		memcpy(q->data, rq->data, rq->data_len);
	uint32_t seq = c->dseq + 1;
	STORE(&s->req_seq, seq);
	if (LOAD(&s->kh_sleeps))
		futex(&s->req_seq, FUTEX_WAKE, INT_MAX, NULL);
	int waited = wait_reply(c, seq);
	/* The request's bytes are the caller's (an RSA input, a hash): not
	 * left in the slot. */
	explicit_bzero(q->data, rq->data_len);
	if (waited == -2) {
		/* Its reply may still come into the slot: the slot is done
		 * for on this connection, and the socket answers this call
		 * (which may then run twice: every operation is safe to run
		 * again, and only one answer reaches the caller). */
		give_up(c);
		return 0;
	}
	if (waited < 0) {
		give_up(c);
		*st = VGC_E_TIMEOUT;
		memset(rep, 0, sizeof(*rep));
		rep->op = rq->op;
		rep->reason = "";
		return 1;
	}
	c->dseq = seq;
	struct vg_direct_rep *r = &s->rep;
	if (r->lease != c->dlease || r->status == VG_ST_UNAVAILABLE) {
		/* Revoked (the front restarted) or not ours: the socket
		 * answers this call and the next ones. */
		give_up(c);
		return 0;
	}
	memset(rep, 0, sizeof(*rep));
	rep->op = rq->op;
	rep->status = r->status;
	rep->result = r->result;
	rep->result_len = r->result_len <= VG_PROTO_MAX_RESULT ? r->result_len : 0;
	rep->reason = r->reason;
	rep->reason_len = strnlen(r->reason, VG_DIRECT_REASON_LEN - 1);
	*st = vgc_err_from_status(r->status);
	if (*st == 0) {
		struct vgc_expect e;
		vgc_expect_of(rq, &e);
		if (r->result_len > VG_PROTO_MAX_RESULT ||
		    !vgc_expect_ok(&e, rep->result, rep->result_len)) {
			*st = VGC_E_PROTOCOL;
			rep->reason = "direct reply's RESULT does not fit the request";
			rep->reason_len = strlen(rep->reason);
		}
	}
	return 1;
}

void vgc_direct_done(vg_client *c)
{
	if (c->dslot) {
		uint32_t n = c->dslot->rep.result_len;
		explicit_bzero(c->dslot->rep.result, n <= VG_PROTO_MAX_RESULT ? n : VG_PROTO_MAX_RESULT);
	}
}
