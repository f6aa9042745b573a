/* names.c: names of protocol values for logs and vgctl, and the per-algorithm
 * DATA length rules that both the decoder and the client consult. Nothing
 * here is secret. */
#include "vg/proto.h"

#include <string.h>

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

static const char *const op_names[VG_OP_MAX + 1] = {
	[VG_OP_HELLO] = "hello",
	[VG_OP_PING] = "ping",
	[VG_OP_LIST_KEYS] = "list-keys",
	[VG_OP_PUBLIC_KEY] = "public-key",
	[VG_OP_SIGN] = "sign",
	[VG_OP_X25519] = "x25519",
	[VG_OP_RSA_PRIVATE] = "rsa-private",
	[VG_OP_STATS] = "stats",
};

static const char *const key_type_names[] = {
	[VG_KEY_ED25519] = "ed25519",
	[VG_KEY_X25519] = "x25519",
	[VG_KEY_RSA] = "rsa",
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
};

/* One row per signature algorithm: its name and what DATA must be.
 * len != 0: DATA is a digest of exactly len bytes. len == 0 and any_hash:
 * a TLS 1.3 transcript hash (SHA-256/384/512). len == 0 otherwise: a whole
 * message of 0..VG_PROTO_MAX_DATA bytes (Ed25519 hashes it itself). */
static const struct alg_row {
	const char *name;
	uint8_t len;
	uint8_t any_hash;
} alg_rows[VG_ALG_MAX + 1] = {
	[VG_ALG_ED25519] = { "ed25519", 0, 0 },
	[VG_ALG_RSA_PKCS1_SHA256] = { "rsa-pkcs1-sha256", 32, 0 },
	[VG_ALG_RSA_PKCS1_SHA384] = { "rsa-pkcs1-sha384", 48, 0 },
	[VG_ALG_RSA_PKCS1_SHA512] = { "rsa-pkcs1-sha512", 64, 0 },
	[VG_ALG_RSA_PSS_SHA256] = { "rsa-pss-sha256", 32, 0 },
	[VG_ALG_RSA_PSS_SHA384] = { "rsa-pss-sha384", 48, 0 },
	[VG_ALG_RSA_PSS_SHA512] = { "rsa-pss-sha512", 64, 0 },
	[VG_ALG_TLS13] = { "tls13", 0, 1 },
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

const char *vg_op_name(int op)
{
	/* A reply opcode names the operation it answers. */
	if (op >= 0 && op <= 0xff)
		op &= ~(int)VG_OP_REPLY;
	return TABLE_NAME(op_names, op);
}

const char *vg_key_type_name(int type)
{
	return TABLE_NAME(key_type_names, type);
}

const char *vg_tag_name(int tag)
{
	return TABLE_NAME(tag_names, tag);
}

static const struct alg_row *alg_row(int alg)
{
	if (alg <= 0 || alg > VG_ALG_MAX)
		return NULL;
	return &alg_rows[alg];
}

const char *vg_alg_name(int alg)
{
	const struct alg_row *r = alg_row(alg);

	return r ? r->name : unknown_name;
}

int vg_alg_from_name(const char *name)
{
	if (name == NULL)
		return 0;
	for (int a = 1; a <= VG_ALG_MAX; a++) {
		if (strcmp(name, alg_rows[a].name) == 0)
			return a;
	}
	return 0;
}

size_t vg_alg_digest_len(int alg)
{
	const struct alg_row *r = alg_row(alg);

	return r ? r->len : 0;
}

int vg_alg_data_len_ok(int alg, size_t len)
{
	const struct alg_row *r = alg_row(alg);

	if (r == NULL)
		return 0;
	if (r->len != 0)
		return len == r->len;
	if (r->any_hash)
		return len == 32 || len == 48 || len == 64;
	return len <= VG_PROTO_MAX_DATA;
}
