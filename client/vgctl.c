/* vgctl.c: command-line client for vgd: option parsing and the commands
 * (ping, hello, keys, pubkey, sign, x25519, rsa-private, stats; bench is in
 * vgctl_bench.c, csr in vgctl_csr.c). Results it prints (shared secrets,
 * RSA outputs) are what the user asked for; its buffers are wiped before
 * exit. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vg/sha2.h"
#include "vgctl.h"

/* The algorithm names the table knows, for --help, wrapped at 78 columns. */
static void list_algs(FILE *out)
{
	const vg_alg_info *a;
	int col = fprintf(out, "ALG:");

	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++) {
		if (i)
			col += fprintf(out, ",");
		if (col + 1 + (int)strlen(a->name) + 1 > 78)
			col = fprintf(out, "\n    ") - 1;
		col += fprintf(out, " %s", a->name);
	}
	fprintf(out, "\n");
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vgctl [--socket PATH] [--json] [--timeout MS] COMMAND [ARGS]\n"
		"commands:\n"
		"  ping                       check that vgd answers (prints the round trip)\n"
		"  hello                      protocol versions, capabilities, limits\n"
		"  keys                       list the keys you may use\n"
		"  pubkey NAME [--pem|--raw|--hex] [--out FILE]\n"
		"                             public key (default PEM SubjectPublicKeyInfo;\n"
		"                             raw: 32 bytes, the RSA modulus, or the EC\n"
		"                             point 04||X||Y)\n"
		"  sign NAME --alg ALG [--role server|client] [--hash] [--raw] [--in FILE|FILE]\n"
		"       [--out FILE] [--hex|--base64]\n"
		"                             sign the input (default stdin): the message for\n"
		"                             ed25519; the digest for rsa-* and ecdsa-* (or\n"
		"                             the message with --hash); the transcript hash\n"
		"                             for tls13 (--role, default server); a DER\n"
		"                             CertificationRequestInfo for csr. ecdsa-*:\n"
		"                             DER, or r||s with --raw. Output: the bytes,\n"
		"                             or --hex/--base64.\n"
		"  x25519 NAME PEER [--out FILE] [--raw|--hex|--base64]\n"
		"                             shared secret with PEER: 64 hex digits, or a\n"
		"                             file with 32 bytes or 64 hex digits (default hex)\n"
		"  rsa-private NAME [--in FILE|FILE] [--out FILE] [--raw|--hex|--base64]\n"
		"                             raw m^d mod n of the input (modulus length)\n"
		"  csr NAME --subject DN [--san LIST] [--out FILE]\n"
		"                             PEM certificate request (PKCS#10) for the key,\n"
		"                             signed by vgd (csr_uids): DN like\n"
		"                             CN=example.org,O=Example Ltd,C=GB (CN O OU L\n"
		"                             ST C; \\, for a comma), LIST like\n"
		"                             DNS:example.org,IP:192.0.2.1\n"
		"  stats                      daemon counters, and who used which key\n"
		"  bench [NAME] [--op ping|sign|tls13|x25519] [--alg ALG] [--size BYTES]\n"
		"        [--concurrency N] [--count N | --seconds S]\n"
		"                             N requests in flight (async) on one connection;\n"
		"                             prints throughput and latency percentiles\n"
		"  genkey NAME --type TYPE [--allow LIST] [--uids LIST] [--gids LIST] [--sealed]\n"
		"         [--config FILE] [--key-dir DIR] [--sealed-dir DIR] [--no-reload]\n"
		"         [--wait SECONDS]\n"
		"                             (root) make a new key with vgd's generators,\n"
		"                             store it for vgd alone (--sealed: only as a\n"
		"                             systemd-creds credential), add its section,\n"
		"                             reload vgd and print the public key. TYPE:\n"
		"                             ed25519, x25519, ecdsa-p256, ecdsa-p384,\n"
		"                             rsa-2048, rsa-3072, rsa-4096\n");
	list_algs(out);
	fprintf(out,
		"--json: machine-readable output for ping, hello, keys, stats, sign, bench\n"
		"socket: --socket, else $VGD_SOCKET, else " VGC_DEFAULT_SOCKET "\n"
		"exit status: 0 ok, 1 vgd refused or failed the request, 2 cannot reach\n"
		"             vgd (connect, timeout, connection lost), 64 usage error,\n"
		"             65 bad input (unreadable or malformed file, bad PEER)\n");
}

