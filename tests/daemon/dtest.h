/* dtest.h: helpers for the daemon integration tests on top of the shared
 * harness (tests/integration/harness.h): raw protocol sockets (for
 * pipelining and malformed frames), finding children by role, stats
 * lookups; OpenSSL checks of results come from verify.h. Nothing here is
 * secret. */
#ifndef VG_DTEST_H
#define VG_DTEST_H

#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness.h"
#include "vg/proto.h"
#include "verify.h"
#include "vgclient.h"

/* Connect a blocking Unix stream socket; -1 on failure. */
int dt_connect(const char *path);
/* Write all n bytes; 0 or -1. */
int dt_send_all(int fd, const void *buf, size_t n);
/* Read exactly one frame (header + body) into buf within timeout_ms.
 * Returns its length, 0 on EOF before any byte, -1 on error/timeout/bad
 * frame. */
long dt_read_frame(int fd, uint8_t *buf, size_t cap, int timeout_ms);
/* 1 if the peer closes (EOF or reset) within timeout_ms with nothing more
 * to read, 0 if it stays open, -1 if data arrived instead. */
int dt_wait_closed(int fd, int timeout_ms);
/* Read one reply and decode it into rep (pointing into buf); 0 or -1. */
int dt_read_reply(int fd, uint8_t *buf, size_t cap, int timeout_ms, vg_reply *rep);

/* Encode requests. Return the frame length (> 0) or a negative status. */
long dt_req_sign(uint8_t *buf, size_t cap, uint32_t id, const char *key, int alg,
		 const void *data, size_t len);
long dt_req_simple(uint8_t *buf, size_t cap, uint8_t op, uint32_t id);
/* n pings on fd, one at a time, each with the CLIENT_CPU hint cpu
 * (PROTOCOL.md 6.10); 0 if every one was answered OK, else -1. */
int dt_hinted_pings(int fd, uint32_t cpu, int n);

/* Raise RLIMIT_NOFILE's soft limit to the hard limit; returns the soft limit. */
long dt_raise_nofile(void);
/* Pids of the daemon's children whose /proc/PID/comm is comm
 * ("vgd-keyholder", "vgd-front"); returns the count. */
int dt_children_named(const vgt_daemon *d, const char *comm, pid_t *pids, int cap);
/* Wait (up to 30 s) until exactly n children are named comm and, unless
 * not_this is 0, the first of them is not not_this (a restarted one);
 * their pids go to pids (room for 8). Returns n, or -1 on timeout. */
int dt_wait_children(const vgt_daemon *d, const char *comm, int n, pid_t not_this, pid_t *pids);
/* A number from /proc/PID/status ("VmRSS", "voluntary_ctxt_switches"), or
 * -1 if the process or the field is missing. */
long dt_proc_status(pid_t pid, const char *field);

/* The value of one stat (by name) from a fresh stats call; -1 if missing. */
long long dt_stat(const char *sock, const char *name);

/* The same over an open raw connection (the stats request uses id 0x57a7). */
long long dt_stat_on(int fd, const char *name);

/* Poll until the log holds needle min_count times, or timeout_ms passes
 * (at least DT_WAIT_MIN_MS: every caller waits for something that must
 * come, and on a loaded machine it can come late; a longer wait only
 * delays a failure); returns 1/0. */
#define DT_WAIT_MIN_MS 30000
int dt_wait_log(const vgt_daemon *d, const char *needle, int min_count, int timeout_ms);

/* Run vgd with argv (NULL-terminated, argv[0] ignored), capturing stdout
 * and stderr together into out; returns the exit status or -1. */
int dt_run_vgd(const char *const argv[], char *out, size_t cap);

/* vgd-testhooks: a ping whose data is "vgd-test-front:" + cmd (see
 * daemon/front_hooks.c). The reply's data goes to out (NUL-terminated).
 * 0 if answered, -1 if not (the front died of it: the connection
 * closed). */
int dt_front_hook(const char *sock, const char *cmd, char *out, size_t cap);

/* Milliseconds on a monotonic clock. */
long long dt_now_ms(void);

/* Stop the daemon and remove its directory; its log goes to stderr first
 * if it did not stop cleanly or logged a sandbox violation. 0 if clean,
 * -1 otherwise (a cmocka teardown's return value). */
int dt_stop_clean(vgt_daemon *d);

#endif
