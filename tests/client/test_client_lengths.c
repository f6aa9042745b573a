/* test_client_lengths.c: libvgclient never hands its caller a RESULT its
 * request cannot produce (vgclient.h, "WHAT A RESULT CAN BE"). A fake
 * daemon answers every request with a success carrying whatever RESULT
 * the test scripted (the length checks must hold against a hostile daemon
 * or a compromised front, so no real vgd is involved). Each wrong shape
 * must give VGC_E_PROTOCOL, with no bytes, on the synchronous and the
 * asynchronous path alike; each right one must come through unchanged.
 * The lengths are written here from the algorithms' specifications
 * (RFC 8032: 64; RFC 7748: 32; RFC 8017: the modulus, 256..512 bytes for
 * vgd's RSA-2048..4096; SEC 1 / RFC 7518: raw 64/96, DER at most 72/104),
 * not read from the tables the library uses. */
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "vg/proto.h"
#include "vgclient.h"

/* What the fake daemon puts in its next non-hello success reply. */
#define SPEC_MAX 4096
struct spec {
	int32_t len; /* -1: no RESULT item */
	uint8_t res[SPEC_MAX];
};

static char dir[64], path[96];
static pid_t child;
static int spec_fd; /* parent's write end */
static vg_client *C;

static int read_full(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (uint8_t *)p + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int answer(int fd, const vg_request *rq, int specs)
{
	static uint8_t out[VG_PROTO_MAX_FRAME];
	static struct spec sp;
	vg_writer w;
	vg_frame_begin(&w, out, sizeof out, rq->op | VG_OP_REPLY, VG_ST_OK, rq->id);
	if (rq->op == VG_OP_HELLO) {
		/* no CPU_HINT: requests stay as the test built them */
		vg_put_u8(&w, VG_T_VERSION, 1);
		vg_put_u32(&w, VG_T_CAPS, 0x3f);
		vg_put_open(&w, VG_T_LIMIT);
		vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
		vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 128);
		vg_put_close(&w);
	} else {
		if (read_full(specs, &sp, sizeof sp) < 0)
			_exit(5);
		if (sp.len >= 0)
			vg_put(&w, VG_T_RESULT, sp.res, (size_t)sp.len);
	}
	long n = vg_frame_end(&w);
	return n > 0 && send(fd, out, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -1;
}

static void serve(int ls, int specs)
{
	static uint8_t buf[VG_PROTO_MAX_FRAME];
	for (;;) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0)
			_exit(1);
		while (read_full(fd, buf, VG_PROTO_HDR_LEN) == 0) {
			uint32_t body = (uint32_t)buf[12] << 24 | (uint32_t)buf[13] << 16 |
					(uint32_t)buf[14] << 8 | buf[15];
			if (body > VG_PROTO_MAX_BODY || read_full(fd, buf + VG_PROTO_HDR_LEN, body))
				_exit(2);
			vg_request rq;
			if (vg_request_decode(buf, VG_PROTO_HDR_LEN + body, &rq, NULL) != VG_ST_OK)
				_exit(3);
			if (answer(fd, &rq, specs) < 0)
				break;
		}
		close(fd);
	}
}

static int setup(void **state)
{
	(void)state;
	signal(SIGPIPE, SIG_IGN);
	strcpy(dir, "/tmp/vgc-len-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/s", dir);
	int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
	int p[2];
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 8) || pipe(p))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[1]);
		serve(ls, p[0]);
		_exit(0);
	}
	close(p[0]);
	close(ls);
	spec_fd = p[1];
	C = vg_client_new(path);
	return C ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	vg_client_free(C);
	close(spec_fd);
	kill(child, SIGTERM);
	int st;
	waitpid(child, &st, 0);
	unlink(path);
	rmdir(dir);
	/* killed by the test, not an _exit from a frame it could not read */
	return WIFSIGNALED(st) ? 0 : -1;
}

static void script(const uint8_t *res, int32_t len)
{
	static struct spec sp;
	memset(&sp, 0, sizeof sp);
	sp.len = len;
	if (len > 0)
		memcpy(sp.res, res, (size_t)len);
	assert_int_equal(write(spec_fd, &sp, sizeof sp), (ssize_t)sizeof sp);
}

/* A request: the operation and what the library needs to build it. */
enum { PING, SIGN, TLS13, X25519, RSA_PRIV };
struct call {
	int kind;
	int alg;    /* SIGN */
	int format; /* SIGN */
	size_t len; /* SIGN: DATA; TLS13: hash; RSA_PRIV: input */
};