static uint8_t *read_all(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *nb = cap > (1u << 20) ? NULL : realloc(b, cap *= 2);
		if (!nb) {
			free(b);
			return NULL;
		}
		b = nb;
	}
	if (b && ferror(f)) {
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

static uint8_t *read_input(const char *path, size_t *len)
{
	FILE *f = path && strcmp(path, "-") != 0 ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "vgctl: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	uint8_t *d = read_all(f, len);
	if (f != stdin)
		fclose(f);
	if (!d)
		fprintf(stderr, "vgctl: cannot read the input\n");
	return d;
}

/* Write a binary result in enc to --out or stdout. */
static int write_out(const char *path, int enc, const uint8_t *p, size_t n, const char *label)
{
	FILE *out = path ? fopen(path, "wb") : stdout;
	if (!out) {
		fprintf(stderr, "vgctl: %s: %s\n", path, strerror(errno));
		return EX_INPUT;
	}
	vgctl_emit(out, enc, p, n, label);
	if ((path && fclose(out) != 0) || (!path && fflush(out) != 0)) {
		fprintf(stderr, "vgctl: cannot write the output\n");
		return EX_INPUT;
	}
	return EX_OK;
}

/* Options shared by the commands that take one key and produce bytes. */
struct cmd_opts {
	const char *alg, *in, *out, *role, *key, *arg2;
	int enc, hash;
	int raw; /* sign: --raw, the raw r||s ECDSA signature */
};

/* raw_is_format: --raw names the signature's format (sign), not the
 * output's encoding (the others, whose binary output is "raw"). */
static int parse_cmd(int argc, char **argv, struct cmd_opts *o, int nargs, int enc,
		     int raw_is_format)
{
	static const struct option lo[] = {{"alg", required_argument, NULL, 'a'},
					   {"in", required_argument, NULL, 'i'},
					   {"out", required_argument, NULL, 'o'},
					   {"role", required_argument, NULL, 'r'},
					   {"hash", no_argument, NULL, 'H'},
					   {"hex", no_argument, NULL, 'x'},
					   {"raw", no_argument, NULL, 'R'},
					   {"base64", no_argument, NULL, 'b'},
					   {"pem", no_argument, NULL, 'p'},
					   {NULL, 0, NULL, 0}};
	memset(o, 0, sizeof(*o));
	o->enc = enc;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'a': o->alg = optarg; break;
		case 'i': o->in = optarg; break;
		case 'o': o->out = optarg; break;
		case 'r': o->role = optarg; break;
		case 'H': o->hash = 1; break;
		case 'x': o->enc = OUT_HEX; break;
		case 'R':
			if (raw_is_format)
				o->raw = 1;
			else
				o->enc = OUT_RAW;
			break;
		case 'b': o->enc = OUT_BASE64; break;
		case 'p': o->enc = OUT_PEM; break;
		default: return EX_USAGE;
		}
	}
	int left = argc - optind;
	if (left < nargs || left > nargs + 1)
		return EX_USAGE;
	o->key = argv[optind];
	if (nargs == 2)
		o->arg2 = argv[optind + 1];
	else if (left == nargs + 1) {
		if (o->in)
			return EX_USAGE;
		o->in = argv[optind + nargs];
	}
	return EX_OK;
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int cmd_ping(vg_client *c, int json)
{
	long long t0 = now_us();
	int r = vg_client_ping(c);
	if (r < 0)
		return vgctl_fail(c, r);
	long long us = now_us() - t0;
	if (json)
		printf("{\"ok\":true,\"rtt_us\":%lld}\n", us);
	else
		printf("ok (%lld us)\n", us);
	return EX_OK;
}

