/* supervisor.h: the parent process. Reads config and keys, owns the
 * listening socket, forks the front and the keyholders, restarts them,
 * reloads on SIGHUP, drains on SIGTERM, talks to $NOTIFY_SOCKET. */
#ifndef VGD_SUPERVISOR_H
#define VGD_SUPERVISOR_H

#include "config.h"

/* Runs the daemon; returns the exit status. cfg is owned by the caller
 * until the first reload replaces it. */
int vgd_supervisor_main(vgd_config *cfg);

#endif
