/* config.c: parse vgd.conf, a small INI-like format:
 *   # comment                (also after a value: "keyholders = 0  # per CPU")
 *   key = value              (global settings, before any section)
 *   [key NAME]               (one section per key)
 *   file = PATH | credential = NAME
 *   allow = sign, tls13, x25519, rsa-private
 *   uids = 0, 33     gids = 33
 *   include = DIR            (global: DIR's *.conf files add key sections)
 * Every error names the line. Nothing here is secret. */
#include "config.h"
#include "direct.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errcode.h"
#include "log.h"
#include "record.h"
#include "vg/proto.h"
#include "vg_config.h"

#define CONFIG_MAX_BYTES (1u << 20)

void vgd_config_defaults(vgd_config *cfg)
{
	/* Everything but the key table, whose entries are cleared as the
	 * parser adds them (its untouched pages cost no memory). */
	memset(cfg, 0, offsetof(vgd_config, keys));
	snprintf(cfg->socket_path, sizeof(cfg->socket_path), "%s", VG_DEFAULT_SOCKET);
	cfg->socket_mode = 0660;
	cfg->keyholders = 0;
	cfg->direct_slots = 8;
	cfg->pin_keyholders = 1;
	cfg->follow_clients = 1; /* see daemon/DESIGN-cpu.md (3) */
	cfg->max_connections = 1024;
	cfg->max_inflight = VG_PROTO_MAX_INFLIGHT;
	cfg->max_queue = 4096;
	cfg->max_reply_buffers = VGD_REPLY_BUFFERS_DEFAULT;
	cfg->idle_timeout_ms = 300000;
	cfg->frame_timeout_ms = 10000;
	cfg->drain_timeout_ms = 5000;
	cfg->job_timeout_ms = 10000;
	cfg->liveness_timeout_ms = 10000;
	/* One caller (one uid) gets at most a quarter of the connections and
	 * of the queue by default, so it cannot starve the others. */
	cfg->max_conns_per_uid = 256;
	cfg->max_inflight_per_uid = 1024;
	snprintf(cfg->front_user, sizeof(cfg->front_user), "%s", VGD_DEFAULT_FRONT_USER);
	cfg->log_level = VGD_LOG_INFO;
	cfg->max_keys = VGD_MAX_KEYS_DEFAULT;
	/* Only root asks for certificate requests unless configured: a
	 * request names whoever holds the certificate, an operator's act. */
	cfg->n_csr_uids = 1;
	cfg->csr_uids[0] = 0;
}

static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "line %d: ", line);
	if (n < 0 || (size_t)n >= errlen)
		return VGD_E_INVALID;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return VGD_E_INVALID;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int parse_int(const char *v, long min, long max, int base, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, base);
	if (errno || end == v || *end || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

/* A byte count: digits and an optional K, M or G (binary multiples). */
static int parse_size(const char *v, unsigned long long min, unsigned long long max,
		      size_t *out)
{
	char *end;
	errno = 0;
	if (!isdigit((unsigned char)v[0]))
		return -1;
	unsigned long long x = strtoull(v, &end, 10);
	int shift = 0;
	switch (*end) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	default: break;
	}
	if (errno || end == v || *end || x > (max >> shift) || (x << shift) < min ||
	    (x << shift) > SIZE_MAX)
		return -1;
	*out = (size_t)(x << shift);
	return 0;
}

static int valid_key_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > VG_PROTO_MAX_KEY_NAME)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

static int parse_allow(const char *v, uint32_t *out)
{
	char buf[256];
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -1;
	uint32_t a = 0;
	for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		if (strcmp(t, "sign") == 0)
			a |= VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13;
		else if (strcmp(t, "tls13") == 0)
			a |= VG_ALLOW_SIGN_TLS13;
		else if (strcmp(t, "x25519") == 0)
			a |= VG_ALLOW_X25519;
		else if (strcmp(t, "rsa-private") == 0)
			a |= VG_ALLOW_RSA_PRIVATE;
		else
			return -1;
	}
	*out = a;
	return 0;
}

/* Comma list of numeric ids. */
static int parse_ids(const char *v, unsigned *ids, size_t *n)
{
	char buf[1024];
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -1;
	*n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		long x;
		if (*n == VGD_MAX_ACL || parse_int(t, 0, 0x7fffffff, 10, &x) < 0)
			return -1;
		ids[(*n)++] = (unsigned)x;
	}
	return *n ? 0 : -1;
}

