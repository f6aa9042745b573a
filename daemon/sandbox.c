/* sandbox.c: privilege drop and seccomp allow-lists per role. Policies are
 * data (tables below). A violation traps (SIGSYS): the handler writes
 * {pid, syscall} to the supervisor's report pipe and exits with
 * VGD_EXIT_SECCOMP, so the supervisor can say which call it was. */
#include "sandbox.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "errcode.h"
#include "log.h"
#include "vg_config.h"

#if VG_HAVE_SECCOMP
#include <seccomp.h>
#endif

#if VG_HAVE_SECCOMP
/* The keyholder: receive request records and send replies in batches
 * (recvmmsg, sendmmsg), random salt for PSS, a log line or a violation report
 * (write, getpid), wipe and unmap the keys, exit. Nothing that opens, maps
 * or creates anything. (Checked with strace over the integration tests.) */
static const int keyholder_calls[] = {
	SCMP_SYS(recvmmsg),     SCMP_SYS(sendmmsg),     SCMP_SYS(write),
	SCMP_SYS(getrandom),    SCMP_SYS(getpid),       SCMP_SYS(clock_gettime),
	SCMP_SYS(munlock),      SCMP_SYS(munmap),       SCMP_SYS(rt_sigreturn),
	SCMP_SYS(exit),         SCMP_SYS(exit_group),
};

/* The front: a libevent (epoll) loop serving sockets, malloc, fd passing
 * from the supervisor (recvmsg), logging. No open, no exec, no new
 * sockets (accept4 only). Clients are read with recv (recvfrom) into the
 * front's own buffers and answered with send (sendto); requests go
 * to the keyholders and replies come back in batches (sendmmsg,
 * recvmmsg). libevent creates its epoll
 * instance and a pipe after the filter is on, and checks
 * getuid/geteuid/getgid/getegid before reading its environment. futex,
 * fcntl, rt_sigprocmask and writev stay for libc and libevent paths the
 * tests do not reach (locks, fd flags, abort and its message). */
static const int front_calls[] = {
	SCMP_SYS(read),          SCMP_SYS(write),        SCMP_SYS(sendmmsg),
	SCMP_SYS(writev),        SCMP_SYS(recvfrom),     SCMP_SYS(sendto),
	SCMP_SYS(recvmsg),       SCMP_SYS(sendmsg),      SCMP_SYS(accept4),
	SCMP_SYS(close),         SCMP_SYS(getsockopt),   SCMP_SYS(setsockopt),
	SCMP_SYS(fcntl),         SCMP_SYS(epoll_wait),   SCMP_SYS(recvmmsg),
	SCMP_SYS(epoll_pwait),   SCMP_SYS(epoll_ctl),    SCMP_SYS(epoll_create1),
	SCMP_SYS(clock_gettime), SCMP_SYS(gettimeofday), SCMP_SYS(getpid),
	SCMP_SYS(brk),           SCMP_SYS(mmap),         SCMP_SYS(munmap),
	SCMP_SYS(mremap),        SCMP_SYS(madvise),      SCMP_SYS(rt_sigreturn),
	SCMP_SYS(rt_sigprocmask), SCMP_SYS(exit),        SCMP_SYS(exit_group),
	SCMP_SYS(pipe2),         SCMP_SYS(futex),        SCMP_SYS(getuid),
	SCMP_SYS(geteuid),       SCMP_SYS(getgid),       SCMP_SYS(getegid),
};

static int report_fd = -1; /* set once in vgd_sandbox_enter, read by the handler */

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	vgd_violation v = {(int)getpid(), si->si_syscall};
	if (report_fd >= 0) {
		ssize_t w = write(report_fd, &v, sizeof(v));
		(void)w;
	}
	_exit(VGD_EXIT_SECCOMP);
}

static int load_filter(const int *calls, size_t n)
{
	/* A debug aid would be SCMP_ACT_LOG; production traps so the
	 * supervisor learns of every violation. */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	if (!ctx)
		return VGD_E_NOMEM;
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, calls[i], 0);
	/* The SIGSYS handler must be able to return control to exit: sigreturn
	 * is in every list. */
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r == 0 ? 0 : VGD_E_INTERNAL;
}
#endif

const char *vgd_syscall_name(int nr)
{
#if VG_HAVE_SECCOMP
	/* Resolved in the supervisor, which is not sandboxed. The returned
	 * string is malloc'ed by libseccomp; it is reused here per call site
	 * and leaked on purpose (violations are rare). */
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	return name ? name : "unknown";
#else
	(void)nr;
	return "unknown";
#endif
}

static int set_limit(int res, rlim_t v)
{
	struct rlimit rl = {v, v};
	return setrlimit(res, &rl);
}

int vgd_sandbox_enter(enum vgd_role role, const vgd_sandbox_opts *o)
{
	if (o->drop_privs) {
		if (setgroups(0, NULL) < 0 || setgid(o->gid) < 0 || setuid(o->uid) < 0) {
			vgd_err("cannot drop privileges to %u:%u: %s", (unsigned)o->uid,
				(unsigned)o->gid, strerror(errno));
			return VGD_E_PERM;
		}
		if (setuid(0) == 0) {
			vgd_err("privilege drop did not stick");
			return VGD_E_PERM;
		}
	}
	if (set_limit(RLIMIT_CORE, 0) < 0 || set_limit(RLIMIT_NPROC, 0) < 0 ||
	    set_limit(RLIMIT_NOFILE, o->nofile) < 0) {
		vgd_err("setrlimit: %s", strerror(errno));
		return VGD_E_PERM;
	}
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		vgd_err("prctl: %s", strerror(errno));
		return VGD_E_PERM;
	}
#if VG_HAVE_SECCOMP
	report_fd = o->report_fd;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL) < 0)
		return VGD_E_INTERNAL;
	int r = role == VGD_ROLE_KEYHOLDER
			? load_filter(keyholder_calls, sizeof(keyholder_calls) / sizeof(int))
			: load_filter(front_calls, sizeof(front_calls) / sizeof(int));
	if (r < 0) {
		vgd_err("cannot load the seccomp filter");
		return r;
	}
#else
	(void)role;
	(void)o;
#endif
	return 0;
}