static uint8_t in_buf[512];

static int call_sync(const struct call *k, uint8_t *out, size_t *out_len)
{
	*out_len = 0;
	switch (k->kind) {
	case PING:
		return vg_client_ping(C);
	case SIGN:
		return vg_client_sign_format(C, "k", k->alg, k->format, in_buf, k->len, out,
					     SPEC_MAX, out_len);
	case TLS13:
		return vg_client_sign_tls13(C, "k", VGC_TLS_SERVER, in_buf, k->len, out, SPEC_MAX,
					    out_len);
	case X25519:
		*out_len = 32;
		return vg_client_x25519(C, "k", in_buf, out);
	default:
		return vg_client_rsa_private(C, "k", in_buf, k->len, out, SPEC_MAX, out_len);
	}
}

struct done {
	int calls;
	int status;
	size_t len;
	int null_result;
	uint8_t res[SPEC_MAX];
};

static void on_done(int status, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	(void)reason;
	struct done *d = arg;
	d->calls++;
	d->status = status;
	d->len = len;
	d->null_result = res == NULL;
	if (res && len <= sizeof d->res)
		memcpy(d->res, res, len);
}

static int submit(const struct call *k, struct done *d)
{
	switch (k->kind) {
	case PING:
		return vg_client_submit_ping(C, on_done, d);
	case SIGN:
		return vg_client_submit_sign_format(C, "k", k->alg, k->format, in_buf, k->len,
						    on_done, d);
	case TLS13:
		return vg_client_submit_sign_tls13(C, "k", VGC_TLS_SERVER, in_buf, k->len, on_done,
						   d);
	case X25519:
		return vg_client_submit_x25519(C, "k", in_buf, on_done, d);
	default:
		return vg_client_submit_rsa_private(C, "k", in_buf, k->len, on_done, d);
	}
}

static void call_async(const struct call *k, struct done *d)
{
	memset(d, 0, sizeof(*d));
	assert_int_equal(submit(k, d), 0);
	for (int i = 0; i < 500 && d->calls == 0; i++) {
		struct pollfd p = {vg_client_fd(C), (short)vg_client_events(C), 0};
		int t = vg_client_timeout(C);
		if (p.fd >= 0 && p.events)
			assert_true(poll(&p, 1, t < 0 || t > 100 ? 100 : t) >= 0);
		assert_true(vg_client_process(C) >= 0);
	}
	assert_int_equal(d->calls, 1);
}

/* The daemon answers k with res[0, len) (len -1: no RESULT), once to a
 * synchronous call and once to an asynchronous one. ok: the caller gets
 * exactly those bytes; else VGC_E_PROTOCOL and nothing. */
static void check(const struct call *k, const uint8_t *res, int32_t len, int ok)
{
	static uint8_t out[SPEC_MAX];
	static struct done d;
	size_t n = len < 0 ? 0 : (size_t)len, got;

	memset(out, 0xa5, sizeof out);
	script(res, len);
	int r = call_sync(k, out, &got);
	if (ok) {
		if (r != 0)
			fprintf(stderr, "# kind %d alg %d len %d: %s\n", k->kind, k->alg, len,
				vg_client_errmsg(C));
		assert_int_equal(r, 0);
		if (k->kind != PING) {
			assert_int_equal(got, n);
			if (n)
				assert_memory_equal(out, res, n);
		}
	} else {
		if (r != VGC_E_PROTOCOL)
			fprintf(stderr, "# kind %d alg %d len %d: %d %s\n", k->kind, k->alg, len, r,
				vg_client_errmsg(C));
		assert_int_equal(r, VGC_E_PROTOCOL);
		/* an absent RESULT breaks the operation's reply rule; a present
		 * one of the wrong shape does not fit the request */
		assert_non_null(strstr(vg_client_errmsg(C),
				       len < 0 ? "result item" : "does not fit the request"));
		/* nothing of the bad result reached the caller's buffer */
		assert_int_equal(out[0], 0xa5);
	}

	script(res, len);
	call_async(k, &d);
	if (ok) {
		assert_int_equal(d.status, 0);
		assert_int_equal(d.len, n);
		if (n)
			assert_memory_equal(d.res, res, n);
	} else {
		assert_int_equal(d.status, VGC_E_PROTOCOL);
		assert_int_equal(d.len, 0);
		assert_true(d.null_result);
	}
}

static uint8_t fill[SPEC_MAX];

