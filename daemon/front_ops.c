/* front_ops.c: the front's request handling (see front_internal.h). Holds
 * no key material: only public key descriptions. Frames are untrusted and
 * go through protocol/ before use; where an operation runs (here or on a
 * keyholder) and which stats it keeps is the operation table's. */
#include "front_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyops.h"
#include "log.h"
#include "vg/cpu.h"
#include "vg/direct.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"
#include "vg_config.h"

/* Answer with a reason from the table (its status goes with it). */
static void refuse(front *f, conn *c, uint8_t op, uint32_t id, int why, uint64_t t0)
{
	vgd_front_answer(f, c, op, id, vg_reason_status(why), NULL, 0, vg_reason(why), t0);
}

/* ---- requests ---- */
static const vgd_keyinfo *find_key(front *f, const char *name)
{
	for (size_t i = 0; i < f->nkeys; i++)
		if (strcmp(f->keys[i].name, name) == 0)
			return &f->keys[i];
	return NULL;
}

static void put_keyinfo(vg_writer *w, const vgd_keyinfo *k)
{
	vg_put_open(w, VG_T_KEYINFO);
	vg_put_str(w, VG_T_KEY, k->name);
	vg_put_u8(w, VG_T_KEY_TYPE, k->type);
	vg_put(w, VG_T_PUBKEY, k->pub, k->pub_len);
	if (k->rsa_e_len != 0) /* RSA keys only (KEYINFO, PROTOCOL.md 6.3) */
		vg_put(w, VG_T_RSA_E, k->rsa_e, k->rsa_e_len);
	vg_put_u32(w, VG_T_OPS, k->allow);
	vg_put_close(w);
}

static void put_stat(vg_writer *w, const char *name, uint64_t v)
{
	vg_put_open(w, VG_T_STAT);
	vg_put_str(w, VG_T_STAT_NAME, name);
	vg_put_u64(w, VG_T_STAT_VALUE, v);
	vg_put_close(w);
}

/* A USE item at most: its header, a 64-byte key, the uid, four u64s and
 * the pid, each with its 4-byte item header. Every row of a full table
 * and the counters (about 4 KiB) fit one reply frame. */
#define USE_ITEM_MAX (4 + (4 + VG_PROTO_MAX_KEY_NAME) + 8 + 4 * 12 + 8)
_Static_assert((VGD_ACCT_ROWS + 1) * USE_ITEM_MAX + 16384 <= VG_PROTO_MAX_FRAME,
	       "the stats reply holds every row of the use table");

static void put_use(vg_writer *w, const vgd_acct_row *r, const char *key)
{
	vg_put_open(w, VG_T_USE);
	if (key) { /* the other row names neither */
		vg_put_str(w, VG_T_USE_KEY, key);
		vg_put_u32(w, VG_T_USE_UID, r->uid);
	}
	vg_put_u64(w, VG_T_USE_OK, r->ok);
	vg_put_u64(w, VG_T_USE_ERRORS, r->errors);
	vg_put_u64(w, VG_T_USE_REFUSED, r->refused);
	vg_put_u64(w, VG_T_USE_LAST_MS, r->last_ms);
	vg_put_u32(w, VG_T_USE_LAST_PID, r->last_pid);
	vg_put_close(w);
}

/* The use table's rows a caller sees (PROTOCOL.md 6.8): root sees every
 * row, the other row and the table's own counters; anyone else only the
 * rows of its own uid for keys it may use, so neither another uid's use
 * nor a hidden key's existence shows (a refused try at a hidden key is
 * counted, for root's eyes only). */
static void encode_use(front *f, vg_writer *w, const conn *c)
{
	const vgd_acct *a = &f->acct;
	int root = c->uid == 0;
	for (unsigned i = 0; i < a->nrows; i++) {
		const vgd_acct_row *r = &a->rows[i];
		if (r->key >= f->nkeys)
			continue;
		const vgd_keyinfo *k = &f->keys[r->key];
		if (root || (r->uid == (uint32_t)c->uid && vgd_acl_allows(k, c->uid, c->gid)))
			put_use(w, r, k->name);
	}
	if (!root)
		return;
	if (a->other.ok || a->other.errors || a->other.refused)
		put_use(w, &a->other, NULL);
	put_stat(w, "use.rows", a->nrows);
	put_stat(w, "use.rows_max", a->max_rows);
	put_stat(w, "use.overflowed", a->overflowed);
}

