/* hash.c: the vg_hash_alg selector over SHA-256/384/512. The algorithm
 * choice is public; the message is handled as in sha256.c and sha512.c. */
#include "vg/error.h"
#include "vg/sha2.h"

size_t vg_hash_len(vg_hash_alg alg)
{
	switch (alg) {
	case VG_HASH_SHA256:
		return VG_SHA256_LEN;
	case VG_HASH_SHA384:
		return VG_SHA384_LEN;
	case VG_HASH_SHA512:
		return VG_SHA512_LEN;
	}
	return 0; /* a value outside the enum */
}

int vg_hash(vg_hash_alg alg, uint8_t *out, const void *data, size_t len)
{
	switch (alg) {
	case VG_HASH_SHA256:
		vg_sha256(out, data, len);
		return 0;
	case VG_HASH_SHA384:
		vg_sha384(out, data, len);
		return 0;
	case VG_HASH_SHA512:
		vg_sha512(out, data, len);
		return 0;
	}
	return VG_E_INVALID;
}
