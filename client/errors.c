/* errors.c: libvgclient's error texts: one table of codes, and the
 * per-client last-error message with the daemon's reason. */
#include <stdio.h>

#include "internal.h"

int vgc_set_err(vg_client *c, int err, const char *reason, size_t rlen)
{
	if (reason && rlen)
		snprintf(c->errmsg, sizeof(c->errmsg), "%s: %.*s", vg_client_strerror(err),
			 (int)(rlen > 255 ? 255 : rlen), reason);
	else
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", vg_client_strerror(err));
	return err;
}

static const struct {
	int code;
	const char *text;
} texts[] = {
	{VGC_OK, "success"},
	{VGC_E_CONNECT, "cannot connect to vgd"},
	{VGC_E_IO, "input/output error"},
	{VGC_E_TIMEOUT, "timed out waiting for vgd"},
	{VGC_E_PROTOCOL, "protocol error in vgd's reply"},
	{VGC_E_CLOSED, "vgd closed the connection"},
	{VGC_E_NOMEM, "out of memory"},
	{VGC_E_INVALID, "invalid argument"},
	{VGC_E_BUFFER, "output buffer too small"},
	{VGC_E_CANCELLED, "request cancelled"},
	{VGC_E_BUSY, "not allowed inside a completion callback"},
	{VGC_E_MALFORMED, "vgd: malformed request"},
	{VGC_E_BAD_VERSION, "vgd: unsupported protocol version"},
	{VGC_E_UNKNOWN_OP, "vgd: unknown operation"},
	{VGC_E_UNKNOWN_KEY, "vgd: unknown key"},
	{VGC_E_NOT_ALLOWED, "vgd: not allowed"},
	{VGC_E_BAD_INPUT, "vgd: bad input"},
	{VGC_E_TOO_LARGE, "vgd: request too large"},
	{VGC_E_OVERLOADED, "vgd: overloaded, try again"},
	{VGC_E_INTERNAL, "vgd: internal error"},
	{VGC_E_UNAVAILABLE, "vgd: unavailable (shutting down)"},
};

const char *vg_client_strerror(int err)
{
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].code == err)
			return texts[i].text;
	return err <= -100 && err >= -355 ? "vgd: error (unknown status)" : "unknown error";
}

const char *vg_client_errmsg(const vg_client *c) { return c->errmsg[0] ? c->errmsg : "no error"; }
