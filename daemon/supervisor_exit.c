/* supervisor_exit.c: the supervisor's children ending (see
 * supervisor_internal.h): reaping them on SIGCHLD, saying how each died
 * (with the system call a sandbox violation report named), and asking
 * supervisor_brake.c to restart what must run. Reads the violation
 * reports children write before they exit; nothing here is secret. */
#include "supervisor_internal.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

/* Which child a pid is: "front", "keyholder" (with its slot) or "child"
 * (already reaped or unknown). */
static const char *role_of(const sup *s, pid_t pid, int *slot)
{
	*slot = -1;
	if (pid > 0 && pid == s->front_pid)
		return "front";
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		if (pid > 0 && s->kh[i].pid == pid) {
			*slot = s->kh[i].slot;
			return "keyholder";
		}
	return "child";
}

/* Drain {pid, syscall} reports written by children's SIGSYS handlers. */
static void read_reports(sup *s)
{
	vgd_violation v;
	while (read(s->report_rd, &v, sizeof(v)) == (ssize_t)sizeof(v)) {
		s->violations++;
		s->recent[s->nrecent++ % (sizeof(s->recent) / sizeof(s->recent[0]))] = v;
		int slot;
		const char *who = role_of(s, (pid_t)v.pid, &slot);
		vgd_err("sandbox violation: %s (pid %d, slot %d) called %s (system call %d); it was "
			"killed",
			who, v.pid, slot, vgd_syscall_name(v.nr), v.nr);
	}
}

/* The system call a child reported before it died, or -1. */
static int reported_call(const sup *s, pid_t pid)
{
	size_t n = sizeof(s->recent) / sizeof(s->recent[0]);
	for (size_t i = 0; i < n && i < s->nrecent; i++)
		if (s->recent[i].pid == (int)pid)
			return s->recent[i].nr;
	return -1;
}

void vgd_sup_on_reports(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	read_reports(arg);
	vgd_sup_send_counters(arg);
}

int vgd_sup_children_alive(const sup *s)
{
	int n = s->front_pid > 0;
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		n += s->kh[i].pid > 0;
	return n;
}

static void describe_exit(const sup *s, const char *who, pid_t pid, int st)
{
	int nr = reported_call(s, pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == VGD_EXIT_SECCOMP)
		vgd_err("%s (pid %d) died of a sandbox violation: system call %s (%d); restarting it",
			who, (int)pid, nr >= 0 ? vgd_syscall_name(nr) : "unknown", nr);
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		vgd_err("%s (pid %d) killed by the sandbox (SIGSYS) before it could report the call",
			who, (int)pid);
	else if (WIFSIGNALED(st))
		vgd_err("%s (pid %d) killed by signal %d", who, (int)pid, WTERMSIG(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		vgd_err("%s (pid %d) exited with status %d", who, (int)pid, WEXITSTATUS(st));
	else
		vgd_info("%s (pid %d) exited", who, (int)pid);
}

void vgd_sup_on_sigchld(evutil_socket_t sig, short what, void *arg)
{
	sup *s = arg;
	(void)sig;
	(void)what;
	int st;
	pid_t pid;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		/* A child writes its report before it exits, so once it is
		 * reaped its report is in the pipe: read it now, while the pid
		 * still names its role (reading only before waitpid raced with
		 * a child dying in between). */
		read_reports(s);
		if (pid == s->front_pid) {
			s->front_pid = 0;
			vgd_sup_ctl_close(s);
			if (s->stopping) {
				vgd_info("front (pid %d) finished draining", (int)pid);
				continue;
			}
			describe_exit(s, "front", pid, st);
			/* Its keyholders see their channels close and exit; they are
			 * restarted and attached to the new front one by one. */
			s->respawn_front = 1;
			vgd_sup_restart_later(s);
			continue;
		}
		for (int i = 0; i < VGD_KH_PROCS_MAX; i++) {
			khproc *k = &s->kh[i];
			if (k->pid != pid)
				continue;
			k->pid = 0;
			int current = k->gen == s->gen && !s->stopping;
			int clean = WIFEXITED(st) && WEXITSTATUS(st) == 0;
			if (!current || (clean && s->front_pid == 0))
				break; /* retired, or its front is gone for good */
			if (!clean)
				describe_exit(s, "keyholder", pid, st);
			s->respawn_slots[k->slot] = 1;
			vgd_sup_restart_later(s);
			break;
		}
	}
	vgd_sup_send_counters(s);
	if (s->stopping && vgd_sup_children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}
