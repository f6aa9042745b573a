/* vg/proto.h: vgd protocol v1, the one encoder/decoder shared by the daemon
 * and libvgclient. The wire format is specified in protocol/PROTOCOL.md;
 * this header is its C face. Nothing here is secret: frames carry messages,
 * digests, public values and signatures, never key material.
 *
 * Frame = 16-byte header + body of items. Big-endian everywhere.
 *   magic u16 (0x5647 "VG") | version u8 | opcode u8 | status u8 |
 *   reserved u8[3] (zero)   | request id u32 | body length u32
 * Item = tag u16 | length u16 | value[length]. */
#ifndef VG_PROTO_H
#define VG_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define VG_PROTO_MAGIC 0x5647u
#define VG_PROTO_VERSION 1
#define VG_PROTO_HDR_LEN 16
#define VG_PROTO_MAX_BODY 65520u /* header + body <= 64 KiB */
#define VG_PROTO_MAX_FRAME (VG_PROTO_HDR_LEN + VG_PROTO_MAX_BODY)
#define VG_PROTO_MAX_ITEM 65535u
#define VG_PROTO_MAX_INFLIGHT 128u  /* requests in flight per connection */
#define VG_PROTO_MAX_KEY_NAME 64u   /* bytes, [A-Za-z0-9._-] */
#define VG_PROTO_MAX_REASON 255u    /* bytes of UTF-8 text */
#define VG_PROTO_MAX_SERVER 255u    /* bytes of the hello SERVER text */
#define VG_PROTO_MAX_DATA 65000u    /* message / digest / input bytes */
#define VG_PROTO_MAX_PING_DATA 1024u /* ping's optional DATA */
#define VG_PROTO_X25519_LEN 32u     /* x25519 DATA and RESULT */
/* RSA moduli vgd serves: 2048..4096 bits. rsa-private DATA is 256..512
 * bytes; the largest PUBKEY (RSA n) and RESULT (an RSA signature or
 * rsa-private output) are the largest modulus. */
#define VG_PROTO_RSA_MIN_LEN 256u
#define VG_PROTO_RSA_MAX_LEN 512u
#define VG_PROTO_MAX_PUBKEY VG_PROTO_RSA_MAX_LEN
#define VG_PROTO_MAX_RESULT VG_PROTO_RSA_MAX_LEN
#define VG_PROTO_MAX_RSA_E 8u       /* RSA_E: public exponents up to 64 bits */

/* Opcodes. A reply carries the request's opcode | VG_OP_REPLY. What each
 * one takes and returns, and where it runs, is its row in the operation
 * table (vg/proto_tables.h, protocol/src/optab.c). */
enum vg_op {
	VG_OP_HELLO = 1,
	VG_OP_PING = 2,
	VG_OP_LIST_KEYS = 3,
	VG_OP_PUBLIC_KEY = 4,
	VG_OP_SIGN = 5,
	VG_OP_X25519 = 6,
	VG_OP_RSA_PRIVATE = 7,
	VG_OP_STATS = 8,
	VG_OP_MAX = 8,
};
#define VG_OP_REPLY 0x80u
/* A connection error frame (daemon to client, PROTOCOL.md 7.1): the
 * daemon ends the connection with it; it answers no request (id 0). Its
 * opcode is what a reply to request opcode 0x7F would carry, so 0x7F is
 * reserved: never an operation, and a request with it is MALFORMED. */
#define VG_OP_CONN_ERROR 0xffu
#define VG_OP_RESERVED (VG_OP_CONN_ERROR & ~VG_OP_REPLY)

