/* test_sdactivate.c: vgd as systemd starts it, without systemd as PID 1:
 * the listening socket comes from systemd-socket-activate (LISTEN_FDS,
 * exec on the first connection), readiness and state changes go to a
 * $NOTIFY_SOCKET this test listens on, a key comes from
 * $CREDENTIALS_DIRECTORY. With VG_SD_SYSCALLS set, the whole tree
 * (systemd-socket-activate, vgd and its children) runs under vgd.service's
 * system call filter and limits (unit_sandbox.c). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "unit_sandbox.h"
#include "vg/ed25519.h"
#include "vgclient.h"

/* vgd.service's LimitMEMLOCK=. */
#define UNIT_MEMLOCK (16ul << 20)

typedef struct {
	vgt_daemon d;
	char activated[320]; /* the socket systemd-socket-activate listens on */
	char notify[320];
	char creds[320];
	int notify_fd;
	pid_t pid;
} sd_run;

static const char keys[] =
	"[key cred-ed]\ncredential = vgd_ed25519.pem\nallow = sign\n\n"
	"[key file-rsa]\nfile = rsa2048.pem\nallow = sign\n";

static int copy_key(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0400);
	char buf[8192];
	ssize_t n = 0;
	int r = in >= 0 && out >= 0 ? 0 : -1;
	while (r == 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			r = -1;
	if (n < 0)
		r = -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		r = -1;
	return r;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Receive one notify datagram (NUL-terminated in buf), waiting ms at
 * most. Returns its length or -1. */
static int notify_recv(sd_run *s, char *buf, size_t cap, int ms)
{
	struct pollfd p = {s->notify_fd, POLLIN, 0};
	if (poll(&p, 1, ms) != 1)
		return -1;
	ssize_t n = recv(s->notify_fd, buf, cap - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return (int)n;
}

/* Wait until a datagram carrying line (e.g. "READY=1") arrives; other
 * datagrams (STATUS=...) are skipped. Returns 0 or -1. */
static int notify_expect(sd_run *s, const char *line, int ms)
{
	char buf[1024];
	while (notify_recv(s, buf, sizeof(buf), ms) >= 0) {
		for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
			if (strcmp(l, line) == 0)
				return 0;
	}
	fprintf(stderr, "no %s from vgd on $NOTIFY_SOCKET\n", line);
	return -1;
}

static void start(sd_run *s)
{
	const char *activate = getenv("VG_SD_SOCKET_ACTIVATE"), *vgd = getenv("VG_VGD");
	const char *syscalls = getenv("VG_SD_SYSCALLS");
	assert_non_null(activate);
	assert_non_null(vgd);
	fflush(NULL);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		int fd = open(s->d.log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
			close(fd);
		}
		if (syscalls && vgt_unit_sandbox(syscalls, UNIT_MEMLOCK) < 0)
			_exit(126);
		char env_notify[400], env_creds[400];
		snprintf(env_notify, sizeof(env_notify), "NOTIFY_SOCKET=%s", s->notify);
		snprintf(env_creds, sizeof(env_creds), "CREDENTIALS_DIRECTORY=%s", s->creds);
		/* systemd-socket-activate passes on only -E variables (and
		 * TERM, PATH, USER, HOME), like the manager does. */
		execl(activate, activate, "-l", s->activated, "-E", env_notify, "-E", env_creds,
		      vgd, "-c", s->d.conf, (char *)NULL);
		_exit(127);
	}
	s->d.pid = s->pid; /* vgt_cleanup stops it if a test fails midway */
}

static int setup(void **state)
{
	sd_run *s = calloc(1, sizeof(*s));
	if (!s || vgt_setup(&s->d, NULL, keys) < 0)
		return -1;
	snprintf(s->activated, sizeof(s->activated), "%s/activated.sock", s->d.dir);
	snprintf(s->notify, sizeof(s->notify), "%s/notify.sock", s->d.dir);
	snprintf(s->creds, sizeof(s->creds), "%s/creds", s->d.dir);
	char src[400], dst[400];
	snprintf(dst, sizeof(dst), "%s/vgd_ed25519.pem", s->creds);
	if (mkdir(s->creds, 0500 | 0200) < 0 ||
	    copy_key(vgt_key(&s->d, "ed25519.pem", src, sizeof(src)), dst) < 0 ||
	    chmod(s->creds, 0500) < 0)
		return -1;
	s->notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(s->notify) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, s->notify, strlen(s->notify));
	if (s->notify_fd < 0 || bind(s->notify_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	sd_run *s = *state;
	if (s->d.pid > 0)
		vgt_dump_log(&s->d);
	close(s->notify_fd);
	char p[400];
	snprintf(p, sizeof(p), "%s/vgd_ed25519.pem", s->creds);
	chmod(s->creds, 0700);
	unlink(p);
	rmdir(s->creds);
	unlink(s->notify);
	unlink(s->activated);
	vgt_cleanup(&s->d);
	free(s);
	return 0;
}

/* Sign with the credential key and check the signature against the
 * public key vgd lists for it. */
static void sign_and_verify(vg_client *c)
{
	vgc_key_info *ki = NULL;
	int n = vg_client_list_keys(c, &ki);
	assert_int_equal(n, 2);
	const vgc_key_info *ed = NULL;
	for (int i = 0; i < n; i++)
		if (strcmp(ki[i].name, "cred-ed") == 0)
			ed = &ki[i];
	assert_non_null(ed);
	assert_int_equal(ed->pub_len, 32);
	static const char msg[] = "socket-activated vgd";
	uint8_t sig[64];
	size_t sig_len = 0;
	assert_int_equal(vg_client_sign(c, "cred-ed", VGC_ALG_ED25519, msg, sizeof(msg) - 1, sig,
					sizeof(sig), &sig_len),
			 0);
	assert_int_equal(sig_len, 64);
	assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg) - 1, ed->pub), 0);
	sig[10] ^= 1;
	assert_int_not_equal(vg_ed25519_verify(sig, msg, sizeof(msg) - 1, ed->pub), 0);
	free(ki);
}

