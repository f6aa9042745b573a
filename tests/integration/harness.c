/* harness.c: see harness.h. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procutil.h"
#include "vgclient.h"

const char vgt_default_keys[] =
	"[key ed]\nfile = ed25519.pem\nallow = sign\n\n"
	"[key ed-tls]\nfile = ed25519-b.pem\nallow = tls13\n\n"
	"[key ed-der]\nfile = ed25519-b.der\nallow = sign\n\n"
	"[key x]\nfile = x25519.pem\nallow = x25519\n\n"
	"[key rsa2048]\nfile = rsa2048.pem\nallow = sign, rsa-private\n\n"
	"[key rsa3072]\nfile = rsa3072.pem\nallow = sign\n\n"
	"[key rsa4096]\nfile = rsa4096.pem\nallow = sign, rsa-private\n\n"
	"[key rsa-pkcs1]\nfile = rsa2048-pkcs1.pem\nallow = tls13\n\n"
	"[key rsa-der]\nfile = rsa3072.der\nallow = sign\n";

static const char *key_files[] = {"ed25519.pem",    "ed25519-b.pem",     "ed25519-b.der",
				  "x25519.pem",     "rsa2048.pem",       "rsa3072.pem",
				  "rsa4096.pem",    "rsa2048-pkcs1.pem", "rsa3072.der",
				  "ecdsa-p256.pem", "ecdsa-p384.pem"};

const char *vgt_key(const vgt_daemon *d, const char *file, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/%s", d->dir, file);
	return buf;
}

int vgt_write_config(vgt_daemon *d, const char *globals, const char *keys)
{
	char tmp[400];
	snprintf(tmp, sizeof(tmp), "%s.tmp", d->conf);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	/* Started as root (as the tests are), vgd runs its front as a user
	 * of its own, which must exist: nobody does everywhere (vgd.conf(5):
	 * front_user, default vgd-front, a dedicated user for real use). */
	fprintf(f, "socket = %s\nkeyholders = 2\nlog_level = debug\nfront_user = nobody\n%s\n%s\n",
		d->sock, globals ? globals : "", keys ? keys : "");
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, d->conf);
}

int vgt_setup(vgt_daemon *d, const char *globals, const char *keys)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/vgd-test.XXXXXX");
	if (!mkdtemp(d->dir))
		return -1;
	snprintf(d->sock, sizeof(d->sock), "%s/vgd.sock", d->dir);
	snprintf(d->conf, sizeof(d->conf), "%s/vgd.conf", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/vgd.log", d->dir);
	const char *src = getenv("VG_TEST_KEYS");
	if (!src) {
		fprintf(stderr, "harness: VG_TEST_KEYS is not set\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof(key_files) / sizeof(key_files[0]); i++) {
		char a[512], b[512];
		snprintf(a, sizeof(a), "%s/%s", src, key_files[i]);
		snprintf(b, sizeof(b), "%s/%s", d->dir, key_files[i]);
		if (vg_copy_file(a, b) < 0) {
			fprintf(stderr, "harness: cannot copy %s\n", a);
			return -1;
		}
	}
	return vgt_write_config(d, globals, keys);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void vgt_dump_log(const vgt_daemon *d)
{
	FILE *f = fopen(d->log, "r");
	if (!f)
		return;
	char line[1024];
	fprintf(stderr, "---- vgd log (%s) ----\n", d->log);
	while (fgets(line, sizeof(line), f))
		fputs(line, stderr);
	fprintf(stderr, "---- end of vgd log ----\n");
	fclose(f);
}

int vgt_start(vgt_daemon *d, int testhooks, char *const extra_env[])
{
	const char *bin = getenv(testhooks ? "VG_VGD_TESTHOOKS" : "VG_VGD");
	if (!bin) {
		fprintf(stderr, "harness: VG_VGD/VG_VGD_TESTHOOKS not set\n");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(d->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
		for (size_t i = 0; extra_env && extra_env[i]; i++)
			putenv(extra_env[i]);
		execl(bin, bin, "-c", d->conf, (char *)NULL);
		_exit(127);
	}
	d->pid = pid;
	vg_client *c = vg_client_new(d->sock);
	vg_client_set_timeout(c, 1000);
	long long deadline = now_ms() + 10000;
	while (now_ms() < deadline) {
		if (vg_client_ping(c) == 0) {
			vg_client_free(c);
			return 0;
		}
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			d->pid = 0;
			break;
		}
		usleep(20000);
	}
	vg_client_free(c);
	fprintf(stderr, "harness: vgd did not start\n");
	vgt_dump_log(d);
	return -1;
}

int vgt_stop(vgt_daemon *d)
{
	if (d->pid <= 0)
		return -1;
	kill(d->pid, SIGTERM);
	long long deadline = now_ms() + 10000;
	int st = 0;
	while (waitpid(d->pid, &st, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(d->pid, SIGKILL);
			waitpid(d->pid, &st, 0);
			d->pid = 0;
			return -1;
		}
		usleep(10000);
	}
	d->pid = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void vgt_cleanup(vgt_daemon *d)
{
	if (d->pid > 0)
		vgt_stop(d);
	if (!d->dir[0])
		return;
	vg_remove_dir(d->dir);
	d->dir[0] = 0;
}

int vgt_silent_server(const vgt_daemon *d, const char *name, char *path, size_t cap)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int n = snprintf(path, cap, "%s/%s", d->dir, name);
	if (n < 0 || (size_t)n >= cap || (size_t)n >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, (size_t)n + 1);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(s, 8) < 0) {
		close(s);
		return -1;
	}
	return s;
}

int vgt_finish(vgt_daemon *d)
{
	int st = vgt_stop(d);
	if (st != 0)
		vgt_dump_log(d);
	vgt_cleanup(d);
	return st == 0 ? 0 : -1;
}

vg_client *vgt_start_client(vgt_daemon *d, int testhooks)
{
	if (vgt_setup(d, NULL, vgt_default_keys) < 0 || vgt_start(d, testhooks, NULL) < 0)
		return NULL;
	vg_client *c = vg_client_new(d->sock);
	/* Not the default 5 s: on a loaded machine, under the sanitizers, a
	 * pipelined burst of RSA requests can take longer, and these tests
	 * are not about timeouts (those that are set their own). */
	if (c)
		vg_client_set_timeout(c, 60000);
	return c;
}

int vgt_log_count(const vgt_daemon *d, const char *needle)
{
	FILE *f = fopen(d->log, "r");
	if (!f)
		return 0;
	char line[2048];
	int n = 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

int vgt_children(const vgt_daemon *d, pid_t *pids, int cap)
{
	return vg_proc_children(d->pid, pids, cap);
}
