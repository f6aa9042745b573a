/* supervisor_internal.h: the supervisor's state and the functions its
 * files call across (see supervisor.h). Holds the keys (to give them to
 * new keyholders); never parses client input. Who owns what (calls go
 * down this list, never up):
 *   supervisor.c         start-up (keys, user, descriptor budget), the
 *                        signal events and the main loop, stopping;
 *   supervisor_reload.c  SIGHUP: a new config and key set, a new
 *                        generation of keyholders;
 *   supervisor_exit.c    SIGCHLD: reaping children, describing how they
 *                        died, the sandbox's violation reports;
 *   supervisor_brake.c   restarting what died, with the crash-loop brake;
 *   supervisor_spawn.c   forking the front and the keyholders;
 *   supervisor_ctl.c     the control channel to the front (and READY to
 *                        the service manager);
 *   supervisor_socket.c  the listening socket (systemd's or our own). */
#ifndef VGD_SUPERVISOR_INTERNAL_H
#define VGD_SUPERVISOR_INTERNAL_H

#include <event2/event.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "keystore.h"
#include "record.h"
#include "sandbox.h"

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
	khproc kh[VGD_KH_PROCS_MAX]; /* current and retiring generations */
	int nslots;
	int ncpus; /* online CPUs at start */
	int pending_fds[VGD_KH_MAX]; /* channels made before the front exists */
	uint64_t restarts, violations;
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
	vgd_sandbox_opts sb;
	int cfg_owned;         /* cfg was allocated by a reload (free it on the next) */
	unsigned front_nofile; /* RLIMIT_NOFILE the front gets */
	/* Recent violation reports, so the exit of the child that died of
	 * one can name the system call. */
	vgd_violation recent[16];
	unsigned nrecent;
} sup;

/* supervisor_reload.c */
void vgd_sup_on_sighup(evutil_socket_t sig, short what, void *arg);

/* supervisor_exit.c */
void vgd_sup_on_sigchld(evutil_socket_t sig, short what, void *arg);
void vgd_sup_on_reports(evutil_socket_t fd, short what, void *arg);
int vgd_sup_children_alive(const sup *s);

/* supervisor_brake.c */
void vgd_sup_restart_later(sup *s);
void vgd_sup_on_respawn_timer(evutil_socket_t fd, short what, void *arg);

/* supervisor_spawn.c */
int vgd_sup_spawn_keyholder(sup *s, int slot);
int vgd_sup_spawn_front(sup *s);

/* supervisor_ctl.c */
void vgd_sup_ctl_open(sup *s, int fd);
void vgd_sup_ctl_close(sup *s);
void vgd_sup_send_keyholder(sup *s, int slot, int fd);
void vgd_sup_send_counters(sup *s);
void vgd_sup_send_keys(sup *s);
void vgd_sup_send_limits(sup *s);
void vgd_sup_send_drain(sup *s);

/* supervisor_socket.c: the listening socket, non-blocking; -1 (logged)
 * if there is none. */
int vgd_sup_listen(sup *s);

#endif
