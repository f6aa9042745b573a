/* sandbox.c: privilege drop and seccomp allow-lists per role. Policies are
 * data (tables below): a row allows a system call, with conditions on its
 * arguments where the call could do more than the role needs. A violation
 * traps (SIGSYS): the handler writes a VGD_SUP_VIOLATION report naming
 * the call on the child's own channel to the supervisor (which therefore
 * knows which child it came from) and exits with VGD_EXIT_SECCOMP. */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "errcode.h"
#include "log.h"
#include "record.h"
#include "vg_config.h"

#if VG_HAVE_SECCOMP
#include <seccomp.h>
#endif

#if VG_HAVE_SECCOMP
/* One allowed form of a system call: up to two argument conditions, all
 * of which must hold (rows for the same call are alternatives). A value
 * is a constant or one of the child's own descriptors, known only when
 * it enters the sandbox. */
enum { V_CONST, V_CHAN_FD, V_REPORT_FD };

typedef struct {
	unsigned arg;          /* argument index */
	enum scmp_compare op;  /* SCMP_CMP_EQ, or SCMP_CMP_MASKED_EQ: (arg & mask) == val */
	int vkind;             /* V_* */
	uint64_t mask, val;
} cond;

typedef struct {
	int nr;
	unsigned ncond;
	cond c[2];
} rule;

#define ANY(name) {SCMP_SYS(name), 0, {{0}}}
#define IF1(name, a) {SCMP_SYS(name), 1, {a}}
#define IF2(name, a, b) {SCMP_SYS(name), 2, {a, b}}
#define EQ(i, v) {(i), SCMP_CMP_EQ, V_CONST, 0, (uint64_t)(v)}
#define IS_FD(i, k) {(i), SCMP_CMP_EQ, (k), 0, 0}
#define CLEAR(i, bits) {(i), SCMP_CMP_MASKED_EQ, V_CONST, (uint64_t)(bits), 0}

/* The keyholder: take request records from its ring and put replies in
 * it (memory mapped before the filter; khring.h), sleep on the ring's
 * futex (FUTEX_WAIT), and with its direct slots (direct.h, memory also
 * mapped before the filter) sleep on all of them at once (futex_waitv)
 * and wake a client waiting for its reply (FUTEX_WAKE, which only wakes
 * sleepers on a word; it passes nothing), ring the
 * front's doorbell (write) and see the front close (recvfrom) on its
 * channel socket, answer the supervisor's pings and report a violation on
 * its own channel (recvfrom, write), log to stderr (write), random salt
 * for PSS (getrandom), wipe and unmap the keys, exit. Nothing that opens,
 * maps, changes descriptors or passes them: no mmap, mprotect or fcntl,
 * and no call that can carry ancillary data (sendmsg, sendmmsg, recvmsg,
 * recvmmsg), so it can neither send nor receive a descriptor. Its memory
 * is locked before the filter goes on. (Checked with strace over the
 * integration tests.) */
static const rule keyholder_rules[] = {
	IF1(recvfrom, IS_FD(0, V_CHAN_FD)),
	IF1(recvfrom, IS_FD(0, V_REPORT_FD)),
	IF1(write, IS_FD(0, V_CHAN_FD)),
	IF1(write, EQ(0, 2)),
	IF1(write, IS_FD(0, V_REPORT_FD)),
	IF1(futex, EQ(1, FUTEX_WAIT)),
	IF1(futex, EQ(1, FUTEX_WAKE)),
	ANY(futex_waitv),
	ANY(getrandom),    ANY(getpid),       ANY(clock_gettime),
	ANY(munlock),      ANY(munmap),       ANY(rt_sigreturn),
	ANY(exit),         ANY(exit_group),
};

/* The front: a libevent (epoll) loop serving sockets, malloc, keyholder
 * channels received from the supervisor (recvmsg, on the control channel
 * only), logging. No open, no exec, no new sockets (accept4 only), no
 * signals (no kill). Clients are read with recv (recvfrom) into the
 * front's own buffers and answered with send (sendto), which cannot pass
 * descriptors; requests go to the keyholders and replies come back
 * through shared rings (khring.h: mmap of the ring a channel arrives
 * with, futex to wake a keyholder, recv of its doorbell). It receives
 * descriptors only on its control channel (recvmsg there). It passes one
 * kind: a direct slot's memfd to the client it grants it (sendmsg with
 * SCM_RIGHTS, front_direct.c). seccomp cannot read a message header, so
 * a subverted front could pass any descriptor it holds: its keyholder
 * channels and rings, the slots, the listening socket. None of them is
 * or leads to key material, and each only lets the receiver ask for the
 * signatures the subverted front could ask for itself. No sendmmsg or
 * recvmmsg. Memory is never executable: mmap and
 * mprotect without PROT_EXEC. fcntl only reads and sets descriptor flags, never
 * O_ASYNC, and no F_SETOWN/F_SETSIG (which would let it deliver signals).
 * libevent creates its
 * epoll instance and a pipe after the filter is on, and checks
 * getuid/geteuid/getgid/getegid before reading its environment. futex,
 * rt_sigprocmask and writev stay for libc and libevent paths the tests do
 * not reach (locks, abort and its message). */
