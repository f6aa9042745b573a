/* gen_corpus.c: writes the seed corpora of the protocol fuzz targets (valid
 * requests, replies and streams built with the codec itself). Run by hand:
 *   gen-corpus tests/fuzz/corpus
 * and commit the files; the seeds are data, not build outputs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vg/proto.h"

static const char *root;
static uint8_t frame[VG_PROTO_MAX_FRAME];
static uint8_t stream[4 * VG_PROTO_MAX_FRAME];
static size_t stream_len;

static void save(const char *target, const char *name, const uint8_t *b, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, target);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof path, "%s/%s/%s", root, target, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static size_t req(uint8_t op, uint32_t id, const char *key, uint8_t alg, uint8_t role,
		  const uint8_t *data, size_t len, int has_data)
{
	vg_request r;
	long n;

	memset(&r, 0, sizeof r);
	r.op = op;
	r.id = id;
	if (key != NULL)
		snprintf(r.key, sizeof r.key, "%s", key);
	r.alg = alg;
	r.tls_role = role;
	r.data = data;
	r.data_len = len;
	r.has_data = has_data;
	n = vg_request_encode(&r, frame, sizeof frame);
	if (n < 0) {
		fprintf(stderr, "encode op %u failed: %ld\n", op, n);
		exit(1);
	}
	return (size_t)n;
}

/* Save a request seed and append it to the stream seed. */
static void seed_req(const char *name, size_t n)
{
	save("fuzz_request", name, frame, n);
	if (stream_len + n <= sizeof stream) {
		memcpy(stream + stream_len, frame, n);
		stream_len += n;
	}
}

static void seed_reply(const char *name, vg_writer *w)
{
	long n = vg_frame_end(w);

	if (n < 0) {
		fprintf(stderr, "reply %s failed\n", name);
		exit(1);
	}
	save("fuzz_reply", name, frame, (size_t)n);
}

