/* vgctl_bench.c: `vgctl bench`: keeps N asynchronous requests in flight on
 * one connection, for a count or a duration, and prints throughput and
 * latency percentiles. Inputs are fixed public test bytes. */
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgctl.h"

enum { OP_PING, OP_SIGN, OP_TLS13, OP_X25519 };

struct bench {
	vg_client *c;
	int op, alg;
	const char *key;
	uint8_t data[4096];
	size_t len;
	long long count;   /* requests to complete; 0: until stop_at */
	long long stop_at; /* us; 0: none */
	long long submitted, completed, errors;
	int first_err;
	double *lat;       /* microseconds, one per completion */
	size_t nlat, caplat;
};

struct flight {
	struct bench *b;
	long long t0;
};

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void done_cb(int status, const uint8_t *res, size_t len, const char *reason, void *arg);

static int submit_one(struct flight *f)
{
	struct bench *b = f->b;
	if (b->count ? b->submitted >= b->count : now_us() >= b->stop_at)
		return 0;
	f->t0 = now_us();
	int r;
	switch (b->op) {
	case OP_PING: r = vg_client_submit_ping(b->c, done_cb, f); break;
	case OP_SIGN: r = vg_client_submit_sign(b->c, b->key, b->alg, b->data, b->len, done_cb, f); break;
	case OP_TLS13:
		r = vg_client_submit_sign_tls13(b->c, b->key, VGC_TLS_SERVER, b->data, b->len, done_cb, f);
		break;
	default: r = vg_client_submit_x25519(b->c, b->key, b->data, done_cb, f); break;
	}
	if (r < 0) {
		b->errors++;
		if (!b->first_err)
			b->first_err = r;
		return r;
	}
	b->submitted++;
	return 1;
}

