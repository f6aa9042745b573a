/* supervisor_exit.c: the supervisor's children ending (see
 * supervisor_internal.h): reaping them on SIGCHLD, saying how each died
 * (with the system call its sandbox violation report named), counting
 * violations by how children died (not by what they say), and asking
 * supervisor_brake.c to restart every child that must run. Nothing here
 * is secret. */
#include "supervisor_internal.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

static const char *role_name(const child *c) { return c->slot < 0 ? "front" : "keyholder"; }

/* ---- children ending ---- */
int vgd_sup_children_alive(const sup *s)
{
	int n = s->front.pid > 0;
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		n += s->kh[i].pid > 0;
	return n;
}

static void describe_exit(const child *c, int st)
{
	const char *who = role_name(c);
	int pid = (int)c->pid;
	char name[64];
	if (c->killed) {
		static const char *why[] = {"", "it did not answer a ping in time (hung)",
					    "its front is gone", "it missed control messages"};
		vgd_warn("%s (pid %d) killed by the supervisor: %s", who, pid, why[c->killed]);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == VGD_EXIT_SECCOMP) {
		/* Its report, believed now that its exit status confirms it. */
		const char *call = c->reported >= 0
					   ? vgd_syscall_name(c->reported, name, sizeof(name))
					   : "unknown";
		/* Not rate-limited: deaths are, by the crash-loop brake. */
		vgd_err("sandbox violation: %s (pid %d, slot %d) called %s (system call %d); it "
			"was killed",
			who, pid, c->slot, call, c->reported);
		vgd_err("%s (pid %d) died of a sandbox violation: system call %s (%d); restarting "
			"it",
			who, pid, call, c->reported);
	} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS) {
		vgd_err("%s (pid %d) killed by the sandbox (SIGSYS) before it could report the call",
			who, pid);
	} else if (WIFSIGNALED(st)) {
		vgd_err("%s (pid %d) killed by signal %d", who, pid, WTERMSIG(st));
	} else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		vgd_err("%s (pid %d) exited with status %d", who, pid, WEXITSTATUS(st));
	} else {
		vgd_info("%s (pid %d) exited", who, pid);
	}
}

static int died_of_violation(int st)
{
	return (WIFEXITED(st) && WEXITSTATUS(st) == VGD_EXIT_SECCOMP) ||
	       (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
}

/* The front is gone: its keyholders' channels closed with it, so they
 * exit; one that does not (its channel end was passed elsewhere) is
 * killed by supervisor_live.c, which also starts their replacements for
 * the next front. (A front that is alive has every keyholder's channel:
 * none waits in pending_fds.) */
static void front_gone(sup *s)
{
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		if (s->kh[i].pid > 0)
			s->kh[i].orphan = 1;
}

static void reap_front(sup *s, pid_t pid, int st)
{
	child *c = &s->front;
	vgd_sup_child_unwatch(c);
	vgd_sup_ctl_close(s);
	if (died_of_violation(st))
		s->violations++;
	if (s->stopping)
		vgd_info("front (pid %d) finished draining", (int)pid);
	else
		describe_exit(c, st);
	c->pid = 0;
	s->front_ready = 0;
	if (s->stopping)
		return;
	front_gone(s);
	s->respawn_front = 1;
	vgd_sup_restart_later(s);
	vgd_sup_answer_update(s); /* braking: the supervisor answers meanwhile */
}

static void reap_keyholder(sup *s, child *k, int st)
{
	vgd_sup_child_unwatch(k);
	if (k->slot >= 0 && k->slot < s->ndirect) {
		/* Its direct slots go to the next keyholder of the slot, which
		 * answers what this one took and did not answer (direct.h). */
		uint32_t pid = (uint32_t)k->pid;
		vgd_ddir *d = s->direct[k->slot].dir;
		if (__atomic_compare_exchange_n(&d->owner, &pid, 0, 0, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			vgd_direct_wake(&d->owner);
	}
	int current = k->gen == s->gen && !s->stopping;
	int clean = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (died_of_violation(st))
		s->violations++;
	if (current && !(clean && !k->killed))
		describe_exit(k, st);
	k->pid = 0;
	/* Every keyholder of the current generation is restarted, however
	 * it ended and whatever else is down: one that exited cleanly did so
	 * because its front closed its channel (the front died, or gave up
	 * on it), and the next front needs it all the same. Unless its slot
	 * already has a replacement (an orphan's was started when its front
	 * died). */
	if (current && !vgd_sup_slot_covered(s, k->slot)) {
		s->respawn_slots[k->slot] = 1;
		vgd_sup_restart_later(s);
	}
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
		 * reaped its report is on its channel: read it now, while the
		 * child still names its role. */
		if (pid == s->front.pid) {
			if (s->front.ev)
				vgd_sup_child_read(&s->front);
			reap_front(s, pid, st);
			continue;
		}
		for (int i = 0; i < VGD_KH_PROCS_MAX; i++) {
			child *k = &s->kh[i];
			if (k->pid != pid)
				continue;
			if (k->ev)
				vgd_sup_child_read(k);
			reap_keyholder(s, k, st);
			break;
		}
	}
	vgd_sup_send_counters(s);
	if (s->stopping && vgd_sup_children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}