/* Print the names of the known bits of mask (VG_ALLOW_* or VG_CAP_*):
 * " a b" for people, "\"a\",\"b\"" inside a JSON array. */
static void print_bits(uint32_t mask, const char *(*name)(uint32_t), int json)
{
	int n = 0;

	for (uint32_t bit = 1; bit != 0; bit <<= 1) {
		const char *s = name(bit);
		if (!(mask & bit) || strcmp(s, "unknown") == 0)
			continue;
		if (json)
			printf("%s\"%s\"", n ? "," : "", s);
		else
			printf(" %s", s);
		n++;
	}
}

/* Bits of a key: the type's size (the curve's), or the modulus's length
 * in bits (not rounded up to bytes: a 3000-bit key is 3000). */
static size_t key_bits(const vgc_key_info *k)
{
	const vg_key_type_info *t = vg_key_type_get(k->type);
	size_t n = k->pub_len;
	const uint8_t *p = k->pub;

	if (t != NULL && t->bits != 0)
		return t->bits;
	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	return n == 0 ? 0 : (n - 1) * 8 + (size_t)(32 - __builtin_clz(p[0]));
}

static int cmd_hello(vg_client *c, int json)
{
	vgc_hello h;
	int r = vg_client_hello(c, &h);
	if (r < 0)
		return vgctl_fail(c, r);
	if (json) {
		printf("{\"server\":");
		vgctl_json_str(stdout, h.server);
		printf(",\"versions\":[");
		for (size_t i = 0; i < h.n_versions; i++)
			printf("%s%d", i ? "," : "", h.versions[i]);
		printf("],\"caps\":[");
		print_bits(h.caps, vg_cap_name, 1);
		printf("],\"max_frame\":%u,\"max_inflight\":%u}\n", h.max_frame, h.max_inflight);
		return EX_OK;
	}
	printf("server        %s\nversions     ", h.server);
	for (size_t i = 0; i < h.n_versions; i++)
		printf(" %d", h.versions[i]);
	printf("\ncapabilities ");
	print_bits(h.caps, vg_cap_name, 0);
	printf("\nmax_frame     %u\nmax_inflight  %u\n", h.max_frame, h.max_inflight);
	return EX_OK;
}

static int cmd_keys(vg_client *c, int json)
{
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	if (n < 0)
		return vgctl_fail(c, n);
	if (json)
		printf("[");
	for (int i = 0; i < n; i++) {
		if (json) {
			printf("%s{\"name\":", i ? "," : "");
			vgctl_json_str(stdout, k[i].name);
			printf(",\"type\":\"%s\",\"bits\":%zu,\"ops\":[",
			       vg_key_type_name(k[i].type), key_bits(&k[i]));
			print_bits(k[i].ops, vg_allow_name, 1);
			printf("],\"public\":\"");
			vgctl_hex(stdout, k[i].pub, k[i].pub_len);
			printf("\"}");
			continue;
		}
		printf("%-24s %-10s", k[i].name, vg_key_type_name(k[i].type));
		const vg_key_type_info *t = vg_key_type_get(k[i].type);
		if (t != NULL && t->bits == 0) /* the size varies: show it */
			printf(" %4zu-bit", key_bits(&k[i]));
		else
			printf("         ");
		printf("  allows:");
		print_bits(k[i].ops, vg_allow_name, 0);
		printf("\n");
	}
	if (json)
		printf("]\n");
	else if (n == 0)
		/* An empty listing looked like a hang or a broken vgctl; stdout
		 * stays empty for scripts. */
		fprintf(stderr, "vgctl: no keys: vgd has none this user may use (keys whose uids "
				"or gids leave this user out are not listed)\n");
	free(k);
	return EX_OK;
}

/* A Unix time in milliseconds as ISO 8601 UTC, e.g. 2026-12-07T21:30:01.250Z. */
static void fmt_time(char *buf, size_t cap, uint64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (ms == 0 || !gmtime_r(&t, &tm)) {
		snprintf(buf, cap, "-");
		return;
	}
	size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03uZ", (unsigned)(ms % 1000));
}

