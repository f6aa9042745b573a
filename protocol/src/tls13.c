/* tls13.c: the TLS 1.3 CertificateVerify content (vg/proto_tls13.h,
 * RFC 8446 4.4.3): 64 spaces, the context string, a zero byte, the
 * transcript hash. Public data. */
#include "vg/proto_tls13.h"

#include <string.h>

#include "vg/proto.h"
#include "vg/proto_tables.h"

/* Both context strings have the same length: only the role word differs. */
static const char server_ctx[] = "TLS 1.3, server CertificateVerify";
static const char client_ctx[] = "TLS 1.3, client CertificateVerify";

_Static_assert(sizeof server_ctx - 1 == VG_TLS13_CONTEXT_LEN &&
		       sizeof client_ctx - 1 == VG_TLS13_CONTEXT_LEN,
	       "context strings are VG_TLS13_CONTEXT_LEN bytes");

/* A transcript hash is a SHA-256/384/512 digest: the digest table's lengths. */
static int hash_len_ok(size_t n)
{
	return vg_digest_from_len(n) != VG_DIGEST_NONE;
}

size_t vg_tls13_content(uint8_t out[VG_TLS13_CONTENT_MAX], int role, const uint8_t *hash,
			size_t hash_len)
{
	const char *ctx = role == VG_TLS_SERVER	  ? server_ctx
			  : role == VG_TLS_CLIENT ? client_ctx
						  : NULL;

	if (ctx == NULL || hash == NULL || !hash_len_ok(hash_len))
		return 0;
	memset(out, 0x20, VG_TLS13_PAD_LEN);
	memcpy(out + VG_TLS13_PAD_LEN, ctx, VG_TLS13_CONTEXT_LEN);
	out[VG_TLS13_HEAD_LEN - 1] = 0;
	memcpy(out + VG_TLS13_HEAD_LEN, hash, hash_len);
	return VG_TLS13_HEAD_LEN + hash_len;
}

int vg_tls13_parse(const uint8_t *msg, size_t len, const uint8_t **hash, size_t *hash_len)
{
	int role;

	if (msg == NULL || len < VG_TLS13_HEAD_LEN || !hash_len_ok(len - VG_TLS13_HEAD_LEN))
		return 0;
	for (size_t i = 0; i < VG_TLS13_PAD_LEN; i++)
		if (msg[i] != 0x20)
			return 0;
	if (msg[VG_TLS13_HEAD_LEN - 1] != 0)
		return 0;
	if (memcmp(msg + VG_TLS13_PAD_LEN, server_ctx, VG_TLS13_CONTEXT_LEN) == 0)
		role = VG_TLS_SERVER;
	else if (memcmp(msg + VG_TLS13_PAD_LEN, client_ctx, VG_TLS13_CONTEXT_LEN) == 0)
		role = VG_TLS_CLIENT;
	else
		return 0;
	*hash = msg + VG_TLS13_HEAD_LEN;
	*hash_len = len - VG_TLS13_HEAD_LEN;
	return role;
}
