/* sc.h: arithmetic on Ed25519 scalars modulo the group order
 * L = 2^252 + 27742317777372353535851937790883648493. Scalars are 32 bytes
 * little-endian. Constant time: the inputs are treated as secret. */
#ifndef VG_SC_H
#define VG_SC_H

#include <stdint.h>

/* out = in mod L, for a 64-byte little-endian in (a SHA-512 output). */
void vg_sc_reduce(uint8_t out[32], const uint8_t in[64]);

/* out = a*b + c mod L, for any 256-bit a, b, c. out may alias an input. */
void vg_sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]);

/* 1 if s < L (s is the canonical encoding of a scalar), else 0. */
uint64_t vg_sc_is_canonical(const uint8_t s[32]);

#endif
