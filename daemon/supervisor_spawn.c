/* supervisor_spawn.c: forking the front and the keyholders (see
 * supervisor_internal.h). Each child starts from a clean descriptor
 * table and signal state, takes its name, enters its sandbox (as its
 * role's user when started as root) and runs its main. A keyholder gets
 * the keys, which it locks in memory itself; the front gets only their
 * public descriptions (its copy of the key store drops the secrets before
 * the sandbox). Each child has its own channel to the supervisor. */
#include "supervisor_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "cpus.h"
#include "front.h"
#include "keyholder.h"
#include "khring.h"
#include "log.h"

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

/* A free place in s->kh, or NULL (VGD_KH_PROCS_MAX keyholders alive). */
static child *free_kh(sup *s)
{
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++)
		if (s->kh[i].pid == 0 && s->kh[i].fd < 0)
			return &s->kh[i];
	return NULL;
}

/* The channel and ring waiting for the front for slot: replaced (the old
 * ones closed) by fd and mfd, or cleared with -1. */
void vgd_sup_pending_set(sup *s, int slot, int fd, int mfd)
{
	if (s->pending_fds[slot] >= 0)
		close(s->pending_fds[slot]);
	if (s->pending_rings[slot] >= 0)
		close(s->pending_rings[slot]);
	s->pending_fds[slot] = fd;
	s->pending_rings[slot] = mfd;
}

/* A keyholder for slot, of the current generation, with two channels: to
 * the front (its ring and channel socket go to the front, or wait in
 * pending until the front is spawned), and its own to the supervisor
 * (pings, its violation report). */
int vgd_sup_spawn_keyholder(sup *s, int slot)
{
	child *c = free_kh(s);
	if (!c) {
		vgd_err("cannot start keyholder %d: %d keyholders alive", slot, VGD_KH_PROCS_MAX);
		return -1;
	}
	int sv[2], sc[2];
	int mfd = vgd_khring_create();
	if (mfd < 0) {
		vgd_err("keyholder ring: %s", strerror(errno));
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		vgd_err("socketpair: %s", strerror(errno));
		close(mfd);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sc) < 0) {
		vgd_err("socketpair: %s", strerror(errno));
		close(mfd);
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		vgd_err("fork: %s", strerror(errno));
		close(mfd);
		close(sv[0]);
		close(sv[1]);
		close(sc[0]);
		close(sc[1]);
		return -1;
	}
	if (pid == 0) {
		child_signals();
		/* Its slot's CPU (pin_keyholders), before the filter (the
		 * sandbox has no sched_setaffinity) and before the name (a
		 * process named vgd-keyholder is pinned: tests rely on it).
		 * Not fatal: a cpuset that shrank since the start leaves it
		 * unpinned, and the front then only loses a preference. */
		int pin = s->kh_cpu[slot] >= 0 ? vgd_cpu_pin(s->kh_cpu[slot]) : 0;
		/* A name operators (ps, top) and tests can tell apart. */
		(void)prctl(PR_SET_NAME, "vgd-keyholder", 0, 0, 0);
		int keep[3 + 1 + VGD_DIRECT_MAX];
		int nk = 0;
		keep[nk++] = sv[1];
		keep[nk++] = sc[1];
		keep[nk++] = mfd;
		vgd_direct *dir = slot < s->ndirect ? &s->direct[slot] : NULL;
		if (dir) {
			keep[nk++] = dir->dir_fd;
			for (int i = 0; i < dir->nslots; i++)
				keep[nk++] = dir->slot_fd[i];
		}
		close_fds_except(keep, nk);
		vgd_log_setup("keyholder", s->cfg->log_level);
		if (pin < 0)
			vgd_warn("keyholder %d: cannot pin to CPU %d; running unpinned", slot,
				 s->kh_cpu[slot]);
		/* The ring, mapped before the filter (which has no mmap); the
		 * memfd itself is not kept. */
		vgd_khring *ring = vgd_khring_map(mfd);
		close(mfd);
		if (!ring) {
			vgd_err("cannot map the request ring: %s", strerror(errno));
			vgd_keystore_wipe(&s->ks);
			vgd_sandbox_exit(1);
		}
		/* Its direct slots likewise (the supervisor's mapping of the
		 * directory came with the fork; the slots are mapped here). */
		vgd_direct kd = {0};
		uint32_t self = (uint32_t)getpid(); /* before the filter */
		if (dir) {
			kd = *dir;
			kd.dir = NULL;
			if (vgd_direct_map(&kd, 1) < 0) {
				vgd_err("cannot map the direct slots: %s", strerror(errno));
				vgd_keystore_wipe(&s->ks);
				vgd_sandbox_exit(1);
			}
			vgd_direct_close_fds(&kd);
		}
		/* The directories' mappings that came with the fork: not this
		 * keyholder's to keep. */
		for (int i = 0; i < s->ndirect; i++)
			vgd_direct_unmap_dir_only(&s->direct[i]);
		/* Its own copy of the keys, locked by itself: locks are not
		 * inherited across fork (doc/design.md, "Keys": they are locked).
		 * Before the privilege drop, so RLIMIT_MEMLOCK of the user it
		 * drops to does not matter, and before the filter. */
		vgd_keystore_lock(&s->ks);
		vgd_sandbox_opts o = s->sb;
		o.nofile = 8;
		o.report_fd = sc[1];
		o.chan_fd = sv[1];
		if (vgd_sandbox_enter(VGD_ROLE_KEYHOLDER, &o) < 0) {
			vgd_keystore_wipe(&s->ks);
			vgd_sandbox_exit(1);
		}
		vgd_sandbox_exit(vgd_keyholder_main(&s->ks, ring, dir ? &kd : NULL, self, sv[1],
						    sc[1]));
	}
	close(sv[1]);
	close(sc[1]);
	*c = (child){.s = s, .pid = pid, .slot = slot, .gen = s->gen, .fd = -1, .reported = -1};
	if (slot < s->ndirect) {
		/* The newest keyholder of a slot serves its direct slots: the
		 * one before it (a reload's) hands them over (direct.h). */
		__atomic_store_n(&s->direct[slot].dir->want, (uint32_t)pid, __ATOMIC_SEQ_CST);
		vgd_direct_wake(&s->direct[slot].dir->want);
	}
	if (vgd_sup_child_watch(s, c, sc[0]) < 0) {
		vgd_err("cannot watch keyholder %d's channel", slot);
		close(sc[0]);
	}
	if (s->front.pid > 0) {
		vgd_sup_send_keyholder(s, slot, sv[0], mfd);
		close(sv[0]);
		close(mfd);
	} else {
		vgd_sup_pending_set(s, slot, sv[0], mfd);
	}
	return 0;
}

