/* main.c: vgload, the daemon load benchmark. Measures the platform's
 * process round trip once, starts its own vgd with the test keys (or uses
 * --socket), and for each operation measures the daemon in latency mode
 * (1 client, 1 request in flight) and saturation mode (-c clients x -k in
 * flight), with the bare kernel and OpenSSL timed in-process in slices
 * around those phases and the kernel on K threads at once between them;
 * prints throughput, latency percentiles, overhead and efficiency. The
 * whole run ends within its announced time bound. Secret: nothing beyond
 * the test keys bare.c and ossl.c load. */
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vg/cpu.h"
#include "vg/proto.h"
#include "vgload.h"

#ifndef VGLOAD_VGD
#define VGLOAD_VGD "vgd"
#endif
#ifndef VGLOAD_KEYS
#define VGLOAD_KEYS "tests/keys"
#endif

#define NS 1000000000.0
#define START_NS 3000000000u /* the daemon's start-up, at most */
#define STOP_NS 1500000000u  /* its shutdown, at most */
#define FLOOR_NS 200000000u  /* the platform round trip, out of START_NS */
/* Batches a sampler pools: up to four slices (timing.c: about
 * VGL_SLICE_BATCHES each, short batches may make up to twice that). */
#define POOL_CAP (8 * VGL_SLICE_BATCHES)

typedef struct {
	double seconds;
	int clients, depth, keyholders, busy_poll_us, spin_us;
	int tsv, do_latency, do_saturation;
	const char *vgd, *sock, *keys_dir, *ops_re;
} options;

typedef struct {
	double kernel_s, ossl_s;
	double par_pct; /* K threads' rate / (K x one thread's); -1: not measured */
	int ran;
	vgl_result res;
	double gen_cpu, front_cpu, kh_cpu; /* cores busy (1.0 = one core) */
	int have_dcpu;
	/* 1x1 only, -1 when not measured: % of jobs the front gave to the
	 * keyholder pinned on its own CPU (vgd's dispatch.local), and % of
	 * sampled replies read on the CPU the front sent them from. */
	double kh_local_pct, cf_same_pct;
} row;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgload [options]\n"
		"  -t SECONDS      time per operation, all measurements included (default 2)\n"
		"  -c N            saturation mode: client connections (default 4)\n"
		"  -k N            saturation mode: requests in flight per connection (default 8)\n"
		"  --ops REGEX     operations to run (extended regex on the names below)\n"
		"  --mode M        both | latency | saturation (default both)\n"
		"  --keyholders N  keyholders of vgload's own vgd (default: online CPUs)\n"
		"  --busy-poll US  busy_poll_us of vgload's own vgd (default 0, as vgd's)\n"
		"  --spin US       latency mode: spin up to US for each reply before sleeping,\n"
		"                  as libvgclient's blocking calls do (default 100, their\n"
		"                  VGD_SPIN_US default; 0: sleep at once)\n"
		"  --vgd PATH      the vgd binary (default: the one built with vgload)\n"
		"  --keys DIR      the test keys (default: the source tree's tests/keys)\n"
		"  --socket PATH   use a running vgd that serves the test keys as\n"
		"                  ed, x, rsa2048 (sign, rsa-private), rsa3072\n"
		"  --tsv           tab-separated output with a header line\n"
		"operations:");
	for (size_t i = 0; i < vgl_nops; i++)
		fprintf(f, " %s", vgl_ops[i].name);
	fprintf(f, "\n");
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

