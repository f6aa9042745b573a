/* keyholder.c: the keyholder loop. Takes fixed-layout records from the
 * front's request ring (vgd_kreq, khring.h), copies them into its own
 * memory and checks them again there (shape, the caller's uid/gid against
 * the key's ACL, the policy), runs the operation, puts the reply in the
 * reply ring and rings the front's doorbell; answers the supervisor's
 * pings on its own channel. Holds the only copies of the keys outside the
 * supervisor, locked in its memory; wipes them on exit. Secret: the key
 * store. Uses no allocation in the loop. */
#include "keyholder.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "keyops.h"
#include "khdirect.h"
#include "keytype.h"
#include "khring.h"
#include "log.h"
#include "khbatch.h"
#include "record.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"
#include "vg/wipe.h"

#ifdef VGD_TEST_HOOKS
#include "hook_rights.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
/* Test builds only (vgd-testhooks): a sign request whose message is this
 * string makes the keyholder call a system call its filter forbids. */
static const char violate_msg[] = "vgd-test-violate-sandbox";
/* ... and one of these, a call its filter forbids only for its arguments,
 * or (report-flood) a flood of fake violation reports on its channel to
 * the supervisor, after which it goes on serving. */
static const char hook_prefix[] = "vgd-test-kh:";
static int kh_report_fd = -1;

