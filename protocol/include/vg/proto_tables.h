/* vg/proto_tables.h: what every layer knows about operations, signature
 * algorithms, key types and digests, as data. The codec (proto.c), the
 * daemon (front, keyholder, key operations), libvgclient, vgctl and the
 * OpenSSL provider read these tables instead of keeping their own lists,
 * so a new algorithm is one row here plus its kernel call (the list of
 * places is at the top of protocol/src/algtab.c). Nothing here is secret.
 *
 * Every lookup takes the wire value and returns NULL (or 0, "unknown")
 * for a value off the table, so callers check once and then read rows. */
#ifndef VG_PROTO_TABLES_H
#define VG_PROTO_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "vg/proto.h"

/* ---- digests ----
 * The protocol does not include the kernels: a layer that hashes maps a
 * digest to its hash function in one place (daemon/keyops.c kernel_hash,
 * client/vgctl.c, provider/md.c). */
enum vg_digest {
	VG_DIGEST_NONE = 0,
	VG_DIGEST_SHA256 = 1,
	VG_DIGEST_SHA384 = 2,
	VG_DIGEST_SHA512 = 3,
	VG_DIGEST_MAX = 3,
};
#define VG_DIGEST_MAX_LEN 64u /* bytes of the longest digest (SHA-512) */

/* Digest length in bytes, 0 for NONE or an unknown value. */
size_t vg_digest_len(int digest);
/* The digest of that length (32, 48, 64), or VG_DIGEST_NONE. */
int vg_digest_from_len(size_t len);

/* ---- key types ---- */
typedef struct {
	uint8_t type;     /* VG_KEY_* */
	const char *name; /* "ed25519", "x25519", "rsa", "ecdsa-p256", "ecdsa-p384"
			   * (KEY_TYPE, vgctl keys, vgd --check-config) */
	uint32_t cap;     /* the hello CAPS bit that announces it */
	uint16_t bits;    /* size for listings (the curve's); 0: the modulus's bits */
	/* The work of one private-key operation, in Ed25519 signatures (at
	 * 4096 bits for RSA, whose cost grows with the cube of the modulus's
	 * size): what vgd's front charges a caller's queue for it. */
	uint16_t cost;
} vg_key_type_info;

const vg_key_type_info *vg_key_type_get(int type);
const char *vg_key_type_name(int type);
/* The VG_ALLOW_* bits that mean something for a key of this type, derived
 * from the operation and algorithm tables (SIGN if an algorithm signs with
 * it, SIGN_TLS13 if it has a TLS 1.3 scheme, X25519 and RSA_PRIVATE if
 * that operation takes it). 0 for an unknown type. */
uint32_t vg_key_type_allow(int type);

/* ---- signature algorithms (ALG) ---- */
enum vg_pad { VG_PAD_NONE = 0, VG_PAD_PKCS1 = 1, VG_PAD_PSS = 2 };

/* What a sign request's DATA is. */
enum vg_data {
	VG_DATA_MESSAGE = 1,    /* the whole message, 0..VG_PROTO_MAX_DATA bytes */
	VG_DATA_DIGEST = 2,     /* a digest of exactly the row's hash length */
	VG_DATA_TLS13_HASH = 3, /* a TLS 1.3 transcript hash (32, 48 or 64 bytes):
				 * the daemon builds the CertificateVerify content
				 * and signs it with the key's TLS 1.3 row */
	VG_DATA_CSR_INFO = 4,   /* a DER CertificationRequestInfo carrying the
				 * key's own SubjectPublicKeyInfo (VG_CSR_INFO_MIN
				 * ..MAX bytes, vg/proto_x509.h): the keyholder
				 * checks it, then signs it with the key's
				 * vg_alg_csr row */
};

typedef struct {
	uint8_t alg;       /* VG_ALG_* */
	const char *name;  /* wire/CLI name, e.g. "rsa-pss-sha256" */
	uint8_t key_type;  /* VG_KEY_* it needs; 0: the key's own (tls13 mode) */
	uint8_t digest;    /* VG_DIGEST_*: the signature's hash; NONE: none (Ed25519) */
	uint8_t pad;       /* VG_PAD_* (RSA encodings; NONE otherwise) */
	uint8_t data;      /* VG_DATA_* */
	uint16_t tls13;    /* TLS 1.3 SignatureScheme (RFC 8446 4.2.3) this row
			    * produces in CertificateVerify, 0 if not allowed there */
	uint32_t allow;    /* the VG_ALLOW_* bit a key's policy needs for it */
	uint8_t formats;   /* 1: SIG_FORMAT may choose the signature's encoding
			    * (ECDSA: DER by default, or raw r||s); 0: one encoding */
} vg_alg_info;

const vg_alg_info *vg_alg_get(int alg);
const char *vg_alg_name(int alg);
/* Parse an algorithm name ("ed25519", "rsa-pss-sha256", "tls13", ...); 0 if unknown. */
int vg_alg_from_name(const char *name);
/* Digest length an algorithm expects in DATA, 0 for "any" (ed25519). For
 * tls13 the transcript hash may be 32, 48 or 64 bytes. */
size_t vg_alg_digest_len(int alg);
/* 1 if len is a valid DATA length for sign with alg (tls13: 32, 48, 64;
 * ed25519: 0..VG_PROTO_MAX_DATA), 0 otherwise or for an unknown alg. */