int main(int argc, char **argv)
{
	static const uint8_t d64[64] = { 0x11 }, rsa[256] = { 0x22 };
	static const uint8_t e[] = { 0x01, 0x00, 0x01 };
	vg_writer w;
	uint8_t head[5] = { 0x12, 0x34, 0x56, 0x78, 0x07 };
	long n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s corpus-dir\n", argv[0]);
		return 2;
	}
	root = argv[1];
	if (mkdir(root, 0755) < 0 && errno != EEXIST) {
		perror(root);
		return 1;
	}

	/* Requests: one per opcode and sign mode. */
	seed_req("hello", req(VG_OP_HELLO, 1, NULL, 0, 0, NULL, 0, 0));
	seed_req("ping", req(VG_OP_PING, 2, NULL, 0, 0, (const uint8_t *)"ping", 4, 1));
	seed_req("list-keys", req(VG_OP_LIST_KEYS, 3, NULL, 0, 0, NULL, 0, 0));
	seed_req("public-key", req(VG_OP_PUBLIC_KEY, 4, "demo", 0, 0, NULL, 0, 0));
	seed_req("sign-ed25519",
		 req(VG_OP_SIGN, 5, "demo", VG_ALG_ED25519, 0, (const uint8_t *)"hi", 2, 1));
	seed_req("sign-pss-sha384", req(VG_OP_SIGN, 6, "rsa", VG_ALG_RSA_PSS_SHA384, 0, d64, 48, 1));
	seed_req("sign-pkcs1-sha256",
		 req(VG_OP_SIGN, 7, "rsa", VG_ALG_RSA_PKCS1_SHA256, 0, d64, 32, 1));
	seed_req("sign-tls13", req(VG_OP_SIGN, 8, "web.tls", VG_ALG_TLS13, VG_TLS_SERVER, d64, 32, 1));
	seed_req("sign-ecdsa-p384",
		 req(VG_OP_SIGN, 12, "ec", VG_ALG_ECDSA_P384_SHA384, 0, d64, 48, 1));
	/* the same with SIG_FORMAT raw: patch the encoder's input */
	{
		vg_request r;
		memset(&r, 0, sizeof r);
		r.op = VG_OP_SIGN;
		r.id = 13;
		snprintf(r.key, sizeof r.key, "ec");
		r.alg = VG_ALG_ECDSA_P256_SHA256;
		r.sig_format = VG_SIGFMT_RAW;
		r.data = d64;
		r.data_len = 32;
		r.has_data = 1;
		n = vg_request_encode(&r, frame, sizeof frame);
		if (n < 0) {
			fprintf(stderr, "encode sign-ecdsa-raw failed: %ld\n", n);
			return 1;
		}
		seed_req("sign-ecdsa-raw", (size_t)n);
	}
	seed_req("x25519", req(VG_OP_X25519, 9, "ech", 0, 0, d64, 32, 1));
	seed_req("rsa-private", req(VG_OP_RSA_PRIVATE, 10, "rsa", 0, 0, rsa, 256, 1));
	seed_req("stats", req(VG_OP_STATS, 11, NULL, 0, 0, NULL, 0, 0));

	/* Replies: one of each shape. */
	vg_frame_begin(&w, frame, sizeof frame, VG_OP_HELLO | VG_OP_REPLY, 0, 1);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 0x3f);
	vg_put_open(&w, VG_T_LIMIT);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
	vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, VG_PROTO_MAX_INFLIGHT);
	vg_put_close(&w);
	vg_put_str(&w, VG_T_SERVER, "vgd 0.1.0");
	seed_reply("hello", &w);
	vg_frame_begin(&w, frame, sizeof frame, VG_OP_LIST_KEYS | VG_OP_REPLY, 0, 3);
	vg_put_open(&w, VG_T_KEYINFO);
	vg_put_str(&w, VG_T_KEY, "demo");
	vg_put_u8(&w, VG_T_KEY_TYPE, VG_KEY_ED25519);
	vg_put(&w, VG_T_PUBKEY, d64, 32);
	vg_put_u32(&w, VG_T_OPS, VG_ALLOW_SIGN);
	vg_put_close(&w);
	vg_put_open(&w, VG_T_KEYINFO);
	vg_put_str(&w, VG_T_KEY, "rsa");
	vg_put_u8(&w, VG_T_KEY_TYPE, VG_KEY_RSA);
	vg_put(&w, VG_T_PUBKEY, rsa, sizeof rsa);
	vg_put(&w, VG_T_RSA_E, e, sizeof e);
	vg_put_u32(&w, VG_T_OPS, VG_ALLOW_SIGN_TLS13);
	vg_put_close(&w);
	seed_reply("list-keys", &w);
	vg_frame_begin(&w, frame, sizeof frame, VG_OP_SIGN | VG_OP_REPLY, 0, 5);
	vg_put(&w, VG_T_RESULT, d64, 64);
	seed_reply("sign", &w);
	vg_frame_begin(&w, frame, sizeof frame, VG_OP_STATS | VG_OP_REPLY, 0, 11);
	vg_put_open(&w, VG_T_STAT);
	vg_put_str(&w, VG_T_STAT_NAME, "requests");
	vg_put_u64(&w, VG_T_STAT_VALUE, 12345);
	vg_put_close(&w);
	seed_reply("stats", &w);
	n = vg_error_encode(VG_OP_SIGN, 5, VG_ST_UNKNOWN_KEY, "unknown key", frame, sizeof frame);
	if (n < 0)
		return 1;
	save("fuzz_reply", "error", frame, (size_t)n);

	/* Streams: 5 bytes of chunking seed, then frames back to back; one
	 * ending in a partial frame, one in a malformed header. */
	memmove(stream + 5, stream, stream_len);
	memcpy(stream, head, 5);
	save("fuzz_stream", "pipelined", stream, stream_len + 5);
	save("fuzz_stream", "partial", stream, stream_len + 5 - 7);
	head[4] = 0x83;
	memcpy(stream, head, 5);
	memcpy(stream + 5 + stream_len, "VG\x02\x01", 4);
	save("fuzz_stream", "bad-version", stream, stream_len + 5 + 16);

	/* A frame near the 64 KiB limit, then a small one: the receive buffer
	 * fills up and must drain in step. Large chunks (head[4] >= 0x80). */
	{
		static uint8_t msg[VG_PROTO_MAX_DATA];
		size_t big = req(VG_OP_SIGN, 12, "big", VG_ALG_ED25519, 0, msg, sizeof msg, 1);
		memcpy(stream, head, 5);
		memcpy(stream + 5, frame, big);
		size_t small = req(VG_OP_PING, 13, NULL, 0, 0, NULL, 0, 0);
		memcpy(stream + 5 + big, frame, small);
		save("fuzz_stream", "large", stream, 5 + big + small);
	}
	return 0;
}
