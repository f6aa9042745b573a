/* names.c: names of statuses and item tags for logs and messages. (The
 * names of operations, algorithms and key types are columns of their
 * tables: optab.c, algtab.c.) Nothing here is secret. */
#include "vg/proto.h"

/* Every lookup returns a static string, never NULL, so callers can pass the
 * result straight to a printf-style logger even for values off the table. */
static const char unknown_name[] = "unknown";

static const char *const status_names[VG_ST_MAX + 1] = {
	[VG_ST_OK] = "ok",
	[VG_ST_MALFORMED] = "malformed",
	[VG_ST_BAD_VERSION] = "bad-version",
	[VG_ST_UNKNOWN_OP] = "unknown-op",
	[VG_ST_UNKNOWN_KEY] = "unknown-key",
	[VG_ST_NOT_ALLOWED] = "not-allowed",
	[VG_ST_BAD_INPUT] = "bad-input",
	[VG_ST_TOO_LARGE] = "too-large",
	[VG_ST_OVERLOADED] = "overloaded",
	[VG_ST_INTERNAL] = "internal",
	[VG_ST_UNAVAILABLE] = "unavailable",
};

static const char *const tag_names[VG_T_MAX + 1] = {
	[VG_T_KEY] = "key",
	[VG_T_ALG] = "alg",
	[VG_T_DATA] = "data",
	[VG_T_TLS_ROLE] = "tls-role",
	[VG_T_RESULT] = "result",
	[VG_T_REASON] = "reason",
	[VG_T_VERSION] = "version",
	[VG_T_CAPS] = "caps",
	[VG_T_LIMIT] = "limit",
	[VG_T_KEYINFO] = "keyinfo",
	[VG_T_KEY_TYPE] = "key-type",
	[VG_T_PUBKEY] = "pubkey",
	[VG_T_RSA_E] = "rsa-e",
	[VG_T_OPS] = "ops",
	[VG_T_STAT] = "stat",
	[VG_T_STAT_NAME] = "stat-name",
	[VG_T_STAT_VALUE] = "stat-value",
	[VG_T_LIM_MAX_FRAME] = "lim-max-frame",
	[VG_T_LIM_MAX_INFLIGHT] = "lim-max-inflight",
	[VG_T_SERVER] = "server",
	[VG_T_SIG_FORMAT] = "sig-format",
	[VG_T_CLIENT_CPU] = "client-cpu",
	[VG_T_USE] = "use",
	[VG_T_USE_KEY] = "use-key",
	[VG_T_USE_UID] = "use-uid",
	[VG_T_USE_OK] = "use-ok",
	[VG_T_USE_ERRORS] = "use-errors",
	[VG_T_USE_REFUSED] = "use-refused",
	[VG_T_USE_LAST_MS] = "use-last-ms",
	[VG_T_USE_LAST_PID] = "use-last-pid",
	[VG_T_DIRECT] = "direct",
};

/* Index a sparse name table; the bounds check comes before any access. */
static const char *table_name(const char *const *tab, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n || tab[v] == NULL)
		return unknown_name;
	return tab[v];
}

#define TABLE_NAME(tab, v) table_name((tab), sizeof(tab) / sizeof((tab)[0]), (v))

const char *vg_status_name(int status)
{
	return TABLE_NAME(status_names, status);
}

const char *vg_tag_name(int tag)
{
	return TABLE_NAME(tag_names, tag);
}