static int copy_str(char *dst, size_t cap, const char *v)
{
	return snprintf(dst, cap, "%s", v) < (int)cap ? 0 : -1;
}

static int add_include(vgd_config *cfg, const char *v, const char *base_dir);

static int set_global(vgd_config *cfg, const char *k, const char *v, const char *base_dir)
{
	long x;
	if (strcmp(k, "include") == 0)
		return add_include(cfg, v, base_dir);
	if (strcmp(k, "socket") == 0)
		return v[0] == '/' ? copy_str(cfg->socket_path, sizeof(cfg->socket_path), v) : -1;
	if (strcmp(k, "socket_mode") == 0) {
		if (parse_int(v, 0, 0777, 8, &x) < 0)
			return -1;
		cfg->socket_mode = (mode_t)x;
		return 0;
	}
	if (strcmp(k, "socket_group") == 0)
		return copy_str(cfg->socket_group, sizeof(cfg->socket_group), v);
	if (strcmp(k, "user") == 0)
		return copy_str(cfg->user, sizeof(cfg->user), v);
	if (strcmp(k, "group") == 0)
		return copy_str(cfg->group, sizeof(cfg->group), v);
	if (strcmp(k, "front_user") == 0)
		return v[0] ? copy_str(cfg->front_user, sizeof(cfg->front_user), v) : -1;
	if (strcmp(k, "front_group") == 0)
		return copy_str(cfg->front_group, sizeof(cfg->front_group), v);
	if (strcmp(k, "log_level") == 0) {
		static const struct { const char *n; int l; } levels[] = {
			{"error", VGD_LOG_ERR}, {"warning", VGD_LOG_WARN},
			{"info", VGD_LOG_INFO}, {"debug", VGD_LOG_DEBUG}};
		for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
			if (strcmp(v, levels[i].n) == 0) {
				cfg->log_level = levels[i].l;
				return 0;
			}
		return -1;
	}
	if (strcmp(k, "pin_keyholders") == 0 || strcmp(k, "follow_clients") == 0) {
		int *flag = k[0] == 'p' ? &cfg->pin_keyholders : &cfg->follow_clients;
		if (strcmp(v, "yes") == 0 || strcmp(v, "no") == 0) {
			*flag = v[0] == 'y';
			return 0;
		}
		return -1;
	}
	if (strcmp(k, "csr_uids") == 0)
		return parse_ids(v, (unsigned *)cfg->csr_uids, &cfg->n_csr_uids);
	if (strcmp(k, "max_reply_buffers") == 0)
		return parse_size(v, VGD_REPLY_BUFFERS_MIN, VGD_REPLY_BUFFERS_MAX,
				  &cfg->max_reply_buffers);
	/* Integer settings as data: name, field, range, scale to ms. */
	static const struct {
		const char *name;
		size_t off;
		long min, max, scale;
	} ints[] = {
		{"keyholders", offsetof(vgd_config, keyholders), 0, VGD_KH_MAX, 1},
		{"direct_slots", offsetof(vgd_config, direct_slots), 0, VGD_DIRECT_MAX, 1},
		{"max_connections", offsetof(vgd_config, max_connections), 1, 1000000, 1},
		{"max_inflight", offsetof(vgd_config, max_inflight), 1, VG_PROTO_MAX_INFLIGHT, 1},
		{"max_queue", offsetof(vgd_config, max_queue), 1, 1000000, 1},
		{"idle_timeout", offsetof(vgd_config, idle_timeout_ms), 1, 86400, 1000},
		{"frame_timeout", offsetof(vgd_config, frame_timeout_ms), 1, 3600, 1000},
		{"drain_timeout", offsetof(vgd_config, drain_timeout_ms), 0, 3600, 1000},
		{"busy_poll_us", offsetof(vgd_config, busy_poll_us), 0, 1000, 1},
		{"job_timeout", offsetof(vgd_config, job_timeout_ms), 1, 3600, 1000},
		{"liveness_timeout", offsetof(vgd_config, liveness_timeout_ms), 1, 3600, 1000},
		{"max_connections_per_uid", offsetof(vgd_config, max_conns_per_uid), 1, 1000000, 1},
		{"max_inflight_per_uid", offsetof(vgd_config, max_inflight_per_uid), 1, 1000000, 1},
		{"max_keys", offsetof(vgd_config, max_keys), 1, VGD_MAX_KEYS, 1},
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (strcmp(k, ints[i].name) != 0)
			continue;
		if (parse_int(v, ints[i].min, ints[i].max, 10, &x) < 0)
			return -1;
		*(int *)((char *)cfg + ints[i].off) = (int)(x * ints[i].scale);
		return 0;
	}
	return -2; /* unknown setting */
}

