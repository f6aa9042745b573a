/* main.c: vghs, the end-to-end TLS handshake benchmark. Starts its own
 * vgd (the one built beside it) and, for each key and web server (Debian's
 * nginx and HAProxy), the same certificate served twice: the key in the
 * server's memory, and the key in vgd through the provider (HAProxy with
 * ssl-mode-async). Its load generator (load.c) drives full handshakes plus
 * one tiny request over loopback; in-process and vgd phases alternate in
 * one run. Reports handshakes/s at saturation, handshake latency at low
 * load, and server CPU per handshake (the server's processes and, for the
 * vgd rows, every vgd process, from /proc). Secret: nothing beyond the
 * test keys the in-process servers load. */
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <openssl/opensslv.h>
#include <openssl/crypto.h>

#include "vgclient.h"
#include "vghs.h"

#ifndef VGHS_VGD
#define VGHS_VGD "vgd"
#endif
#ifndef VGHS_KEYS
#define VGHS_KEYS "tests/keys"
#endif
#ifndef VGHS_PROVIDER_DIR
#define VGHS_PROVIDER_DIR "provider"
#endif

#define NS 1e9
#define DRAIN_NS 1000000000u /* a saturation phase's drain, at most */
#define START_NS 5000000000u /* one server's or vgd's start, at most */
#define CHECK_RETRY_S 10.0    /* --check: the longest phase a row that measured nothing gets */

typedef struct {
	double seconds;
	int rounds, conns, lat_count, workers, tsv, keep, smoke;
	int client_cpu, client_nice, client_procs;
	int check; /* fail on a row that is not sane (--check; --smoke implies it) */
	int servers[VGH_NSERVERS]; /* which to run */
	int keys[16];              /* indices into vgh_keys that run */
	int nkeys;
	int protos[2];    /* [0] TLS 1.2, [1] TLS 1.3 */
	int haproxy_sync; /* also HAProxy with the provider's blocking calls */
	const char *vgd, *keys_dir, *provider_dir;
	vgh_server_opts so;
} options;

/* One (server, key, protocol, mode) row, summed over its phases. */
typedef struct {
	int ran;
	uint64_t done, completed, errors;
	double window_s, srv_s, vgd_s, client_s, idle_frac_sum;
	double role_s[VGH_VGD_NROLES];
	int idle_n;
	long long signs; /* vgd sign.count over the phases, -1: unknown */
	long long stray_signs; /* in-process rows: vgd signatures during their phases */
	uint64_t pauses, submits, inflight_max;
	int have_prov;
	uint64_t *lat_ns; /* handshake latencies of the low-load phases, pooled */
	size_t nlat, lat_cap;
	int verified;
	int phases; /* phases run, retries (--check) included */
	char first_error[200];
} row;

/* The sampler the load generator calls at the window's edges. */
typedef struct {
	const vgh_server *srv;
	const vgh_daemon *d;
	int with_vgd;
	uint64_t srv0, vgd0[VGH_VGD_NROLES], idle0, tot0;
	double srv_s, vgd_s, idle_frac;
	double role_s[VGH_VGD_NROLES];
} sampler;

