/* req.c: argument checks and request construction shared by the
 * synchronous and asynchronous calls, so both refuse the same bad input
 * locally. The rules (which operations take a key, what DATA an algorithm
 * or operation takes) are the protocol's tables. Inputs are referenced,
 * not copied (encoding copies them). */
#include <string.h>

#include "req.h"

int vgc_req_key(vg_request *rq, uint8_t op, const char *key)
{
	const vg_op_info *o = vg_op_get(op);

	memset(rq, 0, sizeof(*rq));
	rq->op = op;
	if (o == NULL)
		return VGC_E_INVALID;
	if (o->req[VG_T_KEY] == VG_RULE_NO)
		return 0;
	size_t n = key ? strlen(key) : 0;
	if (n == 0 || n > VG_PROTO_MAX_KEY_NAME)
		return VGC_E_INVALID;
	memcpy(rq->key, key, n + 1);
	return 0;
}

int vgc_req_sign(vg_request *rq, const char *key, int alg, int format, const void *data, size_t len)
{
	const vg_alg_info *a = vg_alg_get(alg);

	/* The TLS 1.3 mode has its own call (it takes a role). The format
	 * values are the protocol's (client.c asserts it). */
	if (vgc_req_key(rq, VG_OP_SIGN, key) < 0 || a == NULL || a->data == VG_DATA_TLS13_HASH ||
	    !vg_alg_data_len_ok(alg, len) || (len && !data) || !vg_alg_format_ok(alg, format))
		return VGC_E_INVALID;
	rq->alg = (uint8_t)alg;
	rq->sig_format = (uint8_t)format;
	rq->data = data;
	rq->data_len = len;
	rq->has_data = 1;
	return 0;
}

int vgc_req_tls13(vg_request *rq, const char *key, int role, const void *hash, size_t len)
{
	if (vgc_req_key(rq, VG_OP_SIGN, key) < 0 ||
	    (role != VGC_TLS_SERVER && role != VGC_TLS_CLIENT) || !hash ||
	    !vg_alg_data_len_ok(VG_ALG_TLS13, len))
		return VGC_E_INVALID;
	rq->alg = VG_ALG_TLS13;
	rq->tls_role = (uint8_t)role;
	rq->data = hash;
	rq->data_len = len;
	rq->has_data = 1;
	return 0;
}

int vgc_req_x25519(vg_request *rq, const char *key, const uint8_t peer[32])
{
	if (vgc_req_key(rq, VG_OP_X25519, key) < 0 || !peer)
		return VGC_E_INVALID;
	rq->data = peer;
	rq->data_len = VG_PROTO_X25519_LEN;
	rq->has_data = 1;
	return 0;
}

int vgc_req_rsa(vg_request *rq, const char *key, const void *in, size_t len)
{
	const vg_op_info *o = vg_op_get(VG_OP_RSA_PRIVATE);

	/* The operation's DATA bounds: RSA-2048..4096 (PROTOCOL.md 6.7). */
	if (vgc_req_key(rq, VG_OP_RSA_PRIVATE, key) < 0 || !in || len < o->data_min ||
	    len > o->data_max)
		return VGC_E_INVALID;
	rq->data = in;
	rq->data_len = len;
	rq->has_data = 1;
	return 0;
}
