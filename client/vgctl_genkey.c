/* vgctl_genkey.c: `vgctl genkey`, the administrator's command that makes a
 * new key for vgd. It runs as root on vgd's host, not inside vgd: a key
 * file and vgd's configuration are root's to write, and no vgd process can
 * open a file (their seccomp filters have no open), so a compromised front
 * or keyholder cannot create, overwrite or replace a key. The key comes
 * from vgd's own constant-time generators through the daemon's key-type
 * row (daemon/keygen.c), is read back by vgd's own loader before anything
 * is written, and is written once, never over an existing file:
 *   - plain: KEY_DIR/NAME.pem (PKCS#8 PEM, mode 0600, owned by the
 *     directory's owner, as vgd's key rules want);
 *   - --sealed: only `systemd-creds encrypt`'s output, SEALED_DIR/NAME.cred
 *     (the clear key goes to systemd-creds through a pipe, never to disk);
 * plus the key's section, CONF_DIR/NAME.conf, in the directory vgd.conf
 * includes. Then it has vgd re-read its keys and waits until vgd serves
 * the new one, and prints the public key.
 *
 * Secret: the generated key (DER, PEM, the parsed key), kept in locked,
 * no-dump memory (secmem) and wiped; the process makes no core dump and
 * cannot be ptrace-attached by other users (PR_SET_DUMPABLE 0). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "keystore.h"
#include "keytype.h"
#include "secmem.h"
#include "vg/proto_x509.h"
#include "vg/wipe.h"
#include "vgctl.h"

extern char **environ;

#define DEFAULT_CONFIG "/etc/vgd/vgd.conf"
#define DEFAULT_KEY_DIR "/etc/vgd/live-keys"
#define DEFAULT_SEALED_DIR "/etc/vgd/sealed-keys"
/* The credential name prefix vgd.service's LoadCredentialEncrypted= line
 * gives the files of the sealed directory (systemd names each ID_FILE). */
#define SEALED_CRED_PREFIX "vgd-sealed_"
#define PEM_MAX 6144

struct genkey_opts {
	const char *name, *type, *allow, *uids, *gids;
	const char *config, *key_dir, *sealed_dir;
	int sealed, reload;
	long wait_s;
};

/* What lives in secure memory. */
struct genkey_secrets {
	uint8_t der[VGD_KEYGEN_DER_MAX];
	char pem[PEM_MAX];
	char check[PEM_MAX]; /* systemd-creds decrypt's output, compared with pem */
};

/* TYPE: a key type's protocol name, and for a type of many sizes (RSA)
 * "-BITS"; any type whose daemon row can generate. The row's generate
 * checks bits. */
static int parse_type(const char *s, int *type, unsigned *bits)
{
	for (int t = 1; t <= VG_KEY_MAX; t++) {
		const vgd_keytype *row = vgd_keytype_get(t);
		const vg_key_type_info *info = vg_key_type_get(t);
		if (!row || !row->generate || !info)
			continue;
		size_t l = strlen(info->name);
		if (strncmp(s, info->name, l) != 0)
			continue;
		*type = t;
		*bits = 0;
		if (s[l] == 0)
			return 0;
		if (s[l] != '-' || info->bits != 0)
			continue;
		char *end;
		unsigned long b = strtoul(s + l + 1, &end, 10);
		if (*end || b == 0 || b > 65536)
			return -1;
		*bits = (unsigned)b;
		return 0;
	}
	return -1;
}

static int gk_usage(const char *why)
{
	fprintf(stderr,
		"vgctl genkey: %s\n"
		"usage: vgctl genkey NAME --type TYPE [--allow LIST] [--uids LIST] [--gids LIST]\n"
		"       [--sealed] [--config FILE] [--key-dir DIR] [--sealed-dir DIR]\n"
		"       [--no-reload] [--wait SECONDS]\n"
		"TYPE: ed25519, x25519, ecdsa-p256, ecdsa-p384, rsa-2048, rsa-3072, rsa-4096\n",
		why);
	return EX_USAGE;
}

