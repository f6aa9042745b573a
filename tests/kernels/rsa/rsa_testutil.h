/* rsa_testutil.h: shared helpers of the RSA tests: keys from vector records
 * (hex or JWK), hash names, a deterministic PRNG. Test-only: aborts on
 * malformed input. */
#ifndef VG_RSA_TESTUTIL_H
#define VG_RSA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "vecfile.h"
#include "vg/rsa.h"

/* The eight key values in malloc'd buffers, and a view of them. */
typedef struct {
	uint8_t *buf[8];
	vg_rsa_key_parts parts;
} trsa_parts;

/* From the hex fields privateKey.{modulus,publicExponent,...}; aborts if
 * one is missing. */
void trsa_parts_hex(trsa_parts *t, vg_vecfile *f);
/* From the base64url fields privateKeyJwk.{n,e,d,p,q,dp,dq,qi}; returns -1
 * (and fills nothing) if the record has no JWK. */
int trsa_parts_jwk(trsa_parts *t, vg_vecfile *f);
void trsa_parts_free(trsa_parts *t);

/* base64url (no padding needed) into a fresh buffer; aborts if malformed. */
uint8_t *trsa_b64url(const char *s, size_t *len);

/* "SHA-256" -> VG_HASH_SHA256 etc.; 0 for hashes vg does not support. */
int trsa_hash_alg(const char *name);

/* A fresh malloc'd vg_rsa_key loaded from parts (rc in *rc; NULL and *rc
 * set if the load failed). */
vg_rsa_key *trsa_key_new(const vg_rsa_key_parts *parts, int *rc);
void trsa_key_free(vg_rsa_key *key);

/* Load the first record's hex private key of a vector file
 * (rsa_pkcs1_<bits>_test.txt); aborts on failure. */
vg_rsa_key *trsa_key_from_file(const char *name);

/* splitmix64: deterministic test randomness. */
uint64_t trsa_rand(uint64_t *state);
void trsa_rand_bytes(uint64_t *state, uint8_t *out, size_t len);

#endif
