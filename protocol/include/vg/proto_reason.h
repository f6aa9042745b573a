/* vg/proto_reason.h: the one table of error reasons vgd sends (the REASON
 * item of an error reply), keyed by condition, each with the status it
 * goes with. The codec (proto.c) and the daemon (front, keyholder, key
 * operations) take their texts from here, so one condition has one text
 * wherever it is detected. Reasons are for people and logs: clients must
 * not parse them (PROTOCOL.md 7). Nothing here is secret.
 *
 * A kernel error that reaches a client (an RSA fault, an out-of-range
 * input) is reported with the kernels' own text (vg_strerror), mapped to a
 * status by daemon/keyops.c. */
#ifndef VG_PROTO_REASON_H
#define VG_PROTO_REASON_H

#include "vg/proto.h"

/* X(id, status, text) */
#define VG_REASONS(X)                                                                      \
	X(VG_R_OK, VG_ST_OK, "ok")                                                         \
	/* the frame (codec; daemon reading a stream) */                                  \
	X(VG_R_BAD_MAGIC, VG_ST_MALFORMED, "not a vgd frame (bad magic)")                  \
	X(VG_R_BAD_HEADER, VG_ST_MALFORMED, "nonzero reserved bytes in the frame header")  \
	X(VG_R_BAD_VERSION, VG_ST_BAD_VERSION, "unsupported protocol version")             \
	X(VG_R_FRAME_TOO_LARGE, VG_ST_TOO_LARGE, "frame larger than the maximum")          \
	X(VG_R_FRAME_LENGTH, VG_ST_MALFORMED, "frame length does not match its header")    \
	X(VG_R_STATUS_IN_REQUEST, VG_ST_MALFORMED, "status set in a request")              \
	X(VG_R_REPLY_BIT, VG_ST_MALFORMED, "reply bit set in a request")                   \
	X(VG_R_RESERVED_OP, VG_ST_MALFORMED, "reserved opcode 0x7f")                       \
	X(VG_R_UNKNOWN_OP, VG_ST_UNKNOWN_OP, "unknown opcode")                             \
	/* request items: structure (codec) */                                            \
	X(VG_R_UNKNOWN_ITEM, VG_ST_MALFORMED, "unknown item")                              \
	X(VG_R_ITEM_NOT_ALLOWED, VG_ST_MALFORMED, "item not allowed")                      \
	X(VG_R_DUPLICATE_ITEM, VG_ST_MALFORMED, "duplicate item")                          \
	X(VG_R_BAD_ITEM_LENGTH, VG_ST_MALFORMED, "bad item length")                        \
	X(VG_R_ITEM_OVERRUN, VG_ST_MALFORMED, "item overruns the frame")                   \
	X(VG_R_MISSING_ITEM, VG_ST_MALFORMED, "missing item")                              \
	/* request items: values (codec) */                                               \
	X(VG_R_BAD_KEY_NAME, VG_ST_BAD_INPUT, "bad key name")                              \
	X(VG_R_UNKNOWN_ALG, VG_ST_BAD_INPUT, "unknown algorithm")                          \
	X(VG_R_BAD_TLS_ROLE, VG_ST_BAD_INPUT, "bad tls role")                              \
	X(VG_R_BAD_SIG_FORMAT, VG_ST_BAD_INPUT, "bad signature format")                    \
	X(VG_R_PING_DATA_LEN, VG_ST_BAD_INPUT, "ping data over 1024 bytes")                \
	X(VG_R_ALG_DATA_LEN, VG_ST_BAD_INPUT, "data length does not fit the algorithm")    \
	X(VG_R_X25519_DATA_LEN, VG_ST_BAD_INPUT, "x25519 peer key must be 32 bytes")       \
	X(VG_R_RSA_DATA_LEN, VG_ST_BAD_INPUT, "rsa input must be 256..512 bytes")          \
	/* the key and its policy (daemon: front, then keyholder again) */                \
	/* (a key the caller may not use is answered exactly as one that does \
	 * not exist: no separate reason, so no text tells them apart) */       \
	X(VG_R_NO_SUCH_KEY, VG_ST_UNKNOWN_KEY, "no such key")                              \
	X(VG_R_NOT_KEY_OP, VG_ST_UNKNOWN_OP, "not a key operation")                        \
	X(VG_R_ALG_KEY_MISMATCH, VG_ST_BAD_INPUT, "algorithm does not match the key type") \
	X(VG_R_KEY_CANNOT_SIGN, VG_ST_BAD_INPUT, "key cannot sign (X25519)")               \
	X(VG_R_NOT_X25519_KEY, VG_ST_BAD_INPUT, "not an X25519 key")                       \
	X(VG_R_NOT_RSA_KEY, VG_ST_BAD_INPUT, "not an RSA key")                             \
	/* (a policy refusal's text is followed by what the policy allows: \
	 * "; it allows only tls13", see VG_R_POLICY_ALLOWS) */                \
	X(VG_R_SIGN_DENIED, VG_ST_NOT_ALLOWED, "key policy does not allow sign")           \
	X(VG_R_TLS13_DENIED, VG_ST_NOT_ALLOWED, "key policy does not allow tls13 signing") \
	X(VG_R_X25519_DENIED, VG_ST_NOT_ALLOWED, "key policy does not allow x25519")       \
	X(VG_R_RSA_PRIVATE_DENIED, VG_ST_NOT_ALLOWED, "key policy does not allow rsa-private") \
	X(VG_R_CSR_DENIED, VG_ST_NOT_ALLOWED, "key policy does not allow csr (needs sign or tls13)") \
	X(VG_R_POLICY_ALLOWS, VG_ST_NOT_ALLOWED, "; it allows only ")                      \
	X(VG_R_MODULUS_LEN, VG_ST_BAD_INPUT, "input length must equal the modulus length") \
	/* ALG csr: who may ask (front: csr_uids; a direct slot, which skips \
	 * the front, never carries it) and what DATA must be (keyholder) */    \
	X(VG_R_CSR_UID_DENIED, VG_ST_NOT_ALLOWED, "csr: the caller's uid is not in csr_uids") \
	X(VG_R_CSR_DIRECT, VG_ST_NOT_ALLOWED, "csr: not through a direct slot; use the socket") \
	X(VG_R_CSR_INFO, VG_ST_BAD_INPUT,                                                  \
	  "csr: DATA is not a certification request for this key")                        \
	/* results of the operation (keyholder) */                                        \
	X(VG_R_LOW_ORDER, VG_ST_BAD_INPUT,                                                 \
	  "peer value is a low-order point (all-zero shared secret)")                     \
	X(VG_R_NOT_BELOW_MODULUS, VG_ST_BAD_INPUT, "input is not less than the modulus")   \
	/* the daemon's state (front) */                                                  \
	X(VG_R_QUEUE_FULL, VG_ST_OVERLOADED, "request queue is full; try again")           \
	X(VG_R_TOO_MANY_CONNECTIONS, VG_ST_OVERLOADED, "too many connections")             \
	X(VG_R_NO_MEMORY, VG_ST_INTERNAL, "out of memory")                                 \
	X(VG_R_REPLY_TOO_LARGE, VG_ST_INTERNAL, "reply too large")                         \
	X(VG_R_KEYHOLDER_CRASHED, VG_ST_INTERNAL,                                          \
	  "keyholder crashed while processing this request")                              \
	X(VG_R_SHUTTING_DOWN, VG_ST_UNAVAILABLE, "daemon is shutting down")                \
	X(VG_R_STOPPED_QUEUED, VG_ST_UNAVAILABLE, "daemon stopped before this request ran") \
	X(VG_R_STOPPED_RUNNING, VG_ST_UNAVAILABLE,                                         \
	  "daemon stopped before this request finished")                                  \
	X(VG_R_NO_KEYHOLDER, VG_ST_UNAVAILABLE, "no keyholder available in time")

enum vg_reason {
#define VG_REASON_ENUM(id, status, text) id,
	VG_REASONS(VG_REASON_ENUM)
#undef VG_REASON_ENUM
	VG_R_COUNT
};

/* The text of a reason (static; "unknown" off the table). */
const char *vg_reason(int reason);
/* The status that goes with it (VG_ST_INTERNAL off the table). */
int vg_reason_status(int reason);

/* The text of a policy refusal (VG_R_SIGN_DENIED ...) followed by what
 * the policy allows, in the words of the config's `allow =`
 * (VG_R_POLICY_ALLOWS then vg_allow_name of each bit of allowed,
 * comma-separated; "tls13" only without "sign", which includes it),
 * written to buf (NUL-terminated, cut at cap). Returns buf. */
const char *vg_reason_policy(int why, uint32_t allowed, char *buf, size_t cap);

#endif
