/* tls13.c: recognise the TLS 1.3 CertificateVerify content (RFC 8446
 * 4.4.3) among the bytes OpenSSL asks a key to sign, so that keys whose
 * vgd policy is `allow = tls13` can serve TLS 1.3 handshakes: vgd then
 * builds the same content itself from the transcript hash. Public data. */
#include <string.h>

#include "vgdprov.h"

int vg_prov_tls13_detect(const uint8_t *msg, size_t len, const uint8_t **hash,
			 size_t *hash_len)
{
	static const char server[] = "TLS 1.3, server CertificateVerify";
	static const char client[] = "TLS 1.3, client CertificateVerify";
	const size_t head = 64 + 33 + 1;
	if (len != head + 32 && len != head + 48 && len != head + 64)
		return 0;
	for (size_t i = 0; i < 64; i++)
		if (msg[i] != 0x20)
			return 0;
	if (msg[64 + 33] != 0)
		return 0;
	int role;
	if (memcmp(msg + 64, server, 33) == 0)
		role = VGC_TLS_SERVER;
	else if (memcmp(msg + 64, client, 33) == 0)
		role = VGC_TLS_CLIENT;
	else
		return 0;
	*hash = msg + head;
	*hash_len = len - head;
	return role;
}