static void done_cb(int status, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	(void)res;
	(void)len;
	(void)reason;
	struct flight *f = arg;
	struct bench *b = f->b;
	b->completed++;
	if (status != 0) {
		b->errors++;
		if (!b->first_err)
			b->first_err = status;
	} else if (b->nlat < b->caplat) {
		b->lat[b->nlat++] = (double)(now_us() - f->t0);
	} else {
		size_t cap = b->caplat ? 2 * b->caplat : 65536;
		double *n = realloc(b->lat, cap * sizeof(*n));
		if (n) {
			b->lat = n;
			b->caplat = cap;
			b->lat[b->nlat++] = (double)(now_us() - f->t0);
		}
	}
	if (!b->first_err)
		submit_one(f); /* keep the slot busy */
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double pct(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	size_t i = (size_t)(p * (double)n);
	return v[i < n ? i : n - 1];
}

/* pick_defaults() result for an --op (or --alg) the key cannot do: apart
 * from the library's negative codes. */
#define BAD_OP 1

/* 0, BAD_OP, or a VGC_E_* code from fetching the key. */
static int pick_defaults(struct bench *b, const char *opname, const char *alg)
{
	if (!b->key) {
		b->op = OP_PING;
		return opname && strcmp(opname, "ping") != 0 ? BAD_OP : 0;
	}
	vgc_key_info k;
	int r = vg_client_public_key(b->c, b->key, &k);
	if (r < 0)
		return r;
	if (opname && strcmp(opname, "ping") == 0)
		b->op = OP_PING;
	else if (opname && strcmp(opname, "tls13") == 0)
		b->op = OP_TLS13;
	else if (opname && strcmp(opname, "x25519") == 0)
		b->op = OP_X25519;
	else if (opname && strcmp(opname, "sign") != 0)
		return BAD_OP;
	else
		b->op = vg_key_type_allow(k.type) & VG_ALLOW_X25519 ? OP_X25519 : OP_SIGN;
	if (b->op == OP_SIGN) {
		/* --alg names any algorithm but the TLS 1.3 mode (--op tls13);
		 * by default the key's TLS 1.3 scheme, what a server signs. */
		const vg_alg_info *a = vg_alg_get(alg ? vg_alg_from_name(alg) : 0);
		if (a == NULL || a->data == VG_DATA_TLS13_HASH)
			a = vg_alg_tls13(k.type, 32);
		if (a == NULL)
			return BAD_OP;
		b->alg = a->alg;
		if (a->data == VG_DATA_DIGEST)
			b->len = vg_digest_len(a->digest);
	} else if (b->op == OP_TLS13) {
		b->len = 32;
	} else if (b->op == OP_X25519) {
		memset(b->data, 0, 32);
		b->data[0] = 9; /* the base point: a valid peer */
		b->len = 32;
	}
	return 0;
}

int vgctl_bench(vg_client *c, int json, int argc, char **argv)
{
	static const struct option lo[] = {{"op", required_argument, NULL, 'o'},
					   {"alg", required_argument, NULL, 'a'},
					   {"size", required_argument, NULL, 's'},
					   {"concurrency", required_argument, NULL, 'c'},
					   {"count", required_argument, NULL, 'n'},
					   {"seconds", required_argument, NULL, 't'},
					   {NULL, 0, NULL, 0}};
	static struct bench b;
	memset(&b, 0, sizeof(b));
	b.c = c;
	b.len = 32;
	const char *opname = NULL, *alg = NULL;
	long conc = 1;
	double secs = 0;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		char *end = NULL;
		switch (ch) {
		case 'o': opname = optarg; break;
		case 'a': alg = optarg; break;
		case 's': b.len = strtoul(optarg, &end, 10); break;
		case 'c': conc = strtol(optarg, &end, 10); break;
		case 'n': b.count = strtoll(optarg, &end, 10); break;
		case 't': secs = strtod(optarg, &end); break;
		default: return EX_USAGE;
		}
		if (end && *end) {
			fprintf(stderr, "vgctl: bad number '%s'\n", optarg);
			return EX_USAGE;
		}
	}
	if (optind + 1 < argc || conc < 1 || conc > 65535 || b.len > sizeof(b.data) ||
	    b.count < 0 || secs < 0 || (b.count && secs)) {
		fprintf(stderr, "vgctl: usage: bench [NAME] [--op OP] [--alg ALG] [--size N] "
				"[--concurrency N] [--count N | --seconds S]\n");
		return EX_USAGE;
	}
	b.key = optind < argc ? argv[optind] : NULL;
	if (!b.count && !secs)
		b.count = 10000;
	for (size_t i = 0; i < b.len; i++)
		b.data[i] = (uint8_t)(i * 131 + 7);
	int r = pick_defaults(&b, opname, alg);
	if (r != 0) {
		if (r == BAD_OP) {
			fprintf(stderr, "vgctl: bad --op for this key\n");
			return EX_USAGE;
		}
		return vgctl_fail(c, r);
	}
	struct flight *fl = calloc((size_t)conc, sizeof(*fl));
	if (!fl)
		return EX_DAEMON;
	long long t0 = now_us();
	if (secs)
		b.stop_at = t0 + (long long)(secs * 1e6);
	for (long i = 0; i < conc; i++) {
		fl[i].b = &b;
		if (submit_one(&fl[i]) <= 0)
			break;
	}
	while (b.completed < b.submitted) {
		int fd = vg_client_fd(c), ev = vg_client_events(c), t = vg_client_timeout(c);
		struct pollfd p = {fd, (short)ev, 0};
		int watch = fd >= 0 && ev;
		poll(watch ? &p : NULL, watch ? 1 : 0, t < 0 || t > 1000 ? 1000 : t);
		vg_client_process(c);
	}
	double el = (double)(now_us() - t0) / 1e6;
	free(fl);
	qsort(b.lat, b.nlat, sizeof(*b.lat), cmp_double);
	static const char *opn[] = {"ping", "sign", "tls13", "x25519"};
	double tput = el > 0 ? (double)b.nlat / el : 0;
	if (json) {
		printf("{\"op\":\"%s\",\"key\":", opn[b.op]);
		vgctl_json_str(stdout, b.key ? b.key : "");
		printf(",\"alg\":%d,\"concurrency\":%ld,\"requests\":%lld,\"errors\":%lld,"
		       "\"seconds\":%.3f,\"per_second\":%.1f,\"latency_us\":{\"p50\":%.1f,"
		       "\"p90\":%.1f,\"p99\":%.1f,\"p99.9\":%.1f,\"max\":%.1f}}\n",
		       b.alg, conc, b.completed, b.errors, el, tput, pct(b.lat, b.nlat, 0.5),
		       pct(b.lat, b.nlat, 0.9), pct(b.lat, b.nlat, 0.99), pct(b.lat, b.nlat, 0.999),
		       b.nlat ? b.lat[b.nlat - 1] : 0);
	} else {
		printf("%s%s%s, concurrency %ld: %lld requests, %lld errors in %.3f s\n", opn[b.op],
		       b.key ? " " : "", b.key ? b.key : "", conc, b.completed, b.errors, el);
		printf("throughput  %.1f requests/s\n", tput);
		printf("latency us  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n",
		       pct(b.lat, b.nlat, 0.5), pct(b.lat, b.nlat, 0.9), pct(b.lat, b.nlat, 0.99),
		       pct(b.lat, b.nlat, 0.999), b.nlat ? b.lat[b.nlat - 1] : 0);
	}
	free(b.lat);
	if (b.first_err) {
		fprintf(stderr, "vgctl: first error: %s\n", vg_client_strerror(b.first_err));
		return b.first_err == VGC_E_CONNECT || b.first_err == VGC_E_CLOSED ||
			       b.first_err == VGC_E_TIMEOUT
			       ? EX_CONNECT
			       : EX_DAEMON;
	}
	return EX_OK;
}
