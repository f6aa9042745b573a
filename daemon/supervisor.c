/* supervisor.c: see supervisor.h. The supervisor's start-up (keys, the
 * user to run children as, the front's descriptor budget, the listening
 * socket, the first children), its signal events and main loop, and
 * stopping (SIGTERM/SIGINT: drain, then kill what outlives the drain).
 * Holds the keys (to give them to new keyholders) but never parses client
 * input, and never waits for a child (supervisor_ctl.c, _chan.c). Not
 * sandboxed by seccomp: it must fork, read key files on reload and create
 * the socket. supervisor_internal.h says which
 * supervisor_*.c file owns the rest. */
#include "supervisor.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpus.h"
#include "front.h"
#include "log.h"
#include "notify.h"
#include "supervisor_internal.h"

/* ---- stopping ---- */
static void kill_children(sup *s, int sig)
{
	if (s->front.pid > 0)
		kill(s->front.pid, sig);
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
	vgd_sup_answer_update(s); /* our own socket: "shutting down" from now */
	(void)vgd_notify("STOPPING=1");
	vgd_info("stopping: draining in-flight requests (up to %d ms)", s->cfg->drain_timeout_ms);
	vgd_sup_send_drain(s);
	if (s->front.pid <= 0)
		kill_children(s, SIGKILL);
	struct timeval tv = {s->cfg->drain_timeout_ms / 1000 + 2, 0};
	s->kill_timer = evtimer_new(s->base, on_kill_timer, s);
	evtimer_add(s->kill_timer, &tv);
	if (vgd_sup_children_alive(s) == 0)
		event_base_loopexit(s->base, NULL);
}

/* ---- start-up ---- */
/* The front needs a descriptor per connection plus its keyholder channels
 * (current and retiring after a reload), the connections it holds
 * before refusing them, the listener, the control channel, the event
 * loop and stdio. Its hard limit is set to exactly
 * that, so the supervisor must be able to grant it: raise our own limit
 * if we may, else serve fewer connections and say so. */
static int front_fd_budget(sup *s)
{
	rlim_t reserve = 3u * (rlim_t)s->nslots + 32u + VGD_FRONT_HELD_MAX +
			 (rlim_t)s->nslots * (1u + (rlim_t)s->cfg->direct_slots);
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

/* A user (and optionally a group) by name into o: 0, or -1 (logged). */
static int lookup_user(const char *setting, const char *user, const char *group,
		       vgd_sandbox_opts *o)
{
	struct passwd *pw = getpwnam(user);
	if (!pw) {
		vgd_err("%s '%s' does not exist%s", setting, user,
			strcmp(user, VGD_DEFAULT_FRONT_USER) == 0
				? " (create it: systemd-sysusers with vgd's sysusers.d file, or "
				  "useradd --system; or name another user with front_user =)"
				: "");
		return -1;
	}
	o->drop_privs = 1;
	o->uid = pw->pw_uid;
	o->gid = pw->pw_gid;
	if (group[0]) {
		struct group *g = getgrnam(group);
		if (!g) {
			vgd_err("group '%s' does not exist", group);
			return -1;
		}
		o->gid = g->gr_gid;
	}
	if (o->uid == 0) {
		vgd_err("%s '%s' is root: it must be an unprivileged user", setting, user);
		return -1;
	}
	if (o->uid == 65534)
		vgd_warn("%s '%s' is uid 65534 (nobody): every other service running as nobody "
			 "could signal vgd's processes; give vgd users of its own",
			 setting, user);
	return 0;
}

/* Started as root, the children drop privileges: the keyholders to
 * user/group (when set; else they stay root), the front always, to
 * front_user/front_group, a user of its own: it parses untrusted bytes,
 * and with a uid other than the keyholders' it cannot signal them even
 * if its seccomp filter were bypassed. Not root: everything runs as we
 * do (systemd's unit gives vgd one unprivileged user and no way to
 * change it; doc/security.md, "Under the shipped vgd.service", says what
 * that leaves). */
/* May we change users? Root with CAP_SETUID and CAP_SETGID (uid 0 in a
 * sandbox without capabilities may not, and is treated as any user). */
static int can_change_user(void)
{
	if (geteuid() != 0)
		return 0;
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) < 0)
		return 0;
	uint32_t need = 1u << CAP_SETUID | 1u << CAP_SETGID;
	return (d[0].effective & need) == need;
}

