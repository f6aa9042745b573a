/* reason.c: the reason texts and their statuses (vg/proto_reason.h).
 * Nothing here is secret. */
#include "vg/proto_reason.h"

#include "vg/proto_tables.h"

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

/* Append src to buf[*len, cap), keeping a NUL; cut at cap. */
static void append(char *buf, size_t cap, size_t *len, const char *src)
{
	while (*src != '\0' && *len + 1 < cap)
		buf[(*len)++] = *src++;
	buf[*len] = '\0';
}

const char *vg_reason_policy(int why, uint32_t allowed, char *buf, size_t cap)
{
	static const uint32_t bits[] = { VG_ALLOW_SIGN, VG_ALLOW_SIGN_TLS13, VG_ALLOW_X25519,
					 VG_ALLOW_RSA_PRIVATE };
	size_t len = 0;
	int first = 1;

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	append(buf, cap, &len, vg_reason(why));
	append(buf, cap, &len, vg_reason(VG_R_POLICY_ALLOWS));
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		if (!(allowed & bits[i]))
			continue;
		/* The config's "sign" sets the TLS 1.3 bit too: say it once. */
		if (bits[i] == VG_ALLOW_SIGN_TLS13 && (allowed & VG_ALLOW_SIGN))
			continue;
		if (!first)
			append(buf, cap, &len, ", ");
		append(buf, cap, &len, vg_allow_name(bits[i]));
		first = 0;
	}
	if (first)
		append(buf, cap, &len, "nothing"); /* not loadable: the keystore refuses it */
	return buf;
}
