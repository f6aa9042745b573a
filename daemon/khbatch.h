/* khbatch.h: the keyholder's batches. While a keyholder goes through the
 * records it took from its ring, requests that a multi-buffer kernel can
 * run side by side (RSA private-key operations: vg/rsa_mb.h; ECDSA
 * signatures: vg/ecdsa_mb.h; Ed25519 signatures: vg/ed25519_mb.h;
 * X25519: vg/x25519_mb.h) gather here, one
 * batch per kernel family, and run together when that batch is full or
 * the records are all read. Nothing waits for a request that has not
 * arrived: what the keyholder took at once is the batch, and the kernels
 * run a batch too small to pay one request at a time. Each request keeps
 * every check of vgd_keyop_run, and its own status.
 * Secret: the keys the operations point to, and X25519 results (the
 * replies, which the keyholder wipes once sent). */
#ifndef VGD_KHBATCH_H
#define VGD_KHBATCH_H

#include <stdint.h>

#include "keyops.h"
#include "keytype.h"
#include "keystore.h"
#include "record.h"

/* Requests per batch: what every family's kernel takes in one call. */
#define VGD_KB_MAX 8


/* A reply record and its result, as the keyholder puts it in its ring. */
typedef struct {
	vgd_krep rep;
	uint8_t out[VGD_RESULT_MAX];
} vgd_khreply;

typedef struct {
	int n[VGD_KB_KINDS]; /* requests waiting in each batch */
	vgd_khreply out[VGD_KB_KINDS][VGD_KB_MAX];
	vgd_rsa_op rsa[VGD_KB_MAX];
	vgd_ecdsa_op ec[VGD_KB_MAX];
	vgd_ed25519_op ed[VGD_KB_MAX];
	vgd_x25519_op x[VGD_KB_MAX];
} vgd_khbatch;

/* A reply's header for request q, before its operation runs. */
void vgd_khreply_start(vgd_khreply *r, const vgd_kreq *q);
/* The reply after its operation: status, reason (cut to the record's
 * room) and result length; a failure's output wiped. */
void vgd_khreply_finish(vgd_khreply *r, int status, size_t out_len, const char *why);

/* Add request q (checked by the keyholder's check_request; its DATA
 * follows it and must stay in place until its batch runs) on the key
 * described by info and secret to its family's batch (its key type's
 * row names the family), if it has one and passes every check: the
 * batch's kind (see b->n[kind] for whether it is
 * now full), or -1 (the keyholder runs it alone, which answers a failed
 * check with the same status). */
int vgd_khbatch_take(vgd_khbatch *b, const vgd_keyinfo *info, const void *secret,
		     const vgd_kreq *q);

/* Run kind's batch: its replies b->out[kind][0, b->n[kind]) are then
 * complete (status, reason, result). The caller sends them and sets
 * b->n[kind] to 0. */
void vgd_khbatch_run(vgd_khbatch *b, int kind);

#endif