static const rule front_rules[] = {
	ANY(read),          ANY(write),          ANY(writev),
	ANY(recvfrom),      ANY(sendto),         ANY(accept4),
	ANY(sendmsg),
	ANY(close),
	IF1(recvmsg, IS_FD(0, V_REPORT_FD)),
	ANY(getsockopt),
	IF1(fcntl, EQ(1, F_GETFL)),
	IF1(fcntl, EQ(1, F_GETFD)),
	IF1(fcntl, EQ(1, F_SETFD)),
	IF2(fcntl, EQ(1, F_SETFL), CLEAR(2, O_ASYNC)),
	IF1(mmap, CLEAR(2, PROT_EXEC)),
	IF1(mprotect, CLEAR(2, PROT_EXEC)),
	ANY(epoll_wait),    ANY(epoll_pwait),    ANY(epoll_ctl),
	ANY(epoll_create1), ANY(clock_gettime),  ANY(gettimeofday),
	ANY(getpid),        ANY(brk),            ANY(munmap),
	ANY(mremap),        ANY(madvise),        ANY(rt_sigreturn),
	ANY(rt_sigprocmask), ANY(exit),          ANY(exit_group),
	ANY(pipe2),         ANY(futex),          ANY(getuid),
	ANY(geteuid),       ANY(getgid),         ANY(getegid),
	/* sched_getcpu (the dispatch to the keyholder on the front's CPU):
	 * the vDSO or rseq where the kernel has them, getcpu elsewhere. It
	 * only tells the caller where it runs. */
	ANY(getcpu),
	/* Its own scheduling policy, between the two it uses (front_sched.c):
	 * never another process, never a real-time policy (and these two take
	 * priority 0 only). */
	IF2(sched_setscheduler, EQ(0, 0), EQ(1, SCHED_OTHER)),
	IF2(sched_setscheduler, EQ(0, 0), EQ(1, SCHED_BATCH)),
	/* Its own CPU affinity, to follow its clients (front_follow.c): read
	 * once at start, then set to one CPU or back; never another process. */
	IF1(sched_getaffinity, EQ(0, 0)),
	IF1(sched_setaffinity, EQ(0, 0)),
#ifdef VGD_TEST_HOOKS
	/* vgd-testhooks only: kill(pid, 0), which sends nothing and tells
	 * whether the kernel would let the front signal pid, so a test can
	 * check the user separation by itself (under the filter alone, kill
	 * is refused outright). */
	IF1(kill, EQ(1, 0)),
#endif
};

static int report_fd = -1; /* set once in vgd_sandbox_enter, read by the handler */

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	vgd_supmsg m = {.type = VGD_SUP_VIOLATION, .nr = si->si_syscall};
	/* Raw system calls: nothing between the handler and the kernel (a
	 * sanitizer's _exit interceptor makes calls the filter forbids). */
	for (int tries = 0; report_fd >= 0 && tries < 1000; tries++)
		if (syscall(SYS_write, report_fd, &m, sizeof(m)) == (long)sizeof(m) || errno != EAGAIN)
			break;
	syscall(SYS_exit_group, VGD_EXIT_SECCOMP);
	_exit(VGD_EXIT_SECCOMP); /* not reached */
}

static int load_filter(const rule *rules, size_t n, const vgd_sandbox_opts *o)
{
	/* A debug aid would be SCMP_ACT_LOG; production traps so the
	 * supervisor learns of every violation. */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	if (!ctx)
		return VGD_E_NOMEM;
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		struct scmp_arg_cmp a[2];
		for (unsigned k = 0; k < rules[i].ncond; k++) {
			const cond *c = &rules[i].c[k];
			uint64_t v = c->vkind == V_CHAN_FD     ? (uint64_t)o->chan_fd
				     : c->vkind == V_REPORT_FD ? (uint64_t)o->report_fd
							       : c->val;
			a[k] = (struct scmp_arg_cmp){c->arg, c->op, c->op == SCMP_CMP_MASKED_EQ
								    ? c->mask : v,
						     c->op == SCMP_CMP_MASKED_EQ ? c->val : 0};
		}
		r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, rules[i].nr, rules[i].ncond, a);
	}
	/* The SIGSYS handler must be able to return control to exit: sigreturn
	 * is in every list. */
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r == 0 ? 0 : VGD_E_INTERNAL;
}
#endif

void vgd_sandbox_exit(int status)
{
	syscall(SYS_exit_group, status);
	_exit(status); /* not reached */
}

const char *vgd_syscall_name(int nr, char *buf, size_t cap)
{
	snprintf(buf, cap, "unknown");
#if VG_HAVE_SECCOMP
	/* Resolved in the supervisor, which is not sandboxed. libseccomp
	 * returns a string it allocated: copied and freed here. */
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	if (name)
		snprintf(buf, cap, "%s", name);
	free(name);
#else
	(void)nr;
#endif
	return buf;
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
			? load_filter(keyholder_rules,
				      sizeof(keyholder_rules) / sizeof(keyholder_rules[0]), o)
			: load_filter(front_rules, sizeof(front_rules) / sizeof(front_rules[0]), o);
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
