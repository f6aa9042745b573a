/* supervisor.c: see supervisor.h. Holds the keys (to give them to new
 * keyholders) but never parses client input. Not sandboxed by seccomp: it
 * must fork, read key files on reload and create the socket. */
#include "supervisor.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "front.h"
#include "keyholder.h"
#include "keystore.h"
#include "log.h"
#include "notify.h"
#include "record.h"
#include "sandbox.h"
#include "vg/error.h"

#define MAX_KH 256
#define MAX_KH_PROCS (2 * MAX_KH) /* current plus retiring generations */

typedef struct {
	pid_t pid;
	int slot;
	unsigned gen;
} khproc;

typedef struct {
	vgd_config *cfg;
	vgd_keystore ks;
	unsigned gen;
	int listen_fd;
	int owns_socket_path;
	struct event_base *base;
	pid_t front_pid;
	int ctl_fd;
	struct event *ctl_ev, *report_ev, *kill_timer;
	int report_rd, report_wr;
	khproc kh[MAX_KH_PROCS];
	int nslots;
	int ncpus; /* online CPUs at start */
	int pending_fds[MAX_KH]; /* channels made before the front exists */
	uint64_t restarts, violations;
	/* crash-loop brake: restarts in the current one-second window, and
	 * the pause the brake imposes next (doubles while the loop goes on) */
	long long window_start_ms;
	int window_restarts;
	int brake_s;
	long long brake_until_ms;
	struct event *respawn_timer;
	int respawn_front;
	int respawn_slots[MAX_KH];
	int stopping;
	vgd_sandbox_opts sb;
	int cfg_owned;         /* cfg was allocated by a reload (free it on the next) */
	unsigned front_nofile; /* RLIMIT_NOFILE the front gets */
	/* Recent violation reports, so the exit of the child that died of
	 * one can name the system call. */
	vgd_violation recent[16];
	unsigned nrecent;
} sup;

/* ---- helpers ---- */
static void close_fds_except(const int *keep, int n)
{
	/* Children start from a clean descriptor table: whatever else the
	 * supervisor had open (other keyholders' channels, the listening
	 * socket for keyholders) must not leak into them. */
	int maxfd = (int)sysconf(_SC_OPEN_MAX);
	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	for (int fd = 3; fd < maxfd; fd++) {
		int k = 0;
		for (int i = 0; i < n; i++)
			k |= keep[i] == fd;
		if (!k)
			close(fd);
	}
}

static void child_signals(void)
{
	/* The supervisor coordinates shutdown; children ignore job-control
	 * signals aimed at the whole group (Ctrl-C, systemd's SIGTERM). */
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigset_t all;
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

static void send_ctl(sup *s, const vgd_ctl *m, int fd_to_pass)
{
	if (s->ctl_fd < 0)
		return;
	struct iovec iov = {(void *)m, sizeof(*m)};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	if (fd_to_pass >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd_to_pass, sizeof(int));
	}
	if (sendmsg(s->ctl_fd, &mh, MSG_NOSIGNAL) < 0)
		vgd_warn("control message to the front failed: %s", strerror(errno));
}

static void send_counters(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_COUNTERS;
	m.restarts = s->restarts;
	m.violations = s->violations;
	send_ctl(s, &m, -1);
}

static void send_keys(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KEYS_BEGIN;
	m.generation = s->gen;
	m.count = (uint32_t)s->ks.n;
	send_ctl(s, &m, -1);
	for (size_t i = 0; i < s->ks.n; i++) {
		memset(&m, 0, sizeof(m));
		m.type = VGD_CTL_KEYINFO;
		m.info = s->ks.info[i];
		send_ctl(s, &m, -1);
	}
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KEYS_END;
	send_ctl(s, &m, -1);
}

static void send_limits(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_LIMITS;
	m.limits.max_inflight = s->cfg->max_inflight;
	m.limits.max_queue = s->cfg->max_queue;
	m.limits.idle_timeout_ms = s->cfg->idle_timeout_ms;
	m.limits.frame_timeout_ms = s->cfg->frame_timeout_ms;
	m.limits.drain_timeout_ms = s->cfg->drain_timeout_ms;
	m.limits.log_level = s->cfg->log_level;
	m.limits.busy_poll_us = s->cfg->busy_poll_us;
	send_ctl(s, &m, -1);
}

