/* vgclient.h: libvgclient, the client library of vgd (the vgd signing and
 * key-exchange daemon). Talks protocol v1 (see protocol/PROTOCOL.md) over
 * the daemon's Unix socket.
 *
 * Thread-safety: a vg_client is not thread-safe; use one per thread (or
 * lock around it). Different clients are independent.
 * Fork-safety: a client notices it is in a forked child (pid check) and
 * opens its own connection instead of sharing the parent's.
 * Errors: functions return 0 (or a positive count) on success and a
 * negative VGC_E_* code on failure; vg_client_errmsg() gives the text
 * including the daemon's reason. */
#ifndef VGCLIENT_H
#define VGCLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VGCLIENT_BUILD)
#define VGC_API __attribute__((visibility("default")))
#else
#define VGC_API
#endif

#define VGC_DEFAULT_SOCKET "/run/vgd/vgd.sock"

/* Error codes. Codes -101..-110 are the daemon's statuses. */
enum vgc_error {
	VGC_OK = 0,
	VGC_E_CONNECT = -1,  /* cannot connect to the daemon's socket */
	VGC_E_IO = -2,       /* read/write failed */
	VGC_E_TIMEOUT = -3,  /* no reply within the timeout */
	VGC_E_PROTOCOL = -4, /* the daemon's reply did not parse */
	VGC_E_CLOSED = -5,   /* the daemon closed the connection */
	VGC_E_NOMEM = -6,
	VGC_E_INVALID = -7,  /* bad argument (key name, lengths, algorithm) */
	VGC_E_BUFFER = -8,   /* output buffer too small */
	VGC_E_MALFORMED = -101,
	VGC_E_BAD_VERSION = -102,
	VGC_E_UNKNOWN_OP = -103,
	VGC_E_UNKNOWN_KEY = -104,
	VGC_E_NOT_ALLOWED = -105,
	VGC_E_BAD_INPUT = -106,
	VGC_E_TOO_LARGE = -107,
	VGC_E_OVERLOADED = -108, /* retry later */
	VGC_E_INTERNAL = -109,
	VGC_E_UNAVAILABLE = -110, /* daemon shutting down */
};

/* Signature algorithms (same values as the protocol). */
enum vgc_alg {
	VGC_ALG_ED25519 = 1,
	VGC_ALG_RSA_PKCS1_SHA256 = 2,
	VGC_ALG_RSA_PKCS1_SHA384 = 3,
	VGC_ALG_RSA_PKCS1_SHA512 = 4,
	VGC_ALG_RSA_PSS_SHA256 = 5,
	VGC_ALG_RSA_PSS_SHA384 = 6,
	VGC_ALG_RSA_PSS_SHA512 = 7,
	VGC_ALG_TLS13 = 8,
};

enum vgc_tls_role { VGC_TLS_SERVER = 1, VGC_TLS_CLIENT = 2 };
enum vgc_key_type { VGC_KEY_ED25519 = 1, VGC_KEY_X25519 = 2, VGC_KEY_RSA = 3 };
/* What a key allows (vgc_key_info.ops). */
enum vgc_ops {
	VGC_OPS_SIGN = 1,
	VGC_OPS_SIGN_TLS13 = 2,
	VGC_OPS_X25519 = 4,
	VGC_OPS_RSA_PRIVATE = 8,
};

typedef struct vg_client vg_client;

typedef struct {
	char name[65];
	int type;              /* enum vgc_key_type */
	uint32_t ops;          /* enum vgc_ops bits */
	uint8_t pub[512];      /* Ed25519/X25519: 32 bytes; RSA: modulus n */
	size_t pub_len;
	uint8_t rsa_e[8];      /* RSA public exponent, big-endian */
	size_t rsa_e_len;
} vgc_key_info;

typedef struct {
	char name[64];
	uint64_t value;
} vgc_stat;

typedef struct {
	int versions[8];
	size_t n_versions;
	uint32_t caps;
	uint32_t max_frame;
	uint32_t max_inflight;
	char server[64];
} vgc_hello;

/* Create a client for the daemon at path (NULL: $VGD_SOCKET, else
 * VGC_DEFAULT_SOCKET). Does not connect yet: the first call does, and
 * every call reconnects once if the daemon restarted. NULL on ENOMEM. */
VGC_API vg_client *vg_client_new(const char *path);
/* Close and free. NULL is fine. */
VGC_API void vg_client_free(vg_client *c);
/* Connect now (optional). 0 or VGC_E_CONNECT. */
VGC_API int vg_client_connect(vg_client *c);
/* Per-call timeout in milliseconds (default 5000; <= 0: wait forever). */
VGC_API void vg_client_set_timeout(vg_client *c, int ms);

/* Round trip. */
VGC_API int vg_client_ping(vg_client *c);
VGC_API int vg_client_hello(vg_client *c, vgc_hello *out);

/* Sign data with key using alg (not VGC_ALG_TLS13: see below). For
 * ed25519, data is the message; for RSA algorithms, the digest (32, 48 or
 * 64 bytes to match the hash). The signature is written to sig (cap
 * bytes; 64 for Ed25519, the modulus length for RSA) and its length to
 * *sig_len. */
VGC_API int vg_client_sign(vg_client *c, const char *key, int alg, const void *data, size_t len,
			   uint8_t *sig, size_t cap, size_t *sig_len);
/* TLS 1.3 CertificateVerify: the daemon builds the signed content from
 * the transcript hash (32, 48 or 64 bytes) and role (enum vgc_tls_role). */
VGC_API int vg_client_sign_tls13(vg_client *c, const char *key, int role, const void *hash,
				 size_t hash_len, uint8_t *sig, size_t cap, size_t *sig_len);
/* X25519 with a held key: shared = X25519(key, peer). */
VGC_API int vg_client_x25519(vg_client *c, const char *key, const uint8_t peer[32],
			     uint8_t shared[32]);
/* Raw RSA private operation; in is exactly the modulus length. */
VGC_API int vg_client_rsa_private(vg_client *c, const char *key, const void *in, size_t len,
				  uint8_t *out, size_t cap, size_t *out_len);

/* Keys the caller may use. *keys is malloc'ed (free with free()); returns
 * the count (>= 0) or an error. */
VGC_API int vg_client_list_keys(vg_client *c, vgc_key_info **keys);
VGC_API int vg_client_public_key(vg_client *c, const char *key, vgc_key_info *out);
/* Daemon statistics; *stats malloc'ed; returns the count or an error. */
VGC_API int vg_client_stats(vg_client *c, vgc_stat **stats);

/* Static text for a code. */
VGC_API const char *vg_client_strerror(int err);
/* The last error of this client: code text plus the daemon's reason. */
VGC_API const char *vg_client_errmsg(const vg_client *c);

#ifdef __cplusplus
}
#endif

#endif
