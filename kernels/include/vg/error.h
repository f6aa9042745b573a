/* vg/error.h: the kernels' error codes. Every kernel function that can
 * fail returns 0 or a negative VG_E_* value. These codes stay inside the
 * kernels' callers: the daemon maps them to its own codes or to protocol
 * statuses at the call (daemon/errcode.h, daemon/keyops.c), the protocol
 * has its statuses (vg/proto.h) and libvgclient its VGC_E_* codes.
 * Nothing here is secret. */
#ifndef VG_ERROR_H
#define VG_ERROR_H

#define VG_MUST_CHECK __attribute__((warn_unused_result))

/* X(name, value, message): the single source of truth for codes and text. */
#define VG_ERRORS(X)                                                     \
	X(VG_OK, 0, "success")                                           \
	X(VG_E_INVALID, -1, "invalid argument")                          \
	X(VG_E_VERIFY, -2, "signature does not verify")                  \
	X(VG_E_RANGE, -3, "input out of range")                          \
	X(VG_E_ZERO, -4, "all-zero shared secret (low-order point)")     \
	X(VG_E_FAULT, -5, "computation fault detected; result withheld") \
	X(VG_E_KEY, -6, "invalid key")                                   \
	X(VG_E_RANDOM, -7, "random number generator failed")             \
	X(VG_E_UNSUPPORTED, -8, "unsupported parameter")                 \
	X(VG_E_DECODE, -9, "malformed encoding")

enum vg_error {
#define VG_ERR_ENUM(name, value, msg) name = (value),
	VG_ERRORS(VG_ERR_ENUM)
#undef VG_ERR_ENUM
};

/* Returns a static, human-readable message for an error code. */
const char *vg_strerror(int err);

#endif