/* ---- children ---- */
static int spawn_keyholder(sup *s, int slot)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		vgd_err("socketpair: %s", strerror(errno));
		return -1;
	}
	int sz = 1 << 20;
	(void)setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	pid_t pid = fork();
	if (pid < 0) {
		vgd_err("fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		child_signals();
		/* A name operators (ps, top) and tests can tell apart. */
		(void)prctl(PR_SET_NAME, "vgd-keyholder", 0, 0, 0);
		int keep[] = {sv[1], s->report_wr};
		close_fds_except(keep, 2);
		vgd_log_setup("keyholder", s->cfg->log_level);
		vgd_sandbox_opts o = s->sb;
		o.nofile = 8;
		if (vgd_sandbox_enter(VGD_ROLE_KEYHOLDER, &o) < 0) {
			vgd_keystore_wipe(&s->ks);
			_exit(1);
		}
		_exit(vgd_keyholder_main(&s->ks, sv[1]));
	}
	close(sv[1]);
	for (int i = 0; i < MAX_KH_PROCS; i++)
		if (s->kh[i].pid == 0) {
			s->kh[i] = (khproc){pid, slot, s->gen};
			break;
		}
	if (s->front_pid > 0) {
		vgd_ctl m;
		memset(&m, 0, sizeof(m));
		m.type = VGD_CTL_KH_ATTACH;
		m.index = (uint32_t)slot;
		m.generation = s->gen;
		send_ctl(s, &m, sv[0]);
		close(sv[0]);
	} else {
		if (s->pending_fds[slot] >= 0)
			close(s->pending_fds[slot]);
		s->pending_fds[slot] = sv[0];
	}
	return 0;
}

static void ctl_readable(evutil_socket_t fd, short what, void *arg);

/* Under load every reply and request wakes the front, and on a machine
 * with no spare core each wake-up preempted a keyholder: two context
 * switches per request, which cost more than the front's own work
 * (vgload, RSA-2048 saturated on 2 cores: the keyholders got 1.45 of the
 * 2 cores). A SCHED_BATCH task never preempts the task running when it
 * wakes: the front runs when a CPU is free or at the next tick and then
 * handles everything that arrived meanwhile in one pass (keyholders got
 * 1.75 cores). It keeps its full share of the CPU, and on an idle CPU it
 * runs at once, so latency at light load is unchanged. Not fatal: a
 * filter (systemd's SystemCallFilter) may refuse the call. */
static void front_yields_to_keyholders(void)
{
	struct sched_param sp = {.sched_priority = 0};
	if (sched_setscheduler(0, SCHED_BATCH, &sp) < 0)
		vgd_info("front stays SCHED_OTHER (sched_setscheduler: %s)", strerror(errno));
}

static int spawn_front(sup *s)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	int sz = 4 << 20;
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		child_signals();
		front_yields_to_keyholders(); /* before the name: tests rely on it */
		(void)prctl(PR_SET_NAME, "vgd-front", 0, 0, 0);
		int keep[MAX_KH + 3];
		int nk = 0;
		keep[nk++] = sv[1];
		keep[nk++] = s->listen_fd;
		keep[nk++] = s->report_wr;
		for (int i = 0; i < s->nslots; i++)
			if (s->pending_fds[i] >= 0)
				keep[nk++] = s->pending_fds[i];
		close_fds_except(keep, nk);
		/* The front must never see key material. */
		vgd_keystore_drop_secrets(&s->ks);
		vgd_log_setup("front", s->cfg->log_level);
		vgd_sandbox_opts o = s->sb;
		o.nofile = s->front_nofile;
		if (vgd_sandbox_enter(VGD_ROLE_FRONT, &o) < 0)
			_exit(1);
		vgd_front_args a = {
			.cfg = s->cfg,
			.keys = &s->ks,
			.listen_fd = s->listen_fd,
			.ctl_fd = sv[1],
			.nkeyholders = s->nslots,
			.kh_fds = s->pending_fds,
			.generation = s->gen,
			.ncpus = s->ncpus,
		};
		_exit(vgd_front_main(&a));
	}
	close(sv[1]);
	for (int i = 0; i < s->nslots; i++)
		if (s->pending_fds[i] >= 0) {
			close(s->pending_fds[i]);
			s->pending_fds[i] = -1;
		}
	s->front_pid = pid;
	s->ctl_fd = sv[0];
	if (s->ctl_ev)
		event_free(s->ctl_ev);
	s->ctl_ev = event_new(s->base, s->ctl_fd, EV_READ | EV_PERSIST, ctl_readable, s);
	event_add(s->ctl_ev, NULL);
	send_counters(s);
	return 0;
}

