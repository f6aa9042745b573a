/* test_malformed.c: every class of broken frame gets its error reply (status,
 * id, opcode) and closes only its own connection; unknown opcodes and bad
 * values keep the connection open; an oversized frame is refused from its
 * header alone; a stalled partial frame and an idle connection are closed
 * by their timeouts while other connections keep working. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;
static int other = -1; /* a connection that must survive every test */

static int setup(void **state)
{
	(void)state;
	if (vgt_setup(&D, "frame_timeout = 1\nidle_timeout = 3\n", vgt_default_keys) < 0 ||
	    vgt_start(&D, 0, NULL) < 0)
		return -1;
	other = dt_connect(D.sock);
	return other >= 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	close(other);
	return dt_stop_clean(&D);
}

/* The surviving connection answers a ping with the right id. */
static void other_still_works(uint32_t id)
{
	uint8_t req[64], buf[256];
	long n = dt_req_simple(req, sizeof(req), VG_OP_PING, id);
	assert_int_equal(dt_send_all(other, req, (size_t)n), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(other, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OK);
	assert_int_equal(rep.id, id);
}

static void hdr(uint8_t *f, uint8_t version, uint8_t op, uint8_t status, uint32_t id,
		uint32_t body_len)
{
	f[0] = 0x56;
	f[1] = 0x47;
	f[2] = version;
	f[3] = op;
	f[4] = status;
	f[5] = f[6] = f[7] = 0;
	f[8] = (uint8_t)(id >> 24);
	f[9] = (uint8_t)(id >> 16);
	f[10] = (uint8_t)(id >> 8);
	f[11] = (uint8_t)id;
	f[12] = (uint8_t)(body_len >> 24);
	f[13] = (uint8_t)(body_len >> 16);
	f[14] = (uint8_t)(body_len >> 8);
	f[15] = (uint8_t)body_len;
}

static size_t item(uint8_t *p, uint16_t tag, const void *v, uint16_t len)
{
	p[0] = (uint8_t)(tag >> 8);
	p[1] = (uint8_t)tag;
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	memcpy(p + 4, v, len);
	return 4u + len;
}

/* A sign request body with the given items. */
static size_t sign_frame(uint8_t *f, uint32_t id, int with_key, int dup_key, int unknown,
			 uint8_t alg)
{
	size_t n = 16;
	if (with_key)
		n += item(f + n, VG_T_KEY, "ed", 2);
	if (dup_key)
		n += item(f + n, VG_T_KEY, "ed", 2);
	n += item(f + n, VG_T_ALG, &alg, 1);
	n += item(f + n, VG_T_DATA, "hello", 5);
	if (unknown)
		n += item(f + n, 99, "??", 2);
	hdr(f, 1, VG_OP_SIGN, 0, id, (uint32_t)(n - 16));
	return n;
}

typedef struct {
	const char *what;
	uint8_t frame[128];
	size_t len;
	int status;
	uint32_t id;     /* expected in the reply */
	uint8_t opcode;  /* expected reply opcode (with the reply bit) */
} bad_case;

static void run_closing_case(const bad_case *b, uint32_t ping_id)
{
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	assert_int_equal(dt_send_all(fd, b->frame, b->len), 0);
	uint8_t buf[512];
	long n = dt_read_frame(fd, buf, sizeof(buf), 5000);
	if (n <= 0)
		fail_msg("%s: no error reply", b->what);
	assert_true(buf[3] & VG_OP_REPLY);
	vg_reply rep;
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.conn_error, b->opcode == VG_OP_CONN_ERROR);
	if (rep.status != b->status || rep.id != b->id || buf[3] != b->opcode)
		fail_msg("%s: got status %d id %u opcode 0x%02x, want %d %u 0x%02x", b->what,
			 rep.status, rep.id, buf[3], b->status, b->id, b->opcode);
	assert_true(rep.reason_len > 0);
	if (dt_wait_closed(fd, 5000) != 1)
		fail_msg("%s: the connection was not closed", b->what);
	close(fd);
	other_still_works(ping_id);
}

