/* main.c: vgd's command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "keystore.h"
#include "log.h"
#include "supervisor.h"
#include "vg/cpu.h"
#include "vg/proto.h"
#include "vg/proto_tables.h"
#include "vg_config.h"

#define DEFAULT_CONFIG "/etc/vgd/vgd.conf"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vgd [-c FILE] [--socket PATH]   run the daemon (foreground)\n"
		"       vgd --check-config [-c FILE] [--credentials-dir DIR]\n"
		"                                       load config and keys, report, exit\n"
		"       vgd --version                   version and kernel variants\n"
		"\n"
		"  -c, --config FILE   configuration (default " DEFAULT_CONFIG ")\n"
		"  -s, --socket PATH   listen here instead of the configured socket\n"
		"  --credentials-dir DIR\n"
		"                      with --check-config: read 'credential = NAME' keys\n"
		"                      from DIR/NAME, or DIR/FILE for NAME vgd_FILE (the\n"
		"                      unit's LoadCredential=vgd:/etc/vgd/keys), instead\n"
		"                      of $CREDENTIALS_DIRECTORY\n"
		"\n"
		"Signals: SIGHUP reloads config and keys; SIGTERM drains and stops.\n"
		"Exit status: 0 success, 1 runtime or config error, 64 usage.\n");
}

static void version(void)
{
	printf("vgd %s (protocol %d)\n", VG_VERSION, VG_PROTO_VERSION);
	printf("kernels: %s\n", vg_kernel_variants());
}

/* Bits of a big-endian modulus: its length, not rounded up to bytes. */
static size_t modulus_bits(const uint8_t *n, size_t len)
{
	while (len > 0 && n[0] == 0) {
		n++;
		len--;
	}
	if (len == 0)
		return 0;
	return (len - 1) * 8 + (size_t)(32 - __builtin_clz(n[0]));
}

/* --credentials-dir: point every credential key at its file in dir, as the
 * daemon would find it under systemd. A credential NAME is dir/NAME (dir
 * is a credentials directory, or a copy of one) or, when that does not
 * exist and NAME is vgd_FILE, dir/FILE: vgd.service's
 * LoadCredential=vgd:/etc/vgd/keys names each file of that directory so,
 * and `--credentials-dir /etc/vgd/keys` checks what a restart will load.
 * 0, or 1 with a message. */
static int use_credentials_dir(vgd_config *cfg, const char *dir)
{
	static const char prefix[] = "vgd_";
	for (size_t i = 0; i < cfg->n_keys; i++) {
		vgd_key_conf *kc = &cfg->keys[i];
		if (!kc->from_credential)
			continue;
		char p[sizeof(kc->file)];
		struct stat st;
		int n = snprintf(p, sizeof(p), "%s/%s", dir, kc->file);
		if (n > 0 && (size_t)n < sizeof(p) && lstat(p, &st) < 0 && errno == ENOENT &&
		    strncmp(kc->file, prefix, sizeof(prefix) - 1) == 0)
			n = snprintf(p, sizeof(p), "%s/%s", dir, kc->file + sizeof(prefix) - 1);
		if (n < 0 || (size_t)n >= sizeof(p)) {
			fprintf(stderr, "vgd: --credentials-dir: path too long for key '%s'\n",
				kc->name);
			return 1;
		}
		memcpy(kc->file, p, sizeof(p));
		kc->from_credential = 0;
	}
	return 0;
}

static int check_config(vgd_config *cfg)
{
	vgd_keystore ks;
	char err[512];
	if (vgd_keystore_load(&ks, cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "vgd: %s\n", err);
		return 1;
	}
	printf("%s: OK: socket %s, %zu key(s)\n", cfg->path, cfg->socket_path, ks.n);
	for (size_t i = 0; i < ks.n; i++) {
		const vgd_keyinfo *k = &ks.info[i];
		/* The type names the curve (ecdsa-p256); a type whose size
		 * is its modulus's (the protocol's row has no bits: RSA) adds
		 * that size in bits. */
		const vg_key_type_info *t = vg_key_type_get(k->type);
		printf("  %-24s %s", k->name, vg_key_type_name(k->type));
		if (t != NULL && t->bits == 0)
			printf("-%zu", modulus_bits(k->pub, k->pub_len));
		printf("\n");
	}
	vgd_keystore_free(&ks);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"config", required_argument, NULL, 'c'},
		{"socket", required_argument, NULL, 's'},
		{"check-config", no_argument, NULL, 'C'},
		{"credentials-dir", required_argument, NULL, 'D'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *path = DEFAULT_CONFIG, *sock = NULL, *creds = NULL;
	int check = 0, c;
	while ((c = getopt_long(argc, argv, "c:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			path = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 'C':
			check = 1;
			break;
		case 'D':
			creds = optarg;
			break;
		case 'V':
			version();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 64;
		}
	}
	if (optind < argc) {
		/* --check-config FILE is accepted too. */
		if (check && optind + 1 == argc) {
			path = argv[optind];
		} else {
			usage(stderr);
			return 64;
		}
	}
	if (creds && !check) {
		/* The daemon takes what systemd hands it, nothing else. */
		fprintf(stderr, "vgd: --credentials-dir goes with --check-config (the daemon reads "
				"$CREDENTIALS_DIRECTORY)\n");
		return 64;
	}
	static vgd_config cfg; /* large: not on the stack */
	char err[512];
	if (vgd_config_load(&cfg, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "vgd: %s\n", err);
		return 1;
	}
	if (sock) {
		if (sock[0] != '/' || strlen(sock) >= sizeof(cfg.socket_path)) {
			fprintf(stderr, "vgd: --socket needs an absolute path under 108 bytes\n");
			return 64;
		}
		snprintf(cfg.socket_path, sizeof(cfg.socket_path), "%s", sock);
	}
	if (check) {
		if (creds && use_credentials_dir(&cfg, creds) != 0)
			return 1;
		return check_config(&cfg);
	}
	vgd_log_setup("supervisor", cfg.log_level);
	return vgd_supervisor_main(&cfg);
}
