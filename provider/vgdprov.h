/* vgdprov.h: internal interface of the vgd OpenSSL 3 provider (vgd.so):
 * the provider context, vgd-backed key objects and the dispatch tables
 * each file exports. Nothing here is secret: keys hold only a name and the
 * public part; the private key never leaves vgd. */
#ifndef VG_PROV_H
#define VG_PROV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "vg/proto_tables.h" /* in libvgclient.a, which the provider links */
#include "vg/proto_tls13.h"
#include "vgclient.h"

/* The provider context: what openssl.cnf said and the core's upcalls. */
typedef struct {
	const OSSL_CORE_HANDLE *handle;
	char *socket;    /* `socket = PATH` in the provider's section, or NULL */
	int timeout_ms;  /* `timeout = MS` (default 5000) */
	OSSL_FUNC_core_new_error_fn *new_error;
	OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
	OSSL_FUNC_core_vset_error_fn *vset_error;
	OSSL_FUNC_BIO_read_ex_fn *bio_read_ex;
} vg_prov;

/* Reason codes raised by the provider (texts in prov.c). */
enum vg_prov_reason {
	VG_PROV_R_VGD = 1,       /* vgd refused or could not be reached */
	VG_PROV_R_NO_KEY,        /* key object without a vgd name (public only) */
	VG_PROV_R_BAD_ARG,       /* unsupported digest, padding, salt length ... */
	VG_PROV_R_BAD_URI,       /* malformed vgd: URI or key reference */
	VG_PROV_R_BUFFER,        /* output buffer too small */
	VG_PROV_R_DECRYPT,       /* RSA decryption: bad padding */
};

