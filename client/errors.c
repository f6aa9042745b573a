/* errors.c: libvgclient's error space: one table of VGC_E_* codes with
 * their texts and, for the daemon's statuses, the wire status each one
 * stands for (the one mapping from protocol statuses to API codes), and
 * the per-client last-error message with the daemon's reason. */
#include <stdio.h>

#include "internal.h"

/* vgclient.h: a status s is the code STATUS_BASE - s, named or not. */
#define STATUS_BASE (-100)
#define STATUS_CODE_MIN (STATUS_BASE - 255) /* the status byte's range */

int vgc_set_err(vg_client *c, int err, const char *reason, size_t rlen)
{
	if (reason && rlen)
		snprintf(c->errmsg, sizeof(c->errmsg), "%s: %.*s", vg_client_strerror(err),
			 (int)(rlen > VG_PROTO_MAX_REASON ? VG_PROTO_MAX_REASON : rlen), reason);
	else
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", vg_client_strerror(err));
	return err;
}

static const struct {
	int code;
	int status; /* the wire status it reports, -1 for the library's own */
	const char *text;
} codes[] = {
	{VGC_OK, VG_ST_OK, "success"},
	{VGC_E_CONNECT, -1, "cannot connect to vgd"},
	{VGC_E_IO, -1, "input/output error"},
	{VGC_E_TIMEOUT, -1, "timed out waiting for vgd"},
	{VGC_E_PROTOCOL, -1, "protocol error in vgd's reply"},
	{VGC_E_CLOSED, -1, "vgd closed the connection"},
	{VGC_E_NOMEM, -1, "out of memory"},
	{VGC_E_INVALID, -1, "invalid argument"},
	{VGC_E_BUFFER, -1, "output buffer too small"},
	{VGC_E_CANCELLED, -1, "request cancelled"},
	{VGC_E_BUSY, -1, "not allowed inside a completion callback"},
	{VGC_E_MALFORMED, VG_ST_MALFORMED, "vgd: malformed request"},
	{VGC_E_BAD_VERSION, VG_ST_BAD_VERSION, "vgd: unsupported protocol version"},
	{VGC_E_UNKNOWN_OP, VG_ST_UNKNOWN_OP, "vgd: unknown operation"},
	{VGC_E_UNKNOWN_KEY, VG_ST_UNKNOWN_KEY, "vgd: unknown key"},
	{VGC_E_NOT_ALLOWED, VG_ST_NOT_ALLOWED, "vgd: not allowed"},
	{VGC_E_BAD_INPUT, VG_ST_BAD_INPUT, "vgd: bad input"},
	{VGC_E_TOO_LARGE, VG_ST_TOO_LARGE, "vgd: request too large"},
	{VGC_E_OVERLOADED, VG_ST_OVERLOADED, "vgd: overloaded, try again"},
	{VGC_E_INTERNAL, VG_ST_INTERNAL, "vgd: internal error"},
	{VGC_E_UNAVAILABLE, VG_ST_UNAVAILABLE, "vgd: unavailable (shutting down)"},
};

#define NCODES (sizeof(codes) / sizeof(codes[0]))

int vgc_err_from_status(int status)
{
	for (size_t i = 0; i < NCODES; i++)
		if (codes[i].status >= 0 && codes[i].status == status)
			return codes[i].code;
	return STATUS_BASE - status;
}

const char *vg_client_strerror(int err)
{
	for (size_t i = 0; i < NCODES; i++)
		if (codes[i].code == err)
			return codes[i].text;
	return err <= STATUS_BASE && err >= STATUS_CODE_MIN ? "vgd: error (unknown status)"
							    : "unknown error";
}

const char *vg_client_errmsg(const vg_client *c) { return c->errmsg[0] ? c->errmsg : "no error"; }
