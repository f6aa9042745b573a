/* optab.c: the operation table (vg/proto_tables.h), like OpenSSH's
 * mon_dispatch: per opcode its name, request and reply item rules, where
 * it runs (the front or a keyholder), what a key must allow, and whether
 * stats keep its latency. The codec validates requests with it, the front
 * dispatches and counts with it, the keyholder re-checks records with it
 * and the client checks replies with it. Also the names of policy and
 * capability bits. Nothing here is secret. */
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"

static const char unknown_name[] = "unknown";

/* Rows are indexed by opcode (dense, 1..VG_OP_MAX). */
static const vg_op_info ops[VG_OP_MAX + 1] = {
	[VG_OP_HELLO] = {
		.op = VG_OP_HELLO, .name = "hello", .kind = VG_OPK_LOCAL,
		.req = { [VG_T_DIRECT] = VG_RULE_OPT, [VG_T_CLIENT_CPU] = VG_RULE_OPT },
		.rep = { [VG_T_VERSION] = VG_RULE_SOME, [VG_T_CAPS] = VG_RULE_REQ,
			 [VG_T_LIMIT] = VG_RULE_REQ, [VG_T_SERVER] = VG_RULE_OPT,
			 [VG_T_DIRECT] = VG_RULE_OPT },
	},
	[VG_OP_PING] = {
		.op = VG_OP_PING, .name = "ping", .kind = VG_OPK_LOCAL,
		.data_max = VG_PROTO_MAX_PING_DATA, .data_reason = VG_R_PING_DATA_LEN,
		.req = { [VG_T_DATA] = VG_RULE_OPT, [VG_T_CLIENT_CPU] = VG_RULE_OPT },
		.rep = { [VG_T_RESULT] = VG_RULE_OPT },
	},
	[VG_OP_LIST_KEYS] = {
		.op = VG_OP_LIST_KEYS, .name = "list-keys", .kind = VG_OPK_LOCAL,
		.rep = { [VG_T_KEYINFO] = VG_RULE_MANY },
	},
	[VG_OP_PUBLIC_KEY] = {
		.op = VG_OP_PUBLIC_KEY, .name = "public-key", .kind = VG_OPK_LOCAL,
		.req = { [VG_T_KEY] = VG_RULE_REQ },
		.rep = { [VG_T_KEYINFO] = VG_RULE_REQ },
	},
	[VG_OP_SIGN] = {
		.op = VG_OP_SIGN, .name = "sign", .kind = VG_OPK_KEY,
		.allow = VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13, .latency = 1,
		.wrong_key = VG_R_ALG_KEY_MISMATCH, .denied = VG_R_SIGN_DENIED,
		.data_by_alg = 1, .data_reason = VG_R_ALG_DATA_LEN,
		.req = { [VG_T_KEY] = VG_RULE_REQ, [VG_T_ALG] = VG_RULE_REQ,
			 [VG_T_DATA] = VG_RULE_REQ, [VG_T_TLS_ROLE] = VG_RULE_TLS,
			 [VG_T_SIG_FORMAT] = VG_RULE_FMT, [VG_T_CLIENT_CPU] = VG_RULE_OPT },
		.rep = { [VG_T_RESULT] = VG_RULE_REQ },
	},
	[VG_OP_X25519] = {
		.op = VG_OP_X25519, .name = "x25519", .kind = VG_OPK_KEY,
		.key_type = VG_KEY_X25519, .allow = VG_ALLOW_X25519, .latency = 1,
		.wrong_key = VG_R_NOT_X25519_KEY, .denied = VG_R_X25519_DENIED,
		.data_min = VG_PROTO_X25519_LEN, .data_max = VG_PROTO_X25519_LEN,
		.data_reason = VG_R_X25519_DATA_LEN,
		.req = { [VG_T_KEY] = VG_RULE_REQ, [VG_T_DATA] = VG_RULE_REQ,
			 [VG_T_CLIENT_CPU] = VG_RULE_OPT },
		.rep = { [VG_T_RESULT] = VG_RULE_REQ },
	},
	[VG_OP_RSA_PRIVATE] = {
		.op = VG_OP_RSA_PRIVATE, .name = "rsa-private", .kind = VG_OPK_KEY,
		.key_type = VG_KEY_RSA, .allow = VG_ALLOW_RSA_PRIVATE, .latency = 1,
		.wrong_key = VG_R_NOT_RSA_KEY, .denied = VG_R_RSA_PRIVATE_DENIED,
		.data_min = VG_PROTO_RSA_MIN_LEN, .data_max = VG_PROTO_RSA_MAX_LEN,
		.data_reason = VG_R_RSA_DATA_LEN,
		.req = { [VG_T_KEY] = VG_RULE_REQ, [VG_T_DATA] = VG_RULE_REQ,
			 [VG_T_CLIENT_CPU] = VG_RULE_OPT },
		.rep = { [VG_T_RESULT] = VG_RULE_REQ },
	},
	[VG_OP_STATS] = {
		.op = VG_OP_STATS, .name = "stats", .kind = VG_OPK_LOCAL,
		.rep = { [VG_T_STAT] = VG_RULE_MANY, [VG_T_USE] = VG_RULE_MANY },
	},
};