/* Status codes (requests carry 0). */
enum vg_status {
	VG_ST_OK = 0,
	VG_ST_MALFORMED = 1,     /* frame or items do not parse; connection closes */
	VG_ST_BAD_VERSION = 2,   /* version not supported; connection closes */
	VG_ST_UNKNOWN_OP = 3,    /* opcode not known */
	VG_ST_UNKNOWN_KEY = 4,   /* no key by that name */
	VG_ST_NOT_ALLOWED = 5,   /* key policy or caller forbids it */
	VG_ST_BAD_INPUT = 6,     /* wrong length, out of range, wrong key type */
	VG_ST_TOO_LARGE = 7,     /* frame above VG_PROTO_MAX_FRAME; connection closes */
	VG_ST_OVERLOADED = 8,    /* queue full: try again later */
	VG_ST_INTERNAL = 9,      /* daemon-side failure (fault detected, ...) */
	VG_ST_UNAVAILABLE = 10,  /* shutting down */
	VG_ST_MAX = 10,
};

/* Item tags. */
enum vg_tag {
	VG_T_KEY = 1,        /* key name (string) */
	VG_T_ALG = 2,        /* u8 enum vg_sign_alg */
	VG_T_DATA = 3,       /* request input bytes */
	VG_T_TLS_ROLE = 4,   /* u8 enum vg_tls_role (sign with VG_ALG_TLS13) */
	VG_T_RESULT = 5,     /* reply output bytes */
	VG_T_REASON = 6,     /* error reason (string) */
	VG_T_VERSION = 7,    /* u8: a supported protocol version (repeatable) */
	VG_T_CAPS = 8,       /* u32 capability bits (enum vg_cap) */
	VG_T_LIMIT = 9,      /* limits block: nested items VG_T_LIM_* */
	VG_T_KEYINFO = 10,   /* nested: KEY, KEY_TYPE, PUBKEY, [RSA_E], OPS (repeatable) */
	VG_T_KEY_TYPE = 11,  /* u8 enum vg_key_type */
	VG_T_PUBKEY = 12,    /* raw 32 bytes (Ed25519/X25519), RSA modulus n, or an
			      * uncompressed SEC1 point 04||X||Y (ECDSA) */
	VG_T_RSA_E = 13,     /* RSA public exponent, big-endian minimal */
	VG_T_OPS = 14,       /* u32 enum vg_allow bits */
	VG_T_STAT = 15,      /* nested: STAT_NAME, STAT_VALUE (repeatable) */
	VG_T_STAT_NAME = 16, /* string */
	VG_T_STAT_VALUE = 17,/* u64 */
	VG_T_LIM_MAX_FRAME = 18,    /* u32 */
	VG_T_LIM_MAX_INFLIGHT = 19, /* u32 */
	VG_T_SERVER = 20,    /* string: daemon name and version */
	VG_T_SIG_FORMAT = 21,/* u8 enum vg_sig_format (sign with an ECDSA ALG) */
	VG_T_CLIENT_CPU = 22,/* u32: the CPU the client sent from, a hint (VG_CAP_CPU_HINT) */
	/* stats: one key's use by one uid (PROTOCOL.md 6.8). The row without
	 * USE_KEY and USE_UID is the "other" row: uses past the table's bound. */
	VG_T_USE = 23,          /* nested: [USE_KEY, USE_UID], USE_OK, USE_ERRORS,
				 * USE_REFUSED, USE_LAST_MS, USE_LAST_PID (repeatable) */
	VG_T_USE_KEY = 24,      /* string: key name */
	VG_T_USE_UID = 25,      /* u32: the caller's uid (SO_PEERCRED) */
	VG_T_USE_OK = 26,       /* u64: successful key operations */
	VG_T_USE_ERRORS = 27,   /* u64: failed ones (bad input, internal, ...) */
	VG_T_USE_REFUSED = 28,  /* u64: refused (ACL, policy, overloaded) */
	VG_T_USE_LAST_MS = 29,  /* u64: last use, Unix time in milliseconds */
	VG_T_USE_LAST_PID = 30, /* u32: the pid that used it last (SO_PEERCRED) */
	VG_T_DIRECT = 31,    /* u64: hello asks for a direct slot (the layout version,
			      * vg/direct.h) / grants one (its lease); VG_CAP_DIRECT */
	VG_T_MAX = 31,
};

/* Signature algorithms: wire values. What each one is (key type, hash,
 * padding, what DATA is, TLS 1.3 scheme) is its row in the algorithm
 * table (vg/proto_tables.h, protocol/src/algtab.c). */