static void test_closing_classes(void **state)
{
	(void)state;
	static bad_case c[16];
	size_t k = 0;
	uint8_t alg = VG_ALG_ED25519;

	/* No header to answer: a connection error (opcode 0xff, id 0). */
	c[k] = (bad_case){.what = "wrong magic", .status = VG_ST_MALFORMED, .id = 0, .opcode = 0xff};
	k += (hdr(c[k].frame, 1, VG_OP_PING, 0, 5, 0), c[k].frame[0] = 'X', c[k].len = 16, 1);

	c[k] = (bad_case){.what = "bad version", .status = VG_ST_BAD_VERSION, .id = 6, .opcode = 0x82};
	k += (hdr(c[k].frame, 2, VG_OP_PING, 0, 6, 0), c[k].len = 16, 1);

	c[k] = (bad_case){.what = "oversized length", .status = VG_ST_TOO_LARGE, .id = 7, .opcode = 0x85};
	k += (hdr(c[k].frame, 1, VG_OP_SIGN, 0, 7, VG_PROTO_MAX_BODY + 1), c[k].len = 16, 1);

	c[k] = (bad_case){.what = "nonzero reserved", .status = VG_ST_MALFORMED, .id = 8, .opcode = 0x82};
	k += (hdr(c[k].frame, 1, VG_OP_PING, 0, 8, 0), c[k].frame[6] = 1, c[k].len = 16, 1);

	c[k] = (bad_case){.what = "reply bit set", .status = VG_ST_MALFORMED, .id = 9, .opcode = 0x82};
	k += (hdr(c[k].frame, 1, VG_OP_PING | VG_OP_REPLY, 0, 9, 0), c[k].len = 16, 1);

	c[k] = (bad_case){.what = "nonzero status", .status = VG_ST_MALFORMED, .id = 10, .opcode = 0x82};
	k += (hdr(c[k].frame, 1, VG_OP_PING, 3, 10, 0), c[k].len = 16, 1);

	/* Judged from the header alone: a header whose body never comes is
	 * answered at once, not left to the frame timeout. */
	c[k] = (bad_case){.what = "nonzero status, header only", .status = VG_ST_MALFORMED, .id = 15, .opcode = 0x85};
	k += (hdr(c[k].frame, 1, VG_OP_SIGN, 1, 15, 1000), c[k].len = 16, 1);

	c[k] = (bad_case){.what = "reply bit, header only", .status = VG_ST_MALFORMED, .id = 16, .opcode = 0x85};
	k += (hdr(c[k].frame, 1, VG_OP_SIGN | VG_OP_REPLY, 0, 16, 1000), c[k].len = 16, 1);

	/* The reserved opcode: its reply would carry 0xff, so it is a
	 * connection error. */
	c[k] = (bad_case){.what = "reserved opcode 0x7f", .status = VG_ST_MALFORMED, .id = 0, .opcode = 0xff};
	k += (hdr(c[k].frame, 1, 0x7f, 0, 17, 1000), c[k].len = 16, 1);

	c[k] = (bad_case){.what = "item overrunning", .status = VG_ST_MALFORMED, .id = 11, .opcode = 0x82};
	{
		uint8_t *f = c[k].frame;
		size_t n = 16 + item(f + 16, VG_T_DATA, "abcdef", 6);
		f[16 + 3] = 40; /* claims 40 bytes, 6 follow */
		hdr(f, 1, VG_OP_PING, 0, 11, (uint32_t)(n - 16));
		c[k++].len = n;
	}

	c[k] = (bad_case){.what = "duplicate item", .status = VG_ST_MALFORMED, .id = 12, .opcode = 0x85};
	k += (c[k].len = sign_frame(c[k].frame, 12, 1, 1, 0, alg), 1);

	c[k] = (bad_case){.what = "missing item", .status = VG_ST_MALFORMED, .id = 13, .opcode = 0x85};
	k += (c[k].len = sign_frame(c[k].frame, 13, 0, 0, 0, alg), 1);

	c[k] = (bad_case){.what = "unknown item", .status = VG_ST_MALFORMED, .id = 14, .opcode = 0x85};
	k += (c[k].len = sign_frame(c[k].frame, 14, 1, 0, 1, alg), 1);

	for (size_t i = 0; i < k; i++)
		run_closing_case(&c[i], 100u + (uint32_t)i);
	/* each logged, or counted as suppressed past the log's rate limit */
	assert_true(vgt_log_count(&D, "closing connection") +
			    dt_stat(D.sock, "log.suppressed.malformed") >= (long long)k);
}