static void check_lens(const struct call *k, const int32_t *good, const int32_t *bad)
{
	for (; *good != -2; good++)
		check(k, fill, *good, 1);
	for (; *bad != -2; bad++)
		check(k, fill, *bad, 0);
}

/* ping: the library sends no DATA, so the echo is empty or absent. */
static void test_ping(void **state)
{
	(void)state;
	struct call k = {PING, 0, 0, 0};
	check_lens(&k, (const int32_t[]){-1, 0, -2}, (const int32_t[]){1, 64, 4000, -2});
}

static void test_x25519(void **state)
{
	(void)state;
	struct call k = {X25519, 0, 0, 32};
	check_lens(&k, (const int32_t[]){32, -2},
		   (const int32_t[]){-1, 0, 31, 33, 64, 512, 4000, -2});
}

/* rsa-private's input is exactly the modulus's length: so is its output. */
static void test_rsa_private(void **state)
{
	(void)state;
	struct call k = {RSA_PRIV, 0, 0, 256};
	check_lens(&k, (const int32_t[]){256, -2},
		   (const int32_t[]){-1, 0, 32, 255, 257, 384, 512, 4000, -2});
	k.len = 512;
	check_lens(&k, (const int32_t[]){512, -2}, (const int32_t[]){256, 511, 513, -2});
}

/* The synchronous sign of issue 35 accepted a 33-byte Ed25519 signature. */
static void test_ed25519(void **state)
{
	(void)state;
	struct call k = {SIGN, VGC_ALG_ED25519, 0, 5};
	check_lens(&k, (const int32_t[]){64, -2},
		   (const int32_t[]){-1, 0, 32, 33, 63, 65, 72, 512, 4000, -2});
}

/* RSA: the client is not told the modulus with a sign reply, so any
 * length of an RSA-2048..4096 modulus passes, and nothing else. */
static void test_rsa_sign(void **state)
{
	(void)state;
	const int algs[] = {VGC_ALG_RSA_PKCS1_SHA256, VGC_ALG_RSA_PKCS1_SHA512,
			    VGC_ALG_RSA_PSS_SHA384};
	const size_t dlen[] = {32, 64, 48};
	for (size_t i = 0; i < 3; i++) {
		struct call k = {SIGN, algs[i], 0, dlen[i]};
		check_lens(&k, (const int32_t[]){256, 384, 512, -2},
			   (const int32_t[]){-1, 0, 64, 72, 255, 513, 4000, -2});
	}
}

/* 30 len 02 rn r 02 sn s, written out as given (valid or not). */
static size_t der(uint8_t *out, const uint8_t *r, size_t rn, const uint8_t *s, size_t sn)
{
	size_t n = 0;
	out[n++] = 0x30;
	out[n++] = (uint8_t)(4 + rn + sn);
	out[n++] = 0x02;
	out[n++] = (uint8_t)rn;
	memcpy(out + n, r, rn);
	n += rn;
	out[n++] = 0x02;
	out[n++] = (uint8_t)sn;
	memcpy(out + n, s, sn);
	return n + sn;
}

/* An integer's content of n bytes: with pad, 00 then n-1 bytes whose top
 * bit is set (the largest DER form of a size-byte value); else n bytes
 * starting with 0x7f. */
static const uint8_t *num(int pad)
{
	static uint8_t v[2][64];
	static int which;
	uint8_t *p = v[which ^= 1];
	memset(p, 0x5c, sizeof v[0]);
	p[0] = pad ? 0x00 : 0x7f;
	if (pad)
		p[1] = 0x80;
	return p;
}

