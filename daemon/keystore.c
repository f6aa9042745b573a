/* keystore.c: load key files into locked memory (see keystore.h); what
 * each key type's loading, description and wipe are is its row's
 * (keytype.h). Secret: file contents and the keys' slots.
 * Every scratch copy is in secmem and wiped. */
#include "keystore.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errcode.h"
#include "keyfile.h"
#include "keytype.h"
#include "log.h"
#include "secmem.h"
#include "vg/proto.h"
#include "vg/proto_tables.h"

#define KEYFILE_MAX (64u * 1024)

size_t vgd_key_secret_size(void)
{
	size_t s = 0;
	for (int t = 1; t <= VG_KEY_MAX; t++) {
		const vgd_keytype *k = vgd_keytype_get(t);
		size_t n = k ? k->secret_size() : 0;
		s = n > s ? n : s;
	}
	return (s + 63) & ~(size_t)63;
}

int vgd_key_from_bytes(const uint8_t *buf, size_t len, vgd_keyinfo *info, void *secret,
		       size_t secret_cap, char *why, size_t whylen)
{
	int locked;
	uint8_t *der = vgd_secmem_alloc(KEYFILE_MAX, &locked);
	vgd_keyfile *kf = vgd_secmem_alloc(sizeof(*kf), &locked);
	const char *reason = "";
	int r = VGD_E_NOMEM;
	if (!der || !kf) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	r = vgd_keyfile_parse(buf, len, der, KEYFILE_MAX, kf, &reason);
	if (r < 0) {
		snprintf(why, whylen, "%s", reason);
		goto out;
	}
	/* The parser names only types that have a row: one without is
	 * vgd's mistake, not the key file's. */
	const vgd_keytype *t = vgd_keytype_get(kf->type);
	r = VGD_E_INTERNAL;
	if (t == NULL) {
		snprintf(why, whylen, "internal: no loader for key type %d", kf->type);
		goto out;
	}
	info->type = (uint8_t)kf->type;
	if (secret_cap < t->secret_size()) {
		snprintf(why, whylen, "internal: secret slot too small");
		goto out;
	}
	r = t->load(kf, secret, why, whylen);
	if (r < 0)
		goto out;
	r = t->describe(secret, info, why, whylen);
	if (r < 0) {
		t->wipe(secret);
		goto out;
	}
	r = 0;
out:
	if (der)
		vgd_secmem_free(der, KEYFILE_MAX);
	if (kf)
		vgd_secmem_free(kf, sizeof(*kf));
	return r;
}

/* Who may own a key file or a directory above it: root, or the user vgd
 * runs as (under systemd, the service user; its credentials are its). */
static int trusted_owner(uid_t uid) { return uid == 0 || uid == geteuid(); }

/* That rule in words, for a refusal. Started as root, vgd reads its keys as
 * root (at start and on every reload) and only its children switch to the
 * configured user: a key owned by that user is refused, which "root or
 * vgd's user" did not explain. */
static const char *owner_rule(char *buf, size_t cap)
{
	uid_t me = geteuid();
	if (me == 0)
		snprintf(buf, cap,
			 "vgd runs as root here, so keys and their directories must belong to "
			 "root (the 'user' setting is who the keyholders run as, not who may "
			 "own keys): chown root");
	else
		snprintf(buf, cap, "they must belong to root or to uid %u, which vgd runs as",
			 (unsigned)me);
	return buf;
}

/* The directories holding a key, from its own up to /, walked by
 * descriptor (openat "..") so that what is checked is what holds the
 * file: each owned by root or us; the key's own directory writable by
 * no one else; one above it writable by others only if sticky (as /tmp:
 * others cannot then rename or replace what is ours in it). 0, or a
 * negative VGD_E_* with why. */