/* The use table's rows (vg_client_key_use): one "use" line each, or the
 * JSON array "use" inside the stats object. */
static void print_uses(const vgc_key_use *u, int n, int json)
{
	for (int i = 0; i < n; i++) {
		char when[48];
		fmt_time(when, sizeof(when), u[i].last_ms);
		if (json) {
			printf("%s{", i ? "," : "");
			if (u[i].other) {
				printf("\"other\":true");
			} else {
				printf("\"key\":");
				vgctl_json_str(stdout, u[i].key);
				printf(",\"uid\":%u", (unsigned)u[i].uid);
			}
			printf(",\"sign\":%llu,\"errors\":%llu,\"refused\":%llu,\"last_ms\":%llu,"
			       "\"last\":\"%s\",\"last_pid\":%u}",
			       (unsigned long long)u[i].ok, (unsigned long long)u[i].errors,
			       (unsigned long long)u[i].refused, (unsigned long long)u[i].last_ms,
			       when, (unsigned)u[i].last_pid);
			continue;
		}
		if (u[i].other)
			printf("use (other)");
		else
			printf("use %s uid %u", u[i].key, (unsigned)u[i].uid);
		printf(": %llu sign, %llu errors, %llu refused; last %s pid %u\n",
		       (unsigned long long)u[i].ok, (unsigned long long)u[i].errors,
		       (unsigned long long)u[i].refused, when, (unsigned)u[i].last_pid);
	}
}

static int cmd_stats(vg_client *c, int json)
{
	vgc_stat *s;
	vgc_key_use *u;
	int n = vg_client_stats(c, &s);
	if (n < 0)
		return vgctl_fail(c, n);
	int nu = vg_client_key_use(c, &u);
	if (nu < 0) {
		free(s);
		return vgctl_fail(c, nu);
	}
	if (json)
		printf("{");
	for (int i = 0; i < n; i++) {
		if (json) {
			printf("%s", i ? "," : "");
			vgctl_json_str(stdout, s[i].name);
			printf(":%llu", (unsigned long long)s[i].value);
		} else {
			printf("%-28s %llu\n", s[i].name, (unsigned long long)s[i].value);
		}
	}
	if (json)
		printf("%s\"use\":[", n ? "," : "");
	print_uses(u, nu, json);
	if (json)
		printf("]}\n");
	free(s);
	free(u);
	return EX_OK;
}

static int cmd_pubkey(vg_client *c, int argc, char **argv)
{
	struct cmd_opts o;
	if (parse_cmd(argc, argv, &o, 1, OUT_PEM, 0) != EX_OK || o.in) {
		usage(stderr);
		return EX_USAGE;
	}
	vgc_key_info k;
	int r = vg_client_public_key(c, o.key, &k);
	if (r < 0)
		return vgctl_fail(c, r);
	if (o.enc != OUT_PEM)
		return write_out(o.out, o.enc, k.pub, k.pub_len, NULL);
	uint8_t der[VG_SPKI_MAX];
	size_t n = vgctl_spki(&k, der);
	if (!n) {
		fprintf(stderr, "vgctl: cannot encode a %s key\n", vg_key_type_name(k.type));
		return EX_DAEMON;
	}
	return write_out(o.out, OUT_PEM, der, n, "PUBLIC KEY");
}

/* --hash: the digest of the message with the algorithm's hash (the one
 * place vgctl maps a protocol digest to a kernel hash). */
static size_t hash_for(const vg_alg_info *a, const uint8_t *m, size_t len,
		       uint8_t out[VG_DIGEST_MAX_LEN])
{
	switch (a->digest) {
	case VG_DIGEST_SHA256:
		vg_sha256(out, m, len);
		return VG_SHA256_LEN;
	case VG_DIGEST_SHA384:
		vg_sha384(out, m, len);
		return VG_SHA384_LEN;
	case VG_DIGEST_SHA512:
		vg_sha512(out, m, len);
		return VG_SHA512_LEN;
	default:
		return 0;
	}
}

