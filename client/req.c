/* req.c: argument checks and request construction shared by the
 * synchronous and asynchronous calls, so both refuse the same bad input
 * locally, and the one rule for what a successful reply's RESULT may be,
 * so both refuse the same bad output (a hostile daemon or a compromised
 * front must not hand the caller more bytes than vgclient.h promises).
 * The rules (which operations take a key, what DATA an algorithm or
 * operation takes, which key type an algorithm signs with and its size)
 * are the protocol's tables. Inputs are referenced, not copied (encoding
 * copies them). Results are not secret to this file: it reads only their
 * length and, for DER, their framing bytes. */
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
	if (vgc_req_key(rq, VG_OP_RSA_PRIVATE, key) < 0 || !in || !vg_op_data_len_ok(o, 0, len))
		return VGC_E_INVALID;
	rq->data = in;
	rq->data_len = len;
	rq->has_data = 1;
	return 0;
}

/* What each operation's RESULT is, besides the signature of sign. ping
 * echoes its DATA; x25519's shared secret is as long as the peer's key
 * (32); rsa-private's m^d mod n is as long as its input, which is exactly
 * the modulus's length (PROTOCOL.md 6.7). Operations not named return no
 * RESULT (the operation table forbids one; vg_reply_check enforces it). */
enum { RES_NONE = 0, RES_DATA_LEN, RES_SIGNATURE };
static const uint8_t result_rule[VG_OP_MAX + 1] = {
	[VG_OP_PING] = RES_DATA_LEN,
	[VG_OP_SIGN] = RES_SIGNATURE,
	[VG_OP_X25519] = RES_DATA_LEN,
	[VG_OP_RSA_PRIVATE] = RES_DATA_LEN,
};

static void add_shape(struct vgc_expect *e, uint8_t der, size_t min, size_t max)
{
	for (uint8_t i = 0; i < e->n; i++)
		if (e->s[i].der == der && e->s[i].min == min && e->s[i].max == max)
			return;
	if (e->n < VGC_EXPECT_MAX)
		e->s[e->n++] = (struct vgc_shape){der, (uint16_t)min, (uint16_t)max};
}

/* The signature a row makes, from its key type's row: a key type sized by
 * its modulus (RSA) signs with the modulus's length, which the client does
 * not know (vgclient.h says why), so only the protocol's bounds; a curve
 * signs with two values of the curve's size (Ed25519's R || S, ECDSA's raw
 * r || s), or DER when the row has a format choice and RAW was not asked. */
static void add_alg(struct vgc_expect *e, const vg_alg_info *a, int format)
{
	const vg_key_type_info *k = vg_key_type_get(a->key_type);

	if (k == NULL)
		return;
	if (k->bits == 0) {
		add_shape(e, 0, VG_PROTO_RSA_MIN_LEN, VG_PROTO_RSA_MAX_LEN);
		return;
	}
	size_t size = ((size_t)k->bits + 7) / 8;
	if (a->formats && format != VG_SIGFMT_RAW)
		add_shape(e, (uint8_t)size, 0, 0);
	else
		add_shape(e, 0, 2 * size, 2 * size);
}

void vgc_expect_of(const vg_request *rq, struct vgc_expect *e)
{
	const vg_alg_info *a = vg_alg_get(rq->alg);
	uint8_t rule = rq->op <= VG_OP_MAX ? result_rule[rq->op] : RES_NONE;

	memset(e, 0, sizeof(*e));
	if (rule == RES_DATA_LEN) {
		add_shape(e, 0, rq->data_len, rq->data_len);
	} else if (rule == RES_SIGNATURE && a != NULL && a->data == VG_DATA_TLS13_HASH) {
		/* The key's type picks the row (vg_alg_tls13), and the
		 * request does not name the type: any key type's row for this
		 * transcript hash. */
		for (int kt = 1; kt <= VG_KEY_MAX; kt++) {
			const vg_alg_info *t = vg_alg_tls13(kt, rq->data_len);
			if (t != NULL)
				add_alg(e, t, 0);
		}
	} else if (rule == RES_SIGNATURE && a != NULL && a->data == VG_DATA_CSR_INFO) {
		/* The same for a certificate request: any key type's csr row
		 * (vg_alg_csr). */
		for (int kt = 1; kt <= VG_KEY_MAX; kt++) {
			const vg_alg_info *t = vg_alg_csr(kt);
			if (t != NULL)
				add_alg(e, t, 0);
		}
	} else if (rule == RES_SIGNATURE && a != NULL) {
		add_alg(e, a, rq->sig_format);
	}
	if (e->n == 0)
		add_shape(e, 0, 0, 0); /* nothing: absent or empty */
}

/* One DER INTEGER at *p holding an ECDSA r or s of at most size bytes:
 * short length, no superfluous leading 00, not negative, not zero (a
 * signature's r and s are in [1, n-1]), not wider than the curve. */
static int der_scalar(const uint8_t **p, const uint8_t *end, size_t size)
{
	const uint8_t *q = *p;

	if (end - q < 3 || q[0] != 0x02)
		return -1;
	size_t n = q[1];
	q += 2;
	if (n == 0 || n > size + 1 || n > (size_t)(end - q) || (q[0] & 0x80) ||
	    (n > 1 && q[0] == 0 && !(q[1] & 0x80)) || (n == size + 1 && q[0] != 0) ||
	    (n == 1 && q[0] == 0))
		return -1;
	*p = q + n;
	return 0;
}

/* ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } in DER, nothing
 * after it. Its body is below 128 bytes for every curve vgd has (102 for
 * P-384), so its length has the short form. */
static int der_sig_ok(const uint8_t *res, size_t len, size_t size)
{
	if (len < 2 || len - 2 >= 0x80 || res[0] != 0x30 || res[1] != len - 2)
		return 0;
	const uint8_t *p = res + 2, *end = res + len;
	return der_scalar(&p, end, size) == 0 && der_scalar(&p, end, size) == 0 && p == end;
}

int vgc_expect_ok(const struct vgc_expect *e, const uint8_t *res, size_t len)
{
	for (uint8_t i = 0; i < e->n; i++) {
		const struct vgc_shape *s = &e->s[i];
		if (s->der ? res != NULL && der_sig_ok(res, len, s->der)
			   : len >= s->min && len <= s->max)
			return 1;
	}
	return 0;
}
