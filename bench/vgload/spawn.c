/* spawn.c: vgload's own vgd: a temporary directory with copies of the test
 * keys (mode 0600, as vgd requires), a config, the daemon started on a
 * socket there and stopped at the end. Secret: the copied test keys (they
 * are removed with the directory). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procutil.h"
#include "vgload.h"

static const char *const key_files[] = {"ed25519.pem", "x25519.pem",     "rsa2048.pem",
					"rsa3072.pem", "ecdsa-p256.pem", "ecdsa-p384.pem"};

static const char config_keys[] = "[key ed]\nfile = ed25519.pem\nallow = sign\n\n"
				  "[key x]\nfile = x25519.pem\nallow = x25519\n\n"
				  "[key rsa2048]\nfile = rsa2048.pem\nallow = sign, rsa-private\n\n"
				  "[key rsa3072]\nfile = rsa3072.pem\nallow = sign\n\n"
				  "[key ec256]\nfile = ecdsa-p256.pem\nallow = sign\n\n"
				  "[key ec384]\nfile = ecdsa-p384.pem\nallow = sign\n";

int vgl_daemon_start(vgl_daemon *d, const char *vgd, const char *keys_dir, int keyholders,
		     int busy_poll_us, uint64_t deadline_ns, char *why, size_t whylen)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/vgload.XXXXXX");
	if (!mkdtemp(d->dir)) {
		snprintf(why, whylen, "mkdtemp: %s", strerror(errno));
		d->dir[0] = 0;
		return -1;
	}
	snprintf(d->sock, sizeof(d->sock), "%s/vgd.sock", d->dir);
	snprintf(d->conf, sizeof(d->conf), "%s/vgd.conf", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/vgd.log", d->dir);
	for (size_t i = 0; i < sizeof(key_files) / sizeof(key_files[0]); i++) {
		char a[512], b[512];
		snprintf(a, sizeof(a), "%s/%s", keys_dir, key_files[i]);
		snprintf(b, sizeof(b), "%s/%s", d->dir, key_files[i]);
		if (vg_copy_file(a, b) < 0) {
			snprintf(why, whylen, "cannot copy %s", a);
			return -1;
		}
	}
	FILE *f = fopen(d->conf, "w");
	if (!f) {
		snprintf(why, whylen, "cannot write %s", d->conf);
		return -1;
	}
	/* max_inflight at the protocol maximum so that -k is never capped. */
	fprintf(f,
		"socket = %s\nkeyholders = %d\nlog_level = warning\nmax_inflight = %u\n"
		"busy_poll_us = %d\nfront_user = nobody\nmax_inflight_per_uid = 1000000\n\n%s",
		d->sock, keyholders, VGL_MAX_DEPTH, busy_poll_us, config_keys);
	if (fclose(f) != 0) {
		snprintf(why, whylen, "cannot write %s", d->conf);
		return -1;
	}
	/* If vgload dies (SIGKILL, a closed pipe), its vgd goes too. */
	pid_t pid = vg_spawn_vgd(vgd, d->conf, d->log);
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	d->pid = pid;
	while (vgl_now_ns() < deadline_ns) {
		if (vgl_ping(d->sock, deadline_ns) == 0)
			return 0;
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			d->pid = 0;
			snprintf(why, whylen, "%s exited at start (status %d); log: %s", vgd,
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1, d->log);
			return -1;
		}
		usleep(10000);
	}
	snprintf(why, whylen, "%s did not answer a ping in time; log: %s", vgd, d->log);
	return -1;
}

void vgl_daemon_stop(vgl_daemon *d, uint64_t deadline_ns, int keep_log)
{
	uint64_t now = vgl_now_ns();
	vg_stop_vgd(d->pid, deadline_ns > now ? (int)((deadline_ns - now) / 1000000u) : 0);
	d->pid = 0;
	if (d->dir[0] && !keep_log)
		vg_remove_dir(d->dir);
	else if (d->dir[0])
		for (size_t i = 0; i < sizeof(key_files) / sizeof(key_files[0]); i++) {
			char p[400];
			snprintf(p, sizeof(p), "%s/%s", d->dir, key_files[i]);
			unlink(p);
		}
}
