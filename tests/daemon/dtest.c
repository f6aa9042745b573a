/* dtest.c: see dtest.h. */
#include "dtest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long long dt_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int dt_connect(const char *path)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int dt_send_all(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read exactly n bytes before the deadline. 1 done, 0 EOF at once, -1. */
static int read_exact(int fd, uint8_t *buf, size_t n, long long deadline)
{
	size_t got = 0;
	while (got < n) {
		long long left = deadline - dt_now_ms();
		if (left <= 0)
			return -1;
		struct pollfd p = {fd, POLLIN, 0};
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == ECONNRESET && got == 0)
			return 0;
		if (k < 0)
			return -1;
		if (k == 0)
			return got == 0 ? 0 : -1;
		got += (size_t)k;
	}
	return 1;
}

long dt_read_frame(int fd, uint8_t *buf, size_t cap, int timeout_ms)
{
	long long deadline = dt_now_ms() + timeout_ms;
	if (cap < VG_PROTO_HDR_LEN)
		return -1;
	int r = read_exact(fd, buf, VG_PROTO_HDR_LEN, deadline);
	if (r <= 0)
		return r == 0 ? 0 : -1;
	vg_frame_hdr h;
	long t = vg_frame_check(buf, VG_PROTO_HDR_LEN, &h);
	if (t < 0 || VG_PROTO_HDR_LEN + (size_t)h.body_len > cap)
		return -1;
	if (h.body_len && read_exact(fd, buf + VG_PROTO_HDR_LEN, h.body_len, deadline) != 1)
		return -1;
	return (long)(VG_PROTO_HDR_LEN + h.body_len);
}

int dt_read_reply(int fd, uint8_t *buf, size_t cap, int timeout_ms, vg_reply *rep)
{
	long n = dt_read_frame(fd, buf, cap, timeout_ms);
	if (n <= 0)
		return -1;
	return vg_reply_decode(buf, (size_t)n, rep) == VG_ST_OK ? 0 : -1;
}

int dt_wait_closed(int fd, int timeout_ms)
{
	struct pollfd p = {fd, POLLIN, 0};
	int r;
	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	char b;
	ssize_t k = recv(fd, &b, 1, MSG_DONTWAIT);
	if (k == 0 || (k < 0 && errno == ECONNRESET))
		return 1;
	return -1;
}

long dt_req_sign(uint8_t *buf, size_t cap, uint32_t id, const char *key, int alg,
		 const void *data, size_t len)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_SIGN;
	rq.id = id;
	snprintf(rq.key, sizeof(rq.key), "%s", key);
	rq.alg = (uint8_t)alg;
	rq.data = data;
	rq.data_len = len;
	rq.has_data = 1;
	return vg_request_encode(&rq, buf, cap);
}

long dt_req_simple(uint8_t *buf, size_t cap, uint8_t op, uint32_t id)
{
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = op;
	rq.id = id;
	return vg_request_encode(&rq, buf, cap);
}

int dt_hinted_pings(int fd, uint32_t cpu, int n)
{
	for (int i = 0; i < n; i++) {
		vg_request q = {.op = VG_OP_PING, .id = (uint32_t)i + 1, .has_cpu = 1, .cpu = cpu};
		uint8_t frame[64], buf[256];
		vg_reply rep;
		long len = vg_request_encode(&q, frame, sizeof(frame));
		if (len <= 0 || dt_send_all(fd, frame, (size_t)len) != 0 ||
		    dt_read_reply(fd, buf, sizeof(buf), 5000, &rep) != 0 || rep.status != VG_ST_OK)
			return -1;
	}
	return 0;
}

long dt_raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	return (long)rl.rlim_cur;
}

/* The state letter of /proc/PID/stat (R, S, Z, ...), or 0 if gone. The
 * comm field before it is in parentheses and may hold spaces: the state
 * follows the last ')'. */
static char dt_proc_state(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *close = strrchr(buf, ')');
	return close && close[1] == ' ' ? close[2] : 0;
}

int dt_children_named(const vgt_daemon *d, const char *comm, pid_t *pids, int cap)
{
	pid_t all[512];
	int n = vgt_children(d, all, 512), k = 0;
	for (int i = 0; i < n && k < cap; i++) {
		char p[64], name[64] = "";
		/* A zombie (exited, not yet reaped) is not a child that runs:
		 * signalling it does nothing, and a test that picked it would
		 * wait for an exit that already happened. */
		if (dt_proc_state(all[i]) == 'Z')
			continue;
		snprintf(p, sizeof(p), "/proc/%d/comm", (int)all[i]);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = 0;
			if (strcmp(name, comm) == 0)
				pids[k++] = all[i];
		}
		fclose(f);
	}
	return k;
}

