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
#define VGL_OUT_MAX 512u /* the longest result (RSA-4096) */

/* One benchmarked operation: what vgload asks the daemon for. */
typedef struct {
	const char *name;     /* "ed25519", "rsa2048-pkcs1", ... (what --ops matches) */
	const char *key;      /* key name in the daemon's config */
	const char *key_file; /* file in the keys directory */
	uint8_t op, alg;      /* VG_OP_*, VG_ALG_* (0 for x25519, rsa-private) */
	size_t data_len;      /* request DATA bytes */
	size_t result_len;    /* expected RESULT bytes; 0: of varying length, at
			       * most VGL_OUT_MAX (a DER ECDSA signature) */
} vgl_op;

extern const vgl_op vgl_ops[];
extern const size_t vgl_nops;

/* The request input for op (deterministic, valid for the test keys). */
void vgl_op_data(const vgl_op *op, uint8_t data[VGL_DATA_MAX]);

/* Monotonic clock in nanoseconds. */
uint64_t vgl_now_ns(void);

/* ---- in-process timing, pooled over slices (timing.c) ---- */
/* Seconds per call, one per ~1 ms batch (thread CPU time), gathered over
 * any number of slices into an array the caller owns. */
typedef struct {
	double *per;
	size_t n, cap;
	double one_s; /* the last single warm call; -1 before any */
	int failed;
} vgl_sampler;

/* A slice adds about this many batches (longer slices, longer batches);
 * a sampler of 2x this per slice never fills. */
#define VGL_SLICE_BATCHES 1024u

void vgl_sampler_init(vgl_sampler *s, double *per, size_t cap);
/* Add batches of fn(arg) until deadline_ns (monotonic; a batch that would
 * end past it is not started). 0, or -1 if fn failed (now or before). */
int vgl_sample(vgl_sampler *s, int (*fn)(void *arg), void *arg, uint64_t deadline_ns);
/* Pool src's batches into dst too (as many as dst has room for). */
void vgl_sampler_add(vgl_sampler *dst, const vgl_sampler *src);
/* Median seconds per call over every batch pooled so far (the single warm
 * call if there was no time for a batch); -1 if fn failed or never ran. */
double vgl_sampler_median(vgl_sampler *s);

/* ---- bare kernels, in-process (bare.c) ---- */
typedef struct vgl_keys vgl_keys;
/* Load the keys every op needs from dir; NULL and why on failure. */
vgl_keys *vgl_keys_load(const char *dir, char *why, size_t whylen);
void vgl_keys_free(vgl_keys *k);
/* One op's kernel with its key and input, and its own output buffer:
 * vgl_bare_job_run(job) is one call as the keyholder makes it (the fn the
 * samplers time). The key is shared, read only, between jobs. */