static int check_dirs(int dfd, const char *dir, char *why, size_t whylen)
{
	int fd = dup(dfd), r = 0;
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return VGD_E_IO;
	}
	for (int depth = 0; depth < 64; depth++) {
		struct stat st, up;
		if (fstat(fd, &st) < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			r = VGD_E_IO;
			break;
		}
		const char *which = depth == 0 ? "the key's directory" : "a directory above the key";
		if (!trusted_owner(st.st_uid)) {
			char rule[200];
			snprintf(why, whylen, "%s (%s) is owned by uid %u; %s", which,
				 depth == 0 ? dir : "..", (unsigned)st.st_uid,
				 owner_rule(rule, sizeof(rule)));
			r = VGD_E_PERM;
			break;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (depth == 0 || !(st.st_mode & S_ISVTX))) {
			snprintf(why, whylen,
				 "%s (%s) is writable by group or others (mode %03o): they could "
				 "replace the key",
				 which, depth == 0 ? dir : "..", (unsigned)(st.st_mode & 07777));
			r = VGD_E_PERM;
			break;
		}
		int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0 || fstat(pfd, &up) < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			if (pfd >= 0)
				close(pfd);
			r = VGD_E_IO;
			break;
		}
		close(fd);
		fd = pfd;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break; /* the root */
	}
	close(fd);
	return r;
}

/* Open a key file without following a symbolic link or blocking (a FIFO
 * or a device opens at once and is refused by type), check its
 * directories, then its type, owner and mode on the descriptor itself: no
 * check and use of different files. Returns the descriptor and its stat,
 * or a negative VGD_E_* with why. */
static int open_key(const char *path, struct stat *st, char *why, size_t whylen)
{
	char dir[VGD_PATH_MAX + 64];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return VGD_E_IO;
	}
	int r = check_dirs(dfd, dir, why, whylen);
	int fd = r < 0 ? -1 : openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW |
					    O_NONBLOCK);
	int err = errno;
	close(dfd);
	if (r < 0)
		return r;
	if (fd < 0) {
		snprintf(why, whylen, "%s", err == ELOOP ? "is a symbolic link (not followed)"
							  : strerror(err));
		return err == ENOENT ? VGD_E_NOTFOUND : err == ELOOP ? VGD_E_PERM : VGD_E_IO;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "not a regular file");
		close(fd);
		return VGD_E_IO;
	}
	if (!trusted_owner(st->st_uid)) {
		char rule[200];
		snprintf(why, whylen, "owned by uid %u; %s", (unsigned)st->st_uid,
			 owner_rule(rule, sizeof(rule)));
		close(fd);
		return VGD_E_PERM;
	}
	if (st->st_mode & (S_IRWXG | S_IRWXO)) {
		snprintf(why, whylen,
			 "file mode %03o gives access to other users; chmod 600 (or 400) it",
			 (unsigned)(st->st_mode & 0777));
		close(fd);
		return VGD_E_PERM;
	}
	return fd;
}

int vgd_key_load_file(const char *path, vgd_keyinfo *info, void *secret, size_t secret_cap,
		      char *why, size_t whylen)
{
	struct stat st;
	int fd = open_key(path, &st, why, whylen);
	if (fd < 0)
		return fd;
	if (st.st_size > (off_t)KEYFILE_MAX) {
		snprintf(why, whylen, "larger than %u bytes", KEYFILE_MAX);
		close(fd);
		return VGD_E_TOOBIG;
	}
	int locked;
	uint8_t *buf = vgd_secmem_alloc(KEYFILE_MAX, &locked);
	if (!buf) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return VGD_E_NOMEM;
	}
	size_t len = 0;
	int r = 0;
	while (len < KEYFILE_MAX) {
		ssize_t n = read(fd, buf + len, KEYFILE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			r = VGD_E_IO;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0)
		r = vgd_key_from_bytes(buf, len, info, secret, secret_cap, why, whylen);
	vgd_secmem_free(buf, KEYFILE_MAX);
	return r;
}

static const char *key_path(const vgd_key_conf *kc, char *buf, size_t cap, char *why,
			    size_t whylen)
{
	if (!kc->from_credential)
		return kc->file;
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	if (!dir || !*dir) {
		/* Under systemd the unit's LoadCredential= sets it; to check a
		 * config before a restart an admin needs the way round. */
		snprintf(why, whylen,
			 "credential '%s' but $CREDENTIALS_DIRECTORY is not set (vgd.service "
			 "sets it; to check before a restart: vgd --check-config "
			 "--credentials-dir /etc/vgd/keys)",
			 kc->file);
		return NULL;
	}
	if (snprintf(buf, cap, "%s/%s", dir, kc->file) >= (int)cap) {
		snprintf(why, whylen, "credential path too long");
		return NULL;
	}
	return buf;
}