enum vg_sign_alg {
	VG_ALG_ED25519 = 1,
	VG_ALG_RSA_PKCS1_SHA256 = 2,
	VG_ALG_RSA_PKCS1_SHA384 = 3,
	VG_ALG_RSA_PKCS1_SHA512 = 4,
	VG_ALG_RSA_PSS_SHA256 = 5,
	VG_ALG_RSA_PSS_SHA384 = 6,
	VG_ALG_RSA_PSS_SHA512 = 7,
	VG_ALG_TLS13 = 8,
	VG_ALG_ECDSA_P256_SHA256 = 9,
	VG_ALG_ECDSA_P384_SHA384 = 10,
	VG_ALG_ECDSA_P256_SHA384 = 11,
	VG_ALG_ECDSA_P256_SHA512 = 12,
	VG_ALG_ECDSA_P384_SHA256 = 13,
	VG_ALG_ECDSA_P384_SHA512 = 14,
	VG_ALG_CSR = 15, /* a PKCS#10 request for the key itself (PROTOCOL.md 6.5.2) */
	VG_ALG_MAX = 15,
};

enum vg_tls_role { VG_TLS_SERVER = 1, VG_TLS_CLIENT = 2 };

/* ECDSA keys have one type per curve: the curve decides the TLS 1.3
 * scheme (RFC 8446 4.2.3 binds it to a hash). */
enum vg_key_type {
	VG_KEY_ED25519 = 1,
	VG_KEY_X25519 = 2,
	VG_KEY_RSA = 3,
	VG_KEY_ECDSA_P256 = 4,
	VG_KEY_ECDSA_P384 = 5,
	VG_KEY_MAX = 5,
};

/* How an ECDSA signature is encoded (SIG_FORMAT; absent: DER). */
enum vg_sig_format {
	VG_SIGFMT_DER = 1, /* X9.62 ECDSA-Sig-Value, what TLS and X.509 use */
	VG_SIGFMT_RAW = 2, /* r || s, each the curve's size (JOSE, COSE) */
};

/* What a key allows (VG_T_OPS). */
enum vg_allow {
	VG_ALLOW_SIGN = 1u << 0,        /* sign arbitrary messages/digests */
	VG_ALLOW_SIGN_TLS13 = 1u << 1,  /* sign in TLS 1.3 mode only */
	VG_ALLOW_X25519 = 1u << 2,
	VG_ALLOW_RSA_PRIVATE = 1u << 3, /* raw m^d mod n */
};

/* Capability bits in hello. */
enum vg_cap {
	VG_CAP_PIPELINE = 1u << 0,
	VG_CAP_TLS13 = 1u << 1,
	VG_CAP_ED25519 = 1u << 2,
	VG_CAP_X25519 = 1u << 3,
	VG_CAP_RSA = 1u << 4,
	VG_CAP_ECDSA = 1u << 5, /* ECDSA P-256/P-384 keys and the SIG_FORMAT item */
	VG_CAP_CPU_HINT = 1u << 6, /* the CLIENT_CPU request item */
	VG_CAP_DIRECT = 1u << 7,   /* direct slots (vg/direct.h, PROTOCOL.md 6.11) */
};

typedef struct {
	uint8_t version;
	uint8_t opcode;
	uint8_t status;
	uint32_t id;
	uint32_t body_len;
} vg_frame_hdr;

/* ---- frame boundaries (streaming reassembly) ----
 * Looks at the avail bytes received so far on a stream.
 * Returns 0 if more bytes are needed, the total frame length (header +
 * body) once buf holds a whole frame, or -status (VG_ST_MALFORMED,
 * VG_ST_BAD_VERSION, VG_ST_TOO_LARGE) as soon as the header is wrong; an
 * oversized frame is refused from its header alone, before its body is
 * read. hdr is filled whenever 16 bytes are available and the magic is
 * right. (It is always written when non-NULL: all zero until 16 bytes with
 * the right magic are there, so hdr->id is the id to put in an error
 * reply: the request's, or 0 if the header was unreadable.) These are the
 * checks both directions share (PROTOCOL.md 3.1). */