static void ctl_readable(evutil_socket_t fd, short what, void *arg)
{
	sup *s = arg;
	(void)what;
	vgd_ctl m;
	ssize_t n = recv(fd, &m, sizeof(m), MSG_DONTWAIT);
	if (n == (ssize_t)sizeof(m) && m.type == VGD_CTL_READY) {
		vgd_info("ready: %d keyholder(s), %zu key(s), socket %s", s->nslots, s->ks.n,
			 s->cfg->socket_path);
		(void)vgd_notify("READY=1\nSTATUS=serving");
		return;
	}
	if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR))) {
		event_del(s->ctl_ev);
		close(s->ctl_fd);
		s->ctl_fd = -1;
	}
}

/* Which child a pid is: "front", "keyholder" (with its slot) or "child"
 * (already reaped or unknown). */
static const char *role_of(const sup *s, pid_t pid, int *slot)
{
	*slot = -1;
	if (pid > 0 && pid == s->front_pid)
		return "front";
	for (int i = 0; i < MAX_KH_PROCS; i++)
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

static void report_readable(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	read_reports(arg);
	send_counters(arg);
}

static int children_alive(sup *s)
{
	int n = s->front_pid > 0;
	for (int i = 0; i < MAX_KH_PROCS; i++)
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

/* Restart what died: at once, unless children have died more than 20
 * times in the last second, in which case wait (a crash loop must not
 * spin the CPU or flood the log): 1 s the first time, doubling up to
 * BRAKE_MAX_S while the loop goes on, back to 1 s when a minute has
 * passed since the last pause without another. */
static void do_restarts(sup *s)
{
	if (s->stopping)
		return;
	if (s->respawn_front) {
		s->respawn_front = 0;
		s->restarts++;
		if (spawn_front(s) < 0)
			vgd_err("cannot restart the front");
	}
	for (int i = 0; i < s->nslots; i++) {
		if (!s->respawn_slots[i])
			continue;
		s->respawn_slots[i] = 0;
		s->restarts++;
		if (spawn_keyholder(s, i) < 0)
			vgd_err("cannot restart keyholder %d", i);
	}
	send_counters(s);
}

static void on_respawn_timer(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	do_restarts(arg);
}

#define BRAKE_MAX_S 32
#define BRAKE_RESET_MS 60000

static void restart_later(sup *s)
{
	long long now = (long long)vgd_now_ms();
	if (evtimer_pending(s->respawn_timer, NULL))
		return; /* braking: the timer restarts everything that died */
	if (s->brake_s && now - s->brake_until_ms > BRAKE_RESET_MS)
		s->brake_s = 0; /* stayed up long enough: the loop is over */
	if (now - s->window_start_ms > 1000) {
		s->window_start_ms = now;
		s->window_restarts = 0;
	}
	if (++s->window_restarts <= 20) {
		do_restarts(s);
		return;
	}
	s->brake_s = s->brake_s ? s->brake_s * 2 : 1;
	if (s->brake_s > BRAKE_MAX_S)
		s->brake_s = BRAKE_MAX_S;
	s->brake_until_ms = now + 1000LL * s->brake_s;
	vgd_warn("children are crashing in a loop; restarting them in %d s", s->brake_s);
	struct timeval tv = {s->brake_s, 0};
	evtimer_add(s->respawn_timer, &tv);
}

static void on_sigchld(evutil_socket_t sig, short what, void *arg)
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
			if (s->ctl_ev)
				event_del(s->ctl_ev);
			if (s->ctl_fd >= 0)
				close(s->ctl_fd);
			s->ctl_fd = -1;
			if (s->stopping) {
				vgd_info("front (pid %d) finished draining", (int)pid);
				continue;
			}
			describe_exit(s, "front", pid, st);
			/* Its keyholders see their channels close and exit; they are
			 * restarted and attached to the new front one by one. */
			s->respawn_front = 1;
			restart_later(s);
			continue;
		}
		for (int i = 0; i < MAX_KH_PROCS; i++) {
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
			restart_later(s);
			break;
		}
	}
	send_counters(s);
	if (s->stopping && children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}