int vg_alg_data_len_ok(int alg, size_t len);
/* The row that signs with key_type, pad and digest, or NULL (the OpenSSL
 * provider maps its padding/digest parameters this way). */
const vg_alg_info *vg_alg_find(int key_type, int pad, int digest);
/* The row a key of key_type signs with in TLS 1.3 mode for a transcript
 * hash of hash_len bytes, or NULL (X25519, or a bad length). A key type
 * with one TLS 1.3 row uses it whatever the transcript hash (Ed25519; an
 * ECDSA curve is bound to its hash); one with several uses the row whose
 * hash has the transcript hash's length (RSA-PSS). */
const vg_alg_info *vg_alg_tls13(int key_type, size_t hash_len);
/* The row a key of key_type signs a certificate request with (ALG csr),
 * or NULL (X25519, which cannot sign): the signature algorithm X.509
 * names for the key (RFC 8410 Ed25519; ecdsa-with-SHA256 for P-256 and
 * -SHA384 for P-384, RFC 5758; sha256WithRSAEncryption, RFC 4055). */
const vg_alg_info *vg_alg_csr(int key_type);
/* The DER X.509 AlgorithmIdentifier of that row's signature, which a
 * certificate request carries beside it; *len its length. NULL (and *len
 * 0) for a key type without a csr row. */
const uint8_t *vg_alg_csr_id(int key_type, size_t *len);
/* 1 if a sign request with alg may carry this SIG_FORMAT value: 0 (the
 * item absent) always; VG_SIGFMT_DER or VG_SIGFMT_RAW only when alg's row
 * has a format choice. 0 otherwise or for an unknown alg. */
int vg_alg_format_ok(int alg, int format);
/* Iterate: the i-th row (0-based), NULL past the end. */
const vg_alg_info *vg_alg_at(size_t i);

/* ---- operations ---- */

/* How an item may appear in a request or a successful reply. */
enum vg_rule {
	VG_RULE_NO = 0, /* forbidden (requests); not sent (replies) */
	VG_RULE_OPT,    /* at most once */
	VG_RULE_REQ,    /* exactly once */
	VG_RULE_TLS,    /* requests: required iff ALG is a tls13-mode algorithm,
			 * forbidden otherwise */
	VG_RULE_FMT,    /* requests: optional iff ALG's row has a format choice
			 * (vg_alg_info.formats), forbidden otherwise */
	VG_RULE_MANY,   /* replies: any number */
	VG_RULE_SOME,   /* replies: one or more */
};

enum vg_op_kind {
	VG_OPK_LOCAL = 1, /* answered by the front */
	VG_OPK_KEY = 2,   /* runs on a key in a keyholder */
};

typedef struct {
	uint8_t op;          /* VG_OP_* */
	const char *name;    /* "sign", ... (logs, stats names, vgctl) */
	uint8_t kind;        /* VG_OPK_* */
	uint8_t key_type;    /* key ops: the VG_KEY_* it needs; 0: the algorithm's (sign) */
	uint32_t allow;      /* key ops: the VG_ALLOW_* bits that can permit it
			      * (sign: the algorithm's bit decides) */
	uint8_t latency;     /* 1: stats keep latency percentiles for it */
	uint8_t wrong_key;   /* VG_R_* when the key type does not fit */
	uint8_t denied;      /* VG_R_* when the key's policy lacks the bit */
	uint8_t data_by_alg; /* 1: DATA's length is the algorithm's rule */
	uint16_t data_min, data_max; /* DATA length bounds otherwise */
	uint8_t data_reason; /* VG_R_* when DATA's length is out of bounds */
	uint8_t req[VG_T_MAX + 1]; /* request items: VG_RULE_NO/OPT/REQ/TLS/FMT */
	uint8_t rep[VG_T_MAX + 1]; /* success reply items: NO/OPT/REQ/MANY/SOME */
} vg_op_info;

const vg_op_info *vg_op_get(int op);
/* 1 if DATA of len bytes fits operation o's rule with algorithm alg: the
 * algorithm's own where the row says so (data_by_alg), else the row's
 * bounds. The codec's check of a request, and the keyholder's of a
 * direct slot's record. */
int vg_op_data_len_ok(const vg_op_info *o, int alg, size_t len);
/* A reply opcode (with VG_OP_REPLY) names the operation it answers. */
const char *vg_op_name(int op);

/* 0 if a successful reply's top-level items follow rep's operation's
 * reply rules (required ones present, singletons not repeated, no known
 * item the operation does not return; unknown tags are skipped, as
 * PROTOCOL.md 4.1 asks), else the tag of the first item that breaks
 * them. Error replies, connection errors and unknown operations pass
 * (their shape is checked by vg_reply_decode). */
int vg_reply_check(const vg_reply *rep);

/* ---- policy bits and capabilities ---- */
/* Name of one VG_ALLOW_* bit ("sign", "tls13", "x25519", "rsa-private":
 * the words of the config's `allow =`), "unknown" otherwise. */
const char *vg_allow_name(uint32_t bit);
/* Name of one VG_CAP_* bit ("pipeline", "tls13", ...), "unknown" otherwise. */
const char *vg_cap_name(uint32_t bit);
/* The CAPS a daemon built from these tables announces in hello. */
uint32_t vg_caps(void);

#endif
