/* test_direct.c: direct slots (PROTOCOL.md 6.11, vg/direct.h) against a real
 * vgd. libvgclient's blocking calls take the slot and get the same,
 * verified results as over the socket; a raw client written from
 * PROTOCOL.md alone (here) asks for a slot and uses it; a slot is bound to
 * its first uid for good and answers only what that uid may do (its
 * refusals logged as the front logs its own); a client
 * that scribbles over its slot while others sign cannot crash, stall or
 * confuse vgd, and cannot resize its slot; a keyholder killed while
 * direct requests run leaves none unanswered; a front restart revokes
 * the slots and libvgclient goes back to the socket; ALG csr is refused
 * there and libvgclient sends it by the socket; a client gets a slot of
 * the keyholder pinned to its CPU (its hello's CLIENT_CPU). The test runs as
 * root; the other uid is a forked child. */
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"
#include "vg/direct.h"
#include "vg/proto_x509.h"

#define OTHER_UID 12345
#define OTHER_GID 54321

static const char keys[] =
	"[key ed]\nfile = ed25519.pem\nallow = sign\n\n"
	"[key ed-root]\nfile = ed25519.pem\nallow = sign\nuids = 0\n\n"
	"[key ed-tls]\nfile = ed25519-b.pem\nallow = tls13\n\n"
	"[key x]\nfile = x25519.pem\nallow = x25519\n\n"
	"[key rsa2048]\nfile = rsa2048.pem\nallow = sign, rsa-private\n\n"
	"[key ec256]\nfile = ecdsa-p256.pem\nallow = sign\n";

static vgt_daemon D;