static void test_hook(const uint8_t *data, size_t len, int fd)
{
	char cmd[64];
	size_t n = sizeof(hook_prefix) - 1;
	if (len <= n || len - n >= sizeof(cmd) || memcmp(data, hook_prefix, n) != 0)
		return;
	memcpy(cmd, data + n, len - n);
	cmd[len - n] = 0;
	if (strcmp(cmd, "mmap-exec") == 0) {
		(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else if (strcmp(cmd, "mprotect-exec") == 0) {
		(void)mprotect((void *)((uintptr_t)cmd & ~(uintptr_t)4095), 4096,
			       PROT_READ | PROT_EXEC);
	} else if (strcmp(cmd, "fcntl-setown") == 0) {
		(void)fcntl(fd, F_SETOWN, (int)getpid());
	} else if (strcmp(cmd, "sendmsg-rights") == 0) {
		vgd_hook_send_rights(fd, fd, 0);
	} else if (strcmp(cmd, "sendmmsg-rights") == 0) {
		/* The batch call a keyholder once used for replies: it could
		 * carry descriptors too (here its supervisor channel). */
		vgd_hook_send_rights(fd, kh_report_fd, 1);
	} else if (strcmp(cmd, "recvmmsg-rights") == 0) {
		vgd_hook_recv_rights(fd); /* ... and receive them */
	} else if (strcmp(cmd, "open-create") == 0) {
		/* Create a file (a key, a config section): no open at all. */
		(void)open("/tmp/vgd-hook-open", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	} else if (strcmp(cmd, "report-flood") == 0) {
		vgd_supmsg m = {.type = VGD_SUP_VIOLATION, .nr = 83 /* mkdir */};
		for (int i = 0; i < 20000;) {
			if (write(kh_report_fd, &m, sizeof(m)) == (ssize_t)sizeof(m))
				i++;
			else if (errno != EAGAIN)
				break;
		}
	}
}
#endif

/* The record's shape, by the operation table's rules for its opcode: a
 * key operation, ALG a known algorithm where the operation takes one and
 * 0 elsewhere, TLS_ROLE exactly where ALG is the TLS 1.3 mode, a
 * SIG_FORMAT only where ALG has a format choice. The key's type and
 * policy are checked again when it runs (vgd_keyop_run). */
static int check_request(const uint8_t *buf, size_t n, const vgd_kreq **out)
{
	if (n < sizeof(vgd_kreq))
		return 0;
	const vgd_kreq *q = (const vgd_kreq *)buf;
	if (q->magic != VGD_KREQ_MAGIC || q->data_len > VG_PROTO_MAX_DATA ||
	    n != sizeof(vgd_kreq) + q->data_len ||
	    memchr(q->key, 0, sizeof(q->key)) == NULL)
		return 0;
	const vg_op_info *o = vg_op_get(q->op);
	if (o == NULL || o->kind != VG_OPK_KEY)
		return 0;
	const vg_alg_info *a = vg_alg_get(q->alg);
	if (o->req[VG_T_ALG] == VG_RULE_NO ? q->alg != 0 : a == NULL)
		return 0;
	int tls = a != NULL && a->data == VG_DATA_TLS13_HASH;
	if (tls ? q->role != VG_TLS_SERVER && q->role != VG_TLS_CLIENT : q->role != 0)
		return 0;
	if (a != NULL ? !vg_alg_format_ok(q->alg, q->fmt) : q->fmt != 0)
		return 0;
	*out = q;
	return 1;
}

/* Key types whose operations are slow next to the VGD_KH_HOLD_US a reply
 * may be held: their rows say (keytype.c, which gives the reasons). */
static int slow_key(int type)
{
	const vgd_keytype *t = vgd_keytype_get(type);
	return t != NULL && t->slow;
}

/* Requests are taken as many as the ring holds at once (all the front
 * may have outstanding here); replies are held up to VGD_KH_HOLD_US
 * (record.h). */

typedef vgd_khreply reply;

/* Run one checked request into r; i is its key's index in ks, or -1. */
static void run_request(vgd_keystore *ks, int i, const vgd_kreq *q, reply *r, int fd)
{
	vgd_khreply_start(r, q);
	const uint8_t *data = (const uint8_t *)q + sizeof(vgd_kreq);
#ifdef VGD_TEST_HOOKS
	if (q->data_len == sizeof(violate_msg) - 1 && memcmp(data, violate_msg, q->data_len) == 0)
		(void)mkdir("/nonexistent-vgd-test", 0700);
	test_hook(data, q->data_len, fd);
#else
	(void)fd;
#endif
	vgd_reason why = { .text = "" };
	size_t out_len = 0;
	int st;
	if (i < 0) {
		/* The key set changed between the front's check and now. */
		st = vg_reason_status(VG_R_NO_SUCH_KEY);
		why.text = vg_reason(VG_R_NO_SUCH_KEY);
	} else if (!vgd_acl_allows(&ks->info[i], (uid_t)q->uid, (gid_t)q->gid)) {
		/* The front checked the caller first; a front that did not
		 * (a bug, or compromised and lying less than it could) is
		 * refused here, in the front's words: a key the caller may not
		 * use is one it cannot see. */
		st = vg_reason_status(VG_R_NO_SUCH_KEY);
		why.text = vg_reason(VG_R_NO_SUCH_KEY);
	} else {
		st = vgd_keyop_run(&ks->info[i], ks->secret[i], q->op, q->alg, q->role, q->fmt,
				   data, q->data_len, r->out, &out_len, &why);
	}
	vgd_khreply_finish(r, st, out_len, why.text);
}

/* Whether q may join a batch (khbatch.h): its key exists and the caller
 * may use it (run_request answers the others), and, in test builds, it
 * is not one of the test hooks' messages, which only run_request acts
 * on. */
static int batchable(const vgd_keystore *ks, int i, const vgd_kreq *q)
{
#ifdef VGD_TEST_HOOKS
	static const char hook[] = "vgd-test";
	if (q->data_len >= sizeof(hook) - 1 &&
	    memcmp((const uint8_t *)q + sizeof(vgd_kreq), hook, sizeof(hook) - 1) == 0)
		return 0;
#endif
	return i >= 0 && vgd_acl_allows(&ks->info[i], (uid_t)q->uid, (gid_t)q->gid);
}

/* The keyholder's side of its ring: its own counters are the truth (the
 * copies in shared memory are only published), the front's are read and
 * bounded. */
typedef struct {
	vgd_khring *r;
	int fd; /* the channel socket: doorbell out, the front's close in */
	unsigned req_tail, rep_head;
	vgd_khdirect dk; /* its direct slots (khdirect.h) */
} khside;

/* Records per pass: the ring's, then one per direct slot at most. */
#define KH_PASS_MAX (VGD_KH_RING + VGD_DIRECT_MAX)

/* Put replies [0, n) in the reply ring, publish them, ring the front's
 * doorbell unless it is already rung, then wipe them: X25519 shared
 * values are secret. 0, or -1 if the ring has no room (the front has not
 * kept to its depth: it is broken or not ours to serve). */
static int send_replies(khside *h, reply *r, int n)
{
	int ok = 0, ring = 0;
	unsigned rep_tail = atomic_load_explicit(&h->r->rep_tail, memory_order_acquire);
	for (int i = 0; i < n && ok == 0; i++) {
		if (r[i].rep.job & VGD_JOB_DIRECT) {
			/* A direct slot's: straight to its client. */
			vgd_khdirect_reply(&h->dk, &r[i].rep, r[i].out);
			continue;
		}
		ring++;
		if (h->rep_head - rep_tail >= VGD_KH_RING) {
			ok = -1;
			break;
		}
		vgd_khrep_slot *s = &h->r->rep[h->rep_head % VGD_KH_RING];
		memcpy(s->rec, &r[i].rep, sizeof(r[i].rep));
		memcpy(s->rec + sizeof(r[i].rep), r[i].out, r[i].rep.result_len);
		s->len = (uint32_t)(sizeof(r[i].rep) + r[i].rep.result_len);
		h->rep_head++;
	}
	for (int i = 0; i < n; i++)
		vg_wipe(r[i].out, r[i].rep.result_len);
	if (ok < 0)
		return -1;
	if (!ring)
		return 0;
	atomic_store(&h->r->rep_head, h->rep_head);
	/* Paired with the front clearing rung before it reads rep_head
	 * (khring.c, vgd_khring_doorbell): either it sees these replies or
	 * this sees 0 and rings. */
	if (atomic_exchange(&h->r->rung, 1) == 0) {
		char b = 0;
		if (write(h->fd, &b, 1) != 1 && errno != EAGAIN)
			return -1;
	}
	return 0;
}

/* 1 once the front has closed the channel (or it broke). recvfrom takes
 * no ancillary data; the front sends no bytes on it. */
static int front_closed(int fd)
{
	char b;
	ssize_t n = recvfrom(fd, &b, 1, MSG_DONTWAIT, NULL, NULL);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* The supervisor's channel: answer its pings (non-blocking). Returns the
 * channel, or -1 once the supervisor is gone (it is not read again). */
static int answer_pings(int sfd)
{
	for (int budget = 0; sfd >= 0 && budget < 8; budget++) {
		vgd_supmsg m;
		ssize_t n = recvfrom(sfd, &m, sizeof(m), MSG_DONTWAIT, NULL, NULL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0)
			return -1;
		if (n == (ssize_t)sizeof(m) && m.type == VGD_CTL_PING) {
			vgd_supmsg p = {.type = VGD_SUP_PONG, .seq = m.seq};
			ssize_t w = write(sfd, &p, sizeof(p));
			(void)w;
		}
	}
	return sfd;
}

/* Sleep until the ring's head moves, a direct slot publishes, the
 * direct slots change hands, or VGD_KH_PING_POLL_MS pass: one
 * futex_waitv (Linux 5.16) on every word. 0, or -1 on the timeout. */
static int sleep_all(khside *h)
{
	struct futex_waitv w[2 + 2 + VGD_DIRECT_MAX];
	w[0] = (struct futex_waitv){.val = h->req_tail,
				    .uaddr = (uint64_t)(uintptr_t)&h->r->req_head,
				    .flags = FUTEX_32};
	int n = 1 + vgd_khdirect_waitv(&h->dk, w + 1, (int)(sizeof(w) / sizeof(w[0])) - 1);
	if (n == 1)
		return vgd_khring_wait(h->r, h->req_tail, VGD_KH_PING_POLL_MS);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += VGD_KH_PING_POLL_MS / 1000;
	ts.tv_nsec += (long)(VGD_KH_PING_POLL_MS % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	long r = syscall(SYS_futex_waitv, w, (unsigned)n, 0, &ts, CLOCK_MONOTONIC);
	return r >= 0 || errno == EAGAIN ? 0 : -1;
}

/* Wait for requests: 1 when there are some, 0 after a quiet interval
 * (the caller answers pings), -1 when the front closed the channel. The
 * flag kh_asleep, set before the last look at req_head, pairs with the
 * front's look at it after publishing (front_kh.c): a request published
 * meanwhile is either seen here or followed by a wake-up. */
static int wait_requests(khside *h)
{
	if (atomic_load(&h->r->req_head) != h->req_tail)
		return 1;
	if (atomic_load(&h->r->closing))
		return -1;
	atomic_store(&h->r->kh_asleep, 1);
	int work = vgd_khdirect_sleep_begin(&h->dk);
	int r = 1;
	if (!work && atomic_load(&h->r->req_head) == h->req_tail && !atomic_load(&h->r->closing) &&
	    sleep_all(h) < 0)
		r = front_closed(h->fd) ? -1 : 0;
	vgd_khdirect_sleep_end(&h->dk);
	atomic_store(&h->r->kh_asleep, 0);
	return r;
}

/* Copy the published requests into in[] (at most the ring's size: more
 * means the front is broken) and free their slots. Returns how many, or
 * -1. A slot's length is read once and bounded before the copy. */
static int take_requests(khside *h, uint8_t in[][VGD_KREQ_MAX], size_t len[])
{
	unsigned head = atomic_load_explicit(&h->r->req_head, memory_order_acquire);
	unsigned n = head - h->req_tail;
	if (n > VGD_KH_RING)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		vgd_khreq_slot *s = &h->r->req[(h->req_tail + i) % VGD_KH_RING];
		uint32_t l = *(volatile uint32_t *)&s->len;
		if (l > VGD_KREQ_MAX)
			return -1;
		memcpy(in[i], s->rec, l);
		len[i] = l;
	}
	h->req_tail = head;
	atomic_store_explicit(&h->r->req_tail, head, memory_order_release);
	return (int)n;
}

int vgd_keyholder_main(vgd_keystore *ks, vgd_khring *ring, vgd_direct *direct, uint32_t self,
		       int fd, int sfd)
{
	static uint8_t in[KH_PASS_MAX][VGD_KREQ_MAX];
	static reply out[KH_PASS_MAX];
	static vgd_khbatch kb;
	size_t len[KH_PASS_MAX];
	static khside h;
	h = (khside){.r = ring, .fd = fd};
	vgd_khdirect_init(&h.dk, direct, self);
	int status = 0;
	uint64_t pinged = 0;
#ifdef VGD_TEST_HOOKS
	kh_report_fd = sfd;
#endif
	if (!ks->locked)
		vgd_warn("could not mlock key memory (RLIMIT_MEMLOCK); keys may be swapped");
	for (;;) {
		/* Pings are answered between batches, at least every
		 * VGD_KH_PING_POLL_MS: a busy keyholder is alive. */
		uint64_t now_ms = vgd_now_ms();
		if (now_ms - pinged >= VGD_KH_PING_POLL_MS / 2) {
			sfd = answer_pings(sfd);
			pinged = now_ms;
		}
		vgd_khdirect_claim(&h.dk);
		int w = wait_requests(&h);
		if (w < 0)
			break; /* the front closed the channel: exit */
		if (w == 0)
			continue;
		vgd_khdirect_claim(&h.dk);
		int nring = take_requests(&h, in, len);
		if (nring < 0) {
			vgd_err("invalid request ring from the front; exiting");
			status = 1;
			break;
		}
		int n = nring + vgd_khdirect_take(&h.dk, in + nring, len + nring, KH_PASS_MAX - nring);
		int held = 0, bad = 0;
		uint64_t first = 0;
		for (int i = 0; i < n && !bad; i++) {
			const vgd_kreq *q;
			if (i >= nring) {
				/* A direct slot's record: the client's to get wrong. */
				const vgd_kreq *d = (const vgd_kreq *)in[i];
				/* check_request's shape, then the codec's DATA
				 * rule, which the front applied to the ring's. */
				if (!check_request(in[i], len[i], &q) ||
				    !vg_op_data_len_ok(vg_op_get(q->op), q->alg, q->data_len)) {
					vgd_khdirect_refuse(&h.dk, d->job, VG_ST_BAD_INPUT,
							    "invalid direct request");
					continue;
				}
			} else if (!check_request(in[i], len[i], &q)) {
				vgd_err("invalid record from the front; exiting");
				bad = 1;
				break;
			}
			int ki = vgd_keystore_find(ks, q->key);
			/* Operations a multi-buffer kernel runs side by side
			 * gather by family, to run together once the records
			 * are read or a batch is full. */
			int k = batchable(ks, ki, q)
					? vgd_khbatch_take(&kb, &ks->info[ki], ks->secret[ki], q)
					: -1;
			if (k >= 0) {
				if (kb.n[k] == VGD_KB_MAX) {
					if ((held && send_replies(&h, out, held) < 0) ||
					    (vgd_khbatch_run(&kb, k),
					     send_replies(&h, kb.out[k], kb.n[k]) < 0))
						bad = 2;
					held = kb.n[k] = 0;
				}
				continue;
			}
			/* Replies wait only for short operations: those held
			 * go out before a slow one. */
			if (held && ki >= 0 && slow_key(ks->info[ki].type)) {
				if (send_replies(&h, out, held) < 0) {
					bad = 2;
					break;
				}
				held = 0;
			}
			run_request(ks, ki, q, &out[held], fd);
			uint64_t t = vgd_now_us();
			if (held++ == 0)
				first = t;
			if (i == n - 1 || t - first >= VGD_KH_HOLD_US) {
				if (send_replies(&h, out, held) < 0)
					bad = 2;
				held = 0;
			}
		}
		if (held)
			(void)send_replies(&h, out, held); /* answered before exiting */
		for (int k = 0; k < VGD_KB_KINDS; k++) {
			if (!kb.n[k])
				continue;
			vgd_khbatch_run(&kb, k);
			if (send_replies(&h, kb.out[k], kb.n[k]) < 0)
				bad = bad ? bad : 2;
			kb.n[k] = 0;
		}
		for (int i = 0; i < n; i++)
			vg_wipe(in[i], len[i]);
		if (bad) {
			status = bad == 1;
			break;
		}
	}
	/* Whatever was taken is answered: the slots go to the next one. */
	vgd_khdirect_release(&h.dk);
	vg_wipe(out, sizeof(out));
	/* Wipe and unmap the keys; the rest of the process image goes with
	 * _exit (free() could need brk, which the filter forbids). */
	vgd_keystore_wipe(ks);
	return status;
}
