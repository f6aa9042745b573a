/* fuzz_request.c: libFuzzer target for the daemon's request path: frame
 * boundaries, request decoding, and the property that a decoded request
 * re-encodes to a frame of the same length that decodes to the same request. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"
#include "vg/proto_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[VG_PROTO_MAX_FRAME];

static int key_ok(const char *k)
{
	size_t n = strlen(k);

	if (n < 1 || n > VG_PROTO_MAX_KEY_NAME)
		return 0;
	return strspn(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	vg_frame_hdr h;
	vg_request req, again;
	const char *why = NULL;
	long n, m;
	int st, st2;

	n = vg_frame_check(data, size, &h);
	CHECK(n <= (long)size);
	if (n > 0) {
		/* A frame is exactly header + body_len, within the limit, and
		 * every strict prefix of it still needs more. */
		CHECK((size_t)n == VG_PROTO_HDR_LEN + (size_t)h.body_len);
		CHECK(h.body_len <= VG_PROTO_MAX_BODY);
		CHECK(h.version == VG_PROTO_VERSION);
		CHECK(vg_frame_check(data, (size_t)n - 1, NULL) == 0);
	} else if (n < 0) {
		CHECK(vg_status_closes((int)-n));
	}
	/* The id for an error reply: 0 unless a header with our magic was read. */
	if (size < VG_PROTO_HDR_LEN || data[0] != 0x56 || data[1] != 0x47)
		CHECK(h.id == 0 && h.body_len == 0);
	else
		CHECK(h.id == ((uint32_t)data[8] << 24 | (uint32_t)data[9] << 16 |
			       (uint32_t)data[10] << 8 | data[11]));

	/* Decode the frame if there is one, else the whole input: a non-frame
	 * must never decode. */
	st = vg_request_decode(data, n > 0 ? (size_t)n : size, &req, &why);
	CHECK(why != NULL);
	CHECK(st >= VG_ST_OK && st <= VG_ST_MAX);
	/* Every reason is a row of the reason table, with the status returned. */
	{
		int r = 0;
		while (r < VG_R_COUNT && strcmp(vg_reason(r), why) != 0)
			r++;
		CHECK(r < VG_R_COUNT && vg_reason_status(r) == st);
	}
	if (n <= 0)
		CHECK(st != VG_ST_OK);
	if (n < 0)
		CHECK(st == (int)-n);
	if (st != VG_ST_OK)
		return 0;

	/* What the daemon may rely on after VG_ST_OK. */
	CHECK(req.op >= 1 && req.op <= VG_OP_MAX);
	CHECK(req.key[0] == '\0' || key_ok(req.key));
	CHECK(!req.has_data || (req.data >= data && req.data + req.data_len <= data + n));
	CHECK(req.has_data || (req.data == NULL && req.data_len == 0));
	switch (req.op) {
	case VG_OP_SIGN:
		CHECK(key_ok(req.key) && req.has_data);
		CHECK(req.alg >= 1 && req.alg <= VG_ALG_MAX);
		CHECK(vg_alg_data_len_ok(req.alg, req.data_len));
		CHECK((req.alg == VG_ALG_TLS13) == (req.tls_role != 0));
		CHECK(req.tls_role <= VG_TLS_CLIENT);
		CHECK(vg_alg_format_ok(req.alg, req.sig_format));
		break;
	case VG_OP_X25519:
		CHECK(key_ok(req.key) && req.has_data && req.data_len == 32);
		CHECK(req.alg == 0 && req.tls_role == 0);
		break;
	case VG_OP_RSA_PRIVATE:
		CHECK(key_ok(req.key) && req.has_data);
		CHECK(req.data_len >= 256 && req.data_len <= 512);
		CHECK(req.alg == 0 && req.tls_role == 0);
		break;
	case VG_OP_PUBLIC_KEY:
		CHECK(key_ok(req.key) && !req.has_data && req.alg == 0);
		break;
	case VG_OP_PING:
		CHECK(req.key[0] == '\0' && req.alg == 0 && req.data_len <= 1024);
		break;
	default:
		CHECK(req.key[0] == '\0' && req.alg == 0 && req.tls_role == 0 && !req.has_data);
		break;
	}

	/* Differential: re-encode (canonical item order) and decode again.
	 * The same items are written once each, so the length is unchanged. */
	m = vg_request_encode(&req, out, sizeof out);
	CHECK(m == n);
	st2 = vg_request_decode(out, (size_t)m, &again, &why);
	CHECK(st2 == VG_ST_OK);
	CHECK(again.op == req.op && again.id == req.id);
	CHECK(strcmp(again.key, req.key) == 0);
	CHECK(again.alg == req.alg && again.tls_role == req.tls_role);
	CHECK(again.sig_format == req.sig_format);
	CHECK(again.has_data == req.has_data && again.data_len == req.data_len);
	CHECK(req.data_len == 0 || memcmp(again.data, req.data, req.data_len) == 0);
	/* The header bytes other than body_len were copied unchanged. */
	CHECK(memcmp(out, data, 12) == 0);
	return 0;
}