_Static_assert(VG_PROTO_MAX_PING_DATA <= UINT16_MAX && VG_PROTO_RSA_MAX_LEN <= UINT16_MAX,
	       "DATA bounds fit the table's u16");
_Static_assert(VG_R_COUNT <= 256, "reasons fit the table's u8");

const vg_op_info *vg_op_get(int op)
{
	if (op <= 0 || op > VG_OP_MAX || ops[op].op != op)
		return NULL;
	return &ops[op];
}

int vg_op_data_len_ok(const vg_op_info *o, int alg, size_t len)
{
	return o->data_by_alg ? vg_alg_data_len_ok(alg, len)
			      : len >= o->data_min && len <= o->data_max;
}

const char *vg_op_name(int op)
{
	/* A reply opcode names the operation it answers. */
	if (op >= 0 && op <= 0xff)
		op &= ~(int)VG_OP_REPLY;
	const vg_op_info *o = vg_op_get(op);
	return o ? o->name : unknown_name;
}

int vg_reply_check(const vg_reply *rep)
{
	const vg_op_info *o = vg_op_get(rep->op);
	unsigned count[VG_T_MAX + 1] = { 0 };
	vg_cursor c = rep->items;
	vg_item it;

	if (o == NULL || rep->status != VG_ST_OK)
		return 0;
	/* vg_reply_decode has checked the framing: this walk cannot fail. */
	while (vg_item_next(&c, &it) == 1)
		if (it.tag <= VG_T_MAX && count[it.tag] < 2)
			count[it.tag]++;
	for (int t = 1; t <= VG_T_MAX; t++) {
		switch (o->rep[t]) {
		case VG_RULE_NO:
			if (count[t] != 0)
				return t; /* a known item this operation does not return */
			break;
		case VG_RULE_REQ:
			if (count[t] != 1)
				return t;
			break;
		case VG_RULE_OPT:
			if (count[t] > 1)
				return t;
			break;
		case VG_RULE_SOME:
			if (count[t] == 0)
				return t;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* ---- policy bits and capabilities ---- */

static const struct bit_name {
	uint32_t bit;
	const char *name;
} allow_names[] = {
	{ VG_ALLOW_SIGN, "sign" },
	{ VG_ALLOW_SIGN_TLS13, "tls13" },
	{ VG_ALLOW_X25519, "x25519" },
	{ VG_ALLOW_RSA_PRIVATE, "rsa-private" },
}, cap_names[] = {
	{ VG_CAP_PIPELINE, "pipeline" },
	{ VG_CAP_TLS13, "tls13" },
	{ VG_CAP_ED25519, "ed25519" },
	{ VG_CAP_X25519, "x25519" },
	{ VG_CAP_RSA, "rsa" },
	{ VG_CAP_ECDSA, "ecdsa" },
	{ VG_CAP_CPU_HINT, "cpu-hint" },
	{ VG_CAP_DIRECT, "direct" },
};

static const char *bit_name(const struct bit_name *t, size_t n, uint32_t bit)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].bit == bit)
			return t[i].name;
	return unknown_name;
}

const char *vg_allow_name(uint32_t bit)
{
	return bit_name(allow_names, sizeof allow_names / sizeof allow_names[0], bit);
}

const char *vg_cap_name(uint32_t bit)
{
	return bit_name(cap_names, sizeof cap_names / sizeof cap_names[0], bit);
}

uint32_t vg_caps(void)
{
	/* Pipelining is how the daemon works, and the CLIENT_CPU hint is in the
	 * request rules; the rest is what the tables hold. */
	uint32_t caps = VG_CAP_PIPELINE | VG_CAP_CPU_HINT;
	const vg_alg_info *a;

	for (int t = 1; t <= VG_KEY_MAX; t++) {
		const vg_key_type_info *k = vg_key_type_get(t);
		if (k != NULL)
			caps |= k->cap;
	}
	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++)
		if (a->data == VG_DATA_TLS13_HASH)
			caps |= VG_CAP_TLS13;
	return caps;
}
