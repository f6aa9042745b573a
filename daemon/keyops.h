/* keyops.h: the operations a keyholder runs on a key, and the policy check
 * shared by the front (first) and the keyholder (again). */
#ifndef VGD_KEYOPS_H
#define VGD_KEYOPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "keystore.h"

/* May a caller with these credentials use this key at all? */
int vgd_acl_allows(const vgd_keyinfo *info, uid_t uid, gid_t gid);

/* Does the key's type and policy permit (op, alg)? VG_ST_OK, or
 * VG_ST_NOT_ALLOWED / VG_ST_BAD_INPUT with *reason. */
int vgd_policy_check(const vgd_keyinfo *info, uint8_t op, uint8_t alg, const char **reason);

/* Run op on the key. out holds at least 512 bytes. Returns VG_ST_* and
 * *reason for errors; *out_len on success. */
int vgd_keyop_run(const vgd_keyinfo *info, const void *secret, uint8_t op, uint8_t alg,
		  uint8_t tls_role, const uint8_t *data, size_t len, uint8_t *out,
		  size_t *out_len, const char **reason);

#endif