long vg_frame_check(const uint8_t *buf, size_t avail, vg_frame_hdr *hdr);

/* vg_frame_check for a stream of requests: the same, plus the request
 * header rules (status 0, reply bit clear, opcode not VG_OP_RESERVED),
 * judged as soon as the 16 header bytes are there, before any of the body
 * (PROTOCOL.md 3.1). On a negative result *why (if not NULL) is the
 * VG_R_* reason of vg/proto_reason.h; VG_R_BAD_MAGIC means no header was
 * read. */
long vg_request_frame_check(const uint8_t *buf, size_t avail, vg_frame_hdr *hdr, int *why);

/* 1 if the connection ends after a REPLY with this status (MALFORMED,
 * BAD_VERSION, TOO_LARGE: the peer does not speak v1 or broke its
 * framing), 0 if it stays open (every other status, e.g. UNKNOWN_OP,
 * BAD_INPUT, NOT_ALLOWED on a well-framed request, or OVERLOADED). A
 * connection error frame (VG_OP_CONN_ERROR) always ends the connection,
 * whatever its status: that is the frame's kind, not its status. */
int vg_status_closes(int status);

/* ---- bounded reading of items ---- */
typedef struct {
	const uint8_t *p;
	size_t left;
} vg_cursor;

typedef struct {
	uint16_t tag;
	uint16_t len;
	const uint8_t *val;
} vg_item;

/* 1 and *it filled, 0 at the clean end, -1 if an item overruns. */
int vg_item_next(vg_cursor *c, vg_item *it);
/* Fixed-width values: 0 and *v set, or -1 if the length is not exactly
 * 1, 4 or 8 bytes. */
int vg_item_u8(const vg_item *it, uint8_t *v);
int vg_item_u32(const vg_item *it, uint32_t *v);
int vg_item_u64(const vg_item *it, uint64_t *v);
/* A cursor over a nested item's children (LIMIT, KEYINFO, STAT, USE). */
vg_cursor vg_item_cursor(const vg_item *it);

/* ---- requests (daemon side decodes, client side encodes) ---- */
typedef struct {
	uint8_t op;
	uint32_t id;
	char key[VG_PROTO_MAX_KEY_NAME + 1]; /* NUL-terminated, "" if absent */
	uint8_t alg;                         /* 0 if absent */
	uint8_t tls_role;                    /* 0 if absent */
	uint8_t sig_format;                  /* enum vg_sig_format, 0 if absent */
	int has_cpu;                         /* CLIENT_CPU present: cpu holds it */
	uint64_t direct;                     /* DIRECT (hello): layout version, 0 if absent */
	uint32_t cpu;
	const uint8_t *data;                 /* points into the frame body */
	size_t data_len;
	int has_data;
} vg_request;

/* Decode and validate a request frame (header already checked by
 * vg_frame_check; frame = header + body). Enforces, per opcode (its row of
 * the operation table), the items required, optional and forbidden,
 * duplicates, unknown tags, value lengths (alg/role/format values, the
 * algorithm's DATA rule, x25519 peer 32 bytes, key name charset), and
 * trailing bytes. Returns VG_ST_OK or a status, with *reason set to a
 * static string from the reason table. req->op and req->id are set
 * even on failure (for the error reply); the rest is meaningful only on
 * VG_ST_OK. */
int vg_request_decode(const uint8_t *frame, size_t len, vg_request *req, const char **reason);
/* 1 if the n bytes at s are a key name the protocol allows: 1 to
 * VG_PROTO_MAX_KEY_NAME bytes of [A-Za-z0-9._-]. */
int vg_key_name_ok(const uint8_t *s, size_t n);

/* ---- bounded writing ---- */
typedef struct {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int overflow; /* sticky: set when a put did not fit */
	size_t nest[4];
	int depth;
} vg_writer;

void vg_frame_begin(vg_writer *w, uint8_t *buf, size_t cap, uint8_t opcode, uint8_t status,
		    uint32_t id);