/* The front, with the keyholder channels made before it and a new
 * control channel (non-blocking on the supervisor's side: see
 * supervisor_ctl.c), under its own user. */
int vgd_sup_spawn_front(sup *s)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	int sz = VGD_CTL_SOCKBUF;
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		child_signals();
		(void)prctl(PR_SET_NAME, "vgd-front", 0, 0, 0);
		static int keep[2 * VGD_KH_MAX + 2 + VGD_KH_MAX * (1 + VGD_DIRECT_MAX)];
		int nk = 0;
		keep[nk++] = sv[1];
		keep[nk++] = s->listen_fd;
		for (int i = 0; i < s->nslots; i++)
			if (s->pending_fds[i] >= 0) {
				keep[nk++] = s->pending_fds[i];
				keep[nk++] = s->pending_rings[i];
			}
		for (int i = 0; i < s->ndirect; i++) {
			keep[nk++] = s->direct[i].dir_fd;
			for (int j = 0; j < s->direct[i].nslots; j++)
				keep[nk++] = s->direct[i].slot_fd[j];
		}
		close_fds_except(keep, nk);
		/* The front must never see key material. */
		vgd_keystore_drop_secrets(&s->ks);
		vgd_log_setup("front", s->cfg->log_level);
		vgd_sandbox_opts o = s->sb_front;
		o.nofile = s->front_nofile;
		o.report_fd = sv[1];
		o.chan_fd = -1;
		if (vgd_sandbox_enter(VGD_ROLE_FRONT, &o) < 0)
			vgd_sandbox_exit(1);
		vgd_front_args a = {
			.cfg = s->cfg,
			.keys = &s->ks,
			.listen_fd = s->listen_fd,
			.ctl_fd = sv[1],
			.nkeyholders = s->nslots,
			.kh_fds = s->pending_fds,
			.kh_rings = s->pending_rings,
			.generation = s->gen,
			.ncpus = s->ncpus,
			.kh_cpu = s->kh_cpu,
			.direct = s->direct,
			.ndirect = s->ndirect,
		};
		vgd_sandbox_exit(vgd_front_main(&a));
	}
	close(sv[1]);
	for (int i = 0; i < s->nslots; i++)
		vgd_sup_pending_set(s, i, -1, -1);
	s->front = (child){.s = s, .pid = pid, .slot = -1, .gen = s->gen, .fd = -1,
			   .reported = -1};
	s->front_ready = 0;
	if (vgd_sup_ctl_open(s, sv[0]) < 0 || vgd_sup_child_watch(s, &s->front, sv[0]) < 0)
		vgd_err("cannot watch the front's control channel");
	vgd_sup_send_counters(s);
	vgd_sup_send_uid_names(s); /* its keys came with the fork, their names come here */
	return 0;
}
