/* vg/proto_tls13.h: the TLS 1.3 CertificateVerify content (RFC 8446
 * 4.4.3), built by the daemon in TLS 1.3 mode (PROTOCOL.md 6.5.1) and
 * recognised by the OpenSSL provider among the bytes OpenSSL asks a key to
 * sign. One copy, so both sides agree byte for byte. Public data: the
 * content holds a transcript hash, not a secret. */
#ifndef VG_PROTO_TLS13_H
#define VG_PROTO_TLS13_H

#include <stddef.h>
#include <stdint.h>

#define VG_TLS13_PAD_LEN 64     /* 0x20 bytes before the context string */
#define VG_TLS13_CONTEXT_LEN 33 /* "TLS 1.3, server CertificateVerify" */
/* pad, context string, one 0x00 byte: what comes before the hash */
#define VG_TLS13_HEAD_LEN (VG_TLS13_PAD_LEN + VG_TLS13_CONTEXT_LEN + 1)
/* the longest content: with a 64-byte (SHA-512) transcript hash */
#define VG_TLS13_CONTENT_MAX (VG_TLS13_HEAD_LEN + 64)

/* Write the content for role (VG_TLS_SERVER/VG_TLS_CLIENT) and a
 * transcript hash of 32, 48 or 64 bytes to out. Returns its length, or 0
 * (nothing written) for another role or hash length. */
size_t vg_tls13_content(uint8_t out[VG_TLS13_CONTENT_MAX], int role, const uint8_t *hash,
			size_t hash_len);

/* If msg is exactly such a content, return its role and point *hash at
 * the transcript hash (*hash_len bytes, inside msg); else 0. */
int vg_tls13_parse(const uint8_t *msg, size_t len, const uint8_t **hash, size_t *hash_len);

#endif
