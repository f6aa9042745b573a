/* unpad.c: constant-time removal of RSA encryption padding (PKCS#1 v1.5
 * type 2, RFC 8017 7.2.2; the TLS premaster form of RFC 5246 7.4.7.1).
 * Secret: the decrypted block em and everything derived from it; no branch
 * or memory index depends on it. Only the final length is revealed, which
 * the caller returns anyway. */
#include <string.h>

#include <openssl/rand.h>

#include <vg/wipe.h>

#include "vgdprov.h"

/* All-ones when x == 0, else zero. */
static unsigned ct_is_zero(unsigned x)
{
	return 0u - (((~x & (x - 1)) >> (sizeof(unsigned) * 8 - 1)) & 1u);
}

static unsigned ct_eq(unsigned a, unsigned b)
{
	return ct_is_zero(a ^ b);
}

/* All-ones when a < b (both below 2^31). */
static unsigned ct_lt(unsigned a, unsigned b)
{
	return 0u - ((a - b) >> (sizeof(unsigned) * 8 - 1));
}

/* Scan em = 00 02 PS(>= 8 nonzero) 00 M. Returns all-ones when well
 * formed and writes the offset of M to *start (garbage otherwise). */
static unsigned scan_pkcs1(const uint8_t *em, size_t k, unsigned *start)
{
	unsigned good = ct_is_zero(em[0]) & ct_eq(em[1], 2);
	unsigned found = 0, zero_at = 0;
	for (size_t i = 2; i < k; i++) {
		unsigned z = ct_is_zero(em[i]) & ~found;
		zero_at |= (unsigned)i & z;
		found |= z;
	}
	good &= found;
	good &= ~ct_lt(zero_at, 2 + 8); /* at least 8 bytes of padding */
	*start = zero_at + 1;
	return good;
}

int vg_prov_unpad_pkcs1(uint8_t *out, size_t cap, const uint8_t *em, size_t k)
{
	if (k < 11 || k > 1024)
		return -1;
	unsigned start;
	unsigned good = scan_pkcs1(em, k, &start);
	unsigned mlen = (unsigned)k - start;
	good &= ~ct_lt((unsigned)cap, mlen);
	/* Move M to the front of a k-byte window without indexing by the
	 * secret start: shift left by (start) in log2(k) masked steps. */
	uint8_t buf[1024];
	memcpy(buf, em, k);
	unsigned shift = start & good; /* garbage only when good == 0 */
	for (unsigned b = 0; ((size_t)1 << b) < k; b++) {
		size_t step = (size_t)1 << b;
		unsigned m = 0u - ((shift >> b) & 1u);
		for (size_t i = 0; i < k; i++) {
			uint8_t moved = i + step < k ? buf[i + step] : 0;
			buf[i] = (uint8_t)((moved & m) | (buf[i] & ~m));
		}
	}
	/* Only now, with the result decided, is the outcome public. */
	int ok = (int)(good & 1u);
	size_t n = mlen < cap ? mlen : cap;
	if (ok)
		memcpy(out, buf, n);
	vg_wipe(buf, sizeof(buf));
	return ok ? (int)mlen : -1;
}

int vg_prov_unpad_tls(uint8_t out[48], const uint8_t *em, size_t k, unsigned client_version,
		      unsigned alt_version)
{
	uint8_t rnd[48];
	if (k < 11 + 48 || k > 1024 || RAND_bytes(rnd, sizeof(rnd)) != 1)
		return -1;
	unsigned start;
	unsigned good = scan_pkcs1(em, k, &start);
	good &= ct_eq((unsigned)k - start, 48);
	/* The premaster sits at the end of em when the padding is right. */
	const uint8_t *pm = em + k - 48;
	unsigned ver = ct_eq(pm[0], (client_version >> 8) & 0xff) &
		       ct_eq(pm[1], client_version & 0xff);
	if (alt_version)
		ver |= ct_eq(pm[0], (alt_version >> 8) & 0xff) & ct_eq(pm[1], alt_version & 0xff);
	good &= ver;
	for (size_t i = 0; i < 48; i++)
		out[i] = (uint8_t)((pm[i] & good) | (rnd[i] & ~good));
	vg_wipe(rnd, sizeof(rnd));
	return 48;
}
