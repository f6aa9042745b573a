/* procutil.h: small process and file helpers shared by the programs that
 * drive a vgd from outside (bench/vgload, the integration test harness).
 * Nothing here is secret. */
#ifndef VG_PROCUTIL_H
#define VG_PROCUTIL_H

#include <sys/types.h>

/* Pids of parent's live (not zombie) children, read from /proc; returns
 * how many were stored (at most cap). */
int vg_proc_children(pid_t parent, pid_t *pids, int cap);

/* Copy src to dst (created or truncated, mode 0600, as vgd wants key
 * files). 0 or -1. */
int vg_copy_file(const char *src, const char *dst);

/* Remove dir and everything under it (the daemon's config, keys,
 * socket and log, and what servers started by the tests create there,
 * such as nginx's temporary directories). Best effort. */
void vg_remove_dir(const char *dir);

#endif