static int setup(void **state)
{
	(void)state;
	if (vgt_setup(&D, "socket_mode = 0666\nkeyholders = 2\ndirect_slots = 4\n", keys) < 0 ||
	    vgt_start(&D, 0, NULL) < 0)
		return -1;
	return chmod(D.dir, 0711);
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

/* ---- a raw client, from PROTOCOL.md 6.11 ---- */

typedef struct {
	int fd;
	vg_direct_slot *s;
	uint64_t lease;
	uint32_t seq;
	ino_t ino;
} raw;

/* Connect and ask for a slot: 0 with r filled, -1 if none came. */
static int raw_open(raw *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = dt_connect(D.sock);
	if (r->fd < 0)
		return -1;
	uint8_t buf[256];
	vg_writer w;
	vg_frame_begin(&w, buf, sizeof(buf), VG_OP_HELLO, 0, 7);
	vg_put_u64(&w, VG_T_DIRECT, VG_DIRECT_VERSION);
	long n = vg_frame_end(&w);
	if (dt_send_all(r->fd, buf, (size_t)n) < 0)
		return -1;
	uint8_t in[4096];
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = {in, sizeof(in)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
			   .msg_controllen = sizeof(u.b)};
	ssize_t got = recvmsg(r->fd, &m, MSG_CMSG_CLOEXEC);
	struct cmsghdr *ch = CMSG_FIRSTHDR(&m);
	vg_reply rep;
	if (got <= 0 || vg_reply_decode(in, (size_t)got, &rep) != VG_ST_OK || !ch ||
	    ch->cmsg_type != SCM_RIGHTS)
		return -1; /* no slot free for this uid: its hello came without one */
	int mfd;
	memcpy(&mfd, CMSG_DATA(ch), sizeof(int));
	vg_cursor cur = rep.items;
	vg_item it;
	while (vg_item_next(&cur, &it) == 1)
		if (it.tag == VG_T_DIRECT)
			(void)vg_item_u64(&it, &r->lease);
	struct stat st;
	if (fstat(mfd, &st) < 0 || st.st_size < (off_t)sizeof(vg_direct_slot))
		return -1;
	r->ino = st.st_ino;
	/* The slot cannot be resized by its client (sealed). */
	if (ftruncate(mfd, 0) == 0 || errno != EPERM)
		return -2;
	r->s = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	close(mfd);
	if (r->s == MAP_FAILED || r->lease == 0)
		return -1;
	r->seq = __atomic_load_n(&r->s->rep_seq, __ATOMIC_SEQ_CST);
	return 0;
}

static void raw_close(raw *r)
{
	if (r->s && r->s != MAP_FAILED)
		munmap(r->s, VG_DIRECT_SLOT_SIZE);
	if (r->fd >= 0)
		close(r->fd);
	r->s = NULL;
	r->fd = -1;
}

/* One sign with alg over data through the slot: the reply's status
 * (VG_ST_*), or -1 if none came within 10 s. */
static int raw_sign_alg(raw *r, const char *key, int alg, const void *data, size_t len)
{
	vg_direct_slot *s = r->s;
	s->req.lease = r->lease;
	s->req.op = VG_OP_SIGN;
	s->req.alg = (uint8_t)alg;
	s->req.tls_role = 0;
	s->req.sig_format = 0;
	memset(s->req.key, 0, sizeof(s->req.key));
	strcpy(s->req.key, key);
	s->req.data_len = (uint32_t)len;
	memcpy(s->req.data, data, len);
	uint32_t seq = ++r->seq;
	__atomic_store_n(&s->req_seq, seq, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &s->req_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
	long long end = dt_now_ms() + 10000;
	while (__atomic_load_n(&s->rep_seq, __ATOMIC_SEQ_CST) != seq) {
		if (dt_now_ms() > end)
			return -1;
		__atomic_store_n(&s->client_waits, 1, __ATOMIC_SEQ_CST);
		struct timespec ts = {0, 50 * 1000 * 1000};
		uint32_t cur = __atomic_load_n(&s->rep_seq, __ATOMIC_SEQ_CST);
		if (cur != seq)
			syscall(SYS_futex, &s->rep_seq, FUTEX_WAIT, cur, &ts, NULL, 0);
		__atomic_store_n(&s->client_waits, 0, __ATOMIC_SEQ_CST);
	}
	return s->rep.lease == r->lease ? s->rep.status : -1;
}

/* One Ed25519 sign through the slot (raw_sign_alg). */
static int raw_sign(raw *r, const char *key, const char *msg)
{
	return raw_sign_alg(r, key, VG_ALG_ED25519, msg, strlen(msg));
}

static void become_other(void)
{
	if (setgroups(0, NULL) < 0 || setgid(OTHER_GID) < 0 || setuid(OTHER_UID) < 0)
		_exit(100);
}

/* Fork a child that runs as the other uid: 0 in the child (its end of
 * the pipe in *fd), its pid in the parent (the pipe's reading end in
 * *fd). */
static pid_t fork_other(int *fd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		become_other();
		*fd = p[1];
		return 0;
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* ---- tests ---- */

static vg_client *client(void)
{
	vg_client *c = vg_client_new(D.sock);
	assert_non_null(c);
	vg_client_set_timeout(c, 10000);
	return c;
}

/* libvgclient's blocking calls go through a slot and their results verify. */
static void test_library_uses_slot(void **state)
{
	(void)state;
	long long before = dt_stat(D.sock, "sign.count");
	vg_client *c = client();
	void *ed = vt_load(&D, "ed"), *rsa = vt_load(&D, "rsa2048"), *x = vt_load(&D, "x");
	uint8_t sig[512], msg[40];
	size_t n;
	for (int i = 0; i < 20; i++) {
		memset(msg, i, sizeof(msg));
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), 0);
		assert_int_equal(vt_verify(ed, VGC_ALG_ED25519, msg, sizeof(msg), sig, n), 1);
		uint8_t h[32];
		memset(h, i + 1, sizeof(h));
		assert_int_equal(vg_client_sign(c, "rsa2048", VGC_ALG_RSA_PSS_SHA256, h, sizeof(h), sig,
						sizeof(sig), &n), 0);
		assert_int_equal(vt_verify(rsa, VGC_ALG_RSA_PSS_SHA256, h, sizeof(h), sig, n), 1);
		uint8_t peer[32], shared[32];
		vt_x25519_peer(peer);
		assert_int_equal(vg_client_x25519(c, "x", peer, shared), 0);
		assert_int_equal(vt_check_x25519(x, peer, shared), 1);
	}
	/* Errors come back as over the socket. */
	assert_int_equal(vg_client_sign(c, "nope", VGC_ALG_ED25519, msg, sizeof(msg), sig,
					sizeof(sig), &n), VGC_E_UNKNOWN_KEY);
	assert_int_equal(vg_client_sign(c, "x", VGC_ALG_ED25519, msg, sizeof(msg), sig,
					sizeof(sig), &n), VGC_E_BAD_INPUT);
	assert_int_equal(dt_stat(D.sock, "direct.slots_held"), 1);
	/* The keyholders count what they served for the stats. */
	assert_true(dt_stat(D.sock, "sign.count") >= before + 40);
	vg_client_free(c);
	vt_free(ed);
	vt_free(rsa);
	vt_free(x);
	/* The slot is free again once its connection ends. */
	long long held = -1;
	for (int i = 0; i < 100 && held != 0; i++, usleep(20000))
		held = dt_stat(D.sock, "direct.slots_held");
	assert_int_equal(held, 0);
}

/* The keyholder index of the slot this process has mapped, from its
 * memfd's name in /proc/self/maps ("/memfd:vgd-direct-kN"); -1 if none. */
static int mapped_slot_index(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int k = -1;
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "vgd-direct-k");
		if (p)
			k = atoi(p + strlen("vgd-direct-k"));
	}
	if (f)
		fclose(f);
	return k;
}