typedef struct {
	const void *secret;
	const vgl_op *op;
	const uint8_t *data;
	uint8_t out[VGL_OUT_MAX];
} vgl_bare_job;
/* 0, or -1 if op has no kernel (ping) or no key here. */
int vgl_bare_job_init(vgl_bare_job *j, const vgl_keys *k, const vgl_op *op, const uint8_t *data);
int vgl_bare_job_run(void *job);
void vgl_bare_job_wipe(vgl_bare_job *j);
/* One slice of the bare kernel into s, until deadline_ns. 0 or -1. */
int vgl_bare_sample(const vgl_keys *k, const vgl_op *op, const uint8_t *data, vgl_sampler *s,
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
/* One slice of op done with OpenSSL into s, until deadline_ns. 0, or -1
 * on failure or when op has no OpenSSL counterpart (ping). */
int vgl_ossl_sample(vgl_ossl *o, const vgl_op *op, const uint8_t *data, vgl_sampler *s,
		    uint64_t deadline_ns);
const char *vgl_ossl_version(void);

/* ---- the bare kernel on several cores at once (parallel.c) ---- */
#define VGL_MAX_THREADS 256
/* Run op's kernel on nthreads threads together until deadline_ns, each
 * timing ~1 ms batches in its own CPU time; the summed rate of the threads
 * (calls per CPU second, each thread's from its median batch); -1 on
 * failure. */
double vgl_bare_parallel(const vgl_keys *k, const vgl_op *op, const uint8_t *data, int nthreads,
			 uint64_t deadline_ns);

/* ---- the platform's floor: one process hop (floor.c) ---- */
typedef struct {
	double p50_us, p99_us; /* round trip */
	size_t n;              /* round trips timed */
} vgl_floor;
/* Time 64-byte round trips to a forked echo child over an AF_UNIX
 * SOCK_SEQPACKET socketpair, both sides blocking in recv, until
 * deadline_ns or enough samples. The child is always reaped. 0, or -1 and
 * why. */
int vgl_floor_measure(vgl_floor *f, uint64_t deadline_ns, char *why, size_t whylen);

/* ---- the daemon under test (spawn.c) ---- */
typedef struct {
	char dir[64];
	char sock[128];
	char conf[128];
	char log[128];
	pid_t pid; /* 0: not ours (--socket) */
} vgl_daemon;

/* Start vgd with the test keys, keyholders keyholders and busy_poll_us
 * (its config setting) on a socket in a fresh temporary directory; waits
 * until it answers a ping, but not past deadline_ns. 0 or -1 (why says
 * why, the log is kept). */
int vgl_daemon_start(vgl_daemon *d, const char *vgd, const char *keys_dir, int keyholders,
		     int busy_poll_us, uint64_t deadline_ns, char *why, size_t whylen);
/* SIGTERM, wait until deadline_ns, then SIGKILL; removes the directory
 * unless keep_log. */
void vgl_daemon_stop(vgl_daemon *d, uint64_t deadline_ns, int keep_log);

/* One request, one reply, blocking with a deadline (rpc.c): ping and stats. */
int vgl_ping(const char *sock, uint64_t deadline_ns);
/* hello's CAPS bits (VG_CAP_*), 0 on error. */
uint32_t vgl_caps(const char *sock, uint64_t deadline_ns);
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
/* The front among the children of supervisor, or 0. */
pid_t vgl_front_pid(pid_t supervisor);
/* /proc/PID/stat opened for vgl_proc_cpu, or -1. */
int vgl_proc_stat_open(pid_t pid);
/* The CPU the process last ran on (field 39 of the open stat file), or -1. */
int vgl_proc_cpu(int stat_fd);

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
	int front_stat_fd; /* the front's /proc stat: sample where replies came
			    * from (every VGL_WHERE_EVERY-th reply), or -1 */
	int cpu_hint;      /* send CLIENT_CPU, as libvgclient does (PROTOCOL.md 6.10) */
	int spin_us;       /* 1x1: wait for the reply as libvgclient's blocking
			    * calls do: read without blocking, yielding, for up
			    * to spin_us, then sleep (0: sleep at once) */
} vgl_phase;

/* One reply in this many is sampled for where it ran: often enough for a
 * share within a few %, rarely enough that the reads (between requests,
 * not inside the timed ones) leave the loop's timing alone. */
#define VGL_WHERE_EVERY 16u

typedef struct {
	uint64_t completed; /* replies received in [t_warm, t_submit] */
	double window_s;    /* t_submit - t_warm */
	uint64_t ok, errors, unfinished;
	uint64_t *lat_ns; /* latencies of requests sent after t_warm */
	size_t nlat, lat_cap;
	int sorted;
	double cpu_s; /* the load generator's user + system time */
	/* Sampled replies, and those read on the CPU the front last ran on
	 * (it sent them from there: the front -> client wake-up stayed on
	 * one CPU). */
	uint64_t where_n, where_same;
	char first_error[160];
} vgl_result;

/* Run one phase. 0, or -1 if it could not start (connections). */
int vgl_load_run(const vgl_phase *p, vgl_result *r);
void vgl_result_free(vgl_result *r);
/* Percentile (0..100) of the recorded latencies, microseconds; -1 if none. */
double vgl_percentile_us(vgl_result *r, double pct);
/* The same for any latencies: sort v[0, n) (ns), then the nearest-rank
 * percentile of the sorted values in microseconds (n > 0). */
void vgl_sort_ns(uint64_t *v, size_t n);
double vgl_rank_us(const uint64_t *sorted, size_t n, double pct);

#endif
