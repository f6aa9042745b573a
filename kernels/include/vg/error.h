/* vg/error.h: the one table of error codes shared by kernels, protocol,
 * daemon and client. Every function that can fail returns 0 or a negative
 * VG_E_* value. Nothing here is secret. */
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
	X(VG_E_NOMEM, -7, "out of memory")                               \
	X(VG_E_RANDOM, -8, "random number generator failed")             \
	X(VG_E_UNSUPPORTED, -9, "unsupported parameter")                 \
	X(VG_E_DECODE, -10, "malformed encoding")                        \
	X(VG_E_TOOBIG, -11, "too large")                                 \
	X(VG_E_IO, -12, "input/output error")                            \
	X(VG_E_PERM, -13, "permission denied")                           \
	X(VG_E_NOTFOUND, -14, "not found")                               \
	X(VG_E_TIMEOUT, -15, "timed out")                                \
	X(VG_E_CLOSED, -16, "connection closed")                         \
	X(VG_E_PROTO, -17, "protocol error")                             \
	X(VG_E_AGAIN, -18, "try again")                                  \
	X(VG_E_INTERNAL, -19, "internal error")

enum vg_error {
#define VG_ERR_ENUM(name, value, msg) name = (value),
	VG_ERRORS(VG_ERR_ENUM)
#undef VG_ERR_ENUM
};

/* Returns a static, human-readable message for an error code. */
const char *vg_strerror(int err);

#endif