/* Unknown opcode and a bad value are answered and the connection stays. */
static void test_non_closing(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t f[128], buf[512];
	hdr(f, 1, 50, 0, 21, 0);
	assert_int_equal(dt_send_all(fd, f, 16), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_UNKNOWN_OP);
	assert_int_equal(rep.id, 21);
	size_t n = sign_frame(f, 22, 1, 0, 0, 200); /* ALG 200: a bad value */
	assert_int_equal(dt_send_all(fd, f, n), 0);
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_BAD_INPUT);
	assert_int_equal(rep.id, 22);
	n = sign_frame(f, 23, 1, 0, 0, VG_ALG_ED25519);
	assert_int_equal(dt_send_all(fd, f, n), 0);
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OK);
	assert_int_equal(rep.id, 23);
	assert_int_equal(rep.result_len, 64);
	close(fd);
}

/* Only a 16-byte header claiming a 1 MiB body: refused at once. */
static void test_oversized_header_only(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t f[16], buf[512];
	hdr(f, 1, VG_OP_SIGN, 0, 0xabcdef01u, 1u << 20);
	assert_int_equal(dt_send_all(fd, f, 16), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_TOO_LARGE);
	assert_int_equal(rep.id, 0xabcdef01u);
	assert_int_equal(dt_wait_closed(fd, 5000), 1);
	close(fd);
	other_still_works(31);
}

/* A good request pipelined before a broken frame still gets its reply
 * before the connection closes. */
static void test_answers_before_close(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t f[512], buf[1024];
	long n = dt_req_sign(f, sizeof(f), 41, "rsa2048", VG_ALG_RSA_PKCS1_SHA256,
			     "0123456789abcdef0123456789abcdef", 32);
	assert_true(n > 0);
	hdr(f + n, 1, VG_OP_PING, 0, 42, 0);
	f[n + 5] = 9; /* reserved */
	assert_int_equal(dt_send_all(fd, f, (size_t)n + 16), 0);
	int got41 = 0, got42 = 0;
	for (int i = 0; i < 2; i++) {
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
		if (rep.id == 41) {
			assert_int_equal(rep.status, VG_ST_OK);
			got41++;
		} else {
			assert_int_equal(rep.id, 42);
			assert_int_equal(rep.status, VG_ST_MALFORMED);
			got42++;
		}
	}
	assert_int_equal(got41, 1);
	assert_int_equal(got42, 1);
	assert_int_equal(dt_wait_closed(fd, 5000), 1);
	close(fd);
}

/* frame_timeout = 1: half a frame, then silence: closed after about a
 * second without a reply; the other connection keeps working. */