/* A client's hello says where it runs (CLIENT_CPU), and the front gives
 * it a slot of the keyholder pinned to that CPU: with 2 keyholders on a
 * 2-CPU machine, keyholder i runs on the i-th CPU vgd may use (here all
 * of them). A child pinned to each CPU in turn maps a slot of that CPU's
 * keyholder. On a machine of another size the keyholders are not pinned
 * (2 do not spread evenly), and only the mapping is checked. */
static void test_slot_on_callers_cpu(void **state)
{
	(void)state;
	cpu_set_t all;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	int cpus[2], n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all))
			cpus[n++] = c;
	int pinned = CPU_COUNT(&all) == 2;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < n; i++) {
			pid_t p = fork();
			assert_true(p >= 0);
			if (p == 0) {
				cpu_set_t one;
				CPU_ZERO(&one);
				CPU_SET(cpus[i], &one);
				if (sched_setaffinity(0, sizeof(one), &one) != 0)
					_exit(90);
				vg_client *c = client();
				uint8_t sig[64];
				size_t sl;
				/* The first call connects; the slot comes with the next. */
				for (int j = 0; j < 2; j++)
					if (vg_client_sign(c, "ed", VGC_ALG_ED25519, "cpu", 3, sig,
							   sizeof(sig), &sl) != 0)
						_exit(91);
				int k = mapped_slot_index();
				vg_client_free(c);
				_exit(k < 0 ? 92 : k);
			}
			int st = 0;
			assert_int_equal(waitpid(p, &st, 0), p);
			assert_true(WIFEXITED(st));
			if (pinned)
				assert_int_equal(WEXITSTATUS(st), i);
			else
				assert_true(WEXITSTATUS(st) < 2);
		}
}

/* ALG csr never goes through a slot: who may ask (csr_uids) is the
 * front's check, which a slot skips. A raw client's csr request there,
 * even a well-formed one for the key, by root (in the default csr_uids),
 * is refused NOT_ALLOWED with no signature; libvgclient, holding a
 * slot, sends its csr by the socket, where it is signed. */
