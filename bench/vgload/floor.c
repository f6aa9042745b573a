/* floor.c: the platform's floor under vgd's latency: the round trip of a
 * 64-byte message between two processes over an AF_UNIX SOCK_SEQPACKET
 * socketpair, both sides blocking in recv. vgd's 1x1 path makes two such
 * hops (client -> front -> keyholder and back), so this says how much of
 * its overhead is the machine's. Nothing here is secret. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vgload.h"

#define MSG 64
#define WARM 200    /* round trips not recorded: both sides' first wake-ups */
#define MAX_RT 4000 /* enough for a p99 with 40 samples above it */

/* The child: echo every message until the parent's end closes. */
static void echo(int fd)
{
	uint8_t buf[MSG];
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || send(fd, buf, (size_t)n, MSG_NOSIGNAL) != n)
			_exit(0);
	}
}

/* One round trip: 0, or an errno value (ECONNRESET: the child is gone). */
static int round_trip(int fd, uint8_t *buf)
{
	if (send(fd, buf, MSG, MSG_NOSIGNAL) != MSG)
		return errno ? errno : ECONNRESET;
	for (;;) {
		ssize_t n = recv(fd, buf, MSG, 0);
		if (n == MSG)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? errno : ECONNRESET;
	}
}

int vgl_floor_measure(vgl_floor *f, uint64_t deadline_ns, char *why, size_t whylen)
{
	uint64_t lat[MAX_RT];
	uint8_t buf[MSG];
	int sv[2];
	memset(f, 0, sizeof(*f));
	memset(buf, 0x5a, sizeof(buf));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(why, whylen, "socketpair: %s", strerror(errno));
		return -1;
	}
	fflush(NULL); /* nothing buffered is left for the child to write twice */
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
		/* Go with the parent even if it dies before closing its end. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		echo(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	int fd = sv[0];
	/* A stalled child must not hold us past the deadline. */
	uint64_t now = vgl_now_ns();
	uint64_t left = deadline_ns > now + 1000000u ? deadline_ns - now : 1000000u;
	struct timeval tv = {.tv_sec = (time_t)(left / 1000000000u),
			     .tv_usec = (suseconds_t)(left % 1000000000u / 1000u)};
	errno = 0;
	int r = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ? errno : 0;
	for (int i = 0; r == 0 && i < WARM && vgl_now_ns() < deadline_ns; i++)
		r = round_trip(fd, buf);
	size_t n = 0;
	while (r == 0 && n < MAX_RT && vgl_now_ns() < deadline_ns) {
		uint64_t t0 = vgl_now_ns();
		r = round_trip(fd, buf);
		lat[n++] = vgl_now_ns() - t0;
	}
	/* Closing our end ends the child's loop; the kill covers a child that
	 * is stuck, and the wait reaps it either way. */
	close(fd);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (r != 0) {
		snprintf(why, whylen, "round trip to the echo child: %s", strerror(r));
		return -1;
	}
	if (n == 0) {
		snprintf(why, whylen, "no time for a round trip");
		return -1;
	}
	vgl_sort_ns(lat, n);
	f->n = n;
	f->p50_us = vgl_rank_us(lat, n, 50);
	f->p99_us = vgl_rank_us(lat, n, 99);
	return 0;
}