static int parse_opts(int argc, char **argv, struct genkey_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->config = DEFAULT_CONFIG;
	o->key_dir = DEFAULT_KEY_DIR;
	o->sealed_dir = DEFAULT_SEALED_DIR;
	o->reload = 1;
	o->wait_s = 10;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **val = NULL;
		if (strcmp(a, "--sealed") == 0) {
			o->sealed = 1;
			continue;
		}
		if (strcmp(a, "--no-reload") == 0) {
			o->reload = 0;
			continue;
		}
		if (strcmp(a, "--type") == 0)
			val = &o->type;
		else if (strcmp(a, "--allow") == 0)
			val = &o->allow;
		else if (strcmp(a, "--uids") == 0)
			val = &o->uids;
		else if (strcmp(a, "--gids") == 0)
			val = &o->gids;
		else if (strcmp(a, "--config") == 0)
			val = &o->config;
		else if (strcmp(a, "--key-dir") == 0)
			val = &o->key_dir;
		else if (strcmp(a, "--sealed-dir") == 0)
			val = &o->sealed_dir;
		if (val) {
			if (i + 1 >= argc)
				return gk_usage("an option lacks its value");
			*val = argv[++i];
			continue;
		}
		if (strcmp(a, "--wait") == 0 && i + 1 < argc) {
			char *end;
			o->wait_s = strtol(argv[++i], &end, 10);
			if (*end || o->wait_s < 0 || o->wait_s > 3600)
				return gk_usage("--wait takes 0 to 3600 seconds");
			continue;
		}
		if (a[0] == '-' || o->name)
			return gk_usage("unknown option or extra argument");
		o->name = a;
	}
	if (!o->name || !vg_key_name_ok((const uint8_t *)o->name, strlen(o->name)))
		return gk_usage("NAME must be 1..64 of A-Z a-z 0-9 . _ -");
	if (!o->type)
		return gk_usage("--type is required");
	return EX_OK;
}

/* Constant-time base64 of one 6-bit value (the key's bytes are secret: no
 * table indexed by them). */
static char b64(unsigned x)
{
	unsigned r = x + 'A';
	r += ((25u - x) >> 8) & 6;  /* 26..: 'a'.. */
	r -= ((51u - x) >> 8) & 75; /* 52..: '0'.. */
	r -= ((61u - x) >> 8) & 15; /* 62: '+' */
	r += ((62u - x) >> 8) & 3;  /* 63: '/' */
	return (char)r;
}

