/* front_hooks.c: test hooks of the front, compiled into vgd-testhooks
 * only (VGD_TEST_HOOKS; see meson.build): a ping whose data is
 * "vgd-test-front:CMD" makes the front do what a compromised front would
 * try, so the tests can check that the sandbox refuses it and reports the
 * call by name, or (kill:PID) ask the kernel whether the front could
 * signal PID (kill with signal 0: nothing is sent). A key request whose
 * data is "vgd-test-front:forge-uid" skips the front's ACL check and
 * claims uid/gid 4242 in its record (front_ops.c), for the keyholder's
 * own check. Holds no key material. */
#include "front_internal.h"

#ifdef VGD_TEST_HOOKS
#include "hook_rights.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

int vgd_front_test_hook(front *f, conn *c, const uint8_t *data, size_t len, char *out,
			size_t cap)
{
	static const char prefix[] = "vgd-test-front:";
	size_t n = sizeof(prefix) - 1;
	char cmd[64];
	if (len <= n || len - n >= sizeof(cmd) || memcmp(data, prefix, n) != 0)
		return 0;
	memcpy(cmd, data + n, len - n);
	cmd[len - n] = 0;
	int ctl = event_get_fd(f->ctl_ev);
	snprintf(out, cap, "done");
	if (strcmp(cmd, "mmap-exec") == 0) {
		(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else if (strcmp(cmd, "mprotect-exec") == 0) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		(void)mprotect(p, 4096, PROT_READ | PROT_EXEC);
	} else if (strcmp(cmd, "fcntl-setown") == 0) {
		(void)fcntl(c->fd, F_SETOWN, (int)getpid());
	} else if (strcmp(cmd, "fcntl-setsig") == 0) {
		(void)fcntl(c->fd, F_SETSIG, SIGKILL);
	} else if (strcmp(cmd, "fcntl-async") == 0) {
		(void)fcntl(c->fd, F_SETFL, O_NONBLOCK | O_ASYNC);
	} else if (strcmp(cmd, "sendmsg-rights") == 0) {
		vgd_hook_send_rights(c->fd, ctl, 0); /* the control channel, to the client */
	} else if (strcmp(cmd, "sendmmsg-rights") == 0) {
		vgd_hook_send_rights(c->fd, ctl, 1); /* the batch form */
	} else if (strcmp(cmd, "recvmmsg-rights") == 0) {
		vgd_hook_recv_rights(c->fd); /* descriptors from a client */
	} else if (strcmp(cmd, "open-create") == 0) {
		/* Create a file (a key, a config section): no open at all. */
		(void)open("/tmp/vgd-hook-open", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	} else if (strcmp(cmd, "report-flood") == 0) {
		vgd_supmsg m = {.type = VGD_SUP_VIOLATION, .nr = 83 /* mkdir */};
		int i = 0;
		for (; i < 20000; i++)
			if (send(ctl, &m, sizeof(m), MSG_NOSIGNAL) < 0)
				break;
		snprintf(out, cap, "sent %d", i);
	} else if (strncmp(cmd, "kill:", 5) == 0) {
		int r = kill((pid_t)strtol(cmd + 5, NULL, 10), 0);
		snprintf(out, cap, "errno=%d", r == 0 ? 0 : errno);
	} else {
		snprintf(out, cap, "unknown hook");
	}
	return 1;
}
#endif