int vgd_keystore_load(vgd_keystore *ks, const vgd_config *cfg, char *err, size_t errlen)
{
	memset(ks, 0, sizeof(*ks));
	size_t slot = vgd_key_secret_size();
	size_t n = cfg->n_keys;
	ks->info = calloc(n ? n : 1, sizeof(*ks->info));
	ks->secret = calloc(n ? n : 1, sizeof(*ks->secret));
	ks->arena_len = slot * (n ? n : 1);
	ks->arena = vgd_secmem_alloc(ks->arena_len, &ks->locked);
	if (!ks->info || !ks->secret || !ks->arena) {
		snprintf(err, errlen, "out of memory loading keys");
		vgd_keystore_free(ks);
		return VGD_E_NOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const vgd_key_conf *kc = &cfg->keys[i];
		vgd_keyinfo *info = &ks->info[i];
		char why[256] = "", pathbuf[VGD_PATH_MAX + 64];
		ks->secret[i] = ks->arena + i * slot;
		const char *path = key_path(kc, pathbuf, sizeof(pathbuf), why, sizeof(why));
		int r = path ? vgd_key_load_file(path, info, ks->secret[i], slot, why, sizeof(why))
			     : VGD_E_NOTFOUND;
		if (r < 0) {
			snprintf(err, errlen, "key '%s' (%s): %s", kc->name, path ? path : kc->file,
				 why);
			ks->n = i; /* wipe what was loaded */
			vgd_keystore_free(ks);
			return r;
		}
		snprintf(info->name, sizeof(info->name), "%s", kc->name);
		uint32_t fits = vg_key_type_allow(info->type);
		info->allow = kc->allow & fits;
		if (!info->allow || (kc->allow & ~fits)) {
			/* A policy word the key type cannot do (rsa-private for
			 * an EC key) is a mistake in the config: say which, the
			 * key's type, and what it can be allowed, whether or not
			 * some other word fits. */
			char words[64] = "", can[64] = "";
			for (uint32_t b = 1; b != 0; b <<= 1) {
				/* "sign" sets the TLS 1.3 bit too: say it once. */
				int twice = b == VG_ALLOW_SIGN_TLS13 && (kc->allow & VG_ALLOW_SIGN);
				if ((kc->allow & ~fits & b) && !twice)
					snprintf(words + strlen(words),
						 sizeof(words) - strlen(words), "%s%s",
						 words[0] ? ", " : "", vg_allow_name(b));
				if (fits & b)
					snprintf(can + strlen(can), sizeof(can) - strlen(can),
						 "%s%s", can[0] ? ", " : "", vg_allow_name(b));
			}
			snprintf(err, errlen,
				 "key '%s': allow = %s does not fit an %s key (it can be allowed: %s)",
				 kc->name, words, vg_key_type_name(info->type), can);
			ks->n = i + 1;
			vgd_keystore_free(ks);
			return VGD_E_INVALID;
		}
		info->n_uids = kc->n_uids;
		info->n_gids = kc->n_gids;
		memcpy(info->uids, kc->uids, sizeof(info->uids));
		memcpy(info->gids, kc->gids, sizeof(info->gids));
		ks->n = i + 1;
	}
	return 0;
}

void vgd_keystore_wipe(vgd_keystore *ks)
{
	if (ks->arena) {
		for (size_t i = 0; i < ks->n; i++) {
			if (!ks->info || !ks->secret[i])
				continue;
			const vgd_keytype *t = vgd_keytype_get(ks->info[i].type);
			if (t != NULL)
				t->wipe(ks->secret[i]);
		}
		vgd_secmem_free(ks->arena, ks->arena_len);
	}
	ks->arena = NULL;
	for (size_t i = 0; ks->secret && i < ks->n; i++)
		ks->secret[i] = NULL;
}

void vgd_keystore_free(vgd_keystore *ks)
{
	vgd_keystore_wipe(ks);
	free(ks->info);
	free(ks->secret);
	memset(ks, 0, sizeof(*ks));
}

void vgd_keystore_lock(vgd_keystore *ks)
{
	ks->locked = vgd_secmem_lock(ks->arena, ks->arena_len) == 0;
}

void vgd_keystore_drop_secrets(vgd_keystore *ks)
{
	vgd_secmem_drop(ks->arena, ks->arena_len);
	ks->arena = NULL;
	for (size_t i = 0; i < ks->n; i++)
		ks->secret[i] = NULL;
}

int vgd_keystore_find(const vgd_keystore *ks, const char *name)
{
	for (size_t i = 0; i < ks->n; i++)
		if (strcmp(ks->info[i].name, name) == 0)
			return (int)i;
	return -1;
}