void vg_put(vg_writer *w, uint16_t tag, const void *val, size_t len);
void vg_put_u8(vg_writer *w, uint16_t tag, uint8_t v);
void vg_put_u32(vg_writer *w, uint16_t tag, uint32_t v);
void vg_put_u64(vg_writer *w, uint16_t tag, uint64_t v);
void vg_put_str(vg_writer *w, uint16_t tag, const char *s);
/* Nested item: open, put children, close. At most 4 levels. */
void vg_put_open(vg_writer *w, uint16_t tag);
void vg_put_close(vg_writer *w);
/* Patch the body length. Returns the frame length, or -VG_ST_TOO_LARGE if
 * anything overflowed the buffer or a limit (nothing is written past cap). */
long vg_frame_end(vg_writer *w);

/* Encode a request from a vg_request (client side). Returns the frame
 * length, -VG_ST_TOO_LARGE if it does not fit cap or a frame, or -status
 * when vg_request_decode would refuse it (checked on the encoded bytes),
 * so a bad request fails locally instead of closing the connection. */
long vg_request_encode(const vg_request *req, uint8_t *buf, size_t cap);

/* Error reply: status and reason. opcode is the request's (the reply bit
 * is added); a NULL reason sends the status name; a reason over
 * VG_PROTO_MAX_REASON bytes is cut at a UTF-8 character boundary. */
long vg_error_encode(uint8_t opcode, uint32_t id, uint8_t status, const char *reason,
		     uint8_t *buf, size_t cap);

/* Connection error frame (PROTOCOL.md 7.1): opcode VG_OP_CONN_ERROR, id
 * 0, a nonzero status and one REASON (cut like vg_error_encode's). The
 * sender closes the connection after it. */
long vg_conn_error_encode(uint8_t status, const char *reason, uint8_t *buf, size_t cap);

/* The answer to a frame whose header a reader refused (why: the VG_R_*
 * reason from vg_request_frame_check, hdr: what it filled): a connection
 * error when no header was read (bad magic) or the frame's opcode is
 * VG_OP_RESERVED (a reply to it would look like one), else an error reply
 * to the frame (its opcode and id). Either way the connection ends. */
long vg_frame_error_encode(const vg_frame_hdr *hdr, int why, uint8_t *buf, size_t cap);

/* ---- replies (client side) ---- */
typedef struct {
	uint8_t op; /* without VG_OP_REPLY (VG_OP_RESERVED for a connection error) */
	uint8_t conn_error; /* 1: a connection error frame, not a reply: the daemon
			     * ends the connection; status says why */
	uint8_t status;
	uint32_t id;
	const uint8_t *result; /* VG_T_RESULT, if any */
	size_t result_len;
	const char *reason; /* not NUL-terminated */
	size_t reason_len;
	vg_cursor items; /* all items of the body, for hello/list-keys/stats */
} vg_reply;

/* Decode a frame from the daemon: a reply (reply bit set) or a connection
 * error (VG_OP_CONN_ERROR, id 0, status nonzero). As strict as
 * PROTOCOL.md 4 and 7: item framing and fixed widths; each known tag only
 * where the spec puts it (top level, or inside LIMIT, KEYINFO, STAT, USE), at
 * most once there unless repeatable (VERSION, KEYINFO, STAT, USE at the top),
 * with the children a nested item requires; REASON (at most
 * VG_PROTO_MAX_REASON bytes) exactly once in an error and never in a
 * success; an error carries no other known item; SERVER at most
 * VG_PROTO_MAX_SERVER bytes. Unknown tags are skipped at every level
 * (their framing must hold). Returns VG_ST_OK or the status of the frame
 * itself (MALFORMED, BAD_VERSION, TOO_LARGE: drop the connection); the
 * daemon's answer is rep->status. Which items a success carries for its
 * operation is vg_reply_check's (vg/proto_tables.h). */
int vg_reply_decode(const uint8_t *frame, size_t len, vg_reply *rep);

/* Names for logs and messages (the operation, algorithm and key type
 * names live with their tables, vg/proto_tables.h). */
const char *vg_status_name(int status);
const char *vg_tag_name(int tag);

#endif