/* The stats a caller sees. keys counts only the keys this caller may use
 * (as list-keys lists them): a hidden key's existence does not show. */
static long encode_stats(front *f, const conn *c, uint32_t id)
{
	vg_writer w;
	vgd_front_direct_sync(f, vgd_now_ms());
	vg_frame_begin(&w, f->frame, sizeof(f->frame), VG_OP_STATS | VG_OP_REPLY, VG_ST_OK, id);
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vg_op_info *info = vg_op_get(op);
		if (info == NULL)
			continue;
		const vgd_op_stats *o = &f->stats.op[op];
		char name[64];
		const char *on = info->name;
		/* With the direct slots' requests, which the keyholders count
		 * (their latency is the client's to see). */
		snprintf(name, sizeof(name), "%s.count", on);
		put_stat(&w, name, o->count + vgd_front_direct_count(f, op, 0));
		snprintf(name, sizeof(name), "%s.errors", on);
		put_stat(&w, name, o->errors + vgd_front_direct_count(f, op, 1));
		if (info->latency) {
			static const struct { const char *n; double p; } pct[] = {
				{"p50_us", 50}, {"p90_us", 90}, {"p99_us", 99}, {"p999_us", 99.9}};
			for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
				snprintf(name, sizeof(name), "%s.%s", on, pct[i].n);
				put_stat(&w, name, vgd_stats_percentile(o, pct[i].p));
			}
		}
	}
	const vgd_stats *s = &f->stats;
	char name[64];
	put_stat(&w, "connections.open", f->nconns);
	put_stat(&w, "connections.total", s->connections_total);
	put_stat(&w, "connections.refused", s->connections_refused);
	put_stat(&w, "queue.depth", f->queue.len + f->nfair);
	put_stat(&w, "queue.max", s->queue_max);
	put_stat(&w, "requests.overloaded", s->overloaded);
	put_stat(&w, "requests.malformed", s->malformed);
	put_stat(&w, "requests.denied", s->denied);
	put_stat(&w, "requests.unknown_key", s->unknown_key);
	put_stat(&w, "requests.retried", s->retries);
	put_stat(&w, "requests.poisoned", s->poisoned);
	uint64_t held, refused, poisoned;
	vgd_front_direct_totals(f, &held, &refused, &poisoned);
	put_stat(&w, "direct.slots_held", held);
	put_stat(&w, "direct.refused", refused);
	put_stat(&w, "direct.poisoned", poisoned);
	/* Keyholders attached and serving now, not the configured number:
	 * a slot whose keyholder is down or being replaced does not count. */
	uint64_t live = 0;
	for (int i = 0; i < f->nkh; i++)
		live += f->kh[i] != NULL;
	put_stat(&w, "keyholders", live);
	put_stat(&w, "keyholders.configured", (uint64_t)f->nkh);
	put_stat(&w, "keyholder.restarts", s->keyholder_restarts);
	put_stat(&w, "keyholder.hung", s->keyholders_hung);
	put_stat(&w, "front.restarts", s->front_restarts);
	put_stat(&w, "children.hung", s->children_hung);
	put_stat(&w, "supervisor.dropped", s->supervisor_dropped);
	put_stat(&w, "connections.refused_uid", s->uid_refused);
	put_stat(&w, "sandbox.violations", s->sandbox_violations);
	size_t visible = 0;
	for (size_t i = 0; i < f->nkeys; i++)
		visible += vgd_acl_allows(&f->keys[i], c->uid, c->gid);
	put_stat(&w, "keys", visible);
	put_stat(&w, "reply_buffers.bytes", f->out_bytes);
	put_stat(&w, "reply_buffers.max", s->out_bytes_max);
	put_stat(&w, "reply_buffers.paused", s->out_paused);
	put_stat(&w, "dispatch.local", s->dispatch_local);
	put_stat(&w, "dispatch.remote", s->dispatch_remote);
	put_stat(&w, "front.sched_batch", (uint64_t)f->batch);
	put_stat(&w, "front.sched_switches", s->sched_switches);
	put_stat(&w, "front.follow_moves", s->follow_moves);
	put_stat(&w, "front.follow_releases", s->follow_releases);
	put_stat(&w, "front.follow_pinned", f->follow_cpu >= 0);
	for (int k = 0; k < VGD_LK_COUNT; k++) {
		snprintf(name, sizeof(name), "log.suppressed.%s", f->logs[k].name);
		put_stat(&w, name, f->logs[k].suppressed);
	}
	put_stat(&w, "keys.generation", f->generation);
	encode_use(f, &w, c);
	return vg_frame_end(&w);
}