static void test_stalled_partial_frame(void **state)
{
	(void)state;
	int a = dt_connect(D.sock), b = dt_connect(D.sock);
	assert_true(a >= 0 && b >= 0);
	uint8_t f[128];
	size_t n = sign_frame(f, 51, 1, 0, 0, VG_ALG_ED25519);
	long long t0 = dt_now_ms();
	assert_int_equal(dt_send_all(a, f, 10), 0);     /* part of the header */
	assert_int_equal(dt_send_all(b, f, n - 3), 0);  /* all but 3 body bytes */
	int closed_a = 0, closed_b = 0;
	long long ta = 0, tb = 0;
	for (int i = 0; i < 40 && !(closed_a && closed_b); i++) {
		other_still_works(60u + (uint32_t)i);
		if (!closed_a && dt_wait_closed(a, 0) == 1)
			closed_a = 1, ta = dt_now_ms() - t0;
		if (!closed_b && dt_wait_closed(b, 0) == 1)
			closed_b = 1, tb = dt_now_ms() - t0;
		usleep(250000);
	}
	assert_true(closed_a);
	assert_true(closed_b);
	printf("# stalled header closed after %lld ms, stalled body after %lld ms (timeout 1000)\n",
	       ta, tb);
	assert_true(vgt_log_count(&D, "partial frame timed out") >= 2);
	close(a);
	close(b);
}

/* The frame timeout is a deadline from the frame's first byte, not a
 * stall timer: a frame trickled in a byte every 150 ms (never silent for
 * long) is still cut off, without a reply, once frame_timeout (1 s) has
 * passed since it began (PROTOCOL.md 8). */
static void test_trickled_frame(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t f[128];
	size_t n = sign_frame(f, 71, 1, 0, 0, VG_ALG_ED25519); /* 31 bytes: 4.5 s to trickle */
	size_t sent = 0;
	int closed = 0;
	while (sent < n && !closed) {
		if (send(fd, f + sent, 1, MSG_NOSIGNAL) != 1)
			break;
		sent++;
		closed = dt_wait_closed(fd, 150) == 1;
	}
	if (!closed)
		closed = dt_wait_closed(fd, 3000) == 1;
	printf("# closed after %zu of %zu bytes\n", sent, n);
	assert_true(closed);
	assert_true(sent < n);
	close(fd);
}

/* Half-close (SHUT_WR): the complete requests before it are answered,
 * a trailing partial frame is dropped without a reply, then the daemon
 * closes (PROTOCOL.md 8). */
static void test_half_close(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t f[256], buf[512];
	size_t n = sign_frame(f, 81, 1, 0, 0, VG_ALG_ED25519);
	n += (size_t)dt_req_simple(f + n, sizeof f - n, VG_OP_PING, 82);
	size_t part = sign_frame(f + n, 83, 1, 0, 0, VG_ALG_ED25519);
	assert_int_equal(dt_send_all(fd, f, n + part - 4), 0); /* the third lacks 4 bytes */
	assert_int_equal(shutdown(fd, SHUT_WR), 0);
	int got81 = 0, got82 = 0;
	for (int i = 0; i < 2; i++) {
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof buf, 5000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		got81 += rep.id == 81;
		got82 += rep.id == 82;
	}
	assert_int_equal(got81, 1);
	assert_int_equal(got82, 1);
	/* nothing for the partial frame: end of stream (well before the frame
	 * timeout would have closed it) */
	assert_int_equal(dt_read_frame(fd, buf, sizeof buf, 5000), 0);
	close(fd);
}

/* idle_timeout = 3: a connection that sends nothing is closed. */
static void test_idle_timeout(void **state)
{
	(void)state;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	int closed = 0;
	for (int i = 0; i < 40 && !closed; i++) {
		other_still_works(200u + (uint32_t)i);
		closed = dt_wait_closed(fd, 250) == 1;
	}
	assert_true(closed);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closing_classes),
		cmocka_unit_test(test_non_closing),
		cmocka_unit_test(test_oversized_header_only),
		cmocka_unit_test(test_answers_before_close),
		cmocka_unit_test(test_stalled_partial_frame),
		cmocka_unit_test(test_trickled_frame),
		cmocka_unit_test(test_half_close),
		cmocka_unit_test(test_idle_timeout),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
