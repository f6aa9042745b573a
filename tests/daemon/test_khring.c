/* test_khring.c: the front-keyholder rings (daemon/khring.h) against the
 * real keyholder loop (daemon/keyholder.c) in a child process, with this
 * test as the front. Requests published by the rules are each answered
 * exactly once; a front that scribbles over the whole ring, counters and
 * slots alike, while the keyholder reads it, cannot make the keyholder
 * die of a signal (it may only refuse the ring and exit); a closed ring
 * lets it exit cleanly. The key store is empty, so every request is
 * answered "no such key": what is tested is the ring, not the keys. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "keyholder.h"
#include "khring.h"
#include "record.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"

typedef struct {
	vgd_khring *r;
	int fd; /* the front's end of the channel socket */
	pid_t pid;
	unsigned req_head, rep_tail;
} kh;

static void kh_start(kh *k)
{
	int mfd = vgd_khring_create();
	assert_true(mfd >= 0);
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	k->r = vgd_khring_map(mfd);
	assert_non_null(k->r);
	k->pid = fork();
	assert_true(k->pid >= 0);
	if (k->pid == 0) {
		close(sv[0]);
		vgd_khring *own = vgd_khring_map(mfd);
		close(mfd);
		vgd_keystore ks;
		memset(&ks, 0, sizeof(ks));
		_exit(own ? vgd_keyholder_main(&ks, own, NULL, 0, sv[1], -1) : 3);
	}
	close(mfd);
	close(sv[1]);
	k->fd = sv[0];
	k->req_head = k->rep_tail = 0;
}

/* Close the channel as the front does; the child's exit status, or -1 if
 * it died of a signal or did not exit within 10 s. */
static int kh_stop(kh *k)
{
	atomic_store(&k->r->closing, 1);
	vgd_khring_wake(k->r);
	close(k->fd);
	int st = 0;
	for (int i = 0; i < 1000; i++) {
		pid_t w = waitpid(k->pid, &st, WNOHANG);
		if (w == k->pid) {
			vgd_khring_unmap(k->r);
			if (WIFSIGNALED(st))
				fprintf(stderr, "keyholder died of signal %d\n", WTERMSIG(st));
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		}
		usleep(10000);
	}
	kill(k->pid, SIGKILL);
	waitpid(k->pid, &st, 0);
	vgd_khring_unmap(k->r);
	fprintf(stderr, "keyholder did not exit\n");
	return -1;
}

/* Publish n sign requests for key "k" with job ids from first on. */
static void publish(kh *k, uint64_t first, int n)
{
	for (int i = 0; i < n; i++) {
		vgd_khreq_slot *s = &k->r->req[k->req_head % VGD_KH_RING];
		vgd_kreq q;
		memset(&q, 0, sizeof(q));
		q.magic = VGD_KREQ_MAGIC;
		q.data_len = 5;
		q.job = first + (uint64_t)i;
		q.uid = 1000;
		q.gid = 1000;
		memcpy(q.key, "k", 2);
		q.op = VG_OP_SIGN;
		q.alg = VG_ALG_ED25519;
		memcpy(s->rec, &q, sizeof(q));
		memcpy(s->rec + sizeof(q), "hello", 5);
		s->len = (uint32_t)(sizeof(q) + 5);
		k->req_head++;
	}
	atomic_store(&k->r->req_head, k->req_head);
	if (atomic_load(&k->r->kh_asleep))
		vgd_khring_wake(k->r);
}

/* Every published reply, checked and freed. */
static int take_replies(kh *k, uint64_t base, uint8_t *seen, int nseen)
{
	int got = 0;
	for (;;) {
		unsigned head = atomic_load(&k->r->rep_head);
		if (head == k->rep_tail)
			break;
		assert_true(head - k->rep_tail <= VGD_KH_RING);
		vgd_khrep_slot *s = &k->r->rep[k->rep_tail % VGD_KH_RING];
		assert_true(s->len >= sizeof(vgd_krep) && s->len <= VGD_KREP_MAX);
		vgd_krep rep;
		memcpy(&rep, s->rec, sizeof(rep));
		assert_int_equal(rep.magic, VGD_KREP_MAGIC);
		assert_int_equal(rep.result_len, 0);
		assert_int_equal(s->len, sizeof(vgd_krep));
		assert_int_equal(rep.status, vg_reason_status(VG_R_NO_SUCH_KEY));
		assert_true(rep.job >= base && rep.job < base + (uint64_t)nseen);
		assert_int_equal(seen[rep.job - base], 0);
		seen[rep.job - base] = 1;
		k->rep_tail++;
		atomic_store(&k->r->rep_tail, k->rep_tail);
		got++;
	}
	return got;
}

