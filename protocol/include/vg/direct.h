/* direct.h: the layout of a direct slot (PROTOCOL.md 6.11), the
 * shared page through which a client and one keyholder exchange sign,
 * x25519 and rsa-private requests without the front.
 *
 * A slot is a memfd that the front passes to a client with its hello
 * reply (VG_T_DIRECT, VG_CAP_DIRECT). The client writes one request at a
 * time into req, then publishes it by storing a new req_seq; the keyholder
 * copies req into its own memory before it looks at any field, runs it
 * under the uid the slot is bound to (never one the client names), writes
 * rep and publishes it by storing rep_seq = the req_seq it answered.
 * Either side sleeps on the other's counter with a shared futex, and
 * wakes the other only when its flag says it sleeps.
 *
 * Every field is fixed-size and little-endian host order (the slot never
 * leaves the host). The words are 32-bit and naturally aligned, so that
 * they are futex words; each side's words share a cache line, apart from
 * the other side's. Nothing here is secret except an X25519 result in rep,
 * which the client wipes after it has copied it. */
#ifndef VG_DIRECT_H
#define VG_DIRECT_H

#include <stdint.h>

#include "vg/proto.h"

/* The layout version a client names in its hello's DIRECT item. */
#define VG_DIRECT_VERSION 1u
#define VG_DIRECT_REASON_LEN 112u

typedef struct vg_direct_slot_s {
	/* Written by the client. */
	_Alignas(64) uint32_t req_seq; /* a request is published when this changes */
	uint32_t client_waits;         /* 1 while the client sleeps on rep_seq */
	/* Written by vgd (the keyholder). */
	_Alignas(64) uint32_t rep_seq; /* = the req_seq of the request answered */
	uint32_t kh_sleeps;            /* 1 while the keyholder sleeps: wake req_seq */
	uint32_t taken;                /* the req_seq the keyholder is working on */
	/* The request, written by the client before it stores req_seq. */
	_Alignas(64) struct vg_direct_req {
		uint64_t lease; /* the hello reply's DIRECT value */
		uint32_t data_len;
		uint8_t op, alg, tls_role, sig_format; /* as the TLV items */
		char key[VG_PROTO_MAX_KEY_NAME + 8];   /* NUL-terminated */
		uint8_t data[VG_PROTO_MAX_DATA];
	} req;
	/* The reply, written by vgd before it stores rep_seq. */
	_Alignas(64) struct vg_direct_rep {
		uint64_t lease;  /* the request's lease */
		uint32_t result_len;
		uint8_t status;  /* VG_ST_* */
		uint8_t pad[3];
		char reason[VG_DIRECT_REASON_LEN]; /* NUL-terminated, "" on success */
		uint8_t result[VG_PROTO_MAX_RESULT];
	} rep;
} vg_direct_slot;

/* The size of a slot's memfd: whole pages. */
#define VG_DIRECT_SLOT_SIZE (((sizeof(vg_direct_slot) + 4095) / 4096) * 4096)

#endif
