/* keyholder.c: the keyholder loop. Receives fixed-layout records from the
 * front (vgd_kreq), checks them again, runs the operation, replies. Holds
 * the only copies of the keys outside the supervisor; wipes them on exit.
 * Secret: the key store. Uses no allocation in the loop. */
#include "keyholder.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "keyops.h"
#include "log.h"
#include "record.h"
#include "vg/proto.h"
#include "vg/wipe.h"

#ifdef VGD_TEST_HOOKS
#include <sys/stat.h>
/* Test builds only (vgd-testhooks): a sign request whose message is this
 * string makes the keyholder call a system call its filter forbids. */
static const char violate_msg[] = "vgd-test-violate-sandbox";
#endif

static int check_request(const uint8_t *buf, ssize_t n, const vgd_kreq **out)
{
	if (n < (ssize_t)sizeof(vgd_kreq))
		return 0;
	const vgd_kreq *q = (const vgd_kreq *)buf;
	if (q->magic != VGD_KREQ_MAGIC || q->data_len > VG_PROTO_MAX_DATA ||
	    (size_t)n != sizeof(vgd_kreq) + q->data_len ||
	    memchr(q->key, 0, sizeof(q->key)) == NULL || q->op < VG_OP_SIGN ||
	    q->op > VG_OP_RSA_PRIVATE || q->alg > VG_ALG_MAX || q->role > VG_TLS_CLIENT)
		return 0;
	if (q->op == VG_OP_SIGN && (q->alg == 0 || (q->alg == VG_ALG_TLS13) != (q->role != 0)))
		return 0;
	*out = q;
	return 1;
}

static void set_reason(vgd_krep *r, const char *why)
{
	size_t n = strlen(why);
	if (n >= sizeof(r->reason))
		n = sizeof(r->reason) - 1;
	memcpy(r->reason, why, n);
	r->reason[n] = 0;
}

int vgd_keyholder_main(vgd_keystore *ks, int fd)
{
	static uint8_t in[VGD_KREQ_MAX];
	static uint8_t out[VGD_RESULT_MAX];
	int status = 0;
	for (;;) {
		ssize_t n = recv(fd, in, sizeof(in), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the front closed the channel: exit */
		const vgd_kreq *q;
		vgd_krep rep;
		memset(&rep, 0, sizeof(rep));
		rep.magic = VGD_KREP_MAGIC;
		if (!check_request(in, n, &q)) {
			vgd_err("invalid record from the front; exiting");
			status = 1;
			break;
		}
		rep.job = q->job;
		const uint8_t *data = in + sizeof(vgd_kreq);
#ifdef VGD_TEST_HOOKS
		if (q->data_len == sizeof(violate_msg) - 1 &&
		    memcmp(data, violate_msg, q->data_len) == 0)
			(void)mkdir("/nonexistent-vgd-test", 0700);
#endif
		const char *reason = "";
		size_t out_len = 0;
		int i = vgd_keystore_find(ks, q->key);
		if (i < 0) {
			/* The key set changed between the front's check and now. */
			rep.status = VG_ST_UNKNOWN_KEY;
			reason = "no such key";
		} else {
			rep.status = (uint8_t)vgd_keyop_run(&ks->info[i], ks->secret[i], q->op,
							    q->alg, q->role, data, q->data_len,
							    out, &out_len, &reason);
		}
		if (rep.status != VG_ST_OK)
			out_len = 0;
		set_reason(&rep, reason);
		rep.result_len = (uint32_t)out_len;
		struct iovec iov[2] = {{&rep, sizeof(rep)}, {out, out_len}};
		struct msghdr m = {.msg_iov = iov, .msg_iovlen = out_len ? 2 : 1};
		ssize_t w = sendmsg(fd, &m, MSG_NOSIGNAL);
		vg_wipe(out, out_len); /* X25519 shared values are secret */
		if (w < 0)
			break;
	}
	/* Wipe and unmap the keys; the rest of the process image goes with
	 * _exit (free() could need brk, which the filter forbids). */
	vgd_keystore_wipe(ks);
	return status;
}