static void test_csr_not_through_slot(void **state)
{
	(void)state;
	vg_client *c = client();
	vgc_key_info k;
	uint8_t cri[128], spki[VG_SPKI_MAX], sig[512], msg[8] = "csr test";
	size_t n;
	assert_int_equal(vg_client_public_key(c, "ed-tls", &k), 0);
	size_t sl = vg_spki_encode(k.type, k.pub, k.pub_len, NULL, 0, spki, sizeof(spki));
	assert_int_equal(sl, 44);
	/* SEQUENCE { 0, empty Name, the key, empty attributes } */
	size_t len = 0;
	cri[len++] = 0x30;
	cri[len++] = (uint8_t)(3 + 2 + sl + 2);
	memcpy(cri + len, "\x02\x01\x00\x30\x00", 5);
	len += 5;
	memcpy(cri + len, spki, sl);
	len += sl;
	cri[len++] = 0xa0;
	cri[len++] = 0x00;

	raw r;
	assert_int_equal(raw_open(&r), 0);
	assert_int_equal(raw_sign_alg(&r, "ed-tls", VG_ALG_CSR, cri, len), VG_ST_NOT_ALLOWED);
	assert_int_equal(r.s->rep.result_len, 0);
	assert_non_null(strstr(r.s->rep.reason, "direct slot"));
	/* the slot still serves what it may */
	assert_int_equal(raw_sign(&r, "ed", "after csr"), VG_ST_OK);
	raw_close(&r);

	/* libvgclient: a slot taken by a sign, then the csr by the socket */
	assert_int_equal(
		vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig, sizeof(sig), &n),
		0);
	assert_int_equal(dt_stat(D.sock, "direct.slots_held"), 1);
	assert_int_equal(vg_client_sign(c, "ed-tls", VGC_ALG_CSR, cri, len, sig, sizeof(sig), &n),
			 0);
	void *ed = vt_load(&D, "ed-tls");
	assert_int_equal(vt_verify(ed, VGC_ALG_CSR, cri, len, sig, n), 1);
	vt_free(ed);
	vg_client_free(c);
}

/* Uses through a slot reach the front's use table (vgctl stats' "use"
 * rows) exactly, with the caller's uid and pid. */
static void test_use_table(void **state)
{
	(void)state;
	vg_client *c = client();
	uint64_t errors0 = 0;
	vgc_key_use *u0;
	int k0 = vg_client_key_use(c, &u0);
	for (int i = 0; i < k0; i++)
		if (u0[i].uid == 0 && strcmp(u0[i].key, "x") == 0)
			errors0 = u0[i].errors;
	free(u0);
	uint8_t sig[80], msg[8] = {3};
	size_t n;
	/* The first call goes over the socket, the rest through the slot;
	 * both paths count. An X25519 key cannot sign: BAD_INPUT, an error. */
	for (int i = 0; i < 25; i++)
		assert_int_equal(vg_client_sign(c, "x", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), VGC_E_BAD_INPUT);
	uint8_t dg[32] = {5};
	for (int i = 0; i < 30; i++)
		assert_int_equal(vg_client_sign(c, "ec256", VGC_ALG_ECDSA_P256_SHA256, dg, 32, sig,
						sizeof(sig), &n), 0);
	assert_int_equal(dt_stat(D.sock, "direct.slots_held"), 1);
	long long end = dt_now_ms() + 5000;
	uint64_t ok = 0, errors = 0;
	uint32_t pid = 0;
	while (dt_now_ms() < end && (ok < 30 || errors < errors0 + 25)) {
		usleep(150000); /* the front takes the slots' counts in each tick */
		vgc_key_use *u;
		int k = vg_client_key_use(c, &u);
		for (int i = 0; i < k; i++)
			if (u[i].uid == 0 && strcmp(u[i].key, "ec256") == 0) {
				ok = u[i].ok;
				pid = u[i].last_pid;
			} else if (u[i].uid == 0 && strcmp(u[i].key, "x") == 0) {
				errors = u[i].errors;
			}
		free(u);
	}
	assert_int_equal(ok, 30);
	assert_int_equal(errors, errors0 + 25);
	assert_int_equal(pid, (uint32_t)getpid());
	vg_client_free(c);
}

