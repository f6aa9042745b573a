/* rsa_prime.h: probabilistic primality of an RSA key's secret primes,
 * checked when the key is loaded (rsa_key.c): a corrupt or malicious key
 * file with a composite factor is refused instead of leaking through
 * signatures made with it. Constant time in the prime (rsa_prime.c). */
#ifndef VG_RSA_PRIME_H
#define VG_RSA_PRIME_H

#include <stddef.h>
#include <stdint.h>

#include "rsa/mont.h"

/* Miller-Rabin rounds at load. A composite passes one round with
 * probability at most 1/4 whatever it is (a crafted one included), so 40
 * rounds bound that at 2^-80; for random candidates the bound is far
 * smaller. The cost is about one exponentiation per round per prime: on
 * the project machine (AMD EPYC Zen 4, ifma tier) a key load takes 45 ms
 * more for RSA-2048 and 0.25 s for RSA-4096 (C tier: 0.14 s, 1.1 s). */
#define VG_RSA_MR_ROUNDS 40

/* 1 if the odd modulus of ctx (bits long, bits public, >= 3) passes rounds
 * Miller-Rabin rounds with random bases, else 0 (also 0 if no randomness
 * could be had). Constant time in the modulus, given bits and rounds. */
uint64_t vg_rsa_prime_check(const vg_mont *ctx, size_t bits, unsigned rounds);

#endif
