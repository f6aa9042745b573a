/* sig_der.c: ECDSA signatures between raw r||s and DER
 * (SEQUENCE { INTEGER r, INTEGER s }), so vgd's raw output and the DER
 * that OpenSSL's and aws-lc's APIs speak can be compared. Signatures are
 * public; nothing here is secret. */
#include <string.h>

#include "bench.h"

/* One INTEGER at *p (end excluded) into out, left-padded to n_len bytes.
 * Accepts only what a signer emits: short-form length, positive, minimal
 * (a leading zero only before a byte with its top bit set). */
static int get_int(const uint8_t **p, const uint8_t *end, uint8_t *out, size_t n_len)
{
	const uint8_t *q = *p;
	if (end - q < 2 || q[0] != 0x02 || q[1] >= 0x80 || q[1] == 0 || end - q - 2 < q[1])
		return -1;
	size_t len = q[1];
	q += 2;
	if (q[0] & 0x80)
		return -1; /* negative */
	if (len > 1 && q[0] == 0 && !(q[1] & 0x80))
		return -1; /* not minimal */
	*p = q + len;
	if (q[0] == 0 && len > 1) {
		q++;
		len--;
	}
	if (len > n_len)
		return -1;
	memset(out, 0, n_len - len);
	memcpy(out + n_len - len, q, len);
	return 0;
}

int vg_bench_sig_to_raw(uint8_t *raw, size_t n_len, const uint8_t *der, size_t der_len)
{
	const uint8_t *end = der + der_len;
	/* Both curves' signatures are under 128 bytes: short-form length. */
	if (der_len < 2 || der[0] != 0x30 || der[1] >= 0x80 || der[1] != der_len - 2)
		return -1;
	const uint8_t *p = der + 2;
	if (get_int(&p, end, raw, n_len) < 0 || get_int(&p, end, raw + n_len, n_len) < 0 ||
	    p != end)
		return -1;
	return (int)(2 * n_len);
}

/* One big-endian value of n_len bytes as a minimal INTEGER at der. */
static size_t put_int(uint8_t *der, const uint8_t *v, size_t n_len)
{
	size_t skip = 0;
	while (skip + 1 < n_len && v[skip] == 0)
		skip++;
	size_t len = n_len - skip, pad = v[skip] >> 7;
	der[0] = 0x02;
	der[1] = (uint8_t)(len + pad);
	der[2] = 0;
	memcpy(der + 2 + pad, v + skip, len);
	return 2 + pad + len;
}

int vg_bench_sig_to_der(uint8_t *der, size_t cap, const uint8_t *raw, size_t n_len)
{
	if (n_len == 0 || n_len > VG_BENCH_EC_MAX || cap < VG_BENCH_DER_MAX)
		return -1;
	size_t len = put_int(der + 2, raw, n_len);
	len += put_int(der + 2 + len, raw + n_len, n_len);
	der[0] = 0x30;
	der[1] = (uint8_t)len;
	return (int)(len + 2);
}
