/* khbatch.c: the keyholder's batches (khbatch.h): one row per batch
 * family, reached through a key type's row (keytype.h), with its take
 * (the request made ready by keyops.c's prepare, every check included)
 * and run (the family's multi-buffer kernel, then each request's own
 * status). Secret: the keys the operations point to and the X25519
 * results in the replies; the RSA blocks are wiped after each run. */
#include "khbatch.h"

#include <string.h>

#include "keytype.h"
#include "vg/ecdsa_mb.h"
#include "vg/ed25519_mb.h"
#include "vg/proto_reason.h"
#include "vg/rsa_mb.h"
#include "vg/wipe.h"
#include "vg/x25519_mb.h"

_Static_assert(VGD_KB_MAX <= VG_RSA_MB_MAX && VGD_KB_MAX <= VG_ECDSA_MB_MAX &&
		       VGD_KB_MAX <= VG_ED25519_MB_MAX &&
		       VGD_KB_MAX <= VG_X25519_MB_MAX,
	       "every family's kernel takes a whole batch");
_Static_assert(VGD_KREP_REASON_LEN >= VGD_REASON_MAX, "a composed reason fits a record");

void vgd_khreply_start(vgd_khreply *r, const vgd_kreq *q)
{
	memset(&r->rep, 0, sizeof(r->rep));
	r->rep.magic = VGD_KREP_MAGIC;
	r->rep.job = q->job;
}

void vgd_khreply_finish(vgd_khreply *r, int status, size_t out_len, const char *why)
{
	r->rep.status = (uint8_t)status;
	if (status != VG_ST_OK) {
		vg_wipe(r->out, sizeof(r->out));
		out_len = 0;
	}
	size_t n = strlen(why);
	if (n >= sizeof(r->rep.reason))
		n = sizeof(r->rep.reason) - 1;
	memcpy(r->rep.reason, why, n);
	r->rep.reason[n] = 0;
	r->rep.result_len = (uint32_t)out_len;
}

/* RSA: vg_rsa_private_mb (each result still checked with its public
 * exponent, so a fault answers its request alone). */
static void run_rsa(vgd_khbatch *b)
{
	const vg_rsa_key *keys[VGD_KB_MAX] = {0};
	uint8_t *outs[VGD_KB_MAX] = {0};
	const uint8_t *ins[VGD_KB_MAX] = {0};
	size_t lens[VGD_KB_MAX] = {0};
	int rc[VGD_KB_MAX], n = b->n[VGD_KB_RSA];
	for (int j = 0; j < n; j++) {
		keys[j] = b->rsa[j].key;
		outs[j] = b->out[VGD_KB_RSA][j].out;
		ins[j] = b->rsa[j].in;
		lens[j] = b->rsa[j].len;
	}
	int all = vg_rsa_private_mb(keys, outs, ins, lens, (size_t)n, rc);
	for (int j = 0; j < n; j++) {
		vgd_reason why = {.text = ""};
		size_t out_len = 0;
		int st = vgd_keyop_rsa_finish(&b->rsa[j], all == 0 ? rc[j] : all, &out_len, &why);
		vgd_khreply_finish(&b->out[VGD_KB_RSA][j], st, out_len, why.text);
		vg_wipe(b->rsa[j].in, sizeof(b->rsa[j].in));
	}
}

/* ECDSA: vg_ecdsa_sign_mb (the nonces' k G side by side; every
 * signature still fault-checked alone), then each reply's encoding. */
static void run_ecdsa(vgd_khbatch *b)
{
	const vg_ecdsa_key *keys[VGD_KB_MAX] = {0};
	const uint8_t *dg[VGD_KB_MAX] = {0};
	size_t dlen[VGD_KB_MAX] = {0}, slen[VGD_KB_MAX] = {0};
	uint8_t raw[VGD_KB_MAX][VG_ECDSA_MAX_SIG_LEN];
	uint8_t *sigs[VGD_KB_MAX] = {0};
	int rc[VGD_KB_MAX], n = b->n[VGD_KB_ECDSA];
	for (int j = 0; j < n; j++) {
		keys[j] = b->ec[j].key;
		dg[j] = b->ec[j].digest;
		dlen[j] = b->ec[j].dlen;
		sigs[j] = raw[j];
		slen[j] = vg_ecdsa_sig_len(vg_ecdsa_key_curve(keys[j]));
	}
	int all = vg_ecdsa_sign_mb(keys, dg, dlen, sigs, slen, (size_t)n, rc);
	for (int j = 0; j < n; j++) {
		vgd_reason why = {.text = ""};
		size_t out_len = 0;
		int st = vgd_keyop_ecdsa_finish(&b->ec[j], all == 0 ? rc[j] : all, raw[j],
						b->out[VGD_KB_ECDSA][j].out, &out_len, &why);
		vgd_khreply_finish(&b->out[VGD_KB_ECDSA][j], st, out_len, why.text);
	}
}