static int set_key(vgd_key_conf *kc, const char *k, const char *v, const char *base_dir)
{
	if (strcmp(k, "file") == 0) {
		if (kc->file[0])
			return -1;
		if (v[0] == '/' || !base_dir)
			return copy_str(kc->file, sizeof(kc->file), v);
		return snprintf(kc->file, sizeof(kc->file), "%s/%s", base_dir, v) <
				       (int)sizeof(kc->file)
			       ? 0
			       : -1;
	}
	if (strcmp(k, "credential") == 0) {
		if (kc->file[0] || strchr(v, '/') || !v[0])
			return -1;
		kc->from_credential = 1;
		return copy_str(kc->file, sizeof(kc->file), v);
	}
	if (strcmp(k, "allow") == 0)
		return parse_allow(v, &kc->allow);
	if (strcmp(k, "uids") == 0)
		return parse_ids(v, (unsigned *)kc->uids, &kc->n_uids);
	if (strcmp(k, "gids") == 0)
		return parse_ids(v, (unsigned *)kc->gids, &kc->n_gids);
	return -2;
}

/* An include line: DIR, relative to the config file's directory unless
 * absolute. */
static int add_include(vgd_config *cfg, const char *v, const char *base_dir)
{
	if (!v[0] || cfg->n_includes == VGD_MAX_INCLUDES)
		return -1;
	char *dst = cfg->includes[cfg->n_includes];
	int r = v[0] == '/' || !base_dir
			? copy_str(dst, VGD_PATH_MAX, v)
			: (snprintf(dst, VGD_PATH_MAX, "%s/%s", base_dir, v) < VGD_PATH_MAX ? 0 : -1);
	if (r == 0)
		cfg->n_includes++;
	return r;
}

/* keys_only: an included file, which may add key sections but not change
 * global settings (they belong in the one file an admin reads first). */
static int parse_text(vgd_config *cfg, const char *text, size_t len, const char *base_dir,
		      int keys_only, char *err, size_t errlen)
{
	vgd_key_conf *cur = NULL;
	size_t pos = 0;
	int lineno = 0;
	err[0] = 0;
	while (pos < len) {
		char line[1024];
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		lineno++;
		if (end - pos >= sizeof(line))
			return fail(err, errlen, lineno, "line too long");
		if (memchr(text + pos, 0, end - pos))
			return fail(err, errlen, lineno, "NUL byte in line");
		memcpy(line, text + pos, end - pos);
		line[end - pos] = 0;
		pos = end + 1;
		/* A '#' after white space starts a comment to the end of the
		 * line (README's example and vgd.conf.example annotate values
		 * so); a '#' inside a word, as in a path, does not. */
		for (char *h = strchr(line, '#'); h; h = strchr(h + 1, '#'))
			if (h > line && isspace((unsigned char)h[-1])) {
				*h = 0;
				break;
			}
		char *s = trim(line);
		if (*s == 0 || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || trim(close + 1)[0])
				return fail(err, errlen, lineno, "malformed section header");
			*close = 0;
			char *inner = trim(s + 1);
			if (strncmp(inner, "key", 3) != 0 || !isspace((unsigned char)inner[3]))
				return fail(err, errlen, lineno, "unknown section (expected [key NAME])");
			char *name = trim(inner + 3);
			if (!valid_key_name(name))
				return fail(err, errlen, lineno,
					    "bad key name (1..64 of A-Z a-z 0-9 . _ -)");
			if (vgd_config_key(cfg, name))
				return fail(err, errlen, lineno, "duplicate key '%s'", name);
			if (cfg->n_keys >= (size_t)cfg->max_keys)
				return fail(err, errlen, lineno,
					    cfg->max_keys < VGD_MAX_KEYS
						    ? "too many keys: key '%s' is one more than "
						      "max_keys = %d (raise max_keys, at most %d)"
						    : "too many keys: key '%s' is one more than "
						      "max_keys = %d, the most vgd holds (%d)",
					    name, cfg->max_keys, VGD_MAX_KEYS);
			cur = &cfg->keys[cfg->n_keys++];
			memset(cur, 0, sizeof(*cur));
			snprintf(cur->name, sizeof(cur->name), "%s", name);
			cur->line = lineno;
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq)
			return fail(err, errlen, lineno, "expected 'name = value'");
		*eq = 0;
		char *k = trim(s), *v = trim(eq + 1);
		if (!cur && keys_only)
			return fail(err, errlen, lineno,
				    "'%s' outside a [key NAME] section: an included file holds "
				    "only key sections",
				    k);
		int r = cur ? set_key(cur, k, v, base_dir) : set_global(cfg, k, v, base_dir);
		if (r == -2)
			return fail(err, errlen, lineno, "unknown setting '%s'", k);
		if (r < 0)
			return fail(err, errlen, lineno, "bad value for '%s'", k);
	}
	for (size_t i = 0; i < cfg->n_keys; i++) {
		vgd_key_conf *kc = &cfg->keys[i];
		if (!kc->file[0])
			return fail(err, errlen, kc->line, "key '%s' has no file or credential",
				    kc->name);
		if (!kc->allow)
			return fail(err, errlen, kc->line, "key '%s' allows nothing (set allow =)",
				    kc->name);
	}
	return 0;
}

