/* test_async.c: the provider's asynchronous signing (provider/async.c),
 * driven as a server with SSL_MODE_ASYNC drives it, without TLS: OpenSSL
 * async jobs sign with keys held by a real vgd, and a loop polls the
 * descriptors of each job's wait context and resumes the jobs whose
 * descriptors are readable. The loop keeps the books the way HAProxy does
 * (it files a descriptor under one connection when a job pauses, from
 * ASYNC_WAIT_CTX_get_changed_fds, and drops every one of them when the
 * connection goes, never closing them: the engine does) and fails on what
 * breaks HAProxy: a descriptor filed by two connections at once, one it
 * is asked to drop that it never filed (it aborts), or one still open
 * after its connection's wait context was freed (it would stay in the
 * server's epoll sets and wake other connections). Pipelining is deterministic here: every job is started
 * (and pauses) before any is resumed. */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/async.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/store.h>

#include "harness.h"

static const char keys_conf[] = "[key ed]\nfile = ed25519.pem\nallow = sign\n\n"
				"[key rsa]\nfile = rsa2048.pem\nallow = sign\n\n"
				"[key ec]\nfile = ecdsa-p256.pem\nallow = sign\n";

enum { K_ED, K_RSA, K_EC, NKEYS };
static const char *const key_uri[NKEYS] = {"vgd:ed", "vgd:rsa", "vgd:ec"};
static const char *const key_pem[NKEYS] = {"ed25519.pem", "rsa2048.pem", "ecdsa-p256.pem"};

#define MAXFD 4096
#define MAXJOBS 64

/* One "connection": an async job and its wait context, as an SSL has. */
typedef struct conn {
	ASYNC_JOB *job;
	ASYNC_WAIT_CTX *w;
	int key;
	int started, done, ok, paused;
	unsigned char msg[32];
	unsigned char sig[512];
	size_t siglen;
	int filed[16]; /* every descriptor this connection ever filed */
	int nfiled;
} conn;

static struct {
	vgt_daemon d;
	OSSL_PROVIDER *deflt, *vgd;
	EVP_PKEY *priv[NKEYS]; /* vgd keys (the provider's) */
	EVP_PKEY *pub[NKEYS];  /* the same keys from the PEM files, to verify */
	conn *owner[MAXFD];    /* which connection filed each descriptor */
} T;

/* ---- the provider's counters ---- */

typedef struct {
	uint64_t sync, async, pauses, inflight_max, seen_pauses;
} counters;

static counters get_counters(void)
{
	counters c = {0};
	OSSL_PARAM p[] = {
		OSSL_PARAM_uint64("vgd-sync-requests", &c.sync),
		OSSL_PARAM_uint64("vgd-async-requests", &c.async),
		OSSL_PARAM_uint64("vgd-async-pauses", &c.pauses),
		OSSL_PARAM_uint64("vgd-async-inflight-max", &c.inflight_max),
		OSSL_PARAM_uint64("vgd-async-seen-pauses", &c.seen_pauses),
		OSSL_PARAM_END,
	};
	assert_true(OSSL_PROVIDER_get_params(T.vgd, p));
	return c;
}

/* ---- the job ---- */

static int sign_job(void *arg)
{
	conn *c = *(conn **)arg;
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	const char *md = c->key == K_ED ? NULL : "SHA256";
	c->siglen = sizeof(c->sig);
	int ok = m && EVP_DigestSignInit_ex(m, NULL, md, NULL, NULL, T.priv[c->key], NULL) == 1 &&
		 EVP_DigestSign(m, c->sig, &c->siglen, c->msg, sizeof(c->msg)) == 1;
	EVP_MD_CTX_free(m);
	return ok;
}

static int verify(const conn *c)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	const char *md = c->key == K_ED ? NULL : "SHA256";
	int ok = m &&
		 EVP_DigestVerifyInit_ex(m, NULL, md, NULL, "provider=default", T.pub[c->key],
					 NULL) == 1 &&
		 EVP_DigestVerify(m, c->sig, c->siglen, c->msg, sizeof(c->msg)) == 1;
	EVP_MD_CTX_free(m);
	return ok;
}

/* ---- the server's books (HAProxy's rules) ---- */