/* The key named by a request, if the caller may use it; NULL for a key
 * that does not exist and for one outside the caller's uids/gids alike. */
static const vgd_keyinfo *visible_key(front *f, const conn *c, const char *name)
{
	const vgd_keyinfo *k = find_key(f, name);
	return k && vgd_acl_allows(k, c->uid, c->gid) ? k : NULL;
}

/* A request naming a key the caller cannot see: answered, counted and
 * logged the same whether the key is missing or hidden by its ACL, so no
 * reply, stat or rate limit tells them apart (only the log's text, which
 * callers do not read, says which). */
static void refuse_unseen_key(front *f, conn *c, const vg_request *rq, uint64_t t0)
{
	const vgd_keyinfo *k = find_key(f, rq->key);
	f->stats.unknown_key++;
	/* A use of a hidden key is refused by its ACL: counted in its row,
	 * which only root and that key's users see (encode_use). Asking
	 * for its public key is no use of it. */
	if (k && vg_op_get(rq->op)->kind == VG_OPK_KEY)
		vgd_front_acct(f, c, (size_t)(k - f->keys), VGD_ACCT_REFUSED);
	vgd_front_log(f, VGD_LK_DENIED, "denied: uid %u gid %u pid %d %s key '%s' (%s)",
		      (unsigned)c->uid, (unsigned)c->gid, (int)c->pid,
		      k ? "may not use" : "asked for unknown", rq->key, vg_op_name(rq->op));
	refuse(f, c, rq->op, rq->id, VG_R_NO_SUCH_KEY, t0);
}

static void handle_local(front *f, conn *c, const vg_request *rq, uint64_t t0)
{
	vg_writer w;
	uint8_t op = rq->op;
	uint64_t lease = 0;
	int dfd = -1;
	vg_frame_begin(&w, f->frame, sizeof(f->frame), op | VG_OP_REPLY, VG_ST_OK, rq->id);
	switch (op) {
	case VG_OP_HELLO:
		vg_put_u8(&w, VG_T_VERSION, VG_PROTO_VERSION);
		vg_put_u32(&w, VG_T_CAPS, vg_caps() | (f->ndirect ? VG_CAP_DIRECT : 0));
		/* A direct slot, for a client that speaks its layout, and
		 * only as the first thing on the connection: the descriptor
		 * rides on this reply's first byte, so no reply may be queued
		 * before it. Without one the client stays on the socket. */
		if (rq->direct == VG_DIRECT_VERSION && vgd_front_conn_out_pending(c) == 0 &&
		    vgd_front_direct_grant(f, c, rq->has_cpu ? (int)rq->cpu : -1, &lease, &dfd) == 0)
			vg_put_u64(&w, VG_T_DIRECT, lease);
		vg_put_open(&w, VG_T_LIMIT);
		vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
		vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, (uint32_t)f->lim.max_inflight);
		vg_put_close(&w);
		{
			/* Name, version and the kernel variant each operation
			 * runs, so `vgctl hello` shows what vgd --version shows
			 * (cut to the protocol's bound if it ever grows past). */
			char server[VG_PROTO_MAX_SERVER + 1];
			snprintf(server, sizeof(server), "vgd %s %s", VG_VERSION,
				 vg_kernel_variants());
			vg_put_str(&w, VG_T_SERVER, server);
		}
		break;
	case VG_OP_PING:
#ifdef VGD_TEST_HOOKS
		{
			char said[64];
			if (rq->has_data &&
			    vgd_front_test_hook(f, c, rq->data, rq->data_len, said, sizeof(said))) {
				vg_put(&w, VG_T_RESULT, said, strlen(said));
				break;
			}
		}
#endif
		if (rq->has_data)
			vg_put(&w, VG_T_RESULT, rq->data, rq->data_len);
		break;
	case VG_OP_LIST_KEYS:
		for (size_t i = 0; i < f->nkeys; i++)
			if (vgd_acl_allows(&f->keys[i], c->uid, c->gid))
				put_keyinfo(&w, &f->keys[i]);
		break;
	case VG_OP_PUBLIC_KEY: {
		const vgd_keyinfo *k = visible_key(f, c, rq->key);
		if (!k) {
			refuse_unseen_key(f, c, rq, t0);
			return;
		}
		put_keyinfo(&w, k);
		break;
	}
	case VG_OP_STATS: {
		long n = encode_stats(f, c, rq->id);
		if (n < 0) { /* cannot happen within the table's bound (acct.h) */
			refuse(f, c, op, rq->id, VG_R_REPLY_TOO_LARGE, t0);
			return;
		}
		vgd_stats_record(&f->stats, op, VG_ST_OK, vgd_now_us() - t0);
		vgd_front_conn_send(c, f->frame, n);
		return;
	}
	}
	long n = vg_frame_end(&w);
	if (n < 0) {
		refuse(f, c, op, rq->id, VG_R_REPLY_TOO_LARGE, t0);
		return;
	}
	vgd_stats_record(&f->stats, op, VG_ST_OK, vgd_now_us() - t0);
	if (dfd >= 0) {
		if (vgd_front_direct_send(c, f->frame, n, dfd) < 0) {
			/* Nothing went: the connection is unusable. */
			vgd_front_direct_release(f, c);
			c->closing = 1;
		}
		return;
	}
	vgd_front_conn_send(c, f->frame, n);
}

