/* khdirect.c: the keyholder's direct slots (khdirect.h). Holds no key
 * material; replies can carry X25519 shared values, which the keyholder
 * wipes from its own buffers (the slot's copy is the client's). */
#include "khdirect.h"

#include <string.h>

#include "acct.h"
#include "log.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"

_Static_assert(sizeof(((vgd_duse *)0)->n) / sizeof(uint64_t) == VGD_ACCT_OUTCOMES,
	       "a use entry counts every outcome of acct.h");

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

void vgd_khdirect_init(vgd_khdirect *k, vgd_direct *d, uint32_t self)
{
	memset(k, 0, sizeof(*k));
	k->d = d;
	k->self = self;
}

/* The slot's binding, read once into the keyholder's memory. */
static vgd_dslot_owner binding(const vgd_khdirect *k, int i)
{
	vgd_dslot_owner o;
	const volatile vgd_dslot_owner *p = &k->d->dir->slot[i];
	o.bound = p->bound;
	o.uid = p->uid;
	o.gid = p->gid;
	o.retried = p->retried;
	o.lease = p->lease;
	return o;
}

/* Count one use of the slot's key (its name as the request gave it) in
 * the directory's use table: open addressing on (slot, name). */
static void count_use(vgd_khdirect *k, int i, int status)
{
	vgd_ddir *dir = k->d->dir;
	const char *key = k->key[i];
	uint32_t h = 2166136261u ^ (uint32_t)i;
	for (const char *p = key; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	for (unsigned n = 0; n < VGD_DUSE; n++) {
		vgd_duse *u = &dir->use[(h + n) % VGD_DUSE];
		if (u->used && (u->slot != (uint32_t)i || strcmp(u->key, key) != 0))
			continue;
		if (!u->used) {
			u->slot = (uint32_t)i;
			memcpy(u->key, key, sizeof(u->key));
			STORE(&u->used, 1);
		}
		uint64_t *c = &u->n[vgd_acct_outcome_of(status)];
		STORE(c, *c + 1);
		return;
	}
	dir->use_overflowed++;
}

static void answer(vgd_khdirect *k, int i, uint32_t seq, uint64_t lease, int status,
		   const char *why, const uint8_t *result, uint32_t rlen)
{
	vg_direct_slot *s = k->d->slot[i];
	s->rep.lease = lease;
	s->rep.status = (uint8_t)status;
	s->rep.result_len = rlen;
	size_t n = strnlen(why, VG_DIRECT_REASON_LEN - 1);
	memcpy(s->rep.reason, why, n);
	s->rep.reason[n] = 0;
	if (rlen)
		memcpy(s->rep.result, result, rlen);
	vgd_ddir *dir = k->d->dir;
	/* Counted as the front counts its own: the operation's count and
	 * its errors (the front adds them to its stats), before the reply is
	 * published, so that a stats request the client sends after it
	 * sees them. */
	dir->served[i]++;
	dir->denied[i] += status == VG_ST_NOT_ALLOWED;
	dir->unknown[i] += status == VG_ST_UNKNOWN_KEY;
	uint32_t head = dir->deny_head;
	if ((status == VG_ST_NOT_ALLOWED || status == VG_ST_UNKNOWN_KEY) &&
	    head - LOAD(&dir->deny_tail) < VGD_DENY_RING) {
		vgd_deny *e = &dir->deny[head % VGD_DENY_RING];
		e->slot = (uint32_t)i;
		e->op = k->op[i];
		e->status = (uint8_t)status;
		memcpy(e->key, k->key[i], sizeof(e->key));
		memset(e->why, 0, sizeof(e->why));
		memcpy(e->why, why, strnlen(why, sizeof(e->why) - 1));
		STORE(&dir->deny_head, head + 1);
	}
	int op = k->op[i];
	if (op > 0 && op <= VG_OP_MAX && k->key[i][0])
		count_use(k, i, status);
	if (op > 0 && op <= VG_OP_MAX) {
		dir->count[op]++;
		dir->errors[op] += status != VG_ST_OK;
	}
	STORE(&s->rep_seq, seq);
	if (LOAD(&s->client_waits))
		vgd_direct_wake(&s->rep_seq);
}

void vgd_khdirect_claim(vgd_khdirect *k)
{
	if (!k->d)
		return;
	vgd_ddir *dir = k->d->dir;
	k->want_seen = LOAD(&dir->want);
	k->owner_seen = LOAD(&dir->owner);
	if (k->owner && k->want_seen != k->self) {
		vgd_khdirect_release(k);
		return;
	}
	if (k->owner || k->want_seen != k->self)
		return;
	uint32_t none = 0;
	if (!__atomic_compare_exchange_n(&dir->owner, &none, k->self, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return;
	k->owner = 1;
	k->owner_seen = k->self;
	/* A request the keyholder before this one took and did not answer
	 * (taken == req_seq != rep_seq): it died on it. It runs once more,
	 * unless it is the second time, which is answered INTERNAL: a request
	 * that kills its keyholder must not kill every one after it. A
	 * client can fake this state in its own slot only, for its own
	 * request. */
	for (int i = 0; i < k->d->nslots; i++) {
		vg_direct_slot *s = k->d->slot[i];
		uint32_t seq = LOAD(&s->req_seq), rep = LOAD(&s->rep_seq), taken = LOAD(&s->taken);
		vgd_dslot_owner o = binding(k, i);
		k->seen[i] = seq;
		if (seq == rep || !o.bound)
			continue;
		if (taken != seq) {
			k->seen[i] = rep; /* published, not yet taken: take it */
			continue;
		}
		if (o.retried == seq) {
			dir->poisoned++;
			k->op[i] = 0; /* not counted as an operation */
			answer(k, i, seq, s->req.lease, VG_ST_INTERNAL,
			       "the keyholder died running this request, twice", NULL, 0);
			continue;
		}
		STORE(&dir->slot[i].retried, seq);
		k->seen[i] = rep;
	}
}

void vgd_khdirect_release(vgd_khdirect *k)
{
	if (!k->d || !k->owner)
		return;
	k->owner = 0;
	uint32_t me = k->self;
	if (__atomic_compare_exchange_n(&k->d->dir->owner, &me, 0, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST))
		vgd_direct_wake(&k->d->dir->owner);
}

int vgd_khdirect_take(vgd_khdirect *k, uint8_t in[][VGD_KREQ_MAX], size_t len[], int room)
{
	int n = 0;
	if (!k->d || !k->owner)
		return 0;
	for (int i = 0; i < k->d->nslots && n < room; i++) {
		vg_direct_slot *s = k->d->slot[i];
		uint32_t seq = LOAD(&s->req_seq);
		if (seq == k->seen[i])
			continue;
		k->seen[i] = seq;
		vgd_dslot_owner o = binding(k, i);
		if (!o.bound)
			continue; /* nobody was given it: nobody to answer */
		STORE(&s->taken, seq);
		/* The header once, into our memory; everything below reads the
		 * copy. */
		struct vg_direct_req h;
		memcpy(&h, (const void *)&s->req, offsetof(struct vg_direct_req, data));
		k->lease[i] = h.lease;
		k->op[i] = h.op;
		memcpy(k->key[i], h.key, VG_PROTO_MAX_KEY_NAME);
		k->key[i][VG_PROTO_MAX_KEY_NAME] = 0;
		uint64_t job = VGD_JOB_DIRECT | (uint64_t)i << 32 | seq;
		if (o.lease == 0 || h.lease != o.lease) {
			k->op[i] = 0; /* not an operation: counted as refused only */
			k->d->dir->refused++;
			vgd_khdirect_refuse(k, job, VG_ST_UNAVAILABLE,
					    "direct slot not leased to this connection: use the socket");
			continue;
		}
		if (h.data_len > VG_PROTO_MAX_DATA ||
		    memchr(h.key, 0, VG_PROTO_MAX_KEY_NAME + 1) == NULL) {
			k->op[i] = 0;
			k->d->dir->refused++;
			vgd_khdirect_refuse(k, job, VG_ST_MALFORMED, "invalid direct request");
			continue;
		}
		const vg_alg_info *a = vg_alg_get(h.alg);
		if (h.op == VG_OP_SIGN && a != NULL && a->data == VG_DATA_CSR_INFO) {
			/* Who may ask for csr (csr_uids) is the front's check,
			 * and a slot skips the front: csr goes by the socket
			 * (libvgclient never sends it here). Refused before
			 * its key is looked up, the same for every name: no
			 * use row, and nothing said about the key. */
			k->op[i] = 0;
			vgd_khdirect_refuse(k, job, vg_reason_status(VG_R_CSR_DIRECT),
					    vg_reason(VG_R_CSR_DIRECT));
			continue;
		}
		vgd_kreq *q = (vgd_kreq *)in[n];
		memset(q, 0, sizeof(*q));
		q->magic = VGD_KREQ_MAGIC;
		q->data_len = h.data_len;
		q->job = job;
		q->uid = o.uid;
		q->gid = o.gid;
		memcpy(q->key, h.key, VG_PROTO_MAX_KEY_NAME + 1);
		q->op = h.op;
		q->alg = h.alg;
		q->role = h.tls_role;
		q->fmt = h.sig_format;
		memcpy(in[n] + sizeof(*q), (const void *)s->req.data, h.data_len);
		len[n] = sizeof(*q) + h.data_len;
		n++;
	}
	return n;
}

void vgd_khdirect_reply(vgd_khdirect *k, const vgd_krep *rep, const uint8_t *result)
{
	int i = (int)(rep->job >> 32 & 0x7fffffff);
	if (!k->d || i >= k->d->nslots)
		return;
	answer(k, i, (uint32_t)rep->job, k->lease[i], rep->status, rep->reason, result,
	       rep->result_len);
}

void vgd_khdirect_refuse(vgd_khdirect *k, uint64_t job, int status, const char *why)
{
	int i = (int)(job >> 32 & 0x7fffffff);
	if (!k->d || i >= k->d->nslots)
		return;
	answer(k, i, (uint32_t)job, k->lease[i], status, why, NULL, 0);
}

int vgd_khdirect_sleep_begin(vgd_khdirect *k)
{
	int work = 0;
	if (!k->d)
		return 0;
	for (int i = 0; k->owner && i < k->d->nslots; i++)
		STORE(&k->d->slot[i]->kh_sleeps, 1);
	/* After the flags: a request published before a client saw its flag
	 * is seen here; one after it comes with a wake-up. */
	for (int i = 0; k->owner && i < k->d->nslots; i++)
		work |= LOAD(&k->d->slot[i]->req_seq) != k->seen[i];
	work |= LOAD(&k->d->dir->want) != k->want_seen || LOAD(&k->d->dir->owner) != k->owner_seen;
	return work;
}

void vgd_khdirect_sleep_end(vgd_khdirect *k)
{
	for (int i = 0; k->d && k->owner && i < k->d->nslots; i++)
		STORE(&k->d->slot[i]->kh_sleeps, 0);
}

static void put(struct futex_waitv *w, uint32_t *word, uint32_t val)
{
	w->val = val;
	w->uaddr = (uint64_t)(uintptr_t)word;
	w->flags = FUTEX_32; /* shared: the pages are mapped by several processes */
	w->__reserved = 0;
}

int vgd_khdirect_waitv(const vgd_khdirect *k, struct futex_waitv *w, int max)
{
	int n = 0;
	if (!k->d || max < 2)
		return 0;
	put(&w[n++], &k->d->dir->want, k->want_seen);
	put(&w[n++], &k->d->dir->owner, k->owner_seen);
	for (int i = 0; k->owner && i < k->d->nslots && n < max; i++)
		put(&w[n++], &k->d->slot[i]->req_seq, k->seen[i]);
	return n;
}
