/* supervisor_internal.h: the supervisor's state and the functions its
 * files call across (see supervisor.h). Holds the keys (to give them to
 * new keyholders); never parses client input. Who owns what (calls go
 * down this list, never up):
 *   supervisor.c         start-up (keys, user, descriptor budget), the
 *                        signal events and the main loop, stopping;
 *   supervisor_reload.c  SIGHUP: a new config and key set, a new
 *                        generation of keyholders;
 *   supervisor_live.c    liveness: pinging every child on its channel,
 *                        killing a hung one, restarting any child that
 *                        should exist and does not;
 *   supervisor_exit.c    SIGCHLD: reaping children, describing how they
 *                        died;
 *   supervisor_brake.c   restarting what died, with the crash-loop brake;
 *   supervisor_spawn.c   forking the front and the keyholders;
 *   supervisor_chan.c    what children send on their own channels
 *                        (violation reports, pongs, READY);
 *   supervisor_ctl.c     the control channel to the front: non-blocking,
 *                        with a bounded queue (and READY to the service
 *                        manager);
 *   supervisor_socket.c  the listening socket (systemd's or our own), and
 *                        the answer given on it while no front runs. */
#ifndef VGD_SUPERVISOR_INTERNAL_H
#define VGD_SUPERVISOR_INTERNAL_H

#include <event2/event.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "direct.h"
#include "keystore.h"
#include "ratelog.h"
#include "record.h"
#include "sandbox.h"

typedef struct sup sup;

/* One child process and the supervisor's end of its own channel (the
 * front's control channel, or a keyholder's supervisor channel): what
 * comes on it is the child's and only the child's (reports, pongs). */
typedef struct {
	sup *s;
	pid_t pid; /* 0: slot free (or the front is down) */
	int slot;  /* keyholder slot; -1 for the front */
	unsigned gen;
	int fd; /* the supervisor's end of the child's channel, or -1 */
	struct event *ev;
	int reported; /* the system call its violation report named, or -1 */
	int killed;   /* KILLED_*: the supervisor killed it, it did not crash */
	int orphan;   /* keyholder whose front died: killed if it lingers */
	uint32_t ping_seq;
	uint64_t ping_sent_ms; /* a ping is outstanding since then; 0: none */
} child;

enum { KILLED_NO, KILLED_HUNG, KILLED_ORPHAN, KILLED_STALE };

/* A control message waiting for the front to read (fd: a duplicate of a
 * descriptor to pass, owned by the queue, or -1). */
typedef struct {
	vgd_ctl m;
	int fd;
} ctlmsg;

struct sup {
	vgd_config *cfg;
	vgd_keystore ks;
	unsigned gen;
	int listen_fd;
	int owns_socket_path;
	int socket_activated; /* listen_fd is systemd's */
	/* Answering on listen_fd while no front does (supervisor_socket.c) */
	struct event *answer_ev;
	int answering;
	struct event_base *base;
	child front;                 /* front.fd: the control channel */
	child kh[VGD_KH_PROCS_MAX];  /* current and retiring generations */
	struct event *ctl_wev, *kill_timer, *live_timer;
	ctlmsg *ctlq; /* VGD_CTL_QUEUE_MAX entries, a ring */
	unsigned ctlq_head, ctlq_len;
	int counters_pending; /* counters changed while the queue was not empty */
	int front_ready;      /* READY seen from the current front */
	int nslots;
	int ncpus; /* CPUs vgd may run on (its affinity mask) at start */
	/* The CPU each keyholder slot is pinned to (pin_keyholders), or -1:
	 * a restarted keyholder goes back to its slot's CPU, and the front
	 * gets the list to dispatch to the keyholder on its own CPU. */
	int kh_cpu[VGD_KH_MAX];
	int pending_fds[VGD_KH_MAX];   /* channels made before the front exists */
	int pending_rings[VGD_KH_MAX]; /* and their rings (memfds, khring.h) */
	/* Direct slots of the keyholder slots that existed at start
	 * (direct.h), kept for the daemon's life; the directories mapped. */
	vgd_direct direct[VGD_KH_MAX];
	int ndirect;
	uint64_t restarts, front_restarts, violations, hung, dropped;
	/* crash-loop brake: restarts in the current one-second window, and
	 * the pause the brake imposes next (doubles while the loop goes on) */
	long long window_start_ms;
	int window_restarts;
	int brake_s;
	long long brake_until_ms;
	struct event *respawn_timer;
	int respawn_front;
	int respawn_slots[VGD_KH_MAX];
	int stopping;
	vgd_sandbox_opts sb;       /* keyholders' */
	vgd_sandbox_opts sb_front; /* the front's (its own user) */
	int cfg_owned;         /* cfg was allocated by a reload (free it on the next) */
	unsigned front_nofile; /* RLIMIT_NOFILE the front gets */
	/* What children can make the supervisor log is rate-limited. */
	vgd_ratelog childlog;
};

/* supervisor_reload.c */
void vgd_sup_on_sighup(evutil_socket_t sig, short what, void *arg);

/* supervisor_exit.c */
void vgd_sup_on_sigchld(evutil_socket_t sig, short what, void *arg);
int vgd_sup_children_alive(const sup *s);

/* supervisor_live.c */
int vgd_sup_live_start(sup *s);

/* supervisor_brake.c */
void vgd_sup_restart_later(sup *s);
/* Has slot a keyholder of the current generation (alive and not on its
 * way out), or one about to be started? */
int vgd_sup_slot_covered(const sup *s, int slot);
void vgd_sup_on_respawn_timer(evutil_socket_t fd, short what, void *arg);

/* supervisor_spawn.c */
int vgd_sup_spawn_keyholder(sup *s, int slot);
void vgd_sup_pending_set(sup *s, int slot, int fd, int mfd);
int vgd_sup_spawn_front(sup *s);

/* supervisor_chan.c */
/* Watch a child's channel (fd, the supervisor's end) for its messages. */
int vgd_sup_child_watch(sup *s, child *c, int fd);
/* Stop watching (the child is gone, or its channel is); closes a
 * keyholder's channel (the front's is vgd_sup_ctl_close's). */
void vgd_sup_child_unwatch(child *c);
/* Read what the child has sent (before it is reaped: its report). */
void vgd_sup_child_read(child *c);
/* Kill a child on purpose (why: KILLED_*), so its exit is not a crash. */
void vgd_sup_kill(sup *s, child *c, int why);

/* supervisor_ctl.c */
int vgd_sup_ctl_open(sup *s, int fd);
void vgd_sup_ctl_close(sup *s);
void vgd_sup_send_ping(sup *s, uint32_t seq);
void vgd_sup_send_keyholder(sup *s, int slot, int fd, int mfd);
void vgd_sup_send_counters(sup *s);
void vgd_sup_send_keys(sup *s);
void vgd_sup_send_uid_names(sup *s);
void vgd_sup_send_limits(sup *s);
void vgd_sup_send_drain(sup *s);

/* supervisor_socket.c: the listening socket, non-blocking; -1 (logged)
 * if there is none. */
int vgd_sup_listen(sup *s);
/* Start or stop answering on the socket as the state requires: while no
 * front runs (crash-loop pause), and while stopping on a socket of our
 * own. Call after the front starts or ends and when stopping begins. */
void vgd_sup_answer_update(sup *s);
/* Stopping, socket ours: answer what the backlog still holds (after the
 * path is gone, nothing more can come). */
void vgd_sup_answer_backlog(sup *s);

#endif