static void check_der_curve(int alg, size_t dlen, size_t size)
{
	struct call k = {SIGN, alg, VGC_SIG_DER, dlen};
	uint8_t b[256];
	size_t n;

	/* the longest: both values with their sign byte, 72 or 104 bytes */
	n = der(b, num(1), size + 1, num(1), size + 1);
	assert_int_equal(n, size == 32 ? 72 : 104);
	check(&k, b, (int32_t)n, 1);
	k.format = VGC_SIG_DEFAULT; /* DER too */
	check(&k, b, (int32_t)n, 1);
	/* short values are fine (r, s below 2^248 happen) */
	n = der(b, num(0), size, (const uint8_t[]){0x01}, 1);
	check(&k, b, (int32_t)n, 1);
	/* one byte too wide for the curve */
	n = der(b, num(1), size + 2, num(0), size);
	check(&k, b, (int32_t)n, 0);
	n = der(b, num(0), size, num(0), size + 1);
	check(&k, b, (int32_t)n, 0);
	/* negative, superfluous leading zero, zero */
	n = der(b, (const uint8_t[]){0x80, 1}, 2, num(0), size);
	check(&k, b, (int32_t)n, 0);
	n = der(b, (const uint8_t[]){0x00, 0x01}, 2, num(0), size);
	check(&k, b, (int32_t)n, 0);
	n = der(b, (const uint8_t[]){0x00}, 1, num(0), size);
	check(&k, b, (int32_t)n, 0);
	/* framing: a byte after the SEQUENCE, a SEQUENCE length that lies, a
	 * wrong tag, a third INTEGER, cut short */
	n = der(b, num(0), size, num(0), size);
	b[n] = 0;
	check(&k, b, (int32_t)n + 1, 0);
	b[1]++;
	check(&k, b, (int32_t)n, 0);
	b[1]--;
	b[0] = 0x31;
	check(&k, b, (int32_t)n, 0);
	b[0] = 0x30;
	check(&k, b, (int32_t)n - 1, 0);
	check(&k, b, 0, 0);
	check(&k, b, -1, 0);
	/* raw bytes where DER was asked for */
	check(&k, fill, (int32_t)(2 * size), 0);

	/* raw r || s: exactly twice the curve's size */
	k.format = VGC_SIG_RAW;
	check(&k, fill, (int32_t)(2 * size), 1);
	n = der(b, num(0), size, num(0), size);
	check(&k, b, (int32_t)n, 0);
	check_lens(&k, (const int32_t[]){-2},
		   (const int32_t[]){-1, 0, (int32_t)(2 * size - 1), (int32_t)(2 * size + 1),
				     size == 32 ? 96 : 64, 4000, -2});
}

static void test_ecdsa(void **state)
{
	(void)state;
	check_der_curve(VGC_ALG_ECDSA_P256_SHA256, 32, 32);
	check_der_curve(VGC_ALG_ECDSA_P256_SHA512, 64, 32);
	check_der_curve(VGC_ALG_ECDSA_P384_SHA384, 48, 48);
	check_der_curve(VGC_ALG_ECDSA_P384_SHA256, 32, 48);
}

/* TLS 1.3 mode: the key's type decides the scheme, and the request does
 * not say it, so what any key type can sign passes (Ed25519, an RSA
 * modulus, DER for either curve), and nothing else. */
static void test_tls13(void **state)
{
	(void)state;
	struct call k = {TLS13, 0, 0, 32};
	uint8_t b[256];
	check_lens(&k, (const int32_t[]){64, 256, 300, 512, -2},
		   (const int32_t[]){-1, 0, 33, 63, 65, 96, 255, 513, 4000, -2});
	size_t n = der(b, num(1), 33, num(1), 33);
	check(&k, b, (int32_t)n, 1);
	n = der(b, num(1), 49, num(1), 49);
	check(&k, b, (int32_t)n, 1);
	n = der(b, num(1), 50, num(1), 49);
	check(&k, b, (int32_t)n, 0);
	k.len = 64;
	check_lens(&k, (const int32_t[]){64, 512, -2}, (const int32_t[]){32, 513, -2});
}

/* The caller's cap still counts: a fitting result too big for it is
 * VGC_E_BUFFER, not a protocol error. */
static void test_buffer_still_checked(void **state)
{
	(void)state;
	uint8_t sig[64];
	size_t n;
	script(fill, 64);
	assert_int_equal(vg_client_sign(C, "k", VGC_ALG_ED25519, "m", 1, sig, 63, &n),
			 VGC_E_BUFFER);
	script(fill, 64);
	assert_int_equal(vg_client_sign(C, "k", VGC_ALG_ED25519, "m", 1, sig, 64, &n), 0);
	assert_int_equal(n, 64);
}

int main(void)
{
	for (size_t i = 0; i < sizeof fill; i++)
		fill[i] = (uint8_t)(0x11 + i * 7);
	memset(in_buf, 0x42, sizeof in_buf);
	in_buf[0] = 0x01; /* rsa-private input below any modulus */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_x25519),
		cmocka_unit_test(test_rsa_private),
		cmocka_unit_test(test_ed25519),
		cmocka_unit_test(test_rsa_sign),
		cmocka_unit_test(test_ecdsa),
		cmocka_unit_test(test_tls13),
		cmocka_unit_test(test_buffer_still_checked),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