/* Raise an OpenSSL error (ERR_raise_data) through the core. */
void vg_prov_err(const vg_prov *p, int reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A connection to vgd (conn.c, async.c): a libvgclient client under a
 * lock, shared by a key and its copies, reference counted. */
typedef struct vg_prov_conn vg_prov_conn;

/* One request to vgd. */
enum { VG_PROV_OP_SIGN = 1, VG_PROV_OP_TLS13, VG_PROV_OP_RSA };
typedef struct {
	int kind;            /* VG_PROV_OP_* */
	const char *key;     /* the key's name in vgd */
	int alg;             /* SIGN: VGC_ALG_* */
	int role;            /* TLS13: VGC_TLS_SERVER or _CLIENT */
	const uint8_t *data; /* message, digest, transcript hash or RSA input */
	size_t len;
} vg_prov_req;

/* A connection for socket (NULL: $VGD_SOCKET or the default) with a
 * per-request timeout; it connects on first use. NULL if out of memory. */
vg_prov_conn *vg_prov_conn_new(const char *socket, int timeout_ms);
void vg_prov_conn_ref(vg_prov_conn *c);
void vg_prov_conn_unref(vg_prov_conn *c);
/* Run rq and write its result (at most cap bytes) to out. Inside an
 * OpenSSL async job (SSL_MODE_ASYNC) the request is submitted, the job's
 * wait context gets descriptors to poll and the job pauses until the
 * reply; anywhere else the call blocks. 0 or a VGC_E_* code, with the
 * reason in err. */
int vg_prov_conn_call(vg_prov_conn *c, const vg_prov_req *rq, uint8_t *out, size_t cap,
		      size_t *out_len, char *err, size_t errlen);
/* The public part of key name into info (blocking). 0 or VGC_E_*. */
int vg_prov_conn_public_key(vg_prov_conn *c, const char *name, vgc_key_info *info, char *err,
			    size_t errlen);

/* The provider's counters (stats.c; vgdprov_stats.h names them): in
 * memory, or in the file $VGD_PROVIDER_STATS names at start-up. */
void vg_prov_stats_init(void);
void vg_prov_stat_add(int which, uint64_t n);
void vg_prov_stat_max(int which, uint64_t v);
uint64_t vg_prov_stat_get(int which);

/* A key: the name of a key in vgd plus its public part. A key imported
 * from another provider (to compare with a certificate) has no name. */
typedef struct {
	vg_prov *prov;
	int refs;              /* atomic */
	int type;              /* VGC_KEY_ED25519, VGC_KEY_RSA, VGC_KEY_ECDSA_P256 or
				* _P384; 0 for an EC key whose curve is not known yet */
	char name[VGC_KEY_NAME_MAX + 1]; /* "" when the key has only a public part */
	char *socket;          /* from the URI/reference, or NULL */
	uint32_t ops;          /* what vgd allows (VGC_OPS_*) */
	uint8_t pub[VGC_PUBKEY_MAX]; /* Ed25519: 32 bytes; RSA: modulus, big-endian;
				      * EC: the uncompressed point 04||X||Y */
	size_t pub_len;
	uint8_t e[VGC_RSA_E_MAX]; /* RSA public exponent, big-endian, minimal */
	size_t e_len;
	vg_prov_conn *conn;    /* made with the name (fetch), shared with copies */
} vg_prov_key;

vg_prov_key *vg_prov_key_new(vg_prov *p, int type);
void vg_prov_key_free(vg_prov_key *k);           /* drops a reference */
int vg_prov_key_up(vg_prov_key *k);              /* 1 */
/* Fill k from vgd: name, socket (may be NULL); 1 or 0 with an error raised. */
int vg_prov_key_fetch(vg_prov_key *k, const char *name, const char *socket);
/* Modulus bits (RSA), 256 (Ed25519), the curve's bits (EC). */
int vg_prov_key_bits(const vg_prov_key *k);
/* 1 for an ECDSA key type (VGC_KEY_ECDSA_P256, _P384). */
int vg_prov_is_ec(int type);
/* The largest DER ECDSA signature of an EC key type (72, 104), 0 otherwise. */
size_t vg_prov_ec_sig_max(int type);
/* Calls into vgd (vg_prov_conn_call); 1 or 0 with an error raised. */
int vg_prov_key_sign(vg_prov_key *k, int alg, const uint8_t *data, size_t len, uint8_t *sig,
		     size_t cap, size_t *sig_len);
int vg_prov_key_sign_tls13(vg_prov_key *k, int role, const uint8_t *hash, size_t hash_len,
			   uint8_t *sig, size_t cap, size_t *sig_len);
int vg_prov_key_rsa_private(vg_prov_key *k, const uint8_t *in, size_t len, uint8_t *out,
			    size_t cap, size_t *out_len);

/* Parse "vgd:NAME" or "vgd:NAME?socket=/path" (name 1..64 of
 * [A-Za-z0-9._-]). socket gets a malloc'ed copy or NULL. 0 or -1. */
int vg_prov_parse_uri(const char *uri, size_t len, char name[VGC_KEY_NAME_MAX + 1],
		      char **socket);

/* Key reference file: "-----BEGIN VGD KEY REFERENCE-----", base64 of a
 * vgd URI, "-----END VGD KEY REFERENCE-----"; text before and after is
 * ignored. Writes the URI (NUL-terminated) to uri. Returns 1, 0 when the
 * text holds no key reference, -1 when it holds a malformed one. */
int vg_prov_keyref_parse(const char *text, size_t len, char *uri, size_t cap);

/* Hand a fetched key to OpenSSL (store load or decoder callback) as an
 * object reference; the keymgmt's load() takes it over. Consumes k. */
int vg_prov_emit_key(vg_prov_key *k, OSSL_CALLBACK *cb, void *cbarg);

/* Constant-time RSA decryption unpadding of em (k bytes). */
/* PKCS#1 v1.5 type 2: writes the message to out (cap bytes), returns its
 * length or -1; the position of the error is not revealed by timing. */
int vg_prov_unpad_pkcs1(uint8_t *out, size_t cap, const uint8_t *em, size_t k);
/* TLS premaster (RFC 5246 7.4.7.1): always writes 48 bytes: the
 * decrypted secret when padding and version are right, else random. */
int vg_prov_unpad_tls(uint8_t out[48], const uint8_t *em, size_t k, unsigned client_version,
		      unsigned alt_version);

/* Key management shared by every key type (keymgmt.c): the keymgmt
 * entry points that do not depend on the type. */
void vg_prov_km_free(void *key);
void *vg_prov_km_load(const void *reference, size_t reference_sz);
int vg_prov_km_has(const void *key, int selection);
void *vg_prov_km_dup(const void *key, int selection);

/* Algorithm names shared by keymgmt, signature, decoder and store. */
#define VG_PROV_NAMES_ED25519 "ED25519:1.3.101.112"
#define VG_PROV_NAMES_RSA "RSA:rsaEncryption:1.2.840.113549.1.1.1"
#define VG_PROV_NAMES_EC "EC:id-ecPublicKey:1.2.840.10045.2.1"
#define VG_PROV_NAMES_ECDSA "ECDSA"

extern const OSSL_DISPATCH vg_prov_ed25519_keymgmt[];
extern const OSSL_DISPATCH vg_prov_rsa_keymgmt[];
extern const OSSL_DISPATCH vg_prov_ec_keymgmt[];
extern const OSSL_DISPATCH vg_prov_ed25519_signature[];
extern const OSSL_DISPATCH vg_prov_rsa_signature[];
extern const OSSL_DISPATCH vg_prov_ecdsa_signature[];
extern const OSSL_DISPATCH vg_prov_rsa_asym_cipher[];
extern const OSSL_DISPATCH vg_prov_store[];
extern const OSSL_DISPATCH vg_prov_ed25519_decoder[];
extern const OSSL_DISPATCH vg_prov_rsa_decoder[];
extern const OSSL_DISPATCH vg_prov_ec_decoder[];

#endif