/* The work of one operation with key k, from its type's row: RSA's cost
 * is at 4096 bits and grows with the cube of the modulus's size (the
 * public key is the modulus), so RSA-2048 costs an eighth of it. */
static uint16_t job_cost(const vgd_keyinfo *k)
{
	const vg_key_type_info *t = vg_key_type_get(k->type);
	if (!t)
		return 1;
	if (t->bits != 0)
		return t->cost;
	uint64_t bits = (uint64_t)k->pub_len * 8;
	uint64_t c = (uint64_t)t->cost * bits * bits * bits / (4096ull * 4096 * 4096);
	return (uint16_t)(c < 1 ? 1 : c > 60000 ? 60000 : c);
}

/* 1 unless rq asks for a certificate request (ALG csr) and uid is not in
 * the csr_uids the last reload set. */
static int csr_caller_ok(const front *f, const vg_request *rq, uint32_t uid)
{
	const vg_alg_info *a = rq->op == VG_OP_SIGN ? vg_alg_get(rq->alg) : NULL;
	if (a == NULL || a->data != VG_DATA_CSR_INFO)
		return 1;
	for (uint32_t i = 0; i < f->lim.n_csr_uids && i < VGD_MAX_ACL; i++)
		if (f->lim.csr_uids[i] == uid)
			return 1;
	return 0;
}