static void sample(void *arg, int which)
{
	sampler *s = arg;
	pid_t pids[VGH_MAX_PIDS];
	int n = vgh_server_pids(s->srv, pids, VGH_MAX_PIDS);
	uint64_t srv = vgh_cpu_ns(pids, n);
	uint64_t vgd[VGH_VGD_NROLES] = {0};
	if (s->with_vgd)
		vgh_vgd_cpu(s->d->pid, vgd);
	uint64_t idle = 0, tot = 0;
	vgh_machine(&idle, &tot);
	if (which == 0) {
		s->srv0 = srv;
		memcpy(s->vgd0, vgd, sizeof(vgd));
		s->idle0 = idle;
		s->tot0 = tot;
		return;
	}
	s->srv_s = (double)(srv - s->srv0) / NS;
	s->vgd_s = 0;
	for (int r = 0; r < VGH_VGD_NROLES; r++) {
		s->role_s[r] = (double)(vgd[r] - s->vgd0[r]) / NS;
		s->vgd_s += s->role_s[r];
	}
	s->idle_frac = tot > s->tot0 ? (double)(idle - s->idle0) / (double)(tot - s->tot0) : -1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vghs [options]\n"
		   "  -t SECONDS       saturation phase length (default 2)\n"
		   "  -r N             interleaved rounds per row (default 2)\n"
		   "  -c N             connections in flight at saturation (default 64)\n"
		   "  --lat-count N    handshakes of the low-load latency phase (default 300)\n"
		   "  --servers LIST   nginx,haproxy (default both)\n"
		   "  --keys LIST      of:");
	for (size_t i = 0; i < vgh_nkeys; i++)
		fprintf(f, " %s", vgh_keys[i].name);
	fprintf(f,
		"\n                   (default all but rsa4096)\n"
		"  --tls LIST       1.3,1.2 (default both)\n"
		"  --workers N      nginx worker_processes and HAProxy nbthread (default: CPUs)\n"
		"  --haproxy-sync   also HAProxy with vgd through blocking calls (no async)\n"
		"  --client-procs N load generator processes at saturation (default: CPUs)\n"
		"  --client-cpu N   pin the load generator to CPU N\n"
		"  --client-nice N  run the load generator at niceness N (servers stay at 0)\n"
		"  --smoke          a short run (one key, TLS 1.3, 0.3 s phases) with --check;\n"
		"                   passes with a note when nginx or HAProxy is not installed\n"
		"  --check          fail unless every row is sane: handshakes and latencies\n"
		"                   measured, server CPU seen, one vgd signature per vgd\n"
		"                   handshake and none for in-process ones, async rows paused\n"
		"                   (no timing is judged)\n"
		"  --tsv            tab-separated rows with a header line\n"
		"  --keep           keep the temporary directory (configs, logs)\n"
		"  --vgd PATH --keys-dir DIR --provider-dir DIR --nginx PATH --haproxy PATH\n");
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == 0 || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_keys(options *o, const char *list)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", list);
	o->nkeys = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < vgh_nkeys && strcmp(vgh_keys[i].name, t) != 0)
			i++;
		if (i == vgh_nkeys || o->nkeys == 16) {
			fprintf(stderr, "vghs: unknown key %s\n", t);
			return -1;
		}
		o->keys[o->nkeys++] = (int)i;
	}
	return o->nkeys ? 0 : -1;
}

static const char *find_bin(const char *name)
{
	static const char *const dirs[] = {"/usr/sbin", "/usr/bin", "/sbin", "/bin"};
	static char found[2][64];
	int slot = strcmp(name, "nginx") == 0 ? 0 : 1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(found[slot], sizeof(found[slot]), "%s/%s", dirs[i], name);
		if (access(found[slot], X_OK) == 0)
			return found[slot];
	}
	return NULL;
}