static void run_ed25519(vgd_khbatch *b)
{
	uint8_t *sigs[VGD_KB_MAX] = {0};
	const void *msgs[VGD_KB_MAX] = {0};
	size_t lens[VGD_KB_MAX] = {0};
	const uint8_t *h[VGD_KB_MAX] = {0}, *pk[VGD_KB_MAX] = {0};
	int rc[VGD_KB_MAX], n = b->n[VGD_KB_ED25519];
	for (int j = 0; j < n; j++) {
		sigs[j] = b->out[VGD_KB_ED25519][j].out;
		msgs[j] = b->ed[j].msg;
		lens[j] = b->ed[j].len;
		h[j] = b->ed[j].key->expanded;
		pk[j] = b->ed[j].key->pk;
	}
	int all = vg_ed25519_sign_expanded_mb(sigs, msgs, lens, h, pk, (size_t)n, rc);
	for (int j = 0; j < n; j++) {
		vgd_reason why = {.text = ""};
		int st = vgd_status_from_kernel(all == 0 ? rc[j] : all, &why.text);
		vgd_khreply_finish(&b->out[VGD_KB_ED25519][j], st, VG_ED25519_SIG_LEN, why.text);
	}
}

static void run_x25519(vgd_khbatch *b)
{
	uint8_t *outs[VGD_KB_MAX] = {0};
	const uint8_t *scalars[VGD_KB_MAX] = {0}, *peers[VGD_KB_MAX] = {0};
	int rc[VGD_KB_MAX], n = b->n[VGD_KB_X25519];
	for (int j = 0; j < n; j++) {
		outs[j] = b->out[VGD_KB_X25519][j].out;
		scalars[j] = b->x[j].scalar;
		peers[j] = b->x[j].peer;
	}
	int all = vg_x25519_mb(outs, scalars, peers, (size_t)n, rc);
	for (int j = 0; j < n; j++) {
		vgd_reason why = {.text = ""};
		size_t out_len = 0;
		int st = vgd_keyop_x25519_finish(all == 0 ? rc[j] : all, &out_len, &why);
		vgd_khreply_finish(&b->out[VGD_KB_X25519][j], st, out_len, why.text);
	}
}

/* Each family's take: the request made ready in its slot by keyops.c's
 * prepare (every check included). */
static int take_rsa(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret, const vgd_kreq *q,
		    const uint8_t *data, vgd_reason *why)
{
	return vgd_keyop_rsa_prepare(info, secret, q->op, q->alg, q->role, q->fmt, data,
				     q->data_len, &b->rsa[b->n[VGD_KB_RSA]], why);
}

static int take_ecdsa(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret,
		      const vgd_kreq *q, const uint8_t *data, vgd_reason *why)
{
	return vgd_keyop_ecdsa_prepare(info, secret, q->op, q->alg, q->role, q->fmt, data,
				       q->data_len, &b->ec[b->n[VGD_KB_ECDSA]], why);
}

static int take_ed25519(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret,
			const vgd_kreq *q, const uint8_t *data, vgd_reason *why)
{
	return vgd_keyop_ed25519_prepare(info, secret, q->op, q->alg, q->role, q->fmt, data,
					 q->data_len, &b->ed[b->n[VGD_KB_ED25519]], why);
}

static int take_x25519(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret,
		       const vgd_kreq *q, const uint8_t *data, vgd_reason *why)
{
	return vgd_keyop_x25519_prepare(info, secret, q->op, data, q->data_len,
					&b->x[b->n[VGD_KB_X25519]], why);
}

/* The families, by VGD_KB_* value: a key type reaches one through its
 * row's batch. */
static const struct {
	int (*take)(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret, const vgd_kreq *q,
		    const uint8_t *data, vgd_reason *why);
	void (*run)(vgd_khbatch *b);
} families[VGD_KB_KINDS] = {
	[VGD_KB_RSA] = {take_rsa, run_rsa},
	[VGD_KB_ECDSA] = {take_ecdsa, run_ecdsa},
	[VGD_KB_ED25519] = {take_ed25519, run_ed25519},
	[VGD_KB_X25519] = {take_x25519, run_x25519},
};

int vgd_khbatch_take(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret, const vgd_kreq *q)
{
	const uint8_t *data = (const uint8_t *)q + sizeof(vgd_kreq);
	vgd_reason why = {.text = ""};
	const vgd_keytype *t = vgd_keytype_get(info->type);
	if (t == NULL || t->batch < 0 || t->batch >= VGD_KB_KINDS)
		return -1;
	int kind = t->batch;
	if (families[kind].take(b, info, secret, q, data, &why) != VG_ST_OK)
		return -1;
	vgd_khreply_start(&b->out[kind][b->n[kind]++], q);
	return kind;
}

void vgd_khbatch_run(vgd_khbatch *b, int kind)
{
	if (kind < 0 || kind >= VGD_KB_KINDS || b->n[kind] == 0)
		return;
	families[kind].run(b);
}
