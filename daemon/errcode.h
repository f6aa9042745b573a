/* errcode.h: the daemon's own error codes, for what can fail while it
 * starts and loads (configuration, key files, the sandbox, sd_notify).
 * Functions return 0 or a negative VGD_E_*; the text for people goes into
 * the caller's message buffer next to it. Kernel codes (vg/error.h) do not
 * travel further than the call that returned them: vgd_err_from_kernel()
 * maps one here, and daemon/keyops.c maps one to a protocol status for a
 * client. Nothing here is secret. */
#ifndef VGD_ERRCODE_H
#define VGD_ERRCODE_H

#include "vg/error.h"

enum vgd_error {
	VGD_OK = 0,
	VGD_E_INVALID = -1,     /* a bad value: configuration, policy, argument */
	VGD_E_IO = -2,          /* open/read/write failed */
	VGD_E_PERM = -3,        /* file mode or privileges refused */
	VGD_E_NOTFOUND = -4,    /* a named file or credential is not there */
	VGD_E_NOMEM = -5,
	VGD_E_TOOBIG = -6,      /* a file or value above its limit */
	VGD_E_DECODE = -7,      /* a key file does not parse */
	VGD_E_UNSUPPORTED = -8, /* a key form or parameter vgd does not take */
	VGD_E_KEY = -9,         /* key material the kernels refuse */
	VGD_E_INTERNAL = -10,
};

/* A kernel error as a daemon error (0 stays 0). */
static inline int vgd_err_from_kernel(int err)
{
	switch (err) {
	case VG_OK: return VGD_OK;
	case VG_E_INVALID: return VGD_E_INVALID;
	case VG_E_KEY: return VGD_E_KEY;
	case VG_E_UNSUPPORTED: return VGD_E_UNSUPPORTED;
	default: return VGD_E_INTERNAL;
	}
}

#endif