/* ---- reload and stop ---- */
static void on_sighup(evutil_socket_t sig, short what, void *arg)
{
	sup *s = arg;
	(void)sig;
	(void)what;
	if (s->stopping)
		return;
	(void)vgd_notify("RELOADING=1");
	vgd_info("reloading %s", s->cfg->path);
	vgd_config *nc = malloc(sizeof(*nc));
	char err[512];
	vgd_keystore nks;
	if (!nc) {
		vgd_err("reload: out of memory; keeping the running configuration");
		goto done;
	}
	if (vgd_config_load(nc, s->cfg->path, err, sizeof(err)) < 0) {
		vgd_err("reload failed, keeping the running configuration: %s", err);
		free(nc);
		goto done;
	}
	if (vgd_keystore_load(&nks, nc, err, sizeof(err)) < 0) {
		vgd_err("reload failed, keeping the running keys: %s", err);
		free(nc);
		goto done;
	}
	if (strcmp(nc->socket_path, s->cfg->socket_path) || nc->socket_mode != s->cfg->socket_mode ||
	    strcmp(nc->socket_group, s->cfg->socket_group) || nc->keyholders != s->cfg->keyholders ||
	    strcmp(nc->user, s->cfg->user) || strcmp(nc->group, s->cfg->group) ||
	    nc->max_connections != s->cfg->max_connections)
		vgd_warn("reload: socket, user, group, keyholders and max_connections change only on "
			 "restart; keeping the running values");
	/* Keep settings that need a restart; take keys, policies and the
	 * other limits. */
	snprintf(nc->socket_path, sizeof(nc->socket_path), "%s", s->cfg->socket_path);
	nc->socket_mode = s->cfg->socket_mode;
	snprintf(nc->socket_group, sizeof(nc->socket_group), "%s", s->cfg->socket_group);
	snprintf(nc->user, sizeof(nc->user), "%s", s->cfg->user);
	snprintf(nc->group, sizeof(nc->group), "%s", s->cfg->group);
	nc->keyholders = s->cfg->keyholders;
	nc->max_connections = s->cfg->max_connections;
	vgd_keystore_free(&s->ks);
	s->ks = nks;
	/* Children have their own copies (fork); only ours is replaced. The
	 * first config belongs to main. */
	if (s->cfg_owned)
		free(s->cfg);
	s->cfg = nc;
	s->cfg_owned = 1;
	vgd_log_setup("supervisor", nc->log_level);
	s->gen++;
	send_limits(s);
	/* New keyholders first (the front retires the old ones once they
	 * finish), then the new key descriptions. */
	for (int slot = 0; slot < s->nslots; slot++)
		if (spawn_keyholder(s, slot) < 0)
			vgd_err("reload: cannot start keyholder %d", slot);
	send_keys(s);
	vgd_info("reloaded: %zu key(s), generation %u", s->ks.n, s->gen);
done:
	(void)vgd_notify("READY=1\nSTATUS=serving");
}

