/* md.c: the digests the RSA and ECDSA signatures need locally (SHA-256/384/512 from
 * the project's kernels) and their OpenSSL names. Hashes public data. */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "md.h"

static const struct {
	const char *name;
	int len;
} names[] = {
	{"SHA2-256", 32}, {"SHA-256", 32}, {"SHA256", 32}, {"2.16.840.1.101.3.4.2.1", 32},
	{"SHA2-384", 48}, {"SHA-384", 48}, {"SHA384", 48}, {"2.16.840.1.101.3.4.2.2", 48},
	{"SHA2-512", 64}, {"SHA-512", 64}, {"SHA512", 64}, {"2.16.840.1.101.3.4.2.3", 64},
};

int vg_prov_md_len(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i].name) == 0)
			return names[i].len;
	return 0;
}

const char *vg_prov_md_name(int len)
{
	return len == 32 ? "SHA2-256" : len == 48 ? "SHA2-384" : len == 64 ? "SHA2-512" : NULL;
}

void vg_prov_hash_init(vg_prov_hash *h, int len)
{
	h->len = len;
	if (len == 32)
		vg_sha256_init(&h->u.s256);
	else if (len == 48)
		vg_sha384_init(&h->u.s512);
	else
		vg_sha512_init(&h->u.s512);
}

void vg_prov_hash_update(vg_prov_hash *h, const void *data, size_t len)
{
	if (h->len == 32)
		vg_sha256_update(&h->u.s256, data, len);
	else if (h->len == 48)
		vg_sha384_update(&h->u.s512, data, len);
	else
		vg_sha512_update(&h->u.s512, data, len);
}

void vg_prov_hash_final(vg_prov_hash *h, uint8_t out[64])
{
	if (h->len == 32)
		vg_sha256_final(&h->u.s256, out);
	else if (h->len == 48)
		vg_sha384_final(&h->u.s512, out);
	else
		vg_sha512_final(&h->u.s512, out);
}

void vg_prov_digest(int md_len, const void *data, size_t len, uint8_t out[64])
{
	vg_prov_hash h;
	vg_prov_hash_init(&h, md_len);
	vg_prov_hash_update(&h, data, len);
	vg_prov_hash_final(&h, out);
}

void vg_prov_msg_init(vg_prov_msg *m, int md_len)
{
	vg_prov_hash_init(&m->hash, md_len);
	m->total = 0;
}

void vg_prov_msg_update(vg_prov_msg *m, const void *data, size_t len)
{
	if (m->total <= sizeof(m->head) && len <= sizeof(m->head) - m->total)
		memcpy(m->head + m->total, data, len);
	m->total = m->total + len < m->total ? SIZE_MAX : m->total + len;
	vg_prov_hash_update(&m->hash, data, len);
}

const uint8_t *vg_prov_msg_whole(const vg_prov_msg *m, size_t *len)
{
	if (m->total > sizeof(m->head))
		return NULL;
	*len = m->total;
	return m->head;
}