static void test_activation_notify_reload_stop(void **state)
{
	sd_run *s = *state;
	start(s);
	/* systemd-socket-activate execs vgd on the first connection, as the
	 * manager starts vgd.service when vgd.socket is first used: this
	 * request is queued in the socket until vgd accepts it. */
	vg_client *c = vg_client_new(s->activated);
	assert_non_null(c);
	vg_client_set_timeout(c, 5000);
	int r = -1;
	for (long long end = now_ms() + 15000; r != 0 && now_ms() < end;) {
		r = vg_client_ping(c);
		if (r != 0)
			usleep(20000); /* the socket may not be bound yet */
	}
	if (r != 0)
		vgt_dump_log(&s->d);
	assert_int_equal(r, 0);
	assert_int_equal(notify_expect(s, "READY=1", 10000), 0);
	/* vgd took the inherited socket: the configured path was not made. */
	struct stat st;
	assert_int_not_equal(stat(s->d.sock, &st), 0);
	sign_and_verify(c);

	/* systemctl reload: SIGHUP, RELOADING=1, then READY=1 again. */
	assert_int_equal(kill(s->pid, SIGHUP), 0);
	assert_int_equal(notify_expect(s, "RELOADING=1", 10000), 0);
	assert_int_equal(notify_expect(s, "READY=1", 10000), 0);
	sign_and_verify(c);
	vg_client_free(c);

	/* The unit's LimitMEMLOCK= is enough to lock the keys. */
	if (getenv("VG_SD_SYSCALLS"))
		assert_int_equal(vgt_log_count(&s->d, "could not mlock"), 0);
	assert_int_equal(vgt_log_count(&s->d, "sandbox violation"), 0);

	/* systemctl stop (KillMode=mixed): SIGTERM to the main process. */
	assert_int_equal(kill(s->pid, SIGTERM), 0);
	assert_int_equal(notify_expect(s, "STOPPING=1", 10000), 0);
	int status = 0;
	pid_t w = 0;
	for (int i = 0; i < 500 && (w = waitpid(s->pid, &status, WNOHANG)) == 0; i++)
		usleep(20000);
	assert_int_equal(w, s->pid); /* else teardown kills it */
	s->d.pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		vgt_dump_log(&s->d);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_activation_notify_reload_stop, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
