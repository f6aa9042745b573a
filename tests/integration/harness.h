/* harness.h: start a real vgd on a temporary socket for integration
 * tests. Keys come from tests/keys (copied with mode 0600). Paths to the
 * binaries and keys come from the environment meson sets:
 *   VG_VGD, VG_VGD_TESTHOOKS, VG_VGCTL, VG_TEST_KEYS. */
#ifndef VG_TEST_HARNESS_H
#define VG_TEST_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

#include "vgclient.h"

typedef struct {
	char dir[256];  /* temporary directory, removed by vgt_cleanup */
	char sock[320];
	char conf[320];
	char log[320];
	pid_t pid;
} vgt_daemon;

/* The config every test starts from: the global settings plus these key
 * sections over the test keys (names: ed, ed-tls (TLS 1.3 only), x,
 * rsa2048, rsa3072, rsa4096, rsa-pkcs1, rsa-der, ed-der). */
extern const char vgt_default_keys[];

/* Make the temp dir, copy the keys (those of tests/keys the tests use,
 * ECDSA ones included), write vgd.conf = "socket = ..." + globals + keys.
 * globals may be NULL. Returns 0 or -1. */
int vgt_setup(vgt_daemon *d, const char *globals, const char *keys);
/* Rewrite vgd.conf (for reload tests). */
int vgt_write_config(vgt_daemon *d, const char *globals, const char *keys);
/* Start vgd (testhooks build if testhooks) and wait until it answers
 * ping (10 s at most). extra_env: NULL or "NAME=value" strings, NULL-
 * terminated. Returns 0 or -1 (and prints the log). */
int vgt_start(vgt_daemon *d, int testhooks, char *const extra_env[]);
/* SIGTERM and wait (10 s, then SIGKILL). Returns the exit status or -1. */
int vgt_stop(vgt_daemon *d);
/* Remove the temp dir (stops the daemon first if running). */
void vgt_cleanup(vgt_daemon *d);
/* vgt_stop, the log to stderr if it did not stop cleanly, vgt_cleanup.
 * Returns 0 if the daemon stopped cleanly, -1 otherwise. */
int vgt_finish(vgt_daemon *d);
/* vgt_setup with the default keys, vgt_start, and a client of it (with a
 * 60 s timeout); NULL if any step fails. */
vg_client *vgt_start_client(vgt_daemon *d, int testhooks);
/* Number of times needle occurs in the daemon's log so far. */
int vgt_log_count(const vgt_daemon *d, const char *needle);
/* Print the daemon's log to stderr (for failures). */
void vgt_dump_log(const vgt_daemon *d);
/* Path of a test key copy inside d->dir. */
const char *vgt_key(const vgt_daemon *d, const char *file, char *buf, size_t cap);
/* A Unix socket named name in d's directory that listens (its backlog
 * accepts connections) and never answers: a stalled daemon for timeout
 * tests. Its path goes to path; returns the listening fd, or -1. */
int vgt_silent_server(const vgt_daemon *d, const char *name, char *path, size_t cap);
/* Pids of the daemon's children (front and keyholders) via /proc;
 * returns count. */
int vgt_children(const vgt_daemon *d, pid_t *pids, int cap);

#endif
