/* keytype.h: one row per key type the daemon holds (vgd_keytypes[],
 * keytype.c), indexed by VG_KEY_* value: how a key of that type is loaded
 * into its arena slot, described for list-keys, wiped, used by each key
 * operation, batched, scheduled and (later) generated. The protocol's row
 * of the same value (vg_key_type_info, protocol/src/algtab.c) says what
 * the wire and the policies know about the type; this row says what the
 * daemon does with it, so no daemon file tests a key's type itself.
 * Nothing in a row is secret. The functions it points to handle a key's
 * secret slot; a row is chosen by the key's type, which is public, so a
 * call through a row branches on nothing secret. */
#ifndef VGD_KEYTYPE_H
#define VGD_KEYTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "keyfile.h"
#include "keyops.h"
#include "keystore.h"

/* The keyholder's batch families (khbatch.h), one per multi-buffer
 * kernel family; a row names its own, or VGD_KB_NONE. */
enum { VGD_KB_NONE = -1, VGD_KB_RSA, VGD_KB_ECDSA, VGD_KB_ED25519, VGD_KB_X25519, VGD_KB_KINDS };

typedef struct {
	uint8_t type; /* VG_KEY_*; also the row's index */
	/* Bytes of arena a key of this type needs: its kernel structure
	 * (the kernels' key types are opaque, so a function). */
	size_t (*secret_size)(void);
	/* The parsed key file kf (kf->type is this row's) into the arena
	 * slot secret (at least secret_size() bytes: the caller checks):
	 * checked, with whatever the kernels precompute. 0, or a negative
	 * VGD_E_* with why; on failure the slot holds nothing to wipe. */
	int (*load)(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
	/* The public description of a loaded key: info->pub, pub_len, and
	 * RSA's rsa_e. 0, or a negative VGD_E_* with why (the caller then
	 * wipes the slot). */
	int (*describe)(const void *secret, vgd_keyinfo *info, char *why, size_t whylen);
	/* Wipe a loaded key's slot (the arena is wiped again when freed). */
	void (*wipe)(void *secret);
	/* sign: the kernel call of a signature row a whose key type is this
	 * one, over in (the message or the digest the row names); fmt is
	 * the SIG_FORMAT (0: the row's default). out holds
	 * VG_PROTO_MAX_RESULT bytes. VG_ST_*, why->text on failure. NULL:
	 * no algorithm signs with this type. */
	int (*sign)(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		    size_t len, uint8_t *out, size_t *out_len, vgd_reason *why);
	/* x25519 operation (key agreement with the peer's value); NULL: not
	 * this type's. */
	int (*agree)(const void *secret, const uint8_t *peer, size_t len, uint8_t *out,
		     size_t *out_len, vgd_reason *why);
	/* rsa-private operation (raw m^d mod n); NULL: not this type's. */
	int (*rsa_private)(const void *secret, const uint8_t *in, size_t len, uint8_t *out,
			   size_t *out_len, vgd_reason *why);
	/* The keyholder's batch family (VGD_KB_*) whose multi-buffer
	 * kernel runs this type's operations side by side, or VGD_KB_NONE:
	 * each request runs alone. */
	int batch;
	/* 1: operations slow next to the VGD_KH_HOLD_US a reply may be held
	 * (record.h); the keyholder sends held replies before running one. */
	uint8_t slow;
	/* Create a new key of this type with the kernels' constant-time
	 * generators (vg/keygen.h), checked by their pairwise test, and write
	 * it into der (cap bytes; secret: the caller's secure memory) as the
	 * PKCS#8 DER that load() reads back (keygen.c); bits is the modulus's
	 * size for RSA (2048, 3072, 4096), 0 for a type of one size. 0 and
	 * *len, or a negative VGD_E_* with why (der is then wiped). vgctl
	 * genkey calls it; VGD_KEYGEN_DER_MAX bytes always suffice. */
	int (*generate)(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			size_t whylen);
} vgd_keytype;

/* Bytes of DER that any generated key fits in (RSA-4096: about 2.4 KB). */
#define VGD_KEYGEN_DER_MAX 4096

/* The rows, indexed by VG_KEY_* value; index 0 and any value without a
 * row hold zeros (type 0). */
extern const vgd_keytype vgd_keytypes[VG_KEY_MAX + 1];

/* The row of a VG_KEY_* value, or NULL for a value without one. */
const vgd_keytype *vgd_keytype_get(int type);

/* ---- the rows' functions ----
 * Loading, description and wiping (keyload.c), by kernel family. */
size_t vgd_kt25519_size(void);
int vgd_kt_ed25519_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
int vgd_kt_x25519_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
int vgd_kt25519_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen);
void vgd_kt25519_wipe(void *secret);

size_t vgd_kt_rsa_size(void);
int vgd_kt_rsa_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
int vgd_kt_rsa_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen);
void vgd_kt_rsa_wipe(void *secret);

size_t vgd_kt_ecdsa_size(void);
int vgd_kt_p256_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
int vgd_kt_p384_load(const vgd_keyfile *kf, void *secret, char *why, size_t whylen);
int vgd_kt_ecdsa_describe(const void *secret, vgd_keyinfo *info, char *why, size_t whylen);
void vgd_kt_ecdsa_wipe(void *secret);

/* Generation (keygen.c). */
int vgd_kt_ed25519_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			    size_t whylen);
int vgd_kt_x25519_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			   size_t whylen);
int vgd_kt_rsa_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			size_t whylen);
int vgd_kt_p256_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			 size_t whylen);
int vgd_kt_p384_generate(unsigned bits, uint8_t *der, size_t cap, size_t *len, char *why,
			 size_t whylen);

/* The operations' kernel calls (keyops.c). */
int vgd_kt_ed25519_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
			size_t len, uint8_t *out, size_t *out_len, vgd_reason *why);
int vgd_kt_rsa_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		    size_t len, uint8_t *out, size_t *out_len, vgd_reason *why);
int vgd_kt_ecdsa_sign(const vg_alg_info *a, uint8_t fmt, const void *secret, const uint8_t *in,
		      size_t len, uint8_t *out, size_t *out_len, vgd_reason *why);
int vgd_kt_x25519_agree(const void *secret, const uint8_t *peer, size_t len, uint8_t *out,
			size_t *out_len, vgd_reason *why);
int vgd_kt_rsa_private(const void *secret, const uint8_t *in, size_t len, uint8_t *out,
		       size_t *out_len, vgd_reason *why);

#endif