static int cmd_sign(vg_client *c, int json, int argc, char **argv)
{
	struct cmd_opts o;
	if (parse_cmd(argc, argv, &o, 1, OUT_RAW, 1) != EX_OK || !o.alg || o.enc == OUT_PEM) {
		usage(stderr);
		return EX_USAGE;
	}
	const vg_alg_info *a = vg_alg_get(vg_alg_from_name(o.alg));
	int role = !o.role || strcmp(o.role, "server") == 0 ? VGC_TLS_SERVER
		   : strcmp(o.role, "client") == 0         ? VGC_TLS_CLIENT
							   : 0;
	/* --hash only where DATA is a digest the client computes. */
	if (!a || !role || (o.hash && a->data != VG_DATA_DIGEST)) {
		fprintf(stderr, "vgctl: bad --alg, --role or --hash\n");
		return EX_USAGE;
	}
	size_t len;
	uint8_t *data = read_input(o.in, &len);
	if (!data)
		return EX_INPUT;
	uint8_t dg[VG_DIGEST_MAX_LEN];
	const uint8_t *msg = data;
	if (o.hash) {
		len = hash_for(a, data, len, dg);
		msg = dg;
	}
	uint8_t sig[VGC_RESULT_MAX];
	size_t sl = 0;
	/* --raw picks r||s where the signature has a choice (ECDSA); the
	 * others have one encoding, which --raw leaves as it is. */
	int fmt = o.raw && a->formats ? VGC_SIG_RAW : VGC_SIG_DEFAULT;
	int r = a->data == VG_DATA_TLS13_HASH
			? vg_client_sign_tls13(c, o.key, role, msg, len, sig, sizeof(sig), &sl)
			: vg_client_sign_format(c, o.key, a->alg, fmt, msg, len, sig, sizeof(sig),
						&sl);
	free(data);
	if (r == VGC_E_INVALID) {
		fprintf(stderr, "vgctl: %s (input length %zu does not fit %s)\n",
			vg_client_errmsg(c), len, o.alg);
		return EX_INPUT;
	}
	if (r < 0)
		return vgctl_fail(c, r);
	if (json) {
		FILE *out = o.out ? fopen(o.out, "w") : stdout;
		if (!out)
			return EX_INPUT;
		fprintf(out, "{\"key\":");
		vgctl_json_str(out, o.key);
		fprintf(out, ",\"alg\":\"%s\",\"signature\":\"", o.alg);
		vgctl_hex(out, sig, sl);
		fprintf(out, "\"}\n");
		return (o.out ? fclose(out) : fflush(out)) == 0 ? EX_OK : EX_INPUT;
	}
	return write_out(o.out, o.enc, sig, sl, NULL);
}

/* PEER: 64 hex digits, or a file with 32 raw bytes or 64 hex digits. */
static int parse_peer(const char *s, uint8_t peer[32])
{
	if (vgctl_unhex(s, strlen(s), peer, 32) == 32)
		return 0;
	FILE *f = fopen(s, "rb");
	if (!f)
		return -1;
	size_t n;
	uint8_t *d = read_all(f, &n);
	fclose(f);
	if (!d)
		return -1;
	int r = -1;
	if (n == 32) {
		memcpy(peer, d, 32);
		r = 0;
	} else if (vgctl_unhex((const char *)d, n, peer, 32) == 32) {
		r = 0;
	}
	free(d);
	return r;
}

static int cmd_x25519(vg_client *c, int argc, char **argv)
{
	struct cmd_opts o;
	if (parse_cmd(argc, argv, &o, 2, OUT_HEX, 0) != EX_OK || o.in || o.enc == OUT_PEM) {
		usage(stderr);
		return EX_USAGE;
	}
	uint8_t peer[32], shared[32];
	if (parse_peer(o.arg2, peer) < 0) {
		fprintf(stderr, "vgctl: PEER must be 64 hex digits or a file of 32 bytes\n");
		return EX_INPUT;
	}
	int r = vg_client_x25519(c, o.key, peer, shared);
	if (r < 0)
		return vgctl_fail(c, r);
	r = write_out(o.out, o.enc, shared, 32, NULL);
	explicit_bzero(shared, sizeof(shared));
	return r;
}

