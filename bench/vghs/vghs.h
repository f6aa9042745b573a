/* vghs.h: the pieces of vghs (the end-to-end TLS handshake benchmark) and
 * what they share. Internal to the bench: names carry vgh_, nothing is
 * exported. Secret: the test keys the servers load in process (published
 * test keys, copied into the run's temporary directory and removed with
 * it). */
#ifndef VGHS_H
#define VGHS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VGH_MAX_PIDS 64
#define VGH_MAX_CONNS 1024

/* Monotonic clock in nanoseconds. */
uint64_t vgh_now_ns(void);

/* ---- keys and certificates (certs.c) ---- */
typedef struct {
	const char *name;  /* "rsa2048", ... (what --keys matches) */
	const char *file;  /* in the keys directory */
	const char *label; /* for the report: "RSA-2048" */
} vgh_key;

extern const vgh_key vgh_keys[];
extern const size_t vgh_nkeys;

/* A self-signed certificate for key (PEM in dir/NAME.pem), CN and SAN
 * host; written to cert_out (PEM). 0, or -1 and why. */
int vgh_make_cert(const char *key_pem, const char *host, const char *cert_out, char *why,
		  size_t whylen);

/* One handshake signature with key k timed in this process (sigcost.c):
 * vgd's kernel as the keyholder runs it, and OpenSSL as an in-process
 * server signs; microseconds of thread CPU, medians. 0, or -1 with
 * whichever could not be timed at -1. */
int vgh_sig_cost(const char *keys_dir, const vgh_key *k, double *kernel_us, double *ossl_us);

/* ---- the run's vgd (daemon.c) ---- */
typedef struct {
	char dir[64]; /* the run's temporary directory (servers' files too) */
	char sock[128];
	char conf[128];
	char log[128];
	char ossl_cnf[128];   /* openssl.cnf that activates the provider */
	char prov_stats[128]; /* VGD_PROVIDER_STATS file the servers' providers share */
	pid_t pid;
} vgh_daemon;

/* Make the directory, copy keys (the whole table), write vgd's config
 * (one key per table row, named as the row, allow = sign) and the
 * openssl.cnf for provider_dir/vgd.so; start vgd; wait until it answers.
 * 0, or -1 and why. */
int vgh_daemon_start(vgh_daemon *d, const char *vgd, const char *keys_dir, const char *provider_dir,
		     uint64_t deadline_ns, char *why, size_t whylen);
void vgh_daemon_stop(vgh_daemon *d, int keep_dir);
/* vgd's sign.count, or -1. */
long long vgh_daemon_signs(const vgh_daemon *d);
/* The provider counters the servers' providers share (VGD_PROVIDER_STATS):
 * pauses and async submissions so far; 0 or -1 (file absent). */
int vgh_provider_counters(const vgh_daemon *d, uint64_t *pauses, uint64_t *async_submits,
			  uint64_t *inflight_max);

/* ---- web servers (servers.c) ---- */
enum { VGH_NGINX, VGH_HAPROXY, VGH_NSERVERS };
/* Where the key lives: in the server's memory, in vgd with the provider's
 * blocking calls, in vgd with asynchronous signing (HAProxy's
 * ssl-mode-async). */
enum { VGH_INPROC, VGH_VGD, VGH_VGD_ASYNC, VGH_NMODES };

extern const char *const vgh_server_names[VGH_NSERVERS];
extern const char *const vgh_mode_names[VGH_NMODES];

typedef struct {
	int kind, mode;
	int port;
	pid_t pid;      /* nginx master / HAProxy */
	char host[64];  /* SNI and certificate name */
	char cert[192]; /* the certificate (its CA file for the client) */
	char log[192];
} vgh_server;

typedef struct {
	const char *nginx, *haproxy; /* binaries, NULL when absent */
	int workers;                 /* nginx worker_processes, HAProxy nbthread */
} vgh_server_opts;

/* Write the configuration and start one server for key in mode, its key
 * in process (the PEM) or a vgd key reference; wait until its port
 * accepts. 0, or -1 and why (log kept). */
int vgh_server_start(vgh_server *s, const vgh_server_opts *o, const vgh_daemon *d,
		     const vgh_key *key, int kind, int mode, uint64_t deadline_ns, char *why,
		     size_t whylen);
void vgh_server_stop(vgh_server *s);
/* The server's processes (the master and its children). */
int vgh_server_pids(const vgh_server *s, pid_t *pids, int cap);

/* ---- CPU accounting from /proc (cpu.c) ---- */
/* Nanoseconds on a CPU so far of every thread of every pid (schedstat). */
uint64_t vgh_cpu_ns(const pid_t *pids, int n);
/* Pids of a process and its live children. */
int vgh_tree(pid_t root, pid_t *pids, int cap);
/* vgd's CPU so far by role, from the processes' names. */
enum { VGH_VGD_FRONT, VGH_VGD_KEYHOLDERS, VGH_VGD_SUPERVISOR, VGH_VGD_NROLES };
void vgh_vgd_cpu(pid_t supervisor, uint64_t ns[VGH_VGD_NROLES]);
/* The machine's idle and total jiffies so far (/proc/stat). */
int vgh_machine(uint64_t *idle, uint64_t *total);

/* ---- the load generator (load.c) ---- */
typedef struct {
	int port;
	const char *host;    /* SNI, and the name the first connection verifies */
	const char *ca_file; /* the certificate, to verify the first connection */
	int tls13;           /* 1: TLS 1.3 only; 0: TLS 1.2 only */
	int conns;           /* connections in flight */
	uint64_t t_start, t_warm, t_stop, t_end; /* ns: start, count from, count to, abandon */
	uint64_t max_count; /* no new connection after this many started; 0: none */
	/* Called at t_warm and at t_stop (or when the count runs out) to
	 * sample the servers' CPU. */
	void (*sample)(void *arg, int which);
	void *sample_arg;
} vgh_phase;

typedef struct {
	uint64_t done; /* connections completed in [t_warm, t_stop] */
	uint64_t started, completed_all, errors;
	double window_s;
	double client_cpu_s; /* the load generator's CPU time in the window */
	uint64_t *hs_ns;     /* handshake latencies of connections started after t_warm */
	size_t nhs, cap;
	char first_error[200];
	int verified; /* the first connection verified the certificate and body */
} vgh_result;

/* The client's SSL_CTX setup cost is kept out of the phases: one context
 * per protocol for the run. */
typedef struct vgh_client vgh_client;
vgh_client *vgh_client_new(char *why, size_t whylen);
void vgh_client_free(vgh_client *c);

int vgh_load_run(vgh_client *c, const vgh_phase *p, vgh_result *r);
/* The same phase in procs processes (the connections split between
 * them); the caller's sample runs in this process at the window's edges.
 * No latencies are kept. procs <= 1: vgh_load_run. */
int vgh_load_run_procs(vgh_client *c, const vgh_phase *p, int procs, vgh_result *r);
void vgh_result_free(vgh_result *r);
/* Percentile (0..100) of the handshake latencies in microseconds; -1. */
double vgh_percentile_us(vgh_result *r, double pct);

#endif
