/* vgload.h: the pieces of vgload (the daemon load benchmark) and what they
 * share. Internal to the bench: names carry vgl_, nothing is exported.
 * Secret: the key material bare.c loads to time the kernels in-process
 * (the test keys, which are published anyway). */
#ifndef VGLOAD_H
#define VGLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VGL_MAX_DEPTH 128u /* requests in flight per connection (protocol limit) */
#define VGL_MAX_CLIENTS 256
#define VGL_DATA_MAX 512u

/* One benchmarked operation: what vgload asks the daemon for. */
typedef struct {
	const char *name;     /* "ed25519", "rsa2048-pkcs1", ... (what --ops matches) */
	const char *key;      /* key name in the daemon's config */
	const char *key_file; /* file in the keys directory */
	uint8_t op, alg;      /* VG_OP_*, VG_ALG_* (0 for x25519, rsa-private) */
	size_t data_len;      /* request DATA bytes */
	size_t result_len;    /* expected RESULT bytes */
} vgl_op;

extern const vgl_op vgl_ops[];
extern const size_t vgl_nops;

/* The request input for op (deterministic, valid for the test keys). */
void vgl_op_data(const vgl_op *op, uint8_t data[VGL_DATA_MAX]);

/* Monotonic clock in nanoseconds. */
uint64_t vgl_now_ns(void);
/* Median seconds per call of fn(arg) over ~1 ms batches run until
 * deadline_ns; -1 if fn fails (timing.c). */
double vgl_time_median(int (*fn)(void *arg), void *arg, uint64_t deadline_ns);

/* ---- bare kernels, in-process (bare.c) ---- */
typedef struct vgl_keys vgl_keys;
/* Load the keys every op needs from dir; NULL and why on failure. */
vgl_keys *vgl_keys_load(const char *dir, char *why, size_t whylen);
void vgl_keys_free(vgl_keys *k);
/* Median seconds per operation over batches run until deadline_ns
 * (monotonic); -1 on failure. */
double vgl_bare_time(const vgl_keys *k, const vgl_op *op, const uint8_t *data,
		     uint64_t deadline_ns);
/* 0 if res is a correct result of op on data (deterministic results are
 * compared with the kernel's; PSS is verified). */
int vgl_bare_check(const vgl_keys *k, const vgl_op *op, const uint8_t *data, const uint8_t *res,
		   size_t len);

/* ---- OpenSSL in-process, what a server does without vgd (ossl.c) ---- */
typedef struct vgl_ossl vgl_ossl;
/* NULL when vgload was built without libcrypto or a key does not load. */
vgl_ossl *vgl_ossl_new(const char *dir, char *why, size_t whylen);
void vgl_ossl_free(vgl_ossl *o);
double vgl_ossl_time(vgl_ossl *o, const vgl_op *op, const uint8_t *data, uint64_t deadline_ns);
const char *vgl_ossl_version(void);

/* ---- the daemon under test (spawn.c) ---- */
typedef struct {
	char dir[64];
	char sock[128];
	char conf[128];
	char log[128];
	pid_t pid; /* 0: not ours (--socket) */
} vgl_daemon;

/* Start vgd with the test keys and keyholders keyholders on a socket in
 * a fresh temporary directory; waits until it answers a ping, but not
 * past deadline_ns. 0 or -1 (why says why, the log is kept). */
int vgl_daemon_start(vgl_daemon *d, const char *vgd, const char *keys_dir, int keyholders,
		     uint64_t deadline_ns, char *why, size_t whylen);
/* SIGTERM, wait until deadline_ns, then SIGKILL; removes the directory
 * unless keep_log. */
void vgl_daemon_stop(vgl_daemon *d, uint64_t deadline_ns, int keep_log);

/* One request, one reply, blocking with a deadline (rpc.c): ping and stats. */
int vgl_ping(const char *sock, uint64_t deadline_ns);
/* A stats counter by name (e.g. "keyholders"); -1 if absent or on error. */
long long vgl_stat(const char *sock, const char *name, uint64_t deadline_ns);

/* ---- CPU time of the daemon's processes (procstat.c) ---- */
typedef struct {
	double front_s, keyholders_s; /* user + system seconds */
	int nkeyholders;
	int ok;
} vgl_dcpu;
/* Sample the children of supervisor pid (front: the one with an epoll fd). */
void vgl_dcpu_sample(pid_t supervisor, vgl_dcpu *out);
/* Live children of parent (up to cap); their count. */
int vgl_children(pid_t parent, pid_t *pids, int cap);

/* ---- the load phase (load.c) ---- */
typedef struct {
	const char *sock;
	const vgl_op *op;
	const uint8_t *data;
	const vgl_keys *keys; /* to check the first reply of the phase */
	int clients, depth;
	uint64_t t_warm;   /* latencies of requests sent before: not recorded */
	uint64_t t_submit; /* no request sent after */
	uint64_t t_end;    /* hard end: what is still in flight is abandoned */
} vgl_phase;

typedef struct {
	uint64_t completed; /* replies received in [t_warm, t_submit] */
	double window_s;    /* t_submit - t_warm */
	uint64_t ok, errors, unfinished;
	uint64_t *lat_ns; /* latencies of requests sent after t_warm */
	size_t nlat, lat_cap;
	int sorted;
	double cpu_s; /* the load generator's user + system time */
	char first_error[160];
} vgl_result;

/* Run one phase. 0, or -1 if it could not start (connections). */
int vgl_load_run(const vgl_phase *p, vgl_result *r);
void vgl_result_free(vgl_result *r);
/* Percentile (0..100) of the recorded latencies, microseconds; -1 if none. */
double vgl_percentile_us(vgl_result *r, double pct);

#endif