static int parse_args(int argc, char **argv, options *o)
{
	enum {
		O_LAT = 256,
		O_SERVERS,
		O_KEYS,
		O_TLS,
		O_WORKERS,
		O_HSYNC,
		O_CCPU,
		O_CNICE,
		O_CPROCS,
		O_SMOKE,
		O_CHECK,
		O_TSV,
		O_KEEP,
		O_VGD,
		O_KDIR,
		O_PDIR,
		O_NGINX,
		O_HAPROXY
	};
	static const struct option lo[] = {{"lat-count", required_argument, NULL, O_LAT},
					   {"servers", required_argument, NULL, O_SERVERS},
					   {"keys", required_argument, NULL, O_KEYS},
					   {"tls", required_argument, NULL, O_TLS},
					   {"workers", required_argument, NULL, O_WORKERS},
					   {"haproxy-sync", no_argument, NULL, O_HSYNC},
					   {"client-cpu", required_argument, NULL, O_CCPU},
					   {"client-nice", required_argument, NULL, O_CNICE},
					   {"client-procs", required_argument, NULL, O_CPROCS},
					   {"smoke", no_argument, NULL, O_SMOKE},
					   {"check", no_argument, NULL, O_CHECK},
					   {"tsv", no_argument, NULL, O_TSV},
					   {"keep", no_argument, NULL, O_KEEP},
					   {"vgd", required_argument, NULL, O_VGD},
					   {"keys-dir", required_argument, NULL, O_KDIR},
					   {"provider-dir", required_argument, NULL, O_PDIR},
					   {"nginx", required_argument, NULL, O_NGINX},
					   {"haproxy", required_argument, NULL, O_HAPROXY},
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	*o = (options){.seconds = 2,
		       .rounds = 2,
		       .conns = 64,
		       .lat_count = 300,
		       .servers = {1, 1},
		       .protos = {1, 1},
		       .client_cpu = -1,
		       .client_nice = 0,
		       .client_procs = ncpu > 0 ? (int)ncpu : 1,
		       .vgd = VGHS_VGD,
		       .keys_dir = VGHS_KEYS,
		       .provider_dir = VGHS_PROVIDER_DIR};
	o->so.workers = ncpu > 0 ? (int)ncpu : 1;
	o->so.nginx = find_bin("nginx");
	o->so.haproxy = find_bin("haproxy");
	const char *env_keys = getenv("VG_TEST_KEYS");
	if (env_keys && *env_keys)
		o->keys_dir = env_keys;
	int keys_given = 0, ch;
	while ((ch = getopt_long(argc, argv, "t:r:c:h", lo, NULL)) != -1) {
		char *end;
		switch (ch) {
		case 't':
			o->seconds = strtod(optarg, &end);
			if (*end || !(o->seconds >= 0.1 && o->seconds <= 600)) {
				fprintf(stderr, "vghs: -t wants seconds in [0.1, 600]\n");
				return -1;
			}
			break;
		case 'r':
			if (parse_int(optarg, 1, 100, &o->rounds) < 0)
				return fprintf(stderr, "vghs: -r wants 1..100\n"), -1;
			break;
		case 'c':
			if (parse_int(optarg, 1, VGH_MAX_CONNS, &o->conns) < 0)
				return fprintf(stderr, "vghs: -c wants 1..%d\n", VGH_MAX_CONNS), -1;
			break;
		case O_LAT:
			if (parse_int(optarg, 1, 1000000, &o->lat_count) < 0)
				return fprintf(stderr, "vghs: --lat-count wants 1..1000000\n"), -1;
			break;
		case O_SERVERS:
			o->servers[VGH_NGINX] = strstr(optarg, "nginx") != NULL;
			o->servers[VGH_HAPROXY] = strstr(optarg, "haproxy") != NULL;
			break;
		case O_KEYS:
			if (parse_keys(o, optarg) < 0)
				return -1;
			keys_given = 1;
			break;
		case O_TLS:
			o->protos[0] = strstr(optarg, "1.2") != NULL;
			o->protos[1] = strstr(optarg, "1.3") != NULL;
			break;
		case O_WORKERS:
			if (parse_int(optarg, 1, 64, &o->so.workers) < 0)
				return fprintf(stderr, "vghs: --workers wants 1..64\n"), -1;
			break;
		case O_HSYNC:
			o->haproxy_sync = 1;
			break;
		case O_CCPU:
			if (parse_int(optarg, 0, CPU_SETSIZE - 1, &o->client_cpu) < 0)
				return fprintf(stderr, "vghs: --client-cpu wants a CPU number\n"),
				       -1;
			break;
		case O_CPROCS:
			if (parse_int(optarg, 1, 64, &o->client_procs) < 0)
				return fprintf(stderr, "vghs: --client-procs wants 1..64\n"), -1;
			break;
		case O_CNICE:
			if (parse_int(optarg, -20, 19, &o->client_nice) < 0)
				return fprintf(stderr, "vghs: --client-nice wants -20..19\n"), -1;
			break;
		case O_SMOKE:
			o->smoke = 1;
			break;
		case O_CHECK:
			o->check = 1;
			break;
		case O_TSV:
			o->tsv = 1;
			break;
		case O_KEEP:
			o->keep = 1;
			break;
		case O_VGD:
			o->vgd = optarg;
			break;
		case O_KDIR:
			o->keys_dir = optarg;
			break;
		case O_PDIR:
			o->provider_dir = optarg;
			break;
		case O_NGINX:
			o->so.nginx = optarg;
			break;
		case O_HAPROXY:
			o->so.haproxy = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	if (o->smoke) {
		o->check = 1;
		o->seconds = 0.3;
		o->rounds = 1;
		o->lat_count = 20;
		o->conns = 8;
		o->protos[0] = 0;
		o->protos[1] = 1;
		if (!keys_given)
			parse_keys(o, "ed25519");
	} else if (!keys_given) {
		parse_keys(o, "rsa2048,rsa3072,ed25519,ecdsa-p256,ecdsa-p384");
	}
	if (!o->protos[0] && !o->protos[1])
		return fprintf(stderr, "vghs: --tls wants 1.3 and/or 1.2\n"), -1;
	return 0;
}

/* The modes a server runs: in process, and vgd (HAProxy: asynchronous;
 * with --haproxy-sync also blocking). */
static int modes_of(const options *o, int kind, int *modes)
{
	int n = 0;
	modes[n++] = VGH_INPROC;
	if (kind == VGH_NGINX) {
		modes[n++] = VGH_VGD;
	} else {
		modes[n++] = VGH_VGD_ASYNC;
		if (o->haproxy_sync)
			modes[n++] = VGH_VGD;
	}
	return n;
}

static void add_phase(row *w, const vgh_result *r, const sampler *s)
{
	w->ran = 1;
	w->done += r->done;
	w->completed += r->completed_all;
	w->errors += r->errors;
	w->window_s += r->window_s;
	w->client_s += r->client_cpu_s;
	w->srv_s += s->srv_s;
	w->vgd_s += s->vgd_s;
	for (int i = 0; i < VGH_VGD_NROLES; i++)
		w->role_s[i] += s->role_s[i];
	if (s->idle_frac >= 0) {
		w->idle_frac_sum += s->idle_frac;
		w->idle_n++;
	}
	if (r->first_error[0] && !w->first_error[0])
		snprintf(w->first_error, sizeof(w->first_error), "%s", r->first_error);
}

/* A key's signature timed in process (vgh_sig_cost); -1: not timed. */
typedef struct {
	double kernel_us, ossl_us;
} sigcost;

typedef struct {
	const options *o;
	const vgh_daemon *d;
	vgh_client *cl;
	int failed;
	sigcost costs[16]; /* by index in vgh_keys, the last timing */
} run_ctx;

static int run_phase(run_ctx *x, const vgh_server *s, int tls13, int sat, double seconds, row *w)
{
	const options *o = x->o;
	w->phases++;
	int in_vgd = s->mode != VGH_INPROC;
	sampler smp = {.srv = s, .d = x->d, .with_vgd = in_vgd};
	/* Read for in-process phases too: vgd must sign nothing then. */
	long long signs0 = vgh_daemon_signs(x->d);
	uint64_t pz0 = 0, sub0 = 0, infl = 0;
	int prov = in_vgd && vgh_provider_counters(x->d, &pz0, &sub0, &infl) == 0;
	uint64_t t = vgh_now_ns(), len = (uint64_t)(seconds * NS);
	vgh_phase p = {.port = s->port,
		       .host = s->host,
		       .ca_file = s->cert,
		       .tls13 = tls13,
		       .sample = sample,
		       .sample_arg = &smp,
		       .t_start = t};
	if (sat) {
		p.conns = o->conns;
		p.t_warm = t + len / 5;
		p.t_stop = t + len;
		p.t_end = p.t_stop + DRAIN_NS;
	} else {
		p.conns = 1;
		p.max_count = (uint64_t)(o->lat_count + o->rounds - 1) / (uint64_t)o->rounds + 1;
		p.t_warm = t + 1; /* the first (verifying) connection is not timed */
		p.t_stop = t + len;
		p.t_end = p.t_stop;
	}
	vgh_result r;
	int lr = sat ? vgh_load_run_procs(x->cl, &p, o->client_procs, &r)
		     : vgh_load_run(x->cl, &p, &r);
	if (lr < 0) {
		fprintf(stderr, "vghs: %s\n", r.first_error);
		return -1;
	}
	if (!r.verified && !w->first_error[0])
		snprintf(w->first_error, sizeof(w->first_error),
			 "first connection not verified: %.160s",
			 r.first_error[0] ? r.first_error : "-");
	if (sat) {
		add_phase(w, &r, &smp);
	} else {
		if (w->nlat + r.nhs > w->lat_cap) {
			size_t cap = w->nlat + r.nhs;
			uint64_t *n = realloc(w->lat_ns, cap * sizeof(*n));
			if (n) {
				w->lat_ns = n;
				w->lat_cap = cap;
			}
		}
		for (size_t i = 0; i < r.nhs && w->nlat < w->lat_cap; i++)
			w->lat_ns[w->nlat++] = r.hs_ns[i];
		w->errors += r.errors;
		w->completed += r.completed_all;
		if (r.first_error[0] && !w->first_error[0])
			snprintf(w->first_error, sizeof(w->first_error), "%s", r.first_error);
	}
	w->verified = w->verified || r.verified;
	long long signs1 = vgh_daemon_signs(x->d);
	if (!in_vgd && signs0 >= 0 && signs1 >= signs0)
		w->stray_signs += signs1 - signs0;
	if (in_vgd) {
		if (signs0 >= 0 && signs1 >= signs0)
			w->signs = (w->signs < 0 ? 0 : w->signs) + (signs1 - signs0);
		uint64_t pz1, sub1;
		if (prov && vgh_provider_counters(x->d, &pz1, &sub1, &infl) == 0) {
			w->have_prov = 1;
			w->pauses += pz1 - pz0;
			w->submits += sub1 - sub0;
			if (infl > w->inflight_max)
				w->inflight_max = infl;
		}
	}
	vgh_result_free(&r);
	return 0;
}

static double per(double a, uint64_t n)
{
	return n ? a / (double)n : -1;
}

static void print_header(const options *o)
{
	if (o->tsv) {
		printf("server\tkey\ttls\tmode\ths_s\tratio\tcpu_us_hs\tdelta_us\tsrv_pct\tvgd_"
		       "pct\t"
		       "gen_pct\tgen_us_hs\tidle_pct\tp50_us\tp90_us\tp99_us\thandshakes\terrors\t"
		       "signs_per_hs\tpauses_per_hs\tinflight_max\tsrv_us_hs\tfront_us_hs\t"
		       "keyholders_us_hs\tsupervisor_us_hs\tkernel_us\topenssl_us\ttransport_us_sig\n");
		return;
	}
	printf("| server | key | TLS | key in | hs/s | x in | CPU us/hs | +us | server | front | "
	       "keyholders | transport us/sig | client us/hs | idle%% | p50 | p90 | p99 | err | "
	       "sig/hs | pauses/hs |\n"
	       "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	       "---:|---:|---:|\n");
}

/* The transport's CPU per signature: what vgd's processes spent beyond
 * the kernel, plus what the server spent beyond the in-process server's
 * handshake (base) once the signature it no longer makes (ossl_us) is
 * given back. NAN without the numbers (noise can make it negative). */
static double transport_us(const row *w, const row *base, const sigcost *c)
{
	double sig = w->signs > 0 && w->completed ? (double)w->signs / (double)w->completed : -1;
	if (!base || sig <= 0 || c->kernel_us <= 0 || c->ossl_us <= 0 || !w->done || !base->done)
		return NAN;
	double vgd = per((w->role_s[VGH_VGD_FRONT] + w->role_s[VGH_VGD_KEYHOLDERS]) * 1e6, w->done);
	double srv = per(w->srv_s * 1e6, w->done) - per(base->srv_s * 1e6, base->done);
	return (vgd + srv) / sig - c->kernel_us + c->ossl_us;
}

static void print_row(const options *o, int kind, const vgh_key *k, int tls13, int mode,
		      const row *w, const row *base, const sigcost *c)
{
	double hs = w->window_s > 0 ? (double)w->done / w->window_s : 0;
	double bhs = base && base->window_s > 0 ? (double)base->done / base->window_s : 0;
	double cpu = per((w->srv_s + w->vgd_s) * 1e6, w->done);
	double bcpu = base ? per((base->srv_s + base->vgd_s) * 1e6, base->done) : -1;
	double ratio = base && bhs > 0 ? hs / bhs : -1;
	double delta = base && bcpu >= 0 && cpu >= 0 ? cpu - bcpu : NAN;
	double srv = w->window_s > 0 ? 100 * w->srv_s / w->window_s : 0;
	double vgdp = w->window_s > 0 ? 100 * w->vgd_s / w->window_s : 0;
	double gen = w->window_s > 0 ? 100 * w->client_s / w->window_s : 0;
	double genhs = per(w->client_s * 1e6, w->done);
	double idle = w->idle_n ? 100 * w->idle_frac_sum / w->idle_n : -1;
	double sig = w->signs >= 0 && w->completed ? (double)w->signs / (double)w->completed : -1;
	double pz = w->have_prov && w->completed ? (double)w->pauses / (double)w->completed : -1;
	const char *tls = tls13 ? "1.3" : "1.2";
	vgh_result lr = {.hs_ns = w->lat_ns, .nhs = w->nlat};
	double p50 = vgh_percentile_us(&lr, 50), p90 = vgh_percentile_us(&lr, 90),
	       p99 = vgh_percentile_us(&lr, 99);
	double tr = mode != VGH_INPROC ? transport_us(w, base, c) : NAN;
	(void)srv;
	(void)vgdp;
	(void)gen;
	if (o->tsv) {
		printf("%s\t%s\t%s\t%s\t%.0f\t%.2f\t%.1f\t%.1f\t%.0f\t%.0f\t%.0f\t%.1f\t%.0f\t"
		       "%.0f\t%.0f\t%.0f\t%llu\t%llu\t%.2f\t%.2f\t%llu\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t"
		       "%.1f\t%.1f\n",
		       vgh_server_names[kind], k->name, tls, vgh_mode_names[mode], hs, ratio, cpu,
		       isnan(delta) ? 0 : delta, srv, vgdp, gen, genhs, idle, p50, p90, p99,
		       (unsigned long long)w->done, (unsigned long long)w->errors, sig, pz,
		       (unsigned long long)w->inflight_max, per(w->srv_s * 1e6, w->done),
		       per(w->role_s[VGH_VGD_FRONT] * 1e6, w->done),
		       per(w->role_s[VGH_VGD_KEYHOLDERS] * 1e6, w->done),
		       per(w->role_s[VGH_VGD_SUPERVISOR] * 1e6, w->done), c->kernel_us,
		       c->ossl_us, tr);
		return;
	}
	char rs[16] = "", ds[16] = "", ss[16] = "-", ps[16] = "-";
	if (ratio >= 0)
		snprintf(rs, sizeof(rs), "%.2f", ratio);
	if (!isnan(delta))
		snprintf(ds, sizeof(ds), "%+.0f", delta);
	if (sig >= 0)
		snprintf(ss, sizeof(ss), "%.2f", sig);
	if (pz >= 0)
		snprintf(ps, sizeof(ps), "%.2f", pz);
	char fr[16] = "-", kh[16] = "-", ts[16] = "-";
	if (!isnan(tr))
		snprintf(ts, sizeof(ts), "%.0f", tr);
	if (mode != VGH_INPROC) {
		snprintf(fr, sizeof(fr), "%.0f", per(w->role_s[VGH_VGD_FRONT] * 1e6, w->done));
		snprintf(kh, sizeof(kh), "%.0f", per(w->role_s[VGH_VGD_KEYHOLDERS] * 1e6, w->done));
	}
	printf("| %s | %s | %s | %s | %.0f | %s | %.0f | %s | %.0f | %s | %s | %s | %.0f | %.0f | "
	       "%.0f | %.0f | %.0f | %llu | %s | %s |\n",
	       vgh_server_names[kind], k->label, tls, vgh_mode_names[mode], hs, rs, cpu, ds,
	       per(w->srv_s * 1e6, w->done), fr, kh, ts, genhs, idle, p50, p90, p99,
	       (unsigned long long)w->errors, ss, ps);
	fflush(stdout);
}

/* What is wrong with a finished row (--check), or NULL. Counts only, no
 * timing: a row that measured nothing, a "vgd" row whose server did not
 * sign through vgd (or an in-process row whose server did), an async row
 * whose jobs never paused. The bounds on signatures allow for the
 * connections a phase abandons after the server signed (at most conns a
 * phase). */
static const char *row_insane(const options *o, int mode, const row *w)
{
	uint64_t phases = (uint64_t)w->phases;
	if (w->done == 0)
		return "no handshake completed in a saturation window";
	if (w->nlat == 0)
		return "no latency measured at low load";
	if (!(w->srv_s > 0))
		return "no server CPU seen";
	if (mode == VGH_INPROC)
		return w->stray_signs == 0 ? NULL : "vgd signed for the in-process server";
	if (w->signs < 0)
		return "vgd's sign.count unreadable";
	if ((uint64_t)w->signs < w->completed ||
	    (uint64_t)w->signs > w->completed + phases * (uint64_t)o->conns)
		return "vgd signatures do not match the handshakes";
	if (!(w->vgd_s > 0))
		return "no vgd CPU seen";
	if (mode == VGH_VGD_ASYNC && (!w->have_prov || w->pauses < w->completed / 2))
		return "the async jobs did not pause for vgd";
	return NULL;
}

/* --check: a row whose phases measured nothing (no handshake in a
 * saturation window, none at low load) runs that phase again, each time
 * twice as long, up to CHECK_RETRY_S: on a loaded machine a short phase
 * can end before the first handshake does. A server that never completes
 * one still fails the check, only later. */
static void retry_empty(run_ctx *x, const vgh_server *s, int kind, const vgh_key *k, int tls13,
			int mode, row *w)
{
	const options *o = x->o;
	for (int sat = 1; sat >= 0; sat--) {
		double len = o->seconds;
		while ((sat ? w->done == 0 : w->nlat == 0) && len < CHECK_RETRY_S) {
			len = 2 * len < CHECK_RETRY_S ? 2 * len : CHECK_RETRY_S;
			fprintf(stderr,
				"vghs: %s %s TLS %s %s: no handshake %s; again in a %.1f s phase\n",
				vgh_server_names[kind], k->name, tls13 ? "1.3" : "1.2",
				vgh_mode_names[mode], sat ? "in the saturation window" : "at low load",
				len);
			if (run_phase(x, s, tls13, sat, len, w) < 0) {
				x->failed = 1;
				return;
			}
		}
	}
}

/* One key on one server: start every mode's server, alternate their
 * saturation phases over the rounds, then their latency phases. */
static void run_key(run_ctx *x, int kind, const vgh_key *k)
{
	const options *o = x->o;
	int modes[VGH_NMODES], nm = modes_of(o, kind, modes);
	vgh_server srv[VGH_NMODES];
	char why[300];
	memset(srv, 0, sizeof(srv));
	for (int m = 0; m < nm; m++) {
		if (vgh_server_start(&srv[m], &o->so, x->d, k, kind, modes[m],
				     vgh_now_ns() + START_NS, why, sizeof(why)) < 0) {
			fprintf(stderr, "vghs: %s %s %s: %s\n", vgh_server_names[kind], k->name,
				vgh_mode_names[modes[m]], why);
			x->failed = 1;
			for (int j = 0; j <= m; j++)
				vgh_server_stop(&srv[j]);
			return;
		}
	}
	/* Timed before the key's phases, on a machine that is then quiet. */
	sigcost c;
	if (vgh_sig_cost(o->keys_dir, k, &c.kernel_us, &c.ossl_us) < 0)
		fprintf(stderr, "vghs: %s: the signature could not be timed in process\n", k->name);
	x->costs[k - vgh_keys] = c;
	for (int tls13 = 1; tls13 >= 0; tls13--) {
		if (!o->protos[tls13])
			continue;
		row w[VGH_NMODES];
		memset(w, 0, sizeof(w));
		for (int m = 0; m < nm; m++)
			w[m].signs = -1;
		/* Saturation, then low load, alternating the modes within each
		 * round (who goes first rotates): a shared machine's speed drifts
		 * over seconds, so the modes see the same machine. */
		for (int r = 0; r < o->rounds; r++)
			for (int sat = 1; sat >= 0; sat--)
				for (int i = 0; i < nm; i++) {
					int m = (i + r) % nm;
					if (run_phase(x, &srv[m], tls13, sat, o->seconds, &w[m]) < 0)
						x->failed = 1;
				}
		if (o->check)
			for (int m = 0; m < nm; m++)
				retry_empty(x, &srv[m], kind, k, tls13, modes[m], &w[m]);
		for (int m = 0; m < nm; m++) {
			print_row(o, kind, k, tls13, modes[m], &w[m], m ? &w[0] : NULL, &c);
			free(w[m].lat_ns);
			if (w[m].errors || !w[m].verified) {
				fprintf(stderr,
					"vghs: %s %s TLS %s %s: %llu errors; %s (log: %s)\n",
					vgh_server_names[kind], k->name, tls13 ? "1.3" : "1.2",
					vgh_mode_names[modes[m]], (unsigned long long)w[m].errors,
					w[m].first_error[0] ? w[m].first_error : "-", srv[m].log);
				x->failed = 1;
			}
			const char *bad = o->check ? row_insane(o, modes[m], &w[m]) : NULL;
			if (bad) {
				fprintf(stderr, "vghs: %s %s TLS %s %s: check: %s\n",
					vgh_server_names[kind], k->name, tls13 ? "1.3" : "1.2",
					vgh_mode_names[modes[m]], bad);
				x->failed = 1;
			}
		}
	}
	for (int m = 0; m < nm; m++)
		vgh_server_stop(&srv[m]);
}

static void print_intro(const options *o, const vgh_daemon *d, double bound_s)
{
	char model[128] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');
			snprintf(model, sizeof(model), "%.120s", c ? c + 2 : line);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	if (f)
		fclose(f);
	double load = -1;
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	vgc_hello h = {0};
	vg_client *c = vg_client_new(d->sock);
	if (c && vg_client_hello(c, &h) < 0)
		h.server[0] = 0;
	vg_client_free(c);
	FILE *out = o->tsv ? stderr : stdout;
	fprintf(out,
		"vghs: %s, %ld CPUs, load average %.2f; %s; %s\n"
		"vghs: %d worker(s)/thread(s) per server, %d connections at saturation, %.1f s "
		"phases x %d rounds, %d handshakes at low load; load generator: %d process(es), "
		"%s%s; at most %.0f s (and --check's retries)\n",
		model, sysconf(_SC_NPROCESSORS_ONLN), load, OpenSSL_version(OPENSSL_VERSION),
		h.server[0] ? h.server : "vgd ?", o->so.workers, o->conns, o->seconds, o->rounds,
		o->lat_count, o->client_procs, o->client_cpu >= 0 ? "pinned" : "unpinned",
		o->client_nice ? " and niced" : "", bound_s);
}

int main(int argc, char **argv)
{
	options o;
	if (parse_args(argc, argv, &o) < 0)
		return 64;
	signal(SIGPIPE, SIG_IGN);
	if (o.so.nginx && access(o.so.nginx, X_OK) != 0)
		o.so.nginx = NULL;
	if (o.so.haproxy && access(o.so.haproxy, X_OK) != 0)
		o.so.haproxy = NULL;
	int any = 0;
	for (int s = 0; s < VGH_NSERVERS; s++) {
		const char *bin = s == VGH_NGINX ? o.so.nginx : o.so.haproxy;
		if (o.servers[s] && !bin) {
			printf("vghs: note: %s is not installed; its rows are skipped (Debian: "
			       "apt-get "
			       "install %s)\n",
			       vgh_server_names[s], s == VGH_NGINX ? "nginx-light" : "haproxy");
			o.servers[s] = 0;
		}
		any |= o.servers[s];
	}
	if (!any) {
		printf("vghs: note: no web server to measure; nothing ran\n");
		return o.smoke ? 0 : 1;
	}
	int nrows = 0;
	for (int s = 0; s < VGH_NSERVERS; s++) {
		int modes[VGH_NMODES];
		if (o.servers[s])
			nrows += modes_of(&o, s, modes) * o.nkeys * (o.protos[0] + o.protos[1]);
	}
	/* Saturation phases end within t + drain; latency phases within t. */
	double bound = (double)nrows * (o.rounds * (o.seconds + DRAIN_NS / NS) + o.seconds) +
		       (double)nrows * START_NS / NS / 2 + 10;
	char why[300];
	vgh_daemon d;
	if (vgh_daemon_start(&d, o.vgd, o.keys_dir, o.provider_dir, vgh_now_ns() + START_NS, why,
			     sizeof(why)) < 0) {
		fprintf(stderr, "vghs: %s\n", why);
		vgh_daemon_stop(&d, 1);
		return 1;
	}
	run_ctx x = {.o = &o, .d = &d};
	x.cl = vgh_client_new(why, sizeof(why));
	if (!x.cl) {
		fprintf(stderr, "vghs: %s\n", why);
		vgh_daemon_stop(&d, o.keep);
		return 1;
	}
	print_intro(&o, &d, bound);
	/* After the servers' parent-side setup: only this process (the load
	 * generator) is pinned or niced; servers reset both (servers.c). */
	if (o.client_cpu >= 0) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(o.client_cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0)
			perror("vghs: sched_setaffinity");
	}
	if (o.client_nice && setpriority(PRIO_PROCESS, 0, o.client_nice) < 0)
		perror("vghs: setpriority");
	print_header(&o);
	for (int s = 0; s < VGH_NSERVERS; s++)
		for (int i = 0; s < VGH_NSERVERS && o.servers[s] && i < o.nkeys; i++)
			run_key(&x, s, &vgh_keys[o.keys[i]]);
	for (int i = 0; i < o.nkeys; i++) {
		const sigcost *c = &x.costs[o.keys[i]];
		if (c->kernel_us > 0 && c->ossl_us > 0)
			fprintf(o.tsv ? stderr : stdout,
				"vghs: %s signature in process (thread CPU, median): vgd's kernel "
				"%.1f us, OpenSSL %.1f us\n",
				vgh_keys[o.keys[i]].label, c->kernel_us, c->ossl_us);
	}
	vgh_client_free(x.cl);
	vgh_daemon_stop(&d, o.keep || x.failed);
	if (x.failed)
		fprintf(stderr, "vghs: some rows failed; files kept in %s\n", d.dir);
	return x.failed ? 1 : 0;
}
