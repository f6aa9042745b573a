/* proc.h: run external programs (openssl, nginx, curl) for the tls tests,
 * each in its own process group, and kill every one of them at the end,
 * on failure, and when the test itself is terminated. */
#ifndef VGT_PROC_H
#define VGT_PROC_H

#include <sys/types.h>

/* Start argv[0] (a path) with stdin from in (NULL: /dev/null) and
 * stdout+stderr to out. env: NULL or NULL-terminated "NAME=value" to set
 * or "NAME" to unset. Returns the pid or -1. */
pid_t vgt_spawn(char *const argv[], char *const env[], const char *in, const char *out);
/* Wait up to ms for pid to exit. Returns its exit status (128+signal if
 * killed by a signal), or -1 if it did not exit in time (it is then
 * killed, with its process group). */
int vgt_wait(pid_t pid, int ms);
/* Is pid still running (not exited)? */
int vgt_alive(pid_t pid);
/* Also kill pid (e.g. vgd) if the test is terminated by a signal. */
void vgt_track(pid_t pid);
/* SIGTERM every started process group, then SIGKILL after 3 s; reap. */
void vgt_kill_all(void);
/* Install SIGTERM/SIGINT/SIGALRM handlers that kill everything and exit. */
void vgt_proc_init(void);

/* A free TCP port on 127.0.0.1 (bound then released). 0 on failure. */
int vgt_free_port(void);
/* Wait up to ms until 127.0.0.1:port accepts a connection. 0 or -1. */
int vgt_wait_port(int port, int ms);
/* Wait up to ms until file contains needle. 0 or -1. */
int vgt_wait_file(const char *file, const char *needle, int ms);
/* Read a whole (small) file into a malloc'ed NUL-terminated string. */
char *vgt_slurp(const char *file);

#endif
