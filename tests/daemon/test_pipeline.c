/* test_pipeline.c: many requests written in one go on one socket; the
 * replies come back out of order and are matched by id; every signature
 * is checked with OpenSSL against the key file. */
#include <openssl/sha.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define N 200

static vgt_daemon D;

static int setup(void **state)
{
	(void)state;
	return vgt_setup(&D, NULL, vgt_default_keys) < 0 || vgt_start(&D, 0, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

/* Every tenth request is an RSA-4096 signature (milliseconds), the rest
 * Ed25519 (microseconds): with two keyholders the fast ones overtake. */
static int is_rsa(int i) { return i % 10 == 0; }

static void msg_of(int i, uint8_t *m, size_t *len)
{
	*len = (size_t)snprintf((char *)m, 64, "pipelined message %d", i * 7919);
}

static void test_pipelined_out_of_order(void **state)
{
	(void)state;
	EVP_PKEY *ed = vt_load_file(&D, "ed25519.pem"), *rsa = vt_load_file(&D, "rsa4096.pem");
	assert_non_null(ed);
	assert_non_null(rsa);
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	static uint8_t out[N * 200];
	size_t olen = 0;
	for (int i = 0; i < N; i++) {
		uint8_t m[64];
		size_t ml;
		msg_of(i, m, &ml);
		long n;
		if (is_rsa(i)) {
			uint8_t dg[32];
			SHA256(m, ml, dg);
			n = dt_req_sign(out + olen, sizeof(out) - olen, 1000u + (uint32_t)i, "rsa4096",
					VG_ALG_RSA_PKCS1_SHA256, dg, 32);
		} else {
			n = dt_req_sign(out + olen, sizeof(out) - olen, 1000u + (uint32_t)i, "ed",
					VG_ALG_ED25519, m, ml);
		}
		assert_true(n > 0);
		olen += (size_t)n;
	}
	/* One write for all 200 requests. */
	assert_int_equal(dt_send_all(fd, out, olen), 0);
	int seen[N] = {0}, out_of_order = 0, last = -1;
	for (int r = 0; r < N; r++) {
		uint8_t buf[VG_PROTO_MAX_FRAME];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
		assert_int_equal(rep.op, VG_OP_SIGN);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id >= 1000u && rep.id < 1000u + N);
		int i = (int)(rep.id - 1000u);
		assert_int_equal(seen[i], 0); /* exactly one reply per request */
		seen[i] = 1;
		if (i < last)
			out_of_order++;
		last = i;
		uint8_t m[64];
		size_t ml;
		msg_of(i, m, &ml);
		if (is_rsa(i)) {
			uint8_t dg[32];
			SHA256(m, ml, dg);
			assert_int_equal(rep.result_len, 512);
			assert_true(vt_verify(rsa, VGC_ALG_RSA_PKCS1_SHA256, dg, 32, rep.result, rep.result_len));
		} else {
			assert_true(vt_verify(ed, VGC_ALG_ED25519, m, ml, rep.result, rep.result_len));
		}
	}
	printf("# %d of %d replies arrived after a later request's reply\n", out_of_order, N);
	assert_true(out_of_order > 0);
	/* Nothing more: the next frame is the answer to this ping. */
	uint8_t ping[64], buf[256];
	long pl = dt_req_simple(ping, sizeof(ping), VG_OP_PING, 77);
	assert_int_equal(dt_send_all(fd, ping, (size_t)pl), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.id, 77);
	assert_int_equal(rep.op, VG_OP_PING);
	close(fd);
	EVP_PKEY_free(ed);
	EVP_PKEY_free(rsa);
}

/* More requests than max_inflight (128) in one write: the daemon stops
 * reading, answers, reads on; none is lost or answered twice. */
static void test_pipeline_above_inflight_limit(void **state)
{
	(void)state;
	enum { M = 1000 };
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	static uint8_t out[M * 100];
	size_t olen = 0;
	for (int i = 0; i < M; i++) {
		uint8_t m[8] = {(uint8_t)i, (uint8_t)(i >> 8)};
		long n = dt_req_sign(out + olen, sizeof(out) - olen, (uint32_t)i, "ed",
				     VG_ALG_ED25519, m, sizeof(m));
		assert_true(n > 0);
		olen += (size_t)n;
	}
	/* A writer thread is not needed: replies (~100 bytes each) fit the
	 * socket buffers while the daemon reads in bursts of 128. */
	assert_int_equal(dt_send_all(fd, out, olen), 0);
	static int seen[M];
	for (int r = 0; r < M; r++) {
		uint8_t buf[512];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id < M);
		assert_int_equal(seen[rep.id]++, 0);
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipelined_out_of_order),
		cmocka_unit_test(test_pipeline_above_inflight_limit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