static int parse_args(int argc, char **argv, options *o)
{
	static const struct option lo[] = {
		{"ops", required_argument, NULL, 'o'},   {"mode", required_argument, NULL, 'm'},
		{"keyholders", required_argument, NULL, 'n'}, {"busy-poll", required_argument, NULL, 'b'},
		{"spin", required_argument, NULL, 'S'},
		{"vgd", required_argument, NULL, 'v'},   {"keys", required_argument, NULL, 'K'},
		{"socket", required_argument, NULL, 's'}, {"tsv", no_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	*o = (options){.seconds = 2, .clients = 4, .depth = 8, .do_latency = 1, .spin_us = 100,
		       .do_saturation = 1, .keyholders = ncpu > 0 ? (int)ncpu : 1,
		       .vgd = VGLOAD_VGD, .keys_dir = VGLOAD_KEYS};
	const char *env_keys = getenv("VG_TEST_KEYS");
	if (env_keys && *env_keys)
		o->keys_dir = env_keys;
	int ch;
	while ((ch = getopt_long(argc, argv, "t:c:k:h", lo, NULL)) != -1) {
		char *end;
		switch (ch) {
		case 't':
			o->seconds = strtod(optarg, &end);
			if (*end || !(o->seconds >= 0.05 && o->seconds <= 3600)) {
				fprintf(stderr, "vgload: -t wants seconds in [0.05, 3600]\n");
				return -1;
			}
			break;
		case 'c':
			if (parse_int(optarg, 1, VGL_MAX_CLIENTS, &o->clients) < 0) {
				fprintf(stderr, "vgload: -c wants 1..%d\n", VGL_MAX_CLIENTS);
				return -1;
			}
			break;
		case 'k':
			if (parse_int(optarg, 1, (int)VGL_MAX_DEPTH, &o->depth) < 0) {
				fprintf(stderr, "vgload: -k wants 1..%u\n", VGL_MAX_DEPTH);
				return -1;
			}
			break;
		case 'n':
			if (parse_int(optarg, 1, 256, &o->keyholders) < 0) {
				fprintf(stderr, "vgload: --keyholders wants 1..256\n");
				return -1;
			}
			break;
		case 'b':
			if (parse_int(optarg, 0, 1000, &o->busy_poll_us) < 0) {
				fprintf(stderr, "vgload: --busy-poll wants 0..1000 (us)\n");
				return -1;
			}
			break;
		case 'S':
			if (parse_int(optarg, 0, 1000000, &o->spin_us) < 0) {
				fprintf(stderr, "vgload: --spin wants 0..1000000 (us)\n");
				return -1;
			}
			break;
		case 'o': o->ops_re = optarg; break;
		case 'v': o->vgd = optarg; break;
		case 'K': o->keys_dir = optarg; break;
		case 's': o->sock = optarg; break;
		case 'T': o->tsv = 1; break;
		case 'm':
			o->do_latency = strcmp(optarg, "saturation") != 0;
			o->do_saturation = strcmp(optarg, "latency") != 0;
			if (strcmp(optarg, "both") && strcmp(optarg, "latency") &&
			    strcmp(optarg, "saturation")) {
				fprintf(stderr, "vgload: --mode wants both, latency or saturation\n");
				return -1;
			}
			break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* The machine is shared: its load average goes with every report. */
static void loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double a = 0, b = 0, c = 0;
	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
		snprintf(buf, n, "%.2f %.2f %.2f", a, b, c);
	else
		snprintf(buf, n, "?");
	if (f)
		fclose(f);
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* One load phase of length len_ns from now, cut at hard_end. */
static int run_phase(const char *sock, pid_t dpid, const vgl_op *op,
		     const uint8_t *data, const vgl_keys *keys, int clients, int depth,
		     int spin_us, uint64_t len_ns, uint64_t hard_end, row *rw)
{
	uint64_t t0 = vgl_now_ns();
	uint64_t end = min_u64(t0 + len_ns, hard_end);
	if (end <= t0)
		return -1;
	uint64_t len = end - t0;
	/* The first tenth warms up (connections, pipelines, caches); the last
	 * tenth only collects replies, so little is left unanswered at end. */
	vgl_phase p = {.sock = sock, .op = op, .data = data, .keys = keys, .clients = clients,
		       .depth = depth, .t_warm = t0 + len / 10, .t_submit = end - len / 10,
		       .t_end = end, .spin_us = spin_us};
	/* Like libvgclient: the CPU hint when the daemon takes it. */
	p.cpu_hint = (vgl_caps(sock, hard_end) & VG_CAP_CPU_HINT) != 0;
	/* Where 1x1 requests ran: the daemon's dispatch counters, and the
	 * front's CPU against ours, sampled during the phase. */
	int one = clients == 1 && depth == 1;
	p.front_stat_fd = one ? vgl_proc_stat_open(vgl_front_pid(dpid)) : -1;
	long long l0 = -1, r0 = -1;
	if (one) {
		l0 = vgl_stat(sock, "dispatch.local", hard_end);
		r0 = vgl_stat(sock, "dispatch.remote", hard_end);
	}
	vgl_dcpu d0, d1;
	vgl_dcpu_sample(dpid, &d0);
	uint64_t w0 = vgl_now_ns();
	int r = vgl_load_run(&p, &rw->res);
	double wall = (double)(vgl_now_ns() - w0) / NS;
	vgl_dcpu_sample(dpid, &d1);
	rw->kh_local_pct = rw->cf_same_pct = -1;
	if (l0 >= 0 && r0 >= 0) {
		long long l1 = vgl_stat(sock, "dispatch.local", hard_end);
		long long r1 = vgl_stat(sock, "dispatch.remote", hard_end);
		/* Minus the two stats requests themselves, which no keyholder
		 * serves: they count in neither. */
		if (l1 >= l0 && r1 >= r0 && l1 - l0 + r1 - r0 > 0)
			rw->kh_local_pct = 100.0 * (double)(l1 - l0) / (double)(l1 - l0 + r1 - r0);
	}
	if (p.front_stat_fd >= 0) {
		close(p.front_stat_fd);
		if (rw->res.where_n > 0)
			rw->cf_same_pct = 100.0 * (double)rw->res.where_same / (double)rw->res.where_n;
	}
	rw->ran = r == 0;
	if (r == 0 && rw->res.ok == 0 && !rw->res.errors) {
		/* Silence is a failure too: the daemon answered nothing. */
		rw->res.errors = 1;
		snprintf(rw->res.first_error, sizeof(rw->res.first_error),
			 "no reply in %.2f s (%llu request(s) unanswered)", (double)len / NS,
			 (unsigned long long)rw->res.unfinished);
	}
	if (wall > 0) {
		rw->gen_cpu = rw->res.cpu_s / wall;
		rw->have_dcpu = d0.ok && d1.ok;
		rw->front_cpu = (d1.front_s - d0.front_s) / wall;
		rw->kh_cpu = (d1.keyholders_s - d0.keyholders_s) / wall;
	}
	return r;
}

/* v with prec decimals, or "-" when v is negative (not measured). */
static void fmt(char *buf, size_t n, double v, int prec)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f", prec, v);
}

static void print_row(const options *o, const vgl_op *op, const char *mode, int clients,
		      int depth, int kh, row *rw, const row *lat)
{
	vgl_result *r = &rw->res;
	double thr = r->window_s > 0 ? (double)r->completed / r->window_s : -1;
	double p50 = vgl_percentile_us(r, 50), p90 = vgl_percentile_us(r, 90);
	double p99 = vgl_percentile_us(r, 99), p999 = vgl_percentile_us(r, 99.9);
	double kern = rw->kernel_s >= 0 ? rw->kernel_s * 1e6 : -1;
	double ossl = rw->ossl_s > 0 ? rw->ossl_s * 1e6 : -1;
	double ovh = 0, eff = -1;
	int have_ovh = lat == NULL && kern >= 0 && p50 >= 0; /* the latency row itself */
	if (have_ovh)
		ovh = p50 - kern;
	double ceff = -1;
	if (lat != NULL && rw->kernel_s > 0 && thr > 0 && kh > 0)
		eff = 100.0 * thr * rw->kernel_s / kh;
	/* On a shared machine the keyholders may not get their cores: the
	 * share of the CPU they did get that went into the kernel itself. */
	if (lat != NULL && rw->kernel_s > 0 && thr > 0 && rw->have_dcpu && rw->kh_cpu > 0)
		ceff = 100.0 * thr * rw->kernel_s / rw->kh_cpu;
	char s_thr[24], s50[24], s90[24], s99[24], s999[24], sk[24], so[24], sov[24], sef[24];
	char sg[24], sf[24], sh[24], sce[24], spar[24];
	fmt(s_thr, sizeof(s_thr), thr, 0);
	fmt(s50, sizeof(s50), p50, 1);
	fmt(s90, sizeof(s90), p90, 1);
	fmt(s99, sizeof(s99), p99, 1);
	fmt(s999, sizeof(s999), p999, 1);
	fmt(sk, sizeof(sk), kern, 1);
	fmt(so, sizeof(so), ossl, 1);
	if (!have_ovh)
		snprintf(sov, sizeof(sov), "-");
	else
		snprintf(sov, sizeof(sov), "%.1f", ovh);
	fmt(sef, sizeof(sef), eff, 1);
	fmt(sce, sizeof(sce), ceff, 0);
	fmt(spar, sizeof(spar), rw->par_pct, 1);
	fmt(sg, sizeof(sg), 100 * rw->gen_cpu, 0);
	fmt(sf, sizeof(sf), rw->have_dcpu ? 100 * rw->front_cpu : -1, 0);
	fmt(sh, sizeof(sh), rw->have_dcpu ? 100 * rw->kh_cpu : -1, 0);
	char skl[24], scf[24];
	fmt(skl, sizeof(skl), lat == NULL ? rw->kh_local_pct : -1, 0);
	fmt(scf, sizeof(scf), lat == NULL ? rw->cf_same_pct : -1, 0);
	if (o->tsv)
		printf("%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%llu\t%llu\t%s\t%s\t%s\t%s\t%s\t%s\t"
		       "%s\t%s\t%s\t%s\t%s\n",
		       op->name, mode, clients, depth, kh, s_thr, s50, s90, s99, s999,
		       (unsigned long long)r->errors, (unsigned long long)r->unfinished, sk, sov, sef,
		       sce, so, sg, sf, sh, spar, skl, scf);
	else
		printf("%-16s %-4s %3dx%-3d %8s %8s %8s %8s %8s %4llu %8s %7s %6s %5s %5s %8s %4s %4s "
		       "%4s %4s %4s\n",
		       op->name, mode, clients, depth, s_thr, s50, s90, s99, s999,
		       (unsigned long long)r->errors, sk, sov, sef, spar, sce, so, sg, sf, sh, skl, scf);
	if (r->first_error[0])
		fprintf(stderr, "vgload: %s %s: %llu error(s), first: %s\n", op->name, mode,
			(unsigned long long)r->errors, r->first_error);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	options o;
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	/* A closed stdout (vgload | head) must not kill us before our vgd stops. */
	signal(SIGPIPE, SIG_IGN);
	uint64_t t_start = vgl_now_ns();
	regex_t re;
	if (o.ops_re && regcomp(&re, o.ops_re, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "vgload: bad --ops regex\n");
		return 2;
	}
	int sel[16], nsel = 0;
	for (size_t i = 0; i < vgl_nops && nsel < 16; i++)
		if (!o.ops_re || regexec(&re, vgl_ops[i].name, 0, NULL, 0) == 0)
			sel[nsel++] = (int)i;
	if (o.ops_re)
		regfree(&re);
	if (nsel == 0) {
		fprintf(stderr, "vgload: --ops matches no operation\n");
		return 2;
	}
	uint64_t per_op = (uint64_t)(o.seconds * NS);
	uint64_t bound = START_NS + (uint64_t)nsel * per_op + STOP_NS;

	char why[256];
	vgl_keys *keys = vgl_keys_load(o.keys_dir, why, sizeof(why));
	if (!keys) {
		fprintf(stderr, "vgload: %s\n", why);
		return 1;
	}
	char owhy[256];
	vgl_ossl *ossl = vgl_ossl_new(o.keys_dir, owhy, sizeof(owhy));
	/* The in-process samplers' pools, reused op after op. */
	double *pool = malloc(3 * POOL_CAP * sizeof(*pool));
	if (!pool) {
		fprintf(stderr, "vgload: out of memory\n");
		vgl_keys_free(keys);
		vgl_ossl_free(ossl);
		return 1;
	}
	/* Before the daemon exists, so nothing of ours competes with it; its
	 * time comes out of the start-up allowance, not the ops'. */
	vgl_floor fl;
	char fwhy[160] = "";
	int have_floor = vgl_floor_measure(&fl, vgl_now_ns() + FLOOR_NS, fwhy, sizeof(fwhy)) == 0;

	vgl_daemon d;
	memset(&d, 0, sizeof(d));
	const char *sock = o.sock;
	if (!sock) {
		if (vgl_daemon_start(&d, o.vgd, o.keys_dir, o.keyholders, o.busy_poll_us,
				     t_start + START_NS, why,
				     sizeof(why)) < 0) {
			fprintf(stderr, "vgload: %s\n", why);
			vgl_daemon_stop(&d, vgl_now_ns() + STOP_NS, 1);
			vgl_keys_free(keys);
			vgl_ossl_free(ossl);
			free(pool);
			return 1;
		}
		sock = d.sock;
	}
	uint64_t phases_end = vgl_now_ns() + (uint64_t)nsel * per_op;
	if (phases_end > t_start + START_NS + (uint64_t)nsel * per_op)
		phases_end = t_start + START_NS + (uint64_t)nsel * per_op;
	long long kh = vgl_stat(sock, "keyholders", vgl_now_ns() + 500000000u);
	if (kh <= 0)
		kh = o.sock ? 0 : o.keyholders;

	const char *pfx = o.tsv ? "# " : ""; /* TSV: header lines are comments */
	char bp[32] = "";
	if (!o.sock)
		snprintf(bp, sizeof(bp), ", busy_poll_us %d", o.busy_poll_us);
	printf("%svgload: vgd with %lld keyholder(s)%s; kernels %s; OpenSSL: %s; %ld CPU(s) online\n",
	       pfx, kh, bp, vg_kernel_variants(), ossl ? vgl_ossl_version() : owhy,
	       sysconf(_SC_NPROCESSORS_ONLN));
	char la[64];
	loadavg(la, sizeof(la));
	printf("%slatency mode 1x1 (spin %d us), saturation %dx%d (clients x in flight); "
	       "%.2f s per op; run bounded by %.1f s; times in us; load average %s\n",
	       pfx, o.spin_us, o.clients, o.depth, o.seconds, (double)bound / NS, la);
	if (have_floor)
		printf("%splatform: process round trip over a socketpair, blocking: p50 %.1f us, "
		       "p99 %.1f us (%zu round trips)\n",
		       pfx, fl.p50_us, fl.p99_us, fl.n);
	else
		printf("%splatform: process round trip not measured (%s)\n", pfx, fwhy);
	if (o.tsv)
		printf("op\tmode\tclients\tdepth\tkeyholders\treq_per_s\tp50_us\tp90_us\tp99_us\t"
		       "p999_us\terrors\tunfinished\tkernel_us\toverhead_us\tefficiency_pct\t"
		       "kh_cpu_efficiency_pct\topenssl_us\tloadgen_cpu_pct\tfront_cpu_pct\tkeyholders_cpu_pct\t"
		       "parallel_pct\tkh_local_pct\tsame_cpu_pct\n");
	else
		printf("%-16s %-4s %7s %8s %8s %8s %8s %8s %4s %8s %7s %6s %5s %5s %8s %4s %4s %4s "
		       "%4s %4s\n",
		       "op", "mode", "c x k", "req/s", "p50", "p90", "p99", "p99.9", "err", "kernel",
		       "ovh", "eff%", "par%", "khe%", "openssl", "gen%", "frt%", "kh%", "khl%", "cpu%");
	fflush(stdout);

	unsigned long long total_errors = 0;
	int failed = 0;
	for (int si = 0; si < nsel; si++) {
		const vgl_op *op = &vgl_ops[sel[si]];
		uint64_t op_start = vgl_now_ns();
		uint64_t op_end = min_u64(op_start + per_op, phases_end);
		if (op_end <= op_start)
			break;
		uint64_t len = op_end - op_start;
		uint8_t data[VGL_DATA_MAX];
		vgl_op_data(op, data);
		int nmodes = o.do_latency + o.do_saturation;
		int has_kernel = op->op != VG_OP_PING;
		int par_k = has_kernel && o.do_saturation && kh > 0 ? (int)kh : 0;
		/* A fifth of the op's time is in-process. The kernel and OpenSSL
		 * are timed in two slices, before the load phases and after them
		 * in mirrored order (so both centre on the same moment), and each
		 * result is the median of every batch of both: a shared machine's
		 * speed drifts over seconds, and one slice would catch one speed.
		 * The parallel slice sits between the phases, at the same centre,
		 * with single-thread slices right before and after it: par% divides
		 * by those, taken under the same conditions (they join the pool). */
		uint64_t inproc = 2 * (len / 10), load = (len - inproc) / (uint64_t)nmodes;
		if (!has_kernel)
			inproc = 0; /* ping: nothing to time; the op ends early */
		uint64_t par_b = par_k ? inproc / 4 : 0;
		uint64_t kern_b = ossl ? (inproc - par_b) / 2 : inproc - par_b;
		uint64_t ossl_b = inproc - par_b - kern_b;
		/* Where each step ends: in-process steps stop there, load phases
		 * are cut there, so time one step leaves over goes to the next. */
		uint64_t k1 = op_start + kern_b / 2, o1 = k1 + ossl_b / 2;
		uint64_t l_end = o1 + (o.do_latency ? load : 0), p_end = l_end + par_b;
		uint64_t s_end = p_end + (o.do_saturation ? load : 0);
		uint64_t o2 = min_u64(s_end + (ossl_b - ossl_b / 2), op_end);
		uint64_t k2 = min_u64(o2 + (kern_b - kern_b / 2), op_end);
		vgl_sampler ks, os, ps;
		vgl_sampler_init(&ks, pool, POOL_CAP);
		vgl_sampler_init(&os, pool + POOL_CAP, POOL_CAP);
		vgl_sampler_init(&ps, pool + 2 * POOL_CAP, POOL_CAP);
		row lat, sat;
		memset(&lat, 0, sizeof(lat));
		memset(&sat, 0, sizeof(sat));
		lat.par_pct = sat.par_pct = -1;
		double par_rate = -1;
		if (has_kernel) {
			vgl_bare_sample(keys, op, data, &ks, k1);
			if (ossl)
				vgl_ossl_sample(ossl, op, data, &os, o1);
		}
		if (o.do_latency && run_phase(sock, d.pid, op, data, keys, 1, 1, o.spin_us, load, l_end, &lat) < 0)
			failed = 1;
		if (par_k) {
			uint64_t now = vgl_now_ns();
			uint64_t q = p_end > now ? (p_end - now) / 4 : 0;
			vgl_bare_sample(keys, op, data, &ps, now + q);
			par_rate = vgl_bare_parallel(keys, op, data, par_k, p_end - q);
			vgl_bare_sample(keys, op, data, &ps, p_end);
			vgl_sampler_add(&ks, &ps);
		}
		if (o.do_saturation && run_phase(sock, d.pid, op, data, keys, o.clients, o.depth, 0, load,
						 s_end, &sat) < 0)
			failed = 1;
		if (has_kernel) {
			if (ossl)
				vgl_ossl_sample(ossl, op, data, &os, o2);
			vgl_bare_sample(keys, op, data, &ks, k2);
		}
		/* Failures show in the medians (-1): ping has neither. */
		lat.kernel_s = has_kernel ? vgl_sampler_median(&ks) : 0;
		lat.ossl_s = has_kernel && ossl ? vgl_sampler_median(&os) : -1;
		if (lat.kernel_s < 0) {
			fprintf(stderr, "vgload: %s: the kernel failed in-process\n", op->name);
			failed = 1;
		}
		sat.kernel_s = lat.kernel_s;
		sat.ossl_s = lat.ossl_s;
		double single_s = par_k ? vgl_sampler_median(&ps) : -1;
		if (par_rate > 0 && single_s > 0)
			sat.par_pct = 100.0 * par_rate * single_s / par_k;
		if (o.do_latency) {
			print_row(&o, op, "lat", 1, 1, (int)kh, &lat, NULL);
			total_errors += lat.res.errors;
		}
		if (o.do_saturation) {
			print_row(&o, op, "sat", o.clients, o.depth, (int)kh, &sat, &lat);
			total_errors += sat.res.errors;
		}
		vgl_result_free(&lat.res);
		vgl_result_free(&sat.res);
	}
	int bad = failed || total_errors > 0;
	if (!o.sock)
		vgl_daemon_stop(&d, vgl_now_ns() + STOP_NS, bad);
	if (bad && !o.sock)
		fprintf(stderr, "vgload: daemon log kept in %s\n", d.log);
	vgl_keys_free(keys);
	vgl_ossl_free(ossl);
	free(pool);
	loadavg(la, sizeof(la));
	printf("%stotal %.2f s (bound %.1f s); load average %s%s\n", pfx,
	       (double)(vgl_now_ns() - t_start) / NS, (double)bound / NS, la,
	       bad ? "; errors: see stderr" : "");
	return bad ? 1 : 0;
}