/* After a pause: file what the job added, drop what it removed. */
static void apply_changes(conn *c)
{
	OSSL_ASYNC_FD add[16], del[16];
	size_t na = 0, nd = 0;
	assert_true(ASYNC_WAIT_CTX_get_changed_fds(c->w, NULL, &na, NULL, &nd));
	assert_true(na <= 16 && nd <= 16);
	assert_true(ASYNC_WAIT_CTX_get_changed_fds(c->w, add, &na, del, &nd));
	for (size_t i = 0; i < nd; i++) {
		assert_true(del[i] >= 0 && del[i] < MAXFD);
		assert_ptr_equal(T.owner[del[i]], c); /* dropped what it filed */
		T.owner[del[i]] = NULL;
	}
	for (size_t i = 0; i < na; i++) {
		assert_true(add[i] >= 0 && add[i] < MAXFD);
		if (T.owner[add[i]] != NULL)
			fail_msg("descriptor %d filed by two connections", add[i]);
		T.owner[add[i]] = c;
		assert_true(c->nfiled < 16);
		c->filed[c->nfiled++] = add[i];
	}
}

/* The connection goes: every descriptor of its wait context is dropped
 * (it must have been filed by this connection), then the context freed
 * (SSL_free). With a job paused, this is the client gone mid-handshake:
 * the job is never resumed. */
static void close_conn(conn *c)
{
	OSSL_ASYNC_FD all[16];
	size_t n = 0;
	assert_true(ASYNC_WAIT_CTX_get_all_fds(c->w, NULL, &n) && n <= 16);
	assert_true(ASYNC_WAIT_CTX_get_all_fds(c->w, all, &n));
	for (size_t i = 0; i < n; i++) {
		if (T.owner[all[i]] != c)
			fail_msg("descriptor %d was never filed (HAProxy: fd_delete bug)", all[i]);
		T.owner[all[i]] = NULL;
	}
	ASYNC_WAIT_CTX_free(c->w);
	c->w = NULL;
	for (int i = 0; i < c->nfiled; i++)
		if (fcntl(c->filed[i], F_GETFD) >= 0)
			fail_msg("descriptor %d still open after its wait context was freed",
				 c->filed[i]);
}

static void step(conn *c)
{
	int r = ASYNC_start_job(&c->job, c->w, &c->ok, sign_job, &c, sizeof(c));
	c->started = 1;
	if (r == ASYNC_PAUSE) {
		c->paused++;
		apply_changes(c);
		return;
	}
	assert_int_equal(r, ASYNC_FINISH);
	c->done = 1;
}

static void conn_init(conn *c, int key, int seq)
{
	memset(c, 0, sizeof(*c));
	c->key = key;
	c->w = ASYNC_WAIT_CTX_new();
	assert_non_null(c->w);
	for (size_t i = 0; i < sizeof(c->msg); i++)
		c->msg[i] = (unsigned char)(seq * 31 + (int)i);
}

/* Poll the descriptors of the waiting jobs and resume those readable,
 * until every job is done; fails after 20 s. */