/* VGD_DIRECT=0 keeps a client on the socket. */
static void test_env_off(void **state)
{
	(void)state;
	setenv("VGD_DIRECT", "0", 1);
	vg_client *c = client();
	uint8_t sig[64], msg[8] = {1};
	size_t n;
	for (int i = 0; i < 3; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), 0);
	assert_int_equal(dt_stat(D.sock, "direct.slots_held"), 0);
	vg_client_free(c);
	unsetenv("VGD_DIRECT");
}

/* A raw client: its slot answers, and a slot once another uid's is never
 * given to root, even after that uid let it go; the other uid cannot use
 * root's key through it. */
static void test_bound_for_good(void **state)
{
	(void)state;
	int fd;
	pid_t pid = fork_other(&fd);
	if (pid == 0) {
		raw r;
		int o = raw_open(&r);
		if (o < 0)
			_exit(o == -2 ? 11 : 10);
		if (raw_sign(&r, "ed", "hello") != VG_ST_OK)
			_exit(12);
		/* A key only root may use looks like no key at all. */
		if (raw_sign(&r, "ed-root", "hello") != VG_ST_UNKNOWN_KEY)
			_exit(13);
		/* A name no key can have: refused, and not logged as written. */
		if (raw_sign(&r, "evil\nname", "hello") != VG_ST_UNKNOWN_KEY)
			_exit(14);
		ssize_t w = write(fd, &r.ino, sizeof(r.ino));
		(void)w;
		raw_close(&r);
		_exit(0);
	}
	ino_t other = 0;
	ssize_t rd = read(fd, &other, sizeof(other));
	close(fd);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(rd, (ssize_t)sizeof(other));
	/* The front logs the keyholder's refusals as its own. */
	assert_true(dt_wait_log(&D, "denied: uid 12345 gid 54321 pid", 2, 2000));
	assert_true(dt_wait_log(&D, "may not use key 'ed-root' (sign, direct slot)", 1, 2000));
	assert_true(dt_wait_log(&D, "asked for unknown key '(not a key name)'", 1, 2000));
	assert_int_equal(vgt_log_count(&D, "evil"), 0);
	/* Root asks for slots until none is left: never the other uid's. */
	raw r[8];
	int got = 0;
	for (int i = 0; i < 8; i++) {
		if (raw_open(&r[i]) < 0) {
			raw_close(&r[i]);
			break;
		}
		got++;
		assert_true(r[i].ino != other);
		assert_int_equal(raw_sign(&r[i], "ed-root", "root's"), VG_ST_OK);
	}
	/* 2 keyholders x 4 slots, one bound to the other uid. */
	assert_int_equal(got, 7);
	for (int i = 0; i < got; i++)
		raw_close(&r[i]);
}

/* A client scribbling over its slot (and publishing garbage as fast as it
 * can) while root signs: root's calls all succeed and verify, and no vgd
 * process dies. */
