/* vgctl.c: command-line client for vgd. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vgclient.h"

/* Exit codes (also in --help). */
enum { EX_OK = 0, EX_DAEMON = 1, EX_CONNECT = 2, EX_USAGE = 64, EX_INPUT = 65 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vgctl [--socket PATH] COMMAND [ARGS]\n"
		"commands:\n"
		"  ping                          check that vgd answers\n"
		"  keys                          list the keys you may use\n"
		"  sign NAME --alg ALG [--in FILE] [--out FILE] [--hex]\n"
		"                                sign FILE (default stdin): the message for\n"
		"                                ed25519, the digest for rsa-* algorithms\n"
		"  stats                         daemon statistics\n"
		"ALG: ed25519, rsa-pkcs1-sha256|384|512, rsa-pss-sha256|384|512\n"
		"exit status: 0 ok, 1 vgd refused or failed, 2 cannot reach vgd,\n"
		"             64 usage error, 65 bad input file\n");
}

static int fail(vg_client *c, int err)
{
	fprintf(stderr, "vgctl: %s\n", vg_client_errmsg(c));
	return err == VGC_E_CONNECT || err == VGC_E_CLOSED || err == VGC_E_TIMEOUT ? EX_CONNECT
										    : EX_DAEMON;
}

static const struct {
	const char *name;
	int alg;
} algs[] = {
	{"ed25519", VGC_ALG_ED25519},
	{"rsa-pkcs1-sha256", VGC_ALG_RSA_PKCS1_SHA256},
	{"rsa-pkcs1-sha384", VGC_ALG_RSA_PKCS1_SHA384},
	{"rsa-pkcs1-sha512", VGC_ALG_RSA_PKCS1_SHA512},
	{"rsa-pss-sha256", VGC_ALG_RSA_PSS_SHA256},
	{"rsa-pss-sha384", VGC_ALG_RSA_PSS_SHA384},
	{"rsa-pss-sha512", VGC_ALG_RSA_PSS_SHA512},
};

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

static int cmd_sign(vg_client *c, int argc, char **argv)
{
	static const struct option o[] = {{"alg", required_argument, NULL, 'a'},
					  {"in", required_argument, NULL, 'i'},
					  {"out", required_argument, NULL, 'o'},
					  {"hex", no_argument, NULL, 'x'},
					  {NULL, 0, NULL, 0}};
	const char *alg_name = NULL, *in = NULL, *outp = NULL;
	int hex = 0, ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", o, NULL)) != -1) {
		if (ch == 'a')
			alg_name = optarg;
		else if (ch == 'i')
			in = optarg;
		else if (ch == 'o')
			outp = optarg;
		else if (ch == 'x')
			hex = 1;
		else
			return EX_USAGE;
	}
	if (optind + 1 != argc || !alg_name) {
		usage(stderr);
		return EX_USAGE;
	}
	int alg = 0;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (strcmp(algs[i].name, alg_name) == 0)
			alg = algs[i].alg;
	if (!alg) {
		fprintf(stderr, "vgctl: unknown algorithm '%s'\n", alg_name);
		return EX_USAGE;
	}
	FILE *f = in ? fopen(in, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "vgctl: %s: %s\n", in, strerror(errno));
		return EX_INPUT;
	}
	size_t len;
	uint8_t *data = read_all(f, &len);
	if (in)
		fclose(f);
	if (!data) {
		fprintf(stderr, "vgctl: cannot read the input\n");
		return EX_INPUT;
	}
	uint8_t sig[512];
	size_t sl;
	int r = vg_client_sign(c, argv[optind], alg, data, len, sig, sizeof(sig), &sl);
	free(data);
	if (r < 0)
		return fail(c, r);
	FILE *out = outp ? fopen(outp, "wb") : stdout;
	if (!out) {
		fprintf(stderr, "vgctl: %s: %s\n", outp, strerror(errno));
		return EX_INPUT;
	}
	if (hex) {
		for (size_t i = 0; i < sl; i++)
			fprintf(out, "%02x", sig[i]);
		fputc('\n', out);
	} else {
		fwrite(sig, 1, sl, out);
	}
	if ((outp && fclose(out) != 0) || (!outp && fflush(out) != 0))
		return EX_INPUT;
	return EX_OK;
}

static const char *type_name(int t)
{
	return t == VGC_KEY_ED25519 ? "ed25519" : t == VGC_KEY_X25519 ? "x25519" : t == VGC_KEY_RSA ? "rsa" : "?";
}

static int cmd_keys(vg_client *c)
{
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	if (n < 0)
		return fail(c, n);
	for (int i = 0; i < n; i++) {
		printf("%-24s %-8s", k[i].name, type_name(k[i].type));
		if (k[i].type == VGC_KEY_RSA)
			printf(" %zu-bit", k[i].pub_len * 8);
		printf("  allows:%s%s%s%s\n", k[i].ops & VGC_OPS_SIGN ? " sign" : "",
		       k[i].ops & VGC_OPS_SIGN_TLS13 ? " tls13" : "",
		       k[i].ops & VGC_OPS_X25519 ? " x25519" : "",
		       k[i].ops & VGC_OPS_RSA_PRIVATE ? " rsa-private" : "");
	}
	free(k);
	return EX_OK;
}

static int cmd_stats(vg_client *c)
{
	vgc_stat *s;
	int n = vg_client_stats(c, &s);
	if (n < 0)
		return fail(c, n);
	for (int i = 0; i < n; i++)
		printf("%-28s %llu\n", s[i].name, (unsigned long long)s[i].value);
	free(s);
	return EX_OK;
}

int main(int argc, char **argv)
{
	const char *sock = NULL;
	int i = 1;
	while (i < argc && argv[i][0] == '-') {
		if ((strcmp(argv[i], "--socket") == 0 || strcmp(argv[i], "-s") == 0) && i + 1 < argc) {
			sock = argv[i + 1];
			i += 2;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return EX_OK;
		} else {
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EX_USAGE;
	}
	vg_client *c = vg_client_new(sock);
	if (!c) {
		fprintf(stderr, "vgctl: bad socket path\n");
		return EX_USAGE;
	}
	const char *cmd = argv[i];
	int r;
	if (strcmp(cmd, "ping") == 0) {
		r = vg_client_ping(c);
		r = r < 0 ? fail(c, r) : (printf("ok\n"), EX_OK);
	} else if (strcmp(cmd, "keys") == 0) {
		r = cmd_keys(c);
	} else if (strcmp(cmd, "stats") == 0) {
		r = cmd_stats(c);
	} else if (strcmp(cmd, "sign") == 0) {
		r = cmd_sign(c, argc - i, argv + i);
	} else {
		fprintf(stderr, "vgctl: unknown command '%s'\n", cmd);
		usage(stderr);
		r = EX_USAGE;
	}
	vg_client_free(c);
	return r;
}
