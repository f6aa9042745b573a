/* front.h: the front process: no key material. Accepts clients, decodes
 * and validates frames, checks access, dispatches jobs to keyholders,
 * matches replies, answers every request exactly once. */
#ifndef VGD_FRONT_H
#define VGD_FRONT_H

#include "config.h"
#include "direct.h"
#include "keystore.h"

typedef struct {
	const vgd_config *cfg;
	const vgd_keystore *keys; /* public infos only; secrets dropped */
	int listen_fd;
	int ctl_fd;       /* supervisor control channel */
	int nkeyholders;  /* slots */
	const int *kh_fds; /* initial keyholder channels, one per slot */
	const int *kh_rings; /* and their rings (memfds, khring.h) */
	unsigned generation;
	int ncpus; /* CPUs vgd may run on (read before the sandbox: sysconf opens /sys) */
	const int *kh_cpu; /* per slot: the CPU its keyholder is pinned to, or -1 */
	const vgd_direct *direct; /* direct slots of keyholder slots [0, ndirect) */
	int ndirect;
} vgd_front_args;

/* Connections the front holds, unread, over max_connections before it
 * admits or refuses them (front_read.c): its descriptor budget includes
 * them (supervisor.c). */
#define VGD_FRONT_HELD_MAX 64

/* Connections the front holds, unread, over max_connections before it
 * admits or refuses them (front_read.c): its descriptor budget includes
 * them (supervisor.c). */
#define VGD_FRONT_HELD_MAX 64

/* Runs until drained; returns the process exit status. */
int vgd_front_main(const vgd_front_args *args);

#endif