static void test_scribbler(void **state)
{
	(void)state;
	pid_t kids[16];
	int nk = vgt_children(&D, kids, 16);
	int fd;
	pid_t pid = fork_other(&fd);
	if (pid == 0) {
		raw r;
		if (raw_open(&r) < 0)
			_exit(10);
		char ok = 1;
		ssize_t w = write(fd, &ok, 1);
		(void)w;
		uint64_t x = 88172645463325252ull;
		long long end = dt_now_ms() + 3000;
		uint8_t *b = (uint8_t *)r.s;
		while (dt_now_ms() < end) {
			for (int i = 0; i < 64; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				size_t off = (size_t)(x % (sizeof(vg_direct_slot) / 64)) * 64 +
					     (x >> 40) % 64;
				if (x & 1)
					off = (size_t)(x >> 8) % 512; /* the words and the header */
				b[off] = (uint8_t)(x >> 32);
			}
			if (x & 2) /* a plausible request, sometimes with the lease */
				r.s->req.lease = (x & 4) ? r.lease : x;
			if (x & 8)
				r.s->req.data_len = (uint32_t)(x >> 20);
			__atomic_add_fetch(&r.s->req_seq, 1, __ATOMIC_SEQ_CST);
			syscall(SYS_futex, &r.s->req_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
		}
		_exit(0);
	}
	char ok;
	assert_int_equal(read(fd, &ok, 1), 1);
	close(fd);
	vg_client *c = client();
	void *ed = vt_load(&D, "ed");
	int calls = 0;
	long long end = dt_now_ms() + 2500;
	while (dt_now_ms() < end) {
		uint8_t msg[16], sig[64];
		size_t n;
		memcpy(msg, &calls, sizeof(calls));
		memset(msg + sizeof(calls), 0x5a, sizeof(msg) - sizeof(calls));
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), 0);
		assert_int_equal(vt_verify(ed, VGC_ALG_ED25519, msg, sizeof(msg), sig, n), 1);
		calls++;
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(calls > 100);
	assert_true(dt_stat(D.sock, "direct.slots_held") >= 1);
	vg_client_free(c);
	vt_free(ed);
	/* Nobody died: the same processes serve. */
	pid_t after[16];
	assert_int_equal(vgt_children(&D, after, 16), nk);
	for (int i = 0; i < nk; i++)
		assert_int_equal(after[i], kids[i]);
	assert_true(dt_stat(D.sock, "direct.refused") > 0);
}

/* Keyholders killed while direct requests run: every call returns (a
 * result that verifies, or INTERNAL for a request whose keyholder died on
 * it twice), none hangs. */
static void test_keyholder_killed(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		vg_client *c = vg_client_new(D.sock);
		vg_client_set_timeout(c, 20000);
		void *ed = vt_load(&D, "ed");
		long long end = dt_now_ms() + 3000;
		for (int i = 0; dt_now_ms() < end; i++) {
			uint8_t msg[4], sig[64];
			size_t n;
			memcpy(msg, &i, 4);
			int r = vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, 4, sig, sizeof(sig), &n);
			if (r == VGC_E_INTERNAL)
				continue;
			if (r != 0)
				_exit(20 + (-r % 100));
			if (vt_verify(ed, VGC_ALG_ED25519, msg, 4, sig, n) != 1)
				_exit(11);
		}
		_exit(0);
	}
	usleep(300000);
	for (int k = 0; k < 4; k++) {
		pid_t kh[8];
		int n = dt_children_named(&D, "vgd-keyholder", kh, 8);
		if (n > 0)
			kill(kh[k % n], SIGKILL);
		usleep(400000);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
}

/* A front restart ends every lease: the next call finds its slot revoked
 * and goes back to the socket (a new connection, a new slot). */
static void test_front_restart(void **state)
{
	(void)state;
	vg_client *c = client();
	uint8_t msg[8] = {9}, sig[64];
	size_t n;
	for (int i = 0; i < 3; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), 0);
	pid_t fr[2];
	assert_int_equal(dt_children_named(&D, "vgd-front", fr, 2), 1);
	kill(fr[0], SIGKILL);
	pid_t nf[2];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, fr[0], nf), 1);
	long long end = dt_now_ms() + 10000;
	while (vg_client_ping(c) != 0 && dt_now_ms() < end)
		usleep(50000);
	void *ed = vt_load(&D, "ed");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
						sizeof(sig), &n), 0);
		assert_int_equal(vt_verify(ed, VGC_ALG_ED25519, msg, sizeof(msg), sig, n), 1);
	}
	assert_int_equal(dt_stat(D.sock, "direct.slots_held"), 1);
	vg_client_free(c);
	vt_free(ed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_uses_slot),
		cmocka_unit_test(test_env_off),
		cmocka_unit_test(test_csr_not_through_slot),
		cmocka_unit_test(test_slot_on_callers_cpu),
		cmocka_unit_test(test_use_table),
		cmocka_unit_test(test_bound_for_good),
		cmocka_unit_test(test_scribbler),
		cmocka_unit_test(test_keyholder_killed),
		cmocka_unit_test(test_front_restart),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