int vgd_config_parse(vgd_config *cfg, const char *text, size_t len, const char *base_dir,
		     char *err, size_t errlen)
{
	return parse_text(cfg, text, len, base_dir, 0, err, errlen);
}

/* Read and parse one file; its directory resolves relative paths. */
static int load_file(vgd_config *cfg, const char *path, int keys_only, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return VGD_E_IO;
	}
	char *text = malloc(CONFIG_MAX_BYTES);
	if (!text) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return VGD_E_NOMEM;
	}
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, text + len, CONFIG_MAX_BYTES - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(text);
			close(fd);
			return VGD_E_IO;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == CONFIG_MAX_BYTES) {
			snprintf(err, errlen, "%s: larger than 1 MiB", path);
			free(text);
			close(fd);
			return VGD_E_TOOBIG;
		}
	}
	close(fd);
	char dir[VGD_PATH_MAX];
	copy_str(dir, sizeof(dir), path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		copy_str(dir, sizeof(dir), ".");
	char why[256];
	int r = parse_text(cfg, text, len, dir, keys_only, why, sizeof(why));
	free(text);
	if (r < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return r;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The NAME.conf files of an include directory, in name order (so that a
 * reload reads them as the last one did); hidden files and anything else
 * are skipped, so an editor's or genkey's temporary file is never read. */
static int load_include(vgd_config *cfg, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "include %s: %s", dir, strerror(errno));
		return errno == ENOENT ? VGD_E_NOTFOUND : VGD_E_IO;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int r = 0;
	struct dirent *e;
	while (r == 0 && (e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l <= 5 || strcmp(e->d_name + l - 5, ".conf") != 0)
			continue;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			char **nn = nc > VGD_MAX_KEYS ? NULL : realloc(names, nc * sizeof(*names));
			if (!nn) {
				snprintf(err, errlen, "include %s: too many files", dir);
				r = VGD_E_TOOBIG;
				break;
			}
			names = nn;
			cap = nc;
		}
		if (!(names[n] = strdup(e->d_name))) {
			snprintf(err, errlen, "include %s: out of memory", dir);
			r = VGD_E_NOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r == 0 && n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[VGD_PATH_MAX];
		if (r == 0 && snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= (int)sizeof(path)) {
			snprintf(err, errlen, "include %s: %s: path too long", dir, names[i]);
			r = VGD_E_INVALID;
		}
		if (r == 0)
			r = load_file(cfg, path, 1, err, errlen);
		free(names[i]);
	}
	free(names);
	return r;
}

int vgd_config_load(vgd_config *cfg, const char *path, char *err, size_t errlen)
{
	vgd_config_defaults(cfg);
	if (copy_str(cfg->path, sizeof(cfg->path), path) < 0) {
		snprintf(err, errlen, "%s: path too long", path);
		return VGD_E_INVALID;
	}
	int r = load_file(cfg, path, 0, err, errlen);
	for (size_t i = 0; r == 0 && i < cfg->n_includes; i++)
		r = load_include(cfg, cfg->includes[i], err, errlen);
	return r;
}

const vgd_key_conf *vgd_config_key(const vgd_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->n_keys; i++)
		if (strcmp(cfg->keys[i].name, name) == 0)
			return &cfg->keys[i];
	return NULL;
}