static int cmd_rsa_private(vg_client *c, int argc, char **argv)
{
	struct cmd_opts o;
	if (parse_cmd(argc, argv, &o, 1, OUT_RAW, 0) != EX_OK || o.enc == OUT_PEM) {
		usage(stderr);
		return EX_USAGE;
	}
	size_t len;
	uint8_t *data = read_input(o.in, &len);
	if (!data)
		return EX_INPUT;
	uint8_t out[VGC_RESULT_MAX];
	size_t ol = 0;
	int r = vg_client_rsa_private(c, o.key, data, len, out, sizeof(out), &ol);
	free(data);
	if (r == VGC_E_INVALID) {
		fprintf(stderr, "vgctl: the input must be 256..512 bytes (the modulus length)\n");
		return EX_INPUT;
	}
	if (r < 0)
		return vgctl_fail(c, r);
	r = write_out(o.out, o.enc, out, ol, NULL);
	explicit_bzero(out, sizeof(out));
	return r;
}

int main(int argc, char **argv)
{
	const char *sock = NULL;
	int json = 0, timeout = 0;
	/* Global options may come before or after the command: take them out
	 * and leave the command's own arguments in args. */
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int n = 0;
	if (!args)
		return EX_USAGE;
	for (int i = 1; i < argc; i++) {
		if ((strcmp(argv[i], "--socket") == 0 || strcmp(argv[i], "-s") == 0) && i + 1 < argc) {
			sock = argv[++i];
		} else if (strncmp(argv[i], "--socket=", 9) == 0) {
			sock = argv[i] + 9;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 0 || v > 3600000) {
				usage(stderr);
				free(args);
				return EX_USAGE;
			}
			timeout = (int)v;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			free(args);
			return EX_OK;
		} else {
			args[n++] = argv[i];
		}
	}
	if (n == 0) {
		usage(stderr);
		free(args);
		return EX_USAGE;
	}
	vg_client *c = vg_client_new(sock);
	if (!c) {
		fprintf(stderr, "vgctl: bad socket path\n");
		free(args);
		return EX_USAGE;
	}
	if (timeout)
		vg_client_set_timeout(c, timeout);
	const char *cmd = args[0];
	int r;
	if (strcmp(cmd, "ping") == 0 && n == 1)
		r = cmd_ping(c, json);
	else if (strcmp(cmd, "hello") == 0 && n == 1)
		r = cmd_hello(c, json);
	else if (strcmp(cmd, "keys") == 0 && n == 1)
		r = cmd_keys(c, json);
	else if (strcmp(cmd, "stats") == 0 && n == 1)
		r = cmd_stats(c, json);
	else if (strcmp(cmd, "pubkey") == 0)
		r = cmd_pubkey(c, n, args);
	else if (strcmp(cmd, "sign") == 0)
		r = cmd_sign(c, json, n, args);
	else if (strcmp(cmd, "x25519") == 0)
		r = cmd_x25519(c, n, args);
	else if (strcmp(cmd, "rsa-private") == 0)
		r = cmd_rsa_private(c, n, args);
	else if (strcmp(cmd, "csr") == 0)
		r = vgctl_csr(c, n, args);
	else if (strcmp(cmd, "bench") == 0)
		r = vgctl_bench(c, json, n, args);
	else if (strcmp(cmd, "genkey") == 0)
		r = vgctl_genkey(c, n, args);
	else {
		fprintf(stderr, "vgctl: unknown command or extra arguments: '%s'\n", cmd);
		usage(stderr);
		r = EX_USAGE;
	}
	vg_client_free(c);
	free(args);
	return r;
}