static void kill_children(sup *s, int sig)
{
	if (s->front_pid > 0)
		kill(s->front_pid, sig);
	for (int i = 0; i < MAX_KH_PROCS; i++)
		if (s->kh[i].pid > 0)
			kill(s->kh[i].pid, sig);
}

static void on_kill_timer(evutil_socket_t fd, short what, void *arg)
{
	sup *s = arg;
	(void)fd;
	(void)what;
	vgd_warn("children did not stop in time; killing them");
	kill_children(s, SIGKILL);
}

static void on_sigterm(evutil_socket_t sig, short what, void *arg)
{
	sup *s = arg;
	(void)what;
	if (s->stopping) {
		vgd_warn("second signal %d: stopping now", (int)sig);
		kill_children(s, SIGKILL);
		return;
	}
	s->stopping = 1;
	(void)vgd_notify("STOPPING=1");
	vgd_info("stopping: draining in-flight requests (up to %d ms)", s->cfg->drain_timeout_ms);
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_DRAIN;
	send_ctl(s, &m, -1);
	if (s->front_pid <= 0)
		kill_children(s, SIGKILL);
	struct timeval tv = {s->cfg->drain_timeout_ms / 1000 + 2, 0};
	s->kill_timer = evtimer_new(s->base, on_kill_timer, s);
	evtimer_add(s->kill_timer, &tv);
	if (children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}

/* The front needs a descriptor per connection plus its keyholder channels
 * (current and retiring after a reload), the listener, the control
 * channel, the event loop and stdio. Its hard limit is set to exactly
 * that, so the supervisor must be able to grant it: raise our own limit
 * if we may, else serve fewer connections and say so. */
static int front_fd_budget(sup *s)
{
	rlim_t reserve = 3u * (rlim_t)s->nslots + 32u;
	rlim_t need = (rlim_t)s->cfg->max_connections + reserve;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_max < need) {
		struct rlimit want = {need, need};
		if (setrlimit(RLIMIT_NOFILE, &want) == 0)
			rl = want;
	}
	if (rl.rlim_max < need) {
		if (rl.rlim_max <= reserve + 1) {
			vgd_err("RLIMIT_NOFILE hard limit %llu is too small to serve any connection",
				(unsigned long long)rl.rlim_max);
			return -1;
		}
		vgd_warn("RLIMIT_NOFILE hard limit %llu: max_connections lowered from %d to %llu",
			 (unsigned long long)rl.rlim_max, s->cfg->max_connections,
			 (unsigned long long)(rl.rlim_max - reserve));
		s->cfg->max_connections = (int)(rl.rlim_max - reserve);
		need = rl.rlim_max;
	}
	s->front_nofile = (unsigned)need;
	return 0;
}