int dt_wait_children(const vgt_daemon *d, const char *comm, int n, pid_t not_this, pid_t *pids)
{
	long long deadline = dt_now_ms() + DT_WAIT_MIN_MS;
	for (;;) {
		if (dt_children_named(d, comm, pids, 8) == n && (not_this == 0 || pids[0] != not_this))
			return n;
		if (dt_now_ms() > deadline)
			return -1;
		usleep(50000);
	}
}

long dt_proc_status(pid_t pid, const char *field)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t fl = strlen(field);
	long v = -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, field, fl) == 0 && line[fl] == ':' &&
		    sscanf(line + fl + 1, "%ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

long long dt_stat(const char *sock, const char *name)
{
	vg_client *c = vg_client_new(sock);
	if (!c)
		return -1;
	vgc_stat *st = NULL;
	int n = vg_client_stats(c, &st);
	long long v = -1;
	for (int i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			v = (long long)st[i].value;
	free(st);
	vg_client_free(c);
	return v;
}

long long dt_stat_on(int fd, const char *name)
{
	uint8_t req[64];
	static uint8_t buf[VG_PROTO_MAX_FRAME];
	long n = dt_req_simple(req, sizeof(req), VG_OP_STATS, 0x57a7);
	vg_reply rep;
	if (n <= 0 || dt_send_all(fd, req, (size_t)n) < 0 ||
	    dt_read_reply(fd, buf, sizeof(buf), 5000, &rep) < 0 || rep.status != VG_ST_OK ||
	    rep.id != 0x57a7)
		return -1;
	vg_item it;
	while (vg_item_next(&rep.items, &it) == 1) {
		if (it.tag != VG_T_STAT)
			continue;
		vg_cursor c = vg_item_cursor(&it);
		vg_item sub;
		int match = 0;
		uint64_t v = 0;
		int have = 0;
		while (vg_item_next(&c, &sub) == 1) {
			if (sub.tag == VG_T_STAT_NAME)
				match = sub.len == strlen(name) && memcmp(sub.val, name, sub.len) == 0;
			else if (sub.tag == VG_T_STAT_VALUE)
				have = vg_item_u64(&sub, &v) == 0;
		}
		if (match && have)
			return (long long)v;
	}
	return -1;
}

int dt_wait_log(const vgt_daemon *d, const char *needle, int min_count, int timeout_ms)
{
	long long deadline = dt_now_ms() + (timeout_ms > DT_WAIT_MIN_MS ? timeout_ms : DT_WAIT_MIN_MS);
	for (;;) {
		if (vgt_log_count(d, needle) >= min_count)
			return 1;
		if (dt_now_ms() > deadline)
			return 0;
		usleep(20000);
	}
}

int dt_run_vgd(const char *const argv[], char *out, size_t cap)
{
	const char *bin = getenv("VG_VGD");
	int p[2];
	if (!bin || cap == 0 || pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		const char *args[16];
		int n = 0;
		args[n++] = bin;
		for (int i = 1; argv[i] && n < 15; i++)
			args[n++] = argv[i];
		args[n] = NULL;
		execv(bin, (char *const *)args);
		_exit(127);
	}
	close(p[1]);
	size_t len = 0;
	ssize_t k;
	while ((k = read(p[0], out + len, cap - 1 - len)) > 0)
		len += (size_t)k;
	out[len] = 0;
	close(p[0]);
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int dt_stop_clean(vgt_daemon *d)
{
	int violations = vgt_log_count(d, "sandbox violation");
	if (violations)
		vgt_dump_log(d);
	return vgt_finish(d) == 0 && violations == 0 ? 0 : -1;
}

int dt_front_hook(const char *sock, const char *cmd, char *out, size_t cap)
{
	char data[128];
	int dl = snprintf(data, sizeof(data), "vgd-test-front:%s", cmd);
	vg_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.op = VG_OP_PING;
	rq.id = 0x600c;
	rq.data = (const uint8_t *)data;
	rq.data_len = (size_t)dl;
	rq.has_data = 1;
	uint8_t req[256], buf[1024];
	long n = vg_request_encode(&rq, req, sizeof(req));
	int fd = dt_connect(sock);
	if (cap)
		out[0] = 0;
	if (fd < 0)
		return -1;
	vg_reply rep;
	int r = -1;
	if (n > 0 && dt_send_all(fd, req, (size_t)n) == 0 &&
	    dt_read_reply(fd, buf, sizeof(buf), 10000, &rep) == 0 && rep.status == VG_ST_OK) {
		if (cap) {
			size_t k = rep.result_len < cap - 1 ? rep.result_len : cap - 1;
			memcpy(out, rep.result, k);
			out[k] = 0;
		}
		r = 0;
	}
	close(fd);
	return r;
}