static int resolve_users(sup *s)
{
	const vgd_config *c = s->cfg;
	if (!can_change_user()) {
		if (c->user[0])
			vgd_warn("not root: running as uid %u, not as user '%s'",
				 (unsigned)geteuid(), c->user);
		vgd_info("no privilege to change users: the front runs as uid %u like the "
			 "keyholders (doc/security.md)",
			 (unsigned)geteuid());
		return 0;
	}
	if (c->user[0] && lookup_user("user", c->user, c->group, &s->sb) < 0)
		return -1;
	if (lookup_user("front_user", c->front_user, c->front_group, &s->sb_front) < 0)
		return -1;
	if (s->sb_front.uid == (s->sb.drop_privs ? s->sb.uid : 0)) {
		vgd_err("front_user '%s' is the keyholders' user: the front needs a user of its own",
			c->front_user);
		return -1;
	}
	return 0;
}

/* How many keyholders, and on which CPUs. By default one per CPU in vgd's
 * affinity mask (not per online CPU: under taskset or a cpuset the others
 * are not ours), each pinned to its own CPU (pin_keyholders), so that the
 * front can hand a request to the keyholder on the CPU it runs on and the
 * keyholder's wake-up and reply stay there (daemon/DESIGN-cpu.md). Only
 * when the keyholders spread evenly over the CPUs (a multiple of their
 * number): with fewer, a pinned keyholder could not move off a CPU that
 * other work keeps busy while another CPU idles, and some CPUs would have
 * none; with an uneven number, some CPUs would have more than others. */
static void plan_cpus(sup *s, const vgd_config *cfg)
{
	int cpus[VGD_KH_MAX];
	int n = vgd_cpus_allowed(cpus, VGD_KH_MAX);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	s->ncpus = n > 0 ? n : online > 0 ? (int)online : 1;
	s->nslots = cfg->keyholders > 0 ? cfg->keyholders : s->ncpus;
	if (s->nslots > VGD_KH_MAX)
		s->nslots = VGD_KH_MAX;
	int pin = cfg->pin_keyholders && n > 0 && s->nslots % n == 0;
	if (cfg->pin_keyholders && !pin)
		vgd_info("keyholders not pinned: %d keyholder(s) do not spread evenly over %d CPU(s)",
			 s->nslots, s->ncpus);
	for (int i = 0; i < s->nslots; i++)
		s->kh_cpu[i] = pin ? cpus[i % n] : -1;
}

/* The direct slots (direct.h) of every keyholder slot, made once: a
 * reload that adds keyholders gives the new ones none. */
static int make_direct(sup *s)
{
	int n = s->cfg->direct_slots;
	s->ndirect = n > 0 ? s->nslots : 0;
	for (int i = 0; i < s->ndirect; i++) {
		if (vgd_direct_create(&s->direct[i], n, i) < 0 || vgd_direct_map(&s->direct[i], 0) < 0) {
			vgd_err("direct slots: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

int vgd_supervisor_main(vgd_config *cfg)
{
	static sup S; /* the supervisor's state: one per process */
	sup *s = &S;
	s->cfg = cfg;
	s->front.fd = -1;
	s->front.slot = -1;
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		s->kh[i].fd = -1;
	for (int i = 0; i < VGD_KH_MAX; i++)
		s->pending_fds[i] = s->pending_rings[i] = -1;
	signal(SIGPIPE, SIG_IGN);
	char err[512];
	if (vgd_keystore_load(&s->ks, cfg, err, sizeof(err)) < 0) {
		vgd_err("%s", err);
		return 1;
	}
	if (!s->ks.locked)
		vgd_warn("could not mlock key memory (RLIMIT_MEMLOCK); keys may be swapped");
	if (resolve_users(s) < 0)
		return 1;
	s->listen_fd = vgd_sup_listen(s);
	if (s->listen_fd < 0)
		return 1;
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
	if (!s->respawn_timer || vgd_sup_live_start(s) < 0)
		return 1;

	plan_cpus(s, cfg);
	if (front_fd_budget(s) < 0 || make_direct(s) < 0)
		return 1;
	for (int i = 0; i < s->nslots; i++)
		if (vgd_sup_spawn_keyholder(s, i) < 0)
			return 1;
	if (vgd_sup_spawn_front(s) < 0)
		return 1;
	event_base_dispatch(s->base);
	if (s->owns_socket_path)
		unlink(s->cfg->socket_path);
	/* No new connection can reach the socket now: those that did before
	 * get their answer, not a reset. */
	vgd_sup_answer_backlog(s);
	vgd_keystore_free(&s->ks);
	vgd_info("stopped");
	return 0;
}
