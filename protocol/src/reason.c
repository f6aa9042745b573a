/* reason.c: the reason texts and their statuses (vg/proto_reason.h).
 * Nothing here is secret. */
#include "vg/proto_reason.h"

static const struct {
	int status;
	const char *text;
} reasons[VG_R_COUNT] = {
#define VG_REASON_ROW(id, status, text) [id] = { status, text },
	VG_REASONS(VG_REASON_ROW)
#undef VG_REASON_ROW
};

const char *vg_reason(int reason)
{
	if (reason < 0 || reason >= VG_R_COUNT)
		return "unknown";
	return reasons[reason].text;
}

int vg_reason_status(int reason)
{
	if (reason < 0 || reason >= VG_R_COUNT)
		return VG_ST_INTERNAL;
	return reasons[reason].status;
}

int vg_frame_fault(long check)
{
	if (check == -VG_ST_BAD_VERSION)
		return VG_R_BAD_VERSION;
	if (check == -VG_ST_TOO_LARGE)
		return VG_R_FRAME_TOO_LARGE;
	return VG_R_BAD_HEADER; /* bad magic, nonzero reserved bytes */
}
