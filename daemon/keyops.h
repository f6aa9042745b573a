/* keyops.h: the operations a keyholder runs on a key, and the checks
 * shared by the front (first) and the keyholder (again). What a request
 * needs (key type, policy bit, DATA) comes from the protocol's tables
 * (vg/proto_tables.h); statuses and reasons from vg/proto_reason.h. */
#ifndef VGD_KEYOPS_H
#define VGD_KEYOPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "keystore.h"
#include "vg/proto_tables.h"
#include "vg/proto_tls13.h"

/* Why a request was refused: text is a static string (the reason table's
 * or the kernels') or buf, when the text is composed (a policy refusal
 * names what the key's policy allows). Fits a keyholder record's reason
 * (record.h). */
#define VGD_REASON_MAX 112u
typedef struct {
	const char *text;
	char buf[VGD_REASON_MAX];
} vgd_reason;

/* May a caller with these credentials use this key at all? (One that may
 * not is answered as if the key did not exist: PROTOCOL.md 6.5.) */
int vgd_acl_allows(const vgd_keyinfo *info, uid_t uid, gid_t gid);

/* Does the key's type and policy permit (op, alg)? VG_ST_OK, or
 * VG_ST_UNKNOWN_OP / VG_ST_NOT_ALLOWED / VG_ST_BAD_INPUT with why->text
 * (a NOT_ALLOWED text ends with what the policy allows). */
int vgd_policy_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, vgd_reason *why);

/* vgd_policy_check, then whether len bytes of DATA fit this key (an
 * rsa-private input must be exactly the modulus length). */
int vgd_request_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, size_t len,
		      vgd_reason *why);

/* The boundary from kernel codes to the wire: a VG_E_* result of a kernel
 * call as a status (VG_ST_OK for VG_OK; a bad input is VG_ST_BAD_INPUT,
 * anything else VG_ST_INTERNAL), with the kernel's message as *reason. */
int vgd_status_from_kernel(int err, const char **reason);

/* Run op on the key (vgd_request_check first). sig_format is the
 * request's SIG_FORMAT (0 if absent; only an ECDSA alg takes one). out
 * holds at least VG_PROTO_MAX_RESULT bytes. Returns VG_ST_* and
 * why->text for errors; *out_len on success. */
int vgd_keyop_run(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
		  uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
		  uint8_t *out, size_t *out_len, vgd_reason *why);

/* An RSA private-key operation made ready to run together with others
 * (vg_rsa_private_mb): the key and the block to exponentiate, the signed
 * encoding (EM) or rsa-private's input. Neither is secret; the result
 * of an rsa-private is. */
typedef struct {
	const void *key; /* the vg_rsa_key */
	size_t len;      /* k */
	int raw;         /* rsa-private (1) or a signature (0) */
	uint8_t in[VG_PROTO_RSA_MAX_LEN];
} vgd_rsa_op;

/* The first half of vgd_keyop_run for an RSA private-key operation (sign
 * with an RSA row, TLS 1.3 mode included, or rsa-private): every check,
 * then the block. VG_ST_OK with *o ready, the request's final status
 * (why set) when it fails, or -1 when it is not such an operation (run
 * it with vgd_keyop_run). */
int vgd_keyop_rsa_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
			  uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
			  vgd_rsa_op *o, vgd_reason *why);
/* The second half: the status of a prepared operation whose private
 * operation returned rc (its result, if any, already in the reply), and
 * *out_len on success. */
int vgd_keyop_rsa_finish(const vgd_rsa_op *o, int rc, size_t *out_len, vgd_reason *why);

/* An Ed25519 signature made ready to run together with others
 * (vg_ed25519_sign_expanded_mb): the key and the message, which is the
 * request's DATA (msg points into the request, which must outlive the
 * batch) or, in TLS 1.3 mode, the content built in content. */
typedef struct {
	const vgd_secret_25519 *key;
	const uint8_t *msg;
	size_t len;
	uint8_t content[VG_TLS13_CONTENT_MAX];
} vgd_ed25519_op;

/* The checks of vgd_keyop_run for an Ed25519 signature, then the
 * message: VG_ST_OK with *o ready, the request's final status (why set),
 * or -1 when it is not one (run it with vgd_keyop_run). The signature
 * itself cannot fail: VG_ED25519_SIG_LEN bytes. */
int vgd_keyop_ed25519_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op,
			      uint8_t alg, uint8_t tls_role, uint8_t sig_format,
			      const uint8_t *data, size_t len, vgd_ed25519_op *o, vgd_reason *why);

/* An ECDSA signature made ready to run together with others
 * (vg_ecdsa_sign_mb): the key, the digest it signs (the request's, or in
 * TLS 1.3 mode the content's) and the encoding the reply wants. None of
 * it is secret. */
typedef struct {
	const void *key; /* the vg_ecdsa_key */
	uint8_t fmt;     /* SIG_FORMAT: VG_SIGFMT_RAW, or DER */
	size_t dlen;
	uint8_t digest[VG_DIGEST_MAX_LEN];
} vgd_ecdsa_op;

/* The checks of vgd_keyop_run for an ECDSA signature (an ECDSA row, TLS
 * 1.3 mode included), then the digest: VG_ST_OK with *o ready, the
 * request's final status (why set), or -1 when it is not one. */
int vgd_keyop_ecdsa_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
			    uint8_t tls_role, uint8_t sig_format, const uint8_t *data, size_t len,
			    vgd_ecdsa_op *o, vgd_reason *why);
/* Its status from the kernel's rc and raw r||s, and the reply's
 * signature in out (VG_PROTO_MAX_RESULT bytes), *out_len, on success. */
int vgd_keyop_ecdsa_finish(const vgd_ecdsa_op *o, int rc, const uint8_t *raw, uint8_t *out,
			   size_t *out_len, vgd_reason *why);

/* An X25519 operation made ready to run together with others
 * (vg_x25519_mb): the held scalar and the peer's point. */
typedef struct {
	const uint8_t *scalar; /* the key's, in its secret */
	uint8_t peer[VG_PROTO_X25519_LEN];
} vgd_x25519_op;

/* The checks of vgd_keyop_run for an X25519 operation: VG_ST_OK with *o
 * ready, the final status, or -1 when it is not one. */
int vgd_keyop_x25519_prepare(const vgd_keyinfo *info, const void *secret, uint8_t op,
			     const uint8_t *data, size_t len, vgd_x25519_op *o, vgd_reason *why);
/* Its status from the kernel's rc (VG_E_ZERO: a low-order point), and
 * *out_len on success. */
int vgd_keyop_x25519_finish(int rc, size_t *out_len, vgd_reason *why);

#endif
