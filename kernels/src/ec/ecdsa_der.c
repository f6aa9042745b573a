/* ecdsa_der.c: the DER encoding of ECDSA-Sig-Value (ANSI X9.62, SEC 1
 * v2 C.8; DER rules of X.690 section 10):
 *   ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }
 * The decoder accepts exactly one encoding per value: definite lengths in
 * their shortest form, INTEGERs without a superfluous leading 00 byte and
 * never negative, nothing after the SEQUENCE. Signatures are public;
 * branching on their bytes is fine. */
#include <string.h>

#include "vg/ecdsa.h"

/* Writes an INTEGER holding the unsigned big-endian v[0..len) at out;
 * returns its length. A leading 00 is added when the top bit is set (the
 * value is positive), leading zero bytes are dropped, and 0 is 02 01 00. */
static size_t put_integer(uint8_t *out, const uint8_t *v, size_t len)
{
	size_t i = 0;
	while (i + 1 < len && v[i] == 0)
		i++;
	size_t pad = v[i] >> 7;
	size_t clen = len - i + pad;
	out[0] = 0x02;
	out[1] = (uint8_t)clen; /* clen <= 49 */
	out[2] = 0;
	memcpy(out + 2 + pad, v + i, len - i);
	return 2 + clen;
}

int vg_ecdsa_sig_to_der(vg_ecdsa_curve curve, const uint8_t *raw, size_t raw_len, uint8_t *der,
			size_t cap, size_t *der_len)
{
	size_t len = vg_ecdsa_scalar_len(curve);
	uint8_t body[VG_ECDSA_MAX_DER_LEN];

	if (len == 0 || !raw || raw_len != 2 * len || !der || !der_len)
		return VG_E_INVALID;
	size_t blen = put_integer(body, raw, len);
	blen += put_integer(body + blen, raw + len, len);
	/* blen <= 2 (2 + 1 + 48) = 102 < 128: the short length form. */
	if (cap < 2 + blen)
		return VG_E_INVALID; /* VG_ECDSA_MAX_DER_LEN always suffices */
	der[0] = 0x30;
	der[1] = (uint8_t)blen;
	memcpy(der + 2, body, blen);
	*der_len = 2 + blen;
	return 0;
}

/* A definite length in its shortest form at *p (before end): the short
 * form below 128, else 0x81 with a byte >= 128 or 0x82 with two bytes
 * >= 256 (longer values cannot fit a signature anyway). The length must
 * fit in what is left. Returns 0 and advances *p, or -1. */
static int get_length(const uint8_t **p, const uint8_t *end, size_t *len)
{
	const uint8_t *q = *p;
	size_t v;

	if (q >= end)
		return -1;
	if (*q < 0x80) {
		v = *q++;
	} else if (*q == 0x81) {
		if (end - q < 2 || q[1] < 0x80)
			return -1; /* truncated, or should have been short */
		v = q[1];
		q += 2;
	} else if (*q == 0x82) {
		if (end - q < 3 || q[1] == 0)
			return -1; /* truncated, or should have been 0x81 or short */
		v = (size_t)q[1] << 8 | q[2];
		q += 3;
	} else {
		return -1; /* indefinite (0x80) or an absurd length */
	}
	if (v > (size_t)(end - q))
		return -1;
	*p = q;
	*len = v;
	return 0;
}

/* An INTEGER at *p into out (len bytes, right-aligned). */
static int get_integer(const uint8_t **p, const uint8_t *end, uint8_t *out, size_t len)
{
	const uint8_t *q = *p;
	size_t clen;

	if (q >= end || *q++ != 0x02)
		return -1;
	if (get_length(&q, end, &clen) != 0 || clen == 0)
		return -1;
	if (q[0] & 0x80)
		return -1; /* negative */
	if (q[0] == 0 && clen > 1 && !(q[1] & 0x80))
		return -1; /* a leading zero byte the value does not need */
	const uint8_t *v = q;
	size_t vlen = clen;
	if (v[0] == 0 && vlen > 1) {
		v++;
		vlen--;
	}
	if (vlen > len)
		return -1; /* wider than the curve's scalars */
	memset(out, 0, len - vlen);
	memcpy(out + len - vlen, v, vlen);
	*p = q + clen;
	return 0;
}

int vg_ecdsa_sig_from_der(vg_ecdsa_curve curve, const uint8_t *der, size_t der_len, uint8_t *raw,
			  size_t raw_len)
{
	size_t len = vg_ecdsa_scalar_len(curve), slen;
	const uint8_t *p = der, *end = der + der_len;

	if (len == 0 || !raw || raw_len != 2 * len || (!der && der_len))
		return VG_E_INVALID;
	if (der_len < 2 || *p++ != 0x30 || get_length(&p, end, &slen) != 0 ||
	    slen != (size_t)(end - p))
		goto bad; /* not one SEQUENCE spanning the whole input */
	if (get_integer(&p, end, raw, len) != 0 || get_integer(&p, end, raw + len, len) != 0 ||
	    p != end)
		goto bad;
	return 0;
bad:
	memset(raw, 0, raw_len);
	return VG_E_DECODE;
}
