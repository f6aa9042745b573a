/* supervisor.c: see supervisor.h. The supervisor's start-up (keys, the
 * user to run children as, the front's descriptor budget, the listening
 * socket, the first children), its signal events and main loop, and
 * stopping (SIGTERM/SIGINT: drain, then kill what outlives the drain).
 * Holds the keys (to give them to new keyholders) but never parses client
 * input. Not sandboxed by seccomp: it must fork, read key files on reload
 * and create the socket. supervisor_internal.h says which
 * supervisor_*.c file owns the rest. */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "log.h"
#include "notify.h"
#include "supervisor_internal.h"

/* ---- stopping ---- */
static void kill_children(sup *s, int sig)
{
	if (s->front_pid > 0)
		kill(s->front_pid, sig);
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
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
	vgd_sup_send_drain(s);
	if (s->front_pid <= 0)
		kill_children(s, SIGKILL);
	struct timeval tv = {s->cfg->drain_timeout_ms / 1000 + 2, 0};
	s->kill_timer = evtimer_new(s->base, on_kill_timer, s);
	evtimer_add(s->kill_timer, &tv);
	if (vgd_sup_children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}

/* ---- start-up ---- */
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
	for (int i = 0; i < VGD_KH_MAX; i++)
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
	s->listen_fd = vgd_sup_listen(s);
	if (s->listen_fd < 0)
		return 1;
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
		evsignal_new(s->base, SIGCHLD, vgd_sup_on_sigchld, s),
		evsignal_new(s->base, SIGHUP, vgd_sup_on_sighup, s),
		evsignal_new(s->base, SIGTERM, on_sigterm, s),
		evsignal_new(s->base, SIGINT, on_sigterm, s),
	};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigs[i] || event_add(sigs[i], NULL) < 0)
			return 1;
	s->respawn_timer = evtimer_new(s->base, vgd_sup_on_respawn_timer, s);
	s->report_ev = event_new(s->base, s->report_rd, EV_READ | EV_PERSIST, vgd_sup_on_reports, s);
	event_add(s->report_ev, NULL);

	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	s->ncpus = ncpu > 0 ? (int)ncpu : 1;
	s->nslots = cfg->keyholders > 0 ? cfg->keyholders : (int)(ncpu > 0 ? ncpu : 1);
	if (s->nslots > VGD_KH_MAX)
		s->nslots = VGD_KH_MAX;
	if (front_fd_budget(s) < 0)
		return 1;
	for (int i = 0; i < s->nslots; i++)
		if (vgd_sup_spawn_keyholder(s, i) < 0)
			return 1;
	if (vgd_sup_spawn_front(s) < 0)
		return 1;
	event_base_dispatch(s->base);
	if (s->owns_socket_path)
		unlink(s->cfg->socket_path);
	vgd_keystore_free(&s->ks);
	vgd_info("stopped");
	return 0;
}
