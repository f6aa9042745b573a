/* rpc.c: one request and its reply over a fresh connection, with a
 * deadline: vgload's ping (is the daemon up?), stats (how many
 * keyholders?) and hello (does it take the CPU hint?). Nothing here is
 * secret. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "vg/proto.h"
#include "vgload.h"

static int wait_fd(int fd, short ev, uint64_t deadline_ns)
{
	uint64_t now = vgl_now_ns();
	if (now >= deadline_ns)
		return -1;
	struct pollfd p = {.fd = fd, .events = ev};
	int ms = (int)((deadline_ns - now + 999999u) / 1000000u);
	int r = poll(&p, 1, ms);
	return r == 1 ? 0 : -1;
}

/* Send req, read one whole reply frame into buf. Its length, or -1. */
static long rpc(const char *sock, const vg_request *req, uint8_t *buf, size_t cap,
		uint64_t deadline_ns)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(sock) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	long res = -1;
	uint8_t frame[256];
	long n = vg_request_encode(req, frame, sizeof(frame));
	if (n <= 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto out;
	size_t off = 0;
	while (off < (size_t)n) {
		ssize_t w = send(fd, frame + off, (size_t)n - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EAGAIN && wait_fd(fd, POLLOUT, deadline_ns) == 0)
			continue;
		if (w <= 0)
			goto out;
		off += (size_t)w;
	}
	size_t have = 0;
	for (;;) {
		vg_frame_hdr h;
		long fl = vg_frame_check(buf, have, &h);
		if (fl < 0)
			goto out;
		if (fl > 0) {
			res = fl;
			goto out;
		}
		if (have == cap)
			goto out;
		ssize_t r = read(fd, buf + have, cap - have);
		if (r < 0 && errno == EAGAIN && wait_fd(fd, POLLIN, deadline_ns) == 0)
			continue;
		if (r <= 0)
			goto out;
		have += (size_t)r;
	}
out:
	close(fd);
	return res;
}

int vgl_ping(const char *sock, uint64_t deadline_ns)
{
	vg_request rq = {.op = VG_OP_PING, .id = 1};
	uint8_t buf[256];
	vg_reply rep;
	long n = rpc(sock, &rq, buf, sizeof(buf), deadline_ns);
	return n > 0 && vg_reply_decode(buf, (size_t)n, &rep) == VG_ST_OK &&
			       rep.status == VG_ST_OK && rep.id == 1
		       ? 0
		       : -1;
}

long long vgl_stat(const char *sock, const char *name, uint64_t deadline_ns)
{
	vg_request rq = {.op = VG_OP_STATS, .id = 2};
	static uint8_t buf[VG_PROTO_MAX_FRAME];
	vg_reply rep;
	long n = rpc(sock, &rq, buf, sizeof(buf), deadline_ns);
	if (n <= 0 || vg_reply_decode(buf, (size_t)n, &rep) != VG_ST_OK || rep.status != VG_ST_OK)
		return -1;
	vg_cursor c = rep.items;
	vg_item it;
	while (vg_item_next(&c, &it) == 1) {
		if (it.tag != VG_T_STAT)
			continue;
		vg_cursor s = vg_item_cursor(&it);
		vg_item f;
		int match = 0;
		uint64_t v = 0;
		int have_v = 0;
		while (vg_item_next(&s, &f) == 1) {
			if (f.tag == VG_T_STAT_NAME)
				match = f.len == strlen(name) && memcmp(f.val, name, f.len) == 0;
			else if (f.tag == VG_T_STAT_VALUE)
				have_v = vg_item_u64(&f, &v) == 0;
		}
		if (match && have_v)
			return (long long)v;
	}
	return -1;
}

uint32_t vgl_caps(const char *sock, uint64_t deadline_ns)
{
	vg_request rq = {.op = VG_OP_HELLO, .id = 3};
	uint8_t buf[1024];
	vg_reply rep;
	long n = rpc(sock, &rq, buf, sizeof(buf), deadline_ns);
	if (n <= 0 || vg_reply_decode(buf, (size_t)n, &rep) != VG_ST_OK || rep.status != VG_ST_OK)
		return 0;
	vg_cursor c = rep.items;
	vg_item it;
	uint32_t caps = 0;
	while (vg_item_next(&c, &it) == 1)
		if (it.tag == VG_T_CAPS)
			(void)vg_item_u32(&it, &caps);
	return caps;
}