/* Take replies as the front does: only after a doorbell, drained and
 * re-armed by the front's own code (vgd_khring_doorbell), then every
 * published reply. Until want have come; a doorbell that does not come
 * within 2 s while replies are owed is a lost wake-up and fails. Marks
 * seen[job - base]; each reply must be well formed, for a job published
 * and not yet answered, and say "no such key". Returns how many came. */
static int collect(kh *k, uint64_t base, uint8_t *seen, int nseen, int want)
{
	int got = 0;
	while (got < want) {
		struct pollfd p = {k->fd, POLLIN, 0};
		if (poll(&p, 1, 2000) != 1) {
			fprintf(stderr, "no doorbell with %d of %d replies owed\n", want - got, want);
			break;
		}
		assert_int_equal(vgd_khring_doorbell(k->r, k->fd), 0);
		got += take_replies(k, base, seen, nseen);
	}
	return got;
}

/* Batches of 1 to 16 requests, each batch answered whole and once, with
 * the keyholder asleep between some batches and busy in others. */
static void test_rules_answered_once(void **state)
{
	(void)state;
	kh k;
	kh_start(&k);
	enum { BATCHES = 3000 };
	uint8_t *seen = calloc(BATCHES * VGD_KH_RING, 1);
	assert_non_null(seen);
	uint64_t job = 0;
	srand(1);
	for (int b = 0; b < BATCHES; b++) {
		int n = 1 + rand() % VGD_KH_RING;
		publish(&k, job, n);
		assert_int_equal(collect(&k, 0, seen, BATCHES * VGD_KH_RING, n), n);
		job += (uint64_t)n;
		if (b % 50 == 0)
			usleep(20000); /* let it fall asleep on the futex */
	}
	for (uint64_t i = 0; i < job; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
	assert_int_equal(kh_stop(&k), 0);
}

/* Requests kept in flight as a busy front keeps them: new ones published
 * as soon as replies come, so the keyholder publishes while the front
 * drains its doorbell. Every wake-up must arrive (collect fails after
 * 2 s without one). */
static void test_pipelined_no_lost_wakeup(void **state)
{
	(void)state;
	kh k;
	kh_start(&k);
	enum { TOTAL = 40000 };
	uint8_t *seen = calloc(TOTAL, 1);
	assert_non_null(seen);
	uint64_t sent = 0;
	int done = 0, inflight = 0;
	while (done < TOTAL) {
		int room = VGD_KH_RING - inflight;
		if (room > (int)(TOTAL - sent))
			room = (int)(TOTAL - sent);
		if (room > 0) {
			/* a few at a time, so batches overlap */
			int n = room > 3 ? 3 : room;
			publish(&k, sent, n);
			sent += (uint64_t)n;
			inflight += n;
		}
		int got = collect(&k, 0, seen, TOTAL, 1);
		assert_true(got >= 1);
		done += got;
		inflight -= got;
	}
	free(seen);
	assert_int_equal(kh_stop(&k), 0);
}

/* A front that writes random bytes anywhere in the ring (counters, lengths,
 * records) while it also publishes well-formed batches. */
typedef struct {
	vgd_khring *r;
	unsigned seed;
	volatile int stop;
} scribbler;

static void *scribble(void *arg)
{
	scribbler *s = arg;
	uint8_t *p = (uint8_t *)s->r;
	while (!s->stop) {
		size_t at = (size_t)rand_r(&s->seed) % sizeof(vgd_khring);
		unsigned v = (unsigned)rand_r(&s->seed);
		/* Mostly the fields read before anything else: the head moved
		 * a little (a wild one is refused at once), a slot's length
		 * (in bounds, just past them, or huge), a record's header. */
		vgd_khreq_slot *slot = &s->r->req[v / 8 % VGD_KH_RING];
		switch (v % 7) {
		case 0:
			if (v % 5)
				break; /* a wild head ends the keyholder's life: rarely */
			atomic_fetch_add(&s->r->req_head, 1 + (unsigned)rand_r(&s->seed) % 3);
			break;
		case 1:
			slot->len = (uint32_t)rand_r(&s->seed) % (2 * VGD_KREQ_MAX);
			break;
		case 2:
			slot->len = v & 1 ? UINT32_MAX : (uint32_t)VGD_KREQ_MAX + 1;
			break;
		case 3:
		case 4:
			slot->rec[(unsigned)rand_r(&s->seed) % sizeof(vgd_kreq)] = (uint8_t)v;
			break;
		default:
			p[at] = (uint8_t)v;
		}
		if (s->r->kh_asleep)
			vgd_khring_wake(s->r);
		usleep(v % 16); /* as often as a request or so, not flat out */
	}
	return NULL;
}

/* One malformed ring at a time, published by the rules otherwise: the
 * keyholder refuses it (exit 1) and never reads past what it owns. */
static void refuses(void (*spoil)(kh *k))
{
	kh k;
	kh_start(&k);
	publish(&k, 0, 2);
	uint8_t seen[2] = {0};
	assert_int_equal(collect(&k, 0, seen, 2, 2), 2);
	spoil(&k);
	assert_int_equal(kh_stop(&k), 1);
}

static void huge_len(kh *k)
{
	publish(k, 10, 1);
	k->r->req[(k->req_head - 1) % VGD_KH_RING].len = UINT32_MAX;
	atomic_store(&k->r->req_head, k->req_head + 1); /* (a second, stale slot) */
	vgd_khring_wake(k->r);
	usleep(100000);
}

static void len_past_slot(kh *k)
{
	k->r->req[k->req_head % VGD_KH_RING].len = (uint32_t)VGD_KREQ_MAX + 1;
	atomic_store(&k->r->req_head, k->req_head + 1);
	vgd_khring_wake(k->r);
	usleep(100000);
}

static void head_past_ring(kh *k)
{
	atomic_store(&k->r->req_head, k->req_head + VGD_KH_RING + 1);
	vgd_khring_wake(k->r);
	usleep(100000);
}

static void bad_record(kh *k)
{
	publish(k, 20, 1);
	vgd_khreq_slot *s = &k->r->req[(k->req_head - 1) % VGD_KH_RING];
	s->len = 3; /* shorter than a record header */
	atomic_store(&k->r->req_head, k->req_head + 1);
	vgd_khring_wake(k->r);
	usleep(100000);
}

static void test_malformed_rings_refused(void **state)
{
	(void)state;
	refuses(huge_len);
	refuses(len_past_slot);
	refuses(head_past_ring);
	refuses(bad_record);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Keyholder after keyholder (as the supervisor restarts them), each fed
 * well-formed batches by a front that also scribbles: most lifetimes end
 * with the keyholder refusing the ring (exit 1), some with the close
 * (exit 0); none with a signal. */
static void test_scribbling_front_cannot_crash_it(void **state)
{
	(void)state;
	int lives = 0, refused = 0;
	double end = now_s() + 1.5;
	for (unsigned seed = 1; now_s() < end || lives < 10; seed++, lives++) {
		kh k;
		kh_start(&k);
		scribbler s = {.r = k.r, .seed = seed};
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, scribble, &s), 0);
		double stop = now_s() + 0.03;
		uint64_t job = 0;
		while (now_s() < stop) {
			/* A scribbling front does not keep its own count. */
			k.req_head = atomic_load(&k.r->req_head);
			int n = 1 + (int)(job % VGD_KH_RING);
			publish(&k, job, n);
			job += (uint64_t)n;
			usleep(100);
		}
		s.stop = 1;
		pthread_join(t, NULL);
		int st = kh_stop(&k);
		assert_true(st == 0 || st == 1);
		refused += st == 1;
	}
	printf("# %d keyholders fed a scribbled ring: %d refused it, none crashed\n", lives,
	       refused);
	assert_true(refused > 0); /* the scribbling reached the checks */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_answered_once),
		cmocka_unit_test(test_pipelined_no_lost_wakeup),
		cmocka_unit_test(test_malformed_rings_refused),
		cmocka_unit_test(test_scribbling_front_cannot_crash_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