static void handle_key_op(front *f, conn *c, const vg_request *rq, uint64_t t0)
{
	vgd_reason why = { .text = "" };
	uint32_t uid = (uint32_t)c->uid, gid = (uint32_t)c->gid;
#ifdef VGD_TEST_HOOKS
	/* vgd-testhooks: skip the ACL check and claim another caller, for
	 * the keyholder's own check (front_hooks.c). */
	static const char forge[] = "vgd-test-front:forge-uid";
	int forged = rq->data_len == sizeof(forge) - 1 && memcmp(rq->data, forge, rq->data_len) == 0;
	if (forged)
		uid = gid = 4242;
	const vgd_keyinfo *k = forged ? find_key(f, rq->key) : visible_key(f, c, rq->key);
#else
	const vgd_keyinfo *k = visible_key(f, c, rq->key);
#endif
	if (!k) {
		refuse_unseen_key(f, c, rq, t0);
		return;
	}
	size_t ki = (size_t)(k - f->keys);
	int st = vgd_request_check(k, rq->op, rq->alg, rq->data_len, &why);
	/* A certificate request also needs the caller in csr_uids: after the
	 * key's own checks, so a caller the key hides from still gets "no
	 * such key", and one it may not use this way hears so first. */
	if (st == VG_ST_OK && !csr_caller_ok(f, rq, uid)) {
		st = vg_reason_status(VG_R_CSR_UID_DENIED);
		why.text = vg_reason(VG_R_CSR_UID_DENIED);
	}
	if (st != VG_ST_OK) {
		vgd_front_acct(f, c, ki,
			       st == VG_ST_NOT_ALLOWED ? VGD_ACCT_REFUSED : VGD_ACCT_ERROR);
		if (st == VG_ST_NOT_ALLOWED) {
			f->stats.denied++;
			vgd_front_log(f, VGD_LK_DENIED, "denied: uid %u pid %d, key '%s': %s",
				      (unsigned)c->uid, (int)c->pid, k->name, why.text);
		}
		vgd_front_answer(f, c, rq->op, rq->id, st, NULL, 0, why.text, t0);
		return;
	}
	if (f->queue.len + f->nfair >= (size_t)f->lim.max_queue) {
		f->stats.overloaded++;
		vgd_front_acct(f, c, ki, VGD_ACCT_REFUSED);
		refuse(f, c, rq->op, rq->id, VG_R_QUEUE_FULL, t0);
		return;
	}
	job *j = vgd_front_job_alloc(&f->pool);
	uint8_t *big = rq->data_len > INLINE_DATA ? malloc(rq->data_len) : NULL;
	if (!j || (rq->data_len > INLINE_DATA && !big)) {
		free(j);
		free(big);
		vgd_front_acct(f, c, ki, VGD_ACCT_ERROR);
		refuse(f, c, rq->op, rq->id, VG_R_NO_MEMORY, t0);
		return;
	}
	memset(j, 0, offsetof(job, inline_data));
	j->c = c;
	j->id = ++f->next_job;
	j->t_start_us = t0;
	j->t_queued_ms = t0 / 1000u;
	j->req_id = rq->id;
	j->uid = uid;
	j->gid = gid;
	j->op = rq->op;
	j->alg = rq->alg;
	j->role = rq->tls_role;
	j->sig_format = rq->sig_format;
	j->cost = job_cost(k);
	j->key_index = (uint32_t)ki;
	j->key_gen = f->generation;
	memcpy(j->key, rq->key, sizeof(j->key));
	j->data = big ? big : j->inline_data;
	j->data_len = (uint32_t)rq->data_len;
	if (rq->data_len)
		memcpy(j->data, rq->data, rq->data_len);
	c->inflight++;
	vgd_front_uid_add(c, 1);
	vgd_front_fair_push(f, j);
	/* Dispatched at the end of the iteration, with every other frame
	 * this read brought (one ring publish per keyholder). */
	vgd_front_want_pump(f);
}

void vgd_front_handle_frame(front *f, conn *c, const uint8_t *frame, size_t len)
{
	uint64_t t0 = vgd_now_us();
	vg_request rq;
	const char *reason = "";
	int st = vg_request_decode(frame, len, &rq, &reason);
	if (st != VG_ST_OK) {
		/* The header passed front_read.c's checks, so rq.op and rq.id
		 * are the request's and this is a reply to it. */
		vgd_stats_record(&f->stats, 0, st, 0);
		vgd_front_send_error(f, c, rq.op, rq.id, st, reason);
		if (vg_status_closes(st)) {
			f->stats.malformed++;
			vgd_front_log(f, VGD_LK_MALFORMED, "closing connection of pid %d: %s",
				      (int)c->pid, reason);
			vgd_front_conn_start_closing(c);
		}
		return;
	}
	if (f->draining) {
		refuse(f, c, rq.op, rq.id, VG_R_SHUTTING_DOWN, t0);
		return;
	}
	/* Before the job exists: if the front moves, the dispatch at the end
	 * of this pass already sees its new CPU. */
	if (rq.has_cpu)
		vgd_front_follow_hint(f, rq.cpu);
	/* The decoder accepted the opcode, so it has a row. */
	if (vg_op_get(rq.op)->kind == VG_OPK_KEY)
		handle_key_op(f, c, &rq, t0);
	else
		handle_local(f, c, &rq, t0);
}