/* PKCS#8 DER as "PRIVATE KEY" PEM (RFC 7468), 64 columns. */
static size_t pem_encode(const uint8_t *der, size_t n, char *out, size_t cap)
{
	static const char head[] = "-----BEGIN PRIVATE KEY-----\n";
	static const char tail[] = "-----END PRIVATE KEY-----\n";
	size_t need = sizeof(head) - 1 + (n + 2) / 3 * 4 + (n + 47) / 48 + sizeof(tail) - 1;
	if (need >= cap)
		return 0;
	size_t o = 0, col = 0;
	memcpy(out, head, sizeof(head) - 1);
	o += sizeof(head) - 1;
	for (size_t i = 0; i < n; i += 3) {
		unsigned b0 = der[i], b1 = i + 1 < n ? der[i + 1] : 0,
			 b2 = i + 2 < n ? der[i + 2] : 0;
		out[o++] = b64(b0 >> 2);
		out[o++] = b64(((b0 & 3) << 4) | (b1 >> 4));
		out[o++] = i + 1 < n ? b64(((b1 & 15) << 2) | (b2 >> 6)) : '=';
		out[o++] = i + 2 < n ? b64(b2 & 63) : '=';
		if ((col += 4) == 64 || i + 3 >= n) {
			out[o++] = '\n';
			col = 0;
		}
	}
	memcpy(out + o, tail, sizeof(tail) - 1);
	o += sizeof(tail) - 1;
	out[o] = 0;
	return o;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A directory vgd will take files from: a directory, with no group or
 * other write bit (vgd refuses keys in directories others can write). */
static int check_dir(const char *dir, int private_dir, struct stat *st)
{
	if (stat(dir, st) < 0) {
		fprintf(stderr, "vgctl genkey: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	mode_t bad = private_dir ? 077 : 022;
	if (!S_ISDIR(st->st_mode) || (st->st_mode & bad)) {
		fprintf(stderr, "vgctl genkey: %s must be a directory of mode %s (it is %03o)\n",
			dir, private_dir ? "0700" : "0755 or stricter",
			(unsigned)(st->st_mode & 0777));
		return -1;
	}
	return 0;
}

/* A file reaches dir/name through a temporary file and link(): the name
 * appears complete or not at all (a reload never reads half a file), and
 * an existing file is never replaced (link fails with EEXIST).
 * open_tmp: path = dir/name, and a new temporary file beside it (its name
 * in tmp, VGD_PATH_MAX bytes) with mode, uid and gid; its descriptor, or
 * -1 with a message. */
static int open_tmp(const char *dir, const char *name, mode_t mode, uid_t uid, gid_t gid,
		    char *path, size_t cap, char *tmp)
{
	if (snprintf(path, cap, "%s/%s", dir, name) >= (int)cap ||
	    snprintf(tmp, VGD_PATH_MAX, "%s/.%s.XXXXXX", dir, name) >= VGD_PATH_MAX) {
		fprintf(stderr, "vgctl genkey: %s/%s: path too long\n", dir, name);
		return -1;
	}
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "vgctl genkey: cannot create a file in %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (fchmod(fd, mode) < 0 || fchown(fd, uid, gid) < 0) {
		fprintf(stderr, "vgctl genkey: %s: %s\n", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	return fd;
}

/* The finished temporary file tmp becomes path, if path does not exist;
 * tmp is gone either way. 0, or -1 with a message. */
static int link_tmp(const char *tmp, const char *path)
{
	int r = link(tmp, path), err = errno;
	unlink(tmp);
	if (r < 0) {
		fprintf(stderr, "vgctl genkey: %s: %s%s\n", path, strerror(err),
			err == EEXIST ? " (genkey never replaces a file)" : "");
		return -1;
	}
	return 0;
}

/* data at dir/name (open_tmp, link_tmp). */
static int place_file(const char *dir, const char *name, const void *data, size_t n, mode_t mode,
		      uid_t uid, gid_t gid, char *path, size_t cap)
{
	char tmp[VGD_PATH_MAX];
	int fd = open_tmp(dir, name, mode, uid, gid, path, cap, tmp);
	if (fd < 0)
		return -1;
	int ok = write_all(fd, data, n) == 0 && fsync(fd) == 0;
	int err = errno;
	close(fd);
	if (!ok) {
		fprintf(stderr, "vgctl genkey: %s: %s\n", path, strerror(err));
		unlink(tmp);
		return -1;
	}
	return link_tmp(tmp, path);
}

/* Run argv with stdin from in_fd and stdout to out_fd (-1: inherited);
 * the exit status, or -1. */
static int run(char *const argv[], int in_fd, int out_fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	int r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0) {
		fprintf(stderr, "vgctl genkey: cannot run %s: %s\n", argv[0], strerror(r));
		return -1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run argv feeding it in[0..n) on a pipe (the key: never in a file) and
 * collecting its stdout into out_fd, or into buf when out_fd < 0. */
static int run_piped(char *const argv[], const void *in, size_t n, int out_fd, char *buf,
		     size_t cap, size_t *got)
{
	int ip[2], op[2] = {-1, -1};
	if (pipe2(ip, O_CLOEXEC) < 0 || (out_fd < 0 && pipe2(op, O_CLOEXEC) < 0))
		return -1;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, ip[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd >= 0 ? out_fd : op[1], 1);
	int r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(ip[0]);
	if (op[1] >= 0)
		close(op[1]);
	if (r != 0) {
		close(ip[1]);
		if (op[0] >= 0)
			close(op[0]);
		fprintf(stderr, "vgctl genkey: cannot run %s: %s\n", argv[0], strerror(r));
		return -1;
	}
	/* The key fits a pipe's buffer (64 KiB), so writing it all before
	 * reading cannot deadlock against a child that echoes it back. */
	int wr = write_all(ip[1], in, n);
	close(ip[1]);
	size_t len = 0;
	if (op[0] >= 0) {
		for (;;) {
			ssize_t k = len < cap ? read(op[0], buf + len, cap - len) : 0;
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			len += (size_t)k;
		}
		close(op[0]);
	}
	if (got)
		*got = len;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return wr == 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 1 if a == b over n bytes, in time independent of where they differ. */
static int same(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint8_t d = 0;
	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

/* Seal: systemd-creds encrypt (host key, or TPM2 and host key where the
 * machine has a TPM: its default) into SEALED_DIR/NAME.cred, then decrypt
 * it again and compare, so a credential that vgd could not read is never
 * left behind. The name inside the credential is the one systemd gives
 * the file in $CREDENTIALS_DIRECTORY, which decryption checks. */
static int seal(const struct genkey_opts *o, struct genkey_secrets *s, size_t pem_len,
		const struct stat *dst, char *path, size_t cap)
{
	char cname[128], tmp[VGD_PATH_MAX], file[96];
	snprintf(cname, sizeof(cname), "--name=" SEALED_CRED_PREFIX "%s.cred", o->name);
	snprintf(file, sizeof(file), "%s.cred", o->name);
	int fd = open_tmp(o->sealed_dir, file, 0600, dst->st_uid, dst->st_gid, path, cap, tmp);
	if (fd < 0)
		return -1;
	char *enc[] = {"systemd-creds", "encrypt", cname, "-", "-", NULL};
	int ok = run_piped(enc, s->pem, pem_len, fd, NULL, 0, NULL) == 0 && fsync(fd) == 0;
	close(fd);
	if (!ok) {
		fprintf(stderr, "vgctl genkey: systemd-creds encrypt failed\n");
		unlink(tmp);
		return -1;
	}
	char *dec[] = {"systemd-creds", "decrypt", cname, tmp, "-", NULL};
	size_t got = 0;
	ok = run_piped(dec, "", 0, -1, s->check, sizeof(s->check), &got) == 0 && got == pem_len &&
	     same(s->check, s->pem, pem_len);
	vg_wipe(s->check, sizeof(s->check));
	if (!ok) {
		fprintf(stderr, "vgctl genkey: systemd-creds decrypt does not give the key back\n");
		unlink(tmp);
		return -1;
	}
	return link_tmp(tmp, path);
}

/* May root (this command's caller) see the key through the socket? Then
 * genkey can confirm that vgd serves it. */
static int root_may_use(const vgd_key_conf *kc)
{
	if (kc->n_uids == 0 && kc->n_gids == 0)
		return 1;
	for (size_t i = 0; i < kc->n_uids; i++)
		if (kc->uids[i] == 0)
			return 1;
	for (size_t i = 0; i < kc->n_gids; i++)
		if (kc->gids[i] == 0)
			return 1;
	return 0;
}

static int reload_vgd(const struct genkey_opts *o)
{
	const char *cmd = getenv("VGD_RELOAD");
	if (!cmd || !cmd[0]) {
		if (access("/run/systemd/system", F_OK) != 0) {
			fprintf(stderr,
				"vgctl genkey: no systemd here: set VGD_RELOAD to the command "
				"that sends vgd SIGHUP, or reload vgd yourself\n");
			return -1;
		}
		/* systemd hands a service its credentials when it starts, so
		 * a sealed key needs a restart; a file key, a reload. */
		cmd = o->sealed ? "systemctl try-restart vgd.service"
				: "systemctl try-reload-or-restart vgd.service";
	}
	char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	if (run(argv, -1, -1) != 0) {
		fprintf(stderr, "vgctl genkey: '%s' failed\n", cmd);
		return -1;
	}
	return 0;
}

/* Poll until vgd serves name with the public key pub. */
static int wait_served(vg_client *c, const char *name, const vgd_keyinfo *info, long wait_s)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		vgc_key_info k;
		if (vg_client_public_key(c, name, &k) == 0) {
			if (k.type == info->type && k.pub_len == info->pub_len &&
			    memcmp(k.pub, info->pub, k.pub_len) == 0)
				return 0;
			fprintf(stderr, "vgctl genkey: vgd serves another key as %s\n", name);
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= wait_s)
			break;
		struct timespec nap = {0, 100 * 1000 * 1000};
		nanosleep(&nap, NULL);
	}
	fprintf(stderr,
		"vgctl genkey: vgd did not serve %s within %ld s of the reload; its log says why "
		"(journalctl -u vgd)\n",
		name, wait_s);
	return -1;
}

/* The key's section, as vgd.conf(5) describes it; where is the file
 * genkey stores the key in. */
static int section_text(const struct genkey_opts *o, const char *where, const char *allow,
			char *buf, size_t cap)
{
	time_t now = time(NULL);
	struct tm tm;
	char date[32], source[VGD_PATH_MAX + 64];
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tm));
	/* A sealed key reaches vgd as the credential systemd names after its
	 * file; a plain one is read from its file on every reload. */
	if (o->sealed)
		snprintf(source, sizeof(source), "credential = " SEALED_CRED_PREFIX "%s.cred",
			 o->name);
	else
		snprintf(source, sizeof(source), "file = %s", where);
	int n = snprintf(buf, cap,
			 "# %s key made by vgctl genkey on %s%s.\n"
			 "# To retire it: remove this file and %s, then %s vgd.\n"
			 "[key %s]\n"
			 "%s\n"
			 "allow = %s\n",
			 o->type, date, o->sealed ? ", sealed with systemd-creds" : "", where,
			 o->sealed ? "restart" : "reload", o->name, source, allow);
	if (n > 0 && (size_t)n < cap && o->uids)
		n += snprintf(buf + n, cap - (size_t)n, "uids = %s\n", o->uids);
	if (n > 0 && (size_t)n < cap && o->gids)
		n += snprintf(buf + n, cap - (size_t)n, "gids = %s\n", o->gids);
	return n > 0 && (size_t)n < cap ? n : -1;
}

int vgctl_genkey(vg_client *c, int argc, char **argv)
{
	struct genkey_opts o;
	int r = parse_opts(argc, argv, &o);
	if (r != EX_OK)
		return r;
	int type = 0;
	unsigned bits = 0;
	if (parse_type(o.type, &type, &bits) < 0)
		return gk_usage("unknown --type");
	const vgd_keytype *row = vgd_keytype_get(type);

	/* No core file, no ptrace by others: this process holds a key. */
	struct rlimit nocore = {0, 0};
	setrlimit(RLIMIT_CORE, &nocore);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

	/* The configuration as it is now: the include directory, and a name
	 * not taken. */
	vgd_config *cfg = malloc(sizeof(*cfg));
	char err[600];
	if (!cfg)
		return EX_INPUT;
	if (vgd_config_load(cfg, o.config, err, sizeof(err)) < 0) {
		fprintf(stderr, "vgctl genkey: %s\n", err);
		free(cfg);
		return EX_INPUT;
	}
	if (vgd_config_key(cfg, o.name)) {
		fprintf(stderr,
			"vgctl genkey: %s already has a key %s (genkey never replaces one)\n",
			o.config, o.name);
		free(cfg);
		return EX_INPUT;
	}
	if (cfg->n_includes == 0) {
		fprintf(stderr,
			"vgctl genkey: %s has no 'include = DIR' line for the sections genkey "
			"writes (vgd.conf(5))\n",
			o.config);
		free(cfg);
		return EX_INPUT;
	}
	char conf_dir[VGD_PATH_MAX];
	snprintf(conf_dir, sizeof(conf_dir), "%s", cfg->includes[0]);
	free(cfg);

	/* The section names the key by its absolute path: it is read from
	 * the include directory, not from where genkey ran. */
	char key_dir[PATH_MAX];
	if (!realpath(o.sealed ? o.sealed_dir : o.key_dir, key_dir)) {
		fprintf(stderr, "vgctl genkey: %s: %s\n", o.sealed ? o.sealed_dir : o.key_dir,
			strerror(errno));
		return EX_INPUT;
	}
	o.sealed_dir = key_dir;
	struct stat kd, cd;
	if (check_dir(key_dir, 1, &kd) < 0 || check_dir(conf_dir, 0, &cd) < 0)
		return EX_INPUT;

	/* The policy, checked by vgd's own parser before a key exists. */
	const char *allow = o.allow ? o.allow : type == VG_KEY_X25519 ? "x25519" : "tls13";
	char section[2048], where[VGD_PATH_MAX];
	if (snprintf(where, sizeof(where), "%s/%s.%s", key_dir, o.name,
		     o.sealed ? "cred" : "pem") >= (int)sizeof(where))
		return gk_usage("the key directory's path is too long");
	if (section_text(&o, where, allow, section, sizeof(section)) < 0)
		return gk_usage("--uids or --gids too long");
	vgd_config *check = malloc(sizeof(*check));
	if (!check)
		return EX_INPUT;
	vgd_config_defaults(check);
	if (vgd_config_parse(check, section, strlen(section), "/", err, sizeof(err)) < 0) {
		fprintf(stderr, "vgctl genkey: bad --allow, --uids or --gids: %s\n", err);
		free(check);
		return EX_USAGE;
	}
	vgd_key_conf kc = check->keys[0];
	free(check);
	uint32_t can = vg_key_type_allow(type);
	if (kc.allow & ~can) {
		fprintf(stderr, "vgctl genkey: a %s key cannot do all of '%s'\n", o.type, allow);
		return EX_USAGE;
	}

	int locked = 0;
	size_t secret_cap = vgd_key_secret_size();
	size_t mem_len = sizeof(struct genkey_secrets) + secret_cap;
	uint8_t *mem = vgd_secmem_alloc(mem_len, &locked);
	if (!mem) {
		fprintf(stderr, "vgctl genkey: out of memory\n");
		return EX_INPUT;
	}
	if (!locked)
		fprintf(stderr, "vgctl genkey: warning: cannot lock the key's memory "
				"(RLIMIT_MEMLOCK); it could be swapped\n");
	struct genkey_secrets *s = (struct genkey_secrets *)mem;
	void *secret = mem + sizeof(*s);
	char why[256];
	size_t der_len = 0, pem_len = 0;
	vgd_keyinfo info;
	r = EX_INPUT;

	/* Generate, then read it back with vgd's own loader: the file is
	 * written only if vgd will load it. */
	if (row->generate(bits, s->der, sizeof(s->der), &der_len, why, sizeof(why)) < 0) {
		fprintf(stderr, "vgctl genkey: %s\n", why);
		goto out;
	}
	memset(&info, 0, sizeof(info));
	if (vgd_key_from_bytes(s->der, der_len, &info, secret, secret_cap, why, sizeof(why)) < 0 ||
	    info.type != type) {
		fprintf(stderr, "vgctl genkey: the new key does not load: %s\n", why);
		goto out;
	}
	row->wipe(secret);
	pem_len = pem_encode(s->der, der_len, s->pem, sizeof(s->pem));
	if (!pem_len)
		goto out;

	char key_path[VGD_PATH_MAX], conf_path[VGD_PATH_MAX], file[96];
	int stored = o.sealed ? seal(&o, s, pem_len, &kd, key_path, sizeof(key_path))
			      : (snprintf(file, sizeof(file), "%s.pem", o.name),
				 place_file(key_dir, file, s->pem, pem_len, 0600, kd.st_uid,
					    kd.st_gid, key_path, sizeof(key_path)));
	if (stored < 0)
		goto out;
	snprintf(file, sizeof(file), "%s.conf", o.name);
	if (place_file(conf_dir, file, section, strlen(section), 0644, cd.st_uid, cd.st_gid,
		       conf_path, sizeof(conf_path)) < 0) {
		unlink(key_path);
		goto out;
	}
	/* The whole configuration with the new section, as vgd will read it. */
	vgd_config *after = malloc(sizeof(*after));
	int bad = !after || vgd_config_load(after, o.config, err, sizeof(err)) < 0;
	free(after);
	if (bad) {
		fprintf(stderr,
			"vgctl genkey: the configuration does not load with the new key "
			"(removed again): %s\n",
			err);
		unlink(conf_path);
		unlink(key_path);
		goto out;
	}
	fprintf(stderr, "vgctl genkey: %s key %s: %s, section %s\n", o.type, o.name, key_path,
		conf_path);

	r = EX_OK;
	if (o.reload) {
		if (reload_vgd(&o) < 0)
			r = EX_DAEMON;
		else if (!root_may_use(&kc))
			fprintf(stderr,
				"vgctl genkey: vgd reloaded; root may not use %s, so genkey "
				"cannot confirm that vgd serves it\n",
				o.name);
		else if (wait_served(c, o.name, &info, o.wait_s) < 0)
			r = EX_DAEMON;
	}
	uint8_t spki[VG_SPKI_MAX];
	size_t sl = vg_spki_encode(info.type, info.pub, info.pub_len, info.rsa_e, info.rsa_e_len,
				   spki, sizeof(spki));
	if (sl)
		vgctl_emit(stdout, OUT_PEM, spki, sl, "PUBLIC KEY");
out:
	vgd_secmem_free(mem, mem_len);
	return r;
}