/* ---- the listening socket ---- */
static int socket_from_systemd(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid())
		return -1;
	if (strtol(fds, NULL, 10) < 1)
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	int fd = 3, type = 0, listening = 0;
	socklen_t l = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) < 0 || type != SOCK_STREAM)
		return -2;
	l = sizeof(listening);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &l) < 0 || !listening)
		return -2;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static int make_socket(sup *s)
{
	const vgd_config *c = s->cfg;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(c->socket_path) >= sizeof(sa.sun_path)) {
		vgd_err("socket path too long: %s", c->socket_path);
		return -1;
	}
	memcpy(sa.sun_path, c->socket_path, strlen(c->socket_path));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* A stale socket (nobody listening) is replaced; a live one is not. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		vgd_err("%s: another vgd is already listening", c->socket_path);
		close(fd);
		return -1;
	}
	struct stat st;
	if (lstat(c->socket_path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			vgd_err("%s exists and is not a socket", c->socket_path);
			close(fd);
			return -1;
		}
		unlink(c->socket_path);
	}
	mode_t old = umask(0177);
	int r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0) {
		vgd_err("bind %s: %s", c->socket_path, strerror(errno));
		close(fd);
		return -1;
	}
	s->owns_socket_path = 1;
	if (c->socket_group[0]) {
		struct group *g = getgrnam(c->socket_group);
		if (!g || chown(c->socket_path, (uid_t)-1, g->gr_gid) < 0) {
			vgd_err("socket group %s: %s", c->socket_group,
				g ? strerror(errno) : "no such group");
			close(fd);
			return -1;
		}
	}
	if (chmod(c->socket_path, c->socket_mode) < 0 || listen(fd, 1024) < 0) {
		vgd_err("socket %s: %s", c->socket_path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int resolve_user(sup *s)
{
	const vgd_config *c = s->cfg;
	if (!c->user[0])
		return 0;
	if (geteuid() != 0) {
		vgd_warn("not root: running as uid %u, not as user '%s'", (unsigned)geteuid(),
			 c->user);
		return 0;
	}
	struct passwd *pw = getpwnam(c->user);
	if (!pw) {
		vgd_err("user '%s' does not exist", c->user);
		return -1;
	}
	s->sb.drop_privs = 1;
	s->sb.uid = pw->pw_uid;
	s->sb.gid = pw->pw_gid;
	if (c->group[0]) {
		struct group *g = getgrnam(c->group);
		if (!g) {
			vgd_err("group '%s' does not exist", c->group);
			return -1;
		}
		s->sb.gid = g->gr_gid;
	}
	return 0;
}

int vgd_supervisor_main(vgd_config *cfg)
{
	static sup S; /* the supervisor's state: one per process */
	sup *s = &S;
	s->cfg = cfg;
	s->ctl_fd = -1;
	for (int i = 0; i < MAX_KH; i++)
		s->pending_fds[i] = -1;
	signal(SIGPIPE, SIG_IGN);
	char err[512];
	if (vgd_keystore_load(&s->ks, cfg, err, sizeof(err)) < 0) {
		vgd_err("%s", err);
		return 1;
	}
	if (!s->ks.locked)
		vgd_warn("could not mlock key memory (RLIMIT_MEMLOCK); keys may be swapped");
	if (resolve_user(s) < 0)
		return 1;
	s->listen_fd = socket_from_systemd();
	if (s->listen_fd == -2) {
		vgd_err("LISTEN_FDS: fd 3 is not a listening stream socket");
		return 1;
	}
	if (s->listen_fd < 0)
		s->listen_fd = make_socket(s);
	if (s->listen_fd < 0)
		return 1;
	fcntl(s->listen_fd, F_SETFL, fcntl(s->listen_fd, F_GETFL) | O_NONBLOCK);
	int rp[2];
	if (pipe2(rp, O_CLOEXEC | O_NONBLOCK) < 0)
		return 1;
	s->report_rd = rp[0];
	s->report_wr = rp[1];
	s->sb.report_fd = s->report_wr;
	s->base = event_base_new();
	if (!s->base)
		return 1;
	struct event *sigs[] = {
		evsignal_new(s->base, SIGCHLD, on_sigchld, s),
		evsignal_new(s->base, SIGHUP, on_sighup, s),
		evsignal_new(s->base, SIGTERM, on_sigterm, s),
		evsignal_new(s->base, SIGINT, on_sigterm, s),
	};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigs[i] || event_add(sigs[i], NULL) < 0)
			return 1;
	s->respawn_timer = evtimer_new(s->base, on_respawn_timer, s);
	s->report_ev = event_new(s->base, s->report_rd, EV_READ | EV_PERSIST, report_readable, s);
	event_add(s->report_ev, NULL);

	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	s->ncpus = ncpu > 0 ? (int)ncpu : 1;
	s->nslots = cfg->keyholders > 0 ? cfg->keyholders : (int)(ncpu > 0 ? ncpu : 1);
	if (s->nslots > MAX_KH)
		s->nslots = MAX_KH;
	if (front_fd_budget(s) < 0)
		return 1;
	for (int i = 0; i < s->nslots; i++)
		if (spawn_keyholder(s, i) < 0)
			return 1;
	if (spawn_front(s) < 0)
		return 1;
	event_base_dispatch(s->base);
	if (s->owns_socket_path)
		unlink(s->cfg->socket_path);
	vgd_keystore_free(&s->ks);
	vgd_info("stopped");
	return 0;
}