static void run(conn *cs, int n)
{
	time_t end = time(NULL) + 20;
	for (;;) {
		struct pollfd p[MAXJOBS * 4];
		conn *who[MAXJOBS * 4];
		int np = 0, waiting = 0;
		for (int i = 0; i < n; i++) {
			conn *c = &cs[i];
			if (c->done || !c->w)
				continue;
			waiting++;
			for (int fd = 0; fd < MAXFD; fd++)
				if (T.owner[fd] == c) {
					p[np] = (struct pollfd){.fd = fd, .events = POLLIN};
					who[np++] = c;
				}
		}
		if (!waiting)
			return;
		assert_true(np > 0); /* a waiting job left something to wait on */
		assert_true(time(NULL) < end);
		int r = poll(p, (nfds_t)np, 1000);
		assert_true(r >= 0);
		for (int i = 0; i < np; i++)
			if ((p[i].revents & POLLIN) && !who[i]->done) {
				step(who[i]);
				/* its other descriptors: not resumed twice this round */
				for (int j = i + 1; j < np; j++)
					if (who[j] == who[i])
						p[j].revents = 0;
			}
	}
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* ---- setup ---- */

static EVP_PKEY *load_vgd(const char *uri)
{
	OSSL_STORE_CTX *s = OSSL_STORE_open(uri, NULL, NULL, NULL, NULL);
	EVP_PKEY *k = NULL;
	while (s && !k && !OSSL_STORE_eof(s)) {
		OSSL_STORE_INFO *i = OSSL_STORE_load(s);
		if (i && OSSL_STORE_INFO_get_type(i) == OSSL_STORE_INFO_PKEY)
			k = OSSL_STORE_INFO_get1_PKEY(i);
		OSSL_STORE_INFO_free(i);
	}
	OSSL_STORE_close(s);
	return k;
}

static EVP_PKEY *load_pem(const char *file)
{
	char path[400];
	FILE *f = fopen(vgt_key(&T.d, file, path, sizeof(path)), "r");
	EVP_PKEY *k =
		f ? PEM_read_PrivateKey_ex(f, NULL, NULL, NULL, NULL, "provider=default") : NULL;
	if (f)
		fclose(f);
	return k;
}

static int setup(void **state)
{
	const char *provdir = getenv("VG_PROVIDER_DIR");
	if (!provdir || vgt_setup(&T.d, NULL, keys_conf) < 0 || vgt_start(&T.d, 0, NULL) < 0)
		return -1;
	setenv("VGD_SOCKET", T.d.sock, 1);
	OSSL_PROVIDER_set_default_search_path(NULL, provdir);
	/* The provider's timeout a minute, not its default 5 s: on a loaded
	 * machine the 48 jobs test_pipelined submits while vgd is stopped can
	 * wait longer than that, and no test here is about the timeout. */
	char cnf[400];
	snprintf(cnf, sizeof(cnf), "%s/openssl.cnf", T.d.dir);
	FILE *f = fopen(cnf, "w");
	if (!f)
		return -1;
	fputs("openssl_conf = init\n[init]\nproviders = provs\n[provs]\nvgd = vgd_sect\n"
	      "[vgd_sect]\ntimeout = 60000\nactivate = 1\n",
	      f);
	if (fclose(f) != 0 || OSSL_LIB_CTX_load_config(NULL, cnf) != 1)
		return -1;
	T.deflt = OSSL_PROVIDER_load(NULL, "default");
	T.vgd = OSSL_PROVIDER_load(NULL, "vgd");
	if (!T.deflt || !T.vgd)
		return -1;
	for (int k = 0; k < NKEYS; k++) {
		T.priv[k] = load_vgd(key_uri[k]);
		T.pub[k] = load_pem(key_pem[k]);
		if (!T.priv[k] || !T.pub[k])
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	for (int k = 0; k < NKEYS; k++) {
		EVP_PKEY_free(T.priv[k]);
		EVP_PKEY_free(T.pub[k]);
	}
	return vgt_finish(&T.d) == 0 ? 0 : -1;
}

/* ---- tests ---- */

/* Outside a job: a blocking call, counted as such. */
static void test_sync_outside_job(void **state)
{
	counters a = get_counters();
	conn c;
	conn_init(&c, K_RSA, 1);
	assert_true(sign_job(&(conn *){&c}));
	assert_true(verify(&c));
	counters b = get_counters();
	assert_int_equal(b.sync, a.sync + 1);
	assert_int_equal(b.async, a.async);
	ASYNC_WAIT_CTX_free(c.w);
}

/* One job per key: each pauses, is woken through its descriptors, and
 * its signature verifies. */
static void test_one_job_pauses(void **state)
{
	for (int k = 0; k < NKEYS; k++) {
		counters a = get_counters();
		conn c;
		conn_init(&c, k, 2 + k);
		step(&c);
		assert_false(c.done); /* paused */
		run(&c, 1);
		assert_true(c.ok);
		assert_true(verify(&c));
		counters b = get_counters();
		assert_int_equal(b.async, a.async + 1);
		assert_int_equal(b.sync, a.sync);
		/* Paused for the reply, or (when vgd answered before the job
		 * got to pause) once only to show the server its descriptor:
		 * either way the pause was counted. */
		assert_true(b.pauses + b.seen_pauses >= a.pauses + a.seen_pauses + 1);
		close_conn(&c);
	}
}

/* vgd's processes stopped (SIGSTOP) or continued: requests queue unread
 * in its socket meanwhile, so no reply can come back early. */
static void freeze_vgd(int sig)
{
	pid_t kids[16];
	int n = vgt_children(&T.d, kids, 16);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(kill(kids[i], sig), 0);
	assert_int_equal(kill(T.d.pid, sig), 0);
}

/* Many jobs of one thread in flight at once on each key's connection.
 * vgd is frozen while they are submitted: a vgd quicker than the client
 * (an idle machine, a front on the client's CPU) would otherwise answer
 * each before the next is sent, and nothing would show pipelining. */
static void test_pipelined(void **state)
{
	static conn cs[48];
	counters a = get_counters();
	freeze_vgd(SIGSTOP);
	for (int i = 0; i < 48; i++) {
		conn_init(&cs[i], i % NKEYS, 100 + i);
		step(&cs[i]);
		assert_false(cs[i].done);
	}
	counters mid = get_counters();
	freeze_vgd(SIGCONT);
	assert_int_equal(mid.async, a.async + 48);
	/* 16 per key were submitted before any reply was read. */
	assert_true(mid.inflight_max >= 16);
	run(cs, 48);
	for (int i = 0; i < 48; i++) {
		assert_true(cs[i].ok);
		assert_true(verify(&cs[i]));
		close_conn(&cs[i]);
	}
	assert_int_equal(get_counters().sync, a.sync);
}

/* Jobs whose connection goes while they wait (the job is never resumed,
 * its wait context freed): the others complete, nothing leaks a
 * descriptor, the late replies are dropped, and new jobs work. The first
 * job to wait holds the watch, so abandoning it hands the watch over. */
static void test_abandoned(void **state)
{
	static conn cs[6];
	conn warm;
	conn_init(&warm, K_ED, 300);
	step(&warm);
	run(&warm, 1);
	close_conn(&warm);
	int fds0 = open_fds();
	for (int i = 0; i < 6; i++) {
		conn_init(&cs[i], K_ED, 301 + i);
		step(&cs[i]);
		assert_false(cs[i].done);
	}
	close_conn(&cs[0]); /* the watch holder */
	close_conn(&cs[3]);
	run(cs, 6);
	for (int i = 0; i < 6; i++) {
		if (i == 0 || i == 3)
			continue;
		assert_true(cs[i].ok);
		assert_true(verify(&cs[i]));
		close_conn(&cs[i]);
	}
	/* Every waiting job abandoned: nobody reads their replies. */
	conn lone[2];
	for (int i = 0; i < 2; i++) {
		conn_init(&lone[i], K_RSA, 320 + i);
		step(&lone[i]);
		close_conn(&lone[i]);
	}
	conn after;
	conn_init(&after, K_RSA, 330);
	step(&after);
	run(&after, 1);
	assert_true(after.ok);
	assert_true(verify(&after));
	close_conn(&after);
	assert_int_equal(open_fds(), fds0); /* every eventfd closed */
}

/* Nothing readable among a connection's filed descriptors (poll, no
 * wait): while vgd is frozen, nothing may wake a job that does not hold
 * a wake-up owed to it. */
static int any_readable(const conn *c)
{
	struct pollfd p[16];
	for (int i = 0; i < c->nfiled; i++)
		p[i] = (struct pollfd){.fd = c->filed[i], .events = POLLIN};
	int r = poll(p, (nfds_t)c->nfiled, 0);
	assert_true(r >= 0);
	return r > 0;
}

/* Connections freed while their jobs wait (SSL_free mid-handshake), in
 * rounds: vgd is frozen while the jobs are submitted, a third of them go
 * (a watch holder in every other round), and new jobs start at once, so
 * they are given the descriptor numbers just closed while the freed jobs'
 * requests are still unanswered. Each new and surviving job must get the
 * signature of its own message (a late reply or a wake meant for a freed
 * job completes no other), and no descriptor may be left behind: the
 * process holds as many at the end as after the warm-up (a slot's
 * descriptor kept open or pooled past its wait context fails here, and so
 * in close_conn does one still open after the free). */
static void test_churn(void **state)
{
	enum { ROUNDS = 12, PER = 12 };
	static conn cs[2 * PER];
	for (int k = 0; k < NKEYS; k++) {
		conn warm;
		conn_init(&warm, k, 500 + k);
		step(&warm);
		run(&warm, 1);
		assert_true(warm.ok);
		close_conn(&warm);
	}
	int fds0 = open_fds();
	int reused = 0;
	for (int r = 0; r < ROUNDS; r++) {
		int seq = 600 + r * 2 * PER;
		freeze_vgd(SIGSTOP);
		for (int i = 0; i < PER; i++) {
			conn_init(&cs[i], (r + i) % NKEYS, seq + i);
			step(&cs[i]);
			assert_false(cs[i].done);
		}
		/* The first job of each key holds its connection's watch: the
		 * one of key r % NKEYS goes in even rounds, none in odd ones. */
		int freed[MAXFD] = {0};
		int n = PER;
		for (int i = r % 2 ? NKEYS + 1 : 0; i < PER; i += 3) {
			for (int j = 0; j < cs[i].nfiled; j++)
				freed[cs[i].filed[j]] = 1;
			close_conn(&cs[i]);
			conn_init(&cs[n], (r + n) % NKEYS, seq + n);
			step(&cs[n]);
			assert_false(cs[n].done);
			for (int j = 0; j < cs[n].nfiled; j++)
				reused += freed[cs[n].filed[j]];
			n++;
		}
		/* The holders stayed in odd rounds: no other job is owed a
		 * wake-up while vgd is frozen, so a readable descriptor is a
		 * stale one (left by a freed job, or woken by a reply meant
		 * for one). */
		int stale = 0;
		for (int i = NKEYS; r % 2 && i < n; i++)
			stale += cs[i].w && any_readable(&cs[i]);
		freeze_vgd(SIGCONT);
		assert_int_equal(stale, 0);
		run(cs, n);
		for (int i = 0; i < n; i++) {
			if (!cs[i].w)
				continue; /* freed while it waited */
			assert_true(cs[i].done && cs[i].ok);
			assert_true(verify(&cs[i]));
			close_conn(&cs[i]);
		}
	}
	assert_int_equal(open_fds(), fds0);
	/* The numbers were given again: the case above was exercised. */
	assert_true(reused > 0);
}

/* Wait contexts used again (a second signature on the same SSL) after
 * their first jobs were completed by the holder's read of the replies:
 * the new jobs pause and, while no reply can come (vgd frozen), nothing
 * left from the first ones wakes them. The first to submit again holds
 * the watch (the socket may hold late bytes for it); no other is owed a
 * wake-up. */
static void test_reuse_after_wake(void **state)
{
	enum { N = 6 };
	static conn cs[N];
	freeze_vgd(SIGSTOP);
	for (int i = 0; i < N; i++) {
		conn_init(&cs[i], K_ED, 700 + i);
		step(&cs[i]);
		assert_false(cs[i].done);
	}
	freeze_vgd(SIGCONT);
	run(cs, N);
	freeze_vgd(SIGSTOP);
	for (int i = 0; i < N; i++) {
		assert_true(cs[i].ok && verify(&cs[i]));
		cs[i].job = NULL; /* a new job on the same wait context */
		cs[i].started = cs[i].done = cs[i].ok = 0;
		cs[i].msg[0] ^= 0xff;
		step(&cs[i]);
		assert_false(cs[i].done);
	}
	int stale = 0;
	for (int i = 1; i < N; i++)
		stale += any_readable(&cs[i]);
	freeze_vgd(SIGCONT);
	assert_int_equal(stale, 0);
	run(cs, N);
	for (int i = 0; i < N; i++) {
		assert_true(cs[i].ok && verify(&cs[i]));
		close_conn(&cs[i]);
	}
}

/* vgd stops while jobs wait: they complete with an error (not hang);
 * after it is back, new jobs sign. */
static void test_vgd_restart(void **state)
{
	static conn cs[6];
	for (int i = 0; i < 6; i++) {
		conn_init(&cs[i], i % NKEYS, 400 + i);
		step(&cs[i]);
	}
	assert_int_equal(vgt_stop(&T.d), 0);
	run(cs, 6);
	for (int i = 0; i < 6; i++) {
		/* vgd drains what it had before it stops: a signature that
		 * came back must verify; the others failed. */
		if (cs[i].ok)
			assert_true(verify(&cs[i]));
		close_conn(&cs[i]);
	}
	/* vgd down: a new job fails at once. */
	conn down;
	conn_init(&down, K_ED, 410);
	step(&down);
	run(&down, 1);
	assert_false(down.ok);
	close_conn(&down);
	assert_int_equal(vgt_start(&T.d, 0, NULL), 0);
	for (int i = 0; i < 6; i++) {
		conn_init(&cs[i], i % NKEYS, 420 + i);
		step(&cs[i]);
	}
	run(cs, 6);
	for (int i = 0; i < 6; i++) {
		assert_true(cs[i].ok);
		assert_true(verify(&cs[i]));
		close_conn(&cs[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_outside_job), cmocka_unit_test(test_one_job_pauses),
		cmocka_unit_test(test_pipelined),        cmocka_unit_test(test_abandoned),
		cmocka_unit_test(test_churn),            cmocka_unit_test(test_reuse_after_wake),
		cmocka_unit_test(test_vgd_restart),
	};
	return cmocka_run_group_tests_name("provider-async", tests, setup, teardown);
}
