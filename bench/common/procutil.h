/* procutil.h: small process and file helpers shared by the programs that
 * drive a vgd from outside (bench/vgload, bench/vghs, the integration
 * test harness).
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

/* Start the vgd binary at path vgd on config conf, its stderr appended
 * to log, stdin and stdout on /dev/null; it gets SIGTERM if the calling
 * process dies, so a killed benchmark leaves no daemon behind. Returns
 * its pid, or -1 (errno from fork). */
pid_t vg_spawn_vgd(const char *vgd, const char *conf, const char *log);

/* SIGTERM to the vgd at pid and wait up to timeout_ms for it to drain
 * and exit; past that it and the children it had are killed (SIGKILL). */
void vg_stop_vgd(pid_t pid, int timeout_ms);

/* Remove dir and everything under it (the daemon's config, keys,
 * socket and log, and what servers started by the tests create there,
 * such as nginx's temporary directories). Best effort. */
void vg_remove_dir(const char *dir);

#endif
