/* der.c: DER (X.690) definite-length headers and unsigned INTEGERs
 * (vg/proto_x509.h), written by spki.c and vgctl, read by csrinfo.c.
 * Public data only. */
#include "vg/proto_x509.h"

#include <string.h>

/* The most one element here can hold: a request carries at most a frame. */
#define DER_LEN_MAX 0xffffu

size_t vg_der_hdr(uint8_t *p, uint8_t tag, size_t len)
{
	size_t n = len < 0x80 ? 2 : len < 0x100 ? 3 : len <= DER_LEN_MAX ? 4 : 0;

	if (p == NULL || n == 0)
		return n;
	p[0] = tag;
	if (n == 2) {
		p[1] = (uint8_t)len;
	} else {
		/* long form: 0x80 | the count of length bytes, then them */
		p[1] = (uint8_t)(0x80 | (n - 2));
		if (n == 4)
			p[2] = (uint8_t)(len >> 8);
		p[n - 1] = (uint8_t)len;
	}
	return n;
}

size_t vg_der_uint(uint8_t *p, const uint8_t *v, size_t n)
{
	while (n > 1 && v[0] == 0) {
		v++;
		n--;
	}
	if (n == 0)
		return 0;
	size_t pad = (v[0] & 0x80) ? 1 : 0; /* keep it positive */
	size_t h = vg_der_hdr(NULL, 0x02, n + pad);
	if (h == 0 || p == NULL)
		return h == 0 ? 0 : h + pad + n;
	vg_der_hdr(p, 0x02, n + pad);
	if (pad)
		p[h] = 0;
	memcpy(p + h + pad, v, n);
	return h + pad + n;
}

size_t vg_der_read(const uint8_t *p, size_t left, uint8_t tag, size_t *len)
{
	size_t h, n;

	if (p == NULL || left < 2 || p[0] != tag)
		return 0;
	if (p[1] < 0x80) {
		h = 2;
		n = p[1];
	} else if (p[1] == 0x81 && left >= 3) {
		h = 3;
		n = p[2];
		if (n < 0x80) /* would have fitted the short form */
			return 0;
	} else if (p[1] == 0x82 && left >= 4) {
		h = 4;
		n = (size_t)p[2] << 8 | p[3];
		if (n < 0x100) /* a leading zero length byte */
			return 0;
	} else {
		/* 0x80 is the indefinite form (BER only); more than two length
		 * bytes is more than a request can hold. */
		return 0;
	}
	if (n > left - h)
		return 0;
	*len = n;
	return h;
}
