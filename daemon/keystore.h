/* keystore.h: the loaded key set. Public descriptions (vgd_keyinfo: name,
 * type, public key, policy, ACL) are separate from the secrets, which live
 * in one locked arena so a process that must not hold keys (the front)
 * can drop them all at once. */
#ifndef VGD_KEYSTORE_H
#define VGD_KEYSTORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "vg/ed25519.h"
#include "vg/proto.h"

/* What list-keys and public-key send (KEYINFO), so sized by the wire. */
typedef struct {
	char name[VG_PROTO_MAX_KEY_NAME + 1];
	uint8_t type;   /* VG_KEY_* */
	uint32_t allow; /* VG_ALLOW_* */
	uint8_t pub[VG_PROTO_MAX_PUBKEY]; /* Ed25519/X25519 public value, or RSA n */
	size_t pub_len;
	uint8_t rsa_e[VG_PROTO_MAX_RSA_E];
	size_t rsa_e_len;
	size_t n_uids, n_gids;
	uid_t uids[VGD_MAX_ACL];
	gid_t gids[VGD_MAX_ACL];
} vgd_keyinfo;

/* Secret part of an Ed25519 or X25519 key: the seed or scalar, its public
 * key, and for Ed25519 the expanded seed (a || prefix, RFC 8032 5.1.5),
 * computed once at load so that a signature does not hash the seed again.
 * RSA and EC keys have their own secret structures instead. */
typedef struct {
	uint8_t seed[32];
	uint8_t pk[32];
	uint8_t expanded[VG_ED25519_EXPANDED_LEN];
} vgd_secret_25519;

typedef struct {
	size_t n;
	vgd_keyinfo *info;  /* n entries, ordinary memory */
	void **secret;      /* n pointers into arena */
	uint8_t *arena;     /* secmem */
	size_t arena_len;
	int locked;
} vgd_keystore;

/* Load every key of cfg. On failure nothing is kept (ks is empty) and err
 * names the key file and the reason. */
int vgd_keystore_load(vgd_keystore *ks, const vgd_config *cfg, char *err, size_t errlen);
/* Wipe and release everything. */
void vgd_keystore_free(vgd_keystore *ks);
/* Wipe and unmap the secrets only (no free(): safe under the keyholder's
 * seccomp filter). */
void vgd_keystore_wipe(vgd_keystore *ks);
/* In a forked child that holds the keys (a keyholder): lock the arena in
 * its own memory; ks->locked says whether it worked. */
void vgd_keystore_lock(vgd_keystore *ks);
/* In a forked child that must not hold keys: unmap the arena. */
void vgd_keystore_drop_secrets(vgd_keystore *ks);
/* Index of a key by name, or -1. */
int vgd_keystore_find(const vgd_keystore *ks, const char *name);

/* Read a key file, refusing a symbolic link, anything but a regular
 * file, an owner other than root or vgd's user, group/other permissions,
 * and directories others could write; parse it; build info and secret.
 * Exposed for the fuzzer and the tests. */
int vgd_key_load_file(const char *path, vgd_keyinfo *info, void *secret, size_t secret_cap,
		      char *why, size_t whylen);
/* Parse key bytes already read (no permission check). */
int vgd_key_from_bytes(const uint8_t *buf, size_t len, vgd_keyinfo *info, void *secret,
		       size_t secret_cap, char *why, size_t whylen);
/* Bytes of secret storage one key needs at most. */
size_t vgd_key_secret_size(void);

#endif
