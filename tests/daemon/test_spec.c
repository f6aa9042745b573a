/* test_spec.c: PROTOCOL.md's worked examples (section 11) against a
 * running vgd, byte for byte. The document is the source: the examples
 * are parsed out of it (```vgd-request NAME and ```vgd-reply NAME
 * open|closes blocks; each line begins with hex byte pairs separated by
 * single spaces, and two spaces start a comment), each request is sent on
 * a new connection to a daemon started as section 11 says, the reply is
 * compared with the document's bytes, and the connection must then stay
 * open (a ping is answered) or close, as the block says. A reply without
 * a request is provoked by the test: "refused" (a connection beyond
 * max_connections). Statements a byte example cannot show, because ECDSA
 * signatures are randomized (a long digest's leftmost bits are signed,
 * s is not normalised: PROTOCOL.md 4.2, 4.3), are checked with OpenSSL
 * on a second daemon with ECDSA keys. */
#include <ctype.h>
#include <openssl/rand.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define MAX_EXAMPLES 32
#define MAX_BYTES 512

typedef struct {
	char name[64];
	uint8_t req[MAX_BYTES], rep[MAX_BYTES];
	size_t req_len, rep_len;
	int has_req, has_rep;
	int closes; /* the reply block says "closes" (1) or "open" (0) */
} example;

static example ex[MAX_EXAMPLES];
static size_t nex;

static example *find(const char *name)
{
	for (size_t i = 0; i < nex; i++)
		if (strcmp(ex[i].name, name) == 0)
			return &ex[i];
	if (nex == MAX_EXAMPLES)
		fail_msg("more than %d examples", MAX_EXAMPLES);
	snprintf(ex[nex].name, sizeof ex[nex].name, "%s", name);
	return &ex[nex++];
}

/* The bytes of one block line: hex pairs up to two spaces or the end.
 * Anything else there is an error in the document. */
static void parse_bytes(const char *line, int lineno, uint8_t *out, size_t *len)
{
	const char *p = line;
	while (*p && *p != '\n') {
		if (p[0] == ' ' && (p[1] == ' ' || p[1] == '\n' || p[1] == '\0'))
			break; /* a comment (or trailing space) */
		if (*p == ' ') {
			p++;
			continue;
		}
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
		    (p[2] != ' ' && p[2] != '\n' && p[2] != '\0'))
			fail_msg("PROTOCOL.md line %d: not a hex byte: %s", lineno, p);
		if (*len == MAX_BYTES)
			fail_msg("PROTOCOL.md line %d: example too long", lineno);
		unsigned v;
		sscanf(p, "%2x", &v);
		out[(*len)++] = (uint8_t)v;
		p += 2;
	}
	if (p == line)
		fail_msg("PROTOCOL.md line %d: a line without bytes", lineno);
}

static void parse_document(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	char line[512];
	int lineno = 0;
	example *cur = NULL;
	int in_req = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (cur) {
			if (strncmp(line, "```", 3) == 0) {
				cur = NULL;
				continue;
			}
			if (in_req)
				parse_bytes(line, lineno, cur->req, &cur->req_len);
			else
				parse_bytes(line, lineno, cur->rep, &cur->rep_len);
			continue;
		}
		char kind[32], name[64], state[32] = "";
		int n = sscanf(line, "```vgd-%31s %63s %31s", kind, name, state);
		if (n < 2)
			continue;
		cur = find(name);
		in_req = strcmp(kind, "request") == 0;
		if (in_req) {
			if (cur->has_req)
				fail_msg("line %d: a second request '%s'", lineno, name);
			cur->has_req = 1;
		} else if (strcmp(kind, "reply") == 0) {
			if (cur->has_rep)
				fail_msg("line %d: a second reply '%s'", lineno, name);
			cur->has_rep = 1;
			if (strcmp(state, "open") != 0 && strcmp(state, "closes") != 0)
				fail_msg("line %d: reply '%s' says neither open nor closes", lineno,
					 name);
			cur->closes = strcmp(state, "closes") == 0;
		} else {
			fail_msg("line %d: unknown block kind vgd-%s", lineno, kind);
		}
	}
	fclose(f);
	if (cur)
		fail_msg("PROTOCOL.md ends inside example '%s'", cur->name);
}

static int ping_on(int fd)
{
	uint8_t req[64], buf[256];
	long n = dt_req_simple(req, sizeof req, VG_OP_PING, 0x9999);
	vg_reply rep;
	return dt_send_all(fd, req, (size_t)n) == 0 &&
	       dt_read_reply(fd, buf, sizeof buf, 5000, &rep) == 0 && rep.status == VG_ST_OK &&
	       rep.id == 0x9999;
}

static void dump(const char *what, const uint8_t *b, size_t n)
{
	fprintf(stderr, "%s (%zu bytes):", what, n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", b[i]);
	fprintf(stderr, "\n");
}

/* Read one frame on fd and compare it with the example's reply; then the
 * connection's state. */
static void check_reply(const example *e, int fd)
{
	uint8_t got[VG_PROTO_MAX_FRAME];
	long n = dt_read_frame(fd, got, sizeof got, 5000);
	if (n <= 0)
		fail_msg("%s: no reply frame", e->name);
	if ((size_t)n != e->rep_len || memcmp(got, e->rep, e->rep_len) != 0) {
		dump("document", e->rep, e->rep_len);
		dump("daemon", got, (size_t)n);
		fail_msg("%s: the daemon's reply differs from PROTOCOL.md", e->name);
	}
	/* The document's bytes are a valid frame of the kind they claim. */
	vg_reply rep;
	assert_int_equal(vg_reply_decode(e->rep, e->rep_len, &rep), VG_ST_OK);
	if (e->closes) {
		if (dt_wait_closed(fd, 5000) != 1)
			fail_msg("%s: the connection stayed open", e->name);
	} else if (!ping_on(fd)) {
		fail_msg("%s: the connection did not stay open", e->name);
	}
}

static vgt_daemon d;

/* The daemon section 11 describes; stopped by the teardown even when a
 * comparison fails. */
static int setup(void **state)
{
	static const char keys[] = "[key demo]\nfile = ed25519.pem\nallow = sign\n\n"
				   "[key demo-tls]\nfile = ed25519-b.pem\nallow = tls13\n";
	char *const env[] = { "VG_KERNELS=c", NULL };
	(void)state;
	if (vgt_setup(&d, "max_connections = 2\n", keys) < 0 || vgt_start(&d, 0, env) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&d);
}

static void test_examples(void **state)
{
	(void)state;
	parse_document(VG_PROTOCOL_MD);
	printf("# %zu examples in PROTOCOL.md\n", nex);
	assert_true(nex >= 10);
	size_t ran = 0;
	for (size_t i = 0; i < nex; i++) {
		const example *e = &ex[i];
		if (!e->has_rep)
			fail_msg("%s: a request without a reply", e->name);
		int held[2] = { -1, -1 };
		if (!e->has_req) {
			/* The one reply the test provokes without a request. */
			if (strcmp(e->name, "refused") != 0)
				fail_msg("%s: a reply without a request", e->name);
			for (int k = 0; k < 2; k++) {
				held[k] = dt_connect(d.sock);
				assert_true(held[k] >= 0 && ping_on(held[k]));
			}
		}
		int fd = dt_connect(d.sock);
		assert_true(fd >= 0);
		if (e->has_req)
			assert_int_equal(dt_send_all(fd, e->req, e->req_len), 0);
		check_reply(e, fd);
		printf("# %-20s %3zu -> %3zu bytes, %s: as documented\n", e->name, e->req_len,
		       e->rep_len, e->closes ? "closes" : "open");
		close(fd);
		for (int k = 0; k < 2; k++)
			if (held[k] >= 0)
				close(held[k]);
		ran++;
	}
	assert_int_equal(ran, nex);
}

/* floor(n / 2) for the orders of P-256 and P-384 (FIPS 186-4 D.1.2.3,
 * D.1.2.4): s above it is "high". */
static const uint8_t half_n256[32] = {
	0x7f, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xde, 0x73, 0x7d, 0x56, 0xd3, 0x8b, 0xcf, 0x42, 0x79, 0xdc, 0xe5, 0x61, 0x7e, 0x31, 0x92, 0xa8,
};
static const uint8_t half_n384[48] = {
	0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe3, 0xb1, 0xa6, 0xc0, 0xfa, 0x1b, 0x96, 0xef,
	0xac, 0x0d, 0x06, 0xd9, 0x24, 0x58, 0x53, 0xbd, 0x76, 0x76, 0x0c, 0xb5, 0x66, 0x62, 0x94, 0xb9,
};

/* The second daemon, with ECDSA keys; its teardown runs even when a check
 * fails, so no daemon outlives the test. */
static vgt_daemon e;
static vg_client *ec;

static int ecdsa_setup(void **state)
{
	static const char keys[] = "[key p256]\nfile = ecdsa-p256.pem\nallow = sign\n\n"
				   "[key p384]\nfile = ecdsa-p384.pem\nallow = sign\n";
	(void)state;
	if (vgt_setup(&e, NULL, keys) < 0 || vgt_start(&e, 0, NULL) < 0)
		return -1;
	ec = vg_client_new(e.sock);
	return ec ? 0 : -1;
}

static int ecdsa_teardown(void **state)
{
	(void)state;
	vg_client_free(ec);
	return dt_stop_clean(&e);
}

/* PROTOCOL.md 4.2: a digest longer than the order is cut to its leftmost
 * bits, so the signature verifies as the curve's own algorithm over the
 * digest's first bytes (and not over its last ones). 4.3: s is not
 * normalised, so among 32 valid signatures some have s > n/2 and some
 * not (all on one side has probability 2^-31). */
static void test_ecdsa_statements(void **state)
{
	static const struct {
		const char *key, *file;
		int alg, own_alg;
		size_t dlen, size;
		const uint8_t *half;
	} cases[] = {
		{ "p256", "ecdsa-p256.pem", VGC_ALG_ECDSA_P256_SHA384, VGC_ALG_ECDSA_P256_SHA256, 48,
		  32, half_n256 },
		{ "p256", "ecdsa-p256.pem", VGC_ALG_ECDSA_P256_SHA512, VGC_ALG_ECDSA_P256_SHA256, 64,
		  32, half_n256 },
		{ "p384", "ecdsa-p384.pem", VGC_ALG_ECDSA_P384_SHA512, VGC_ALG_ECDSA_P384_SHA384, 64,
		  48, half_n384 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		void *pk = vt_load_file(&e, cases[i].file);
		size_t size = cases[i].size, dlen = cases[i].dlen;
		int high = 0, n = 32;
		assert_non_null(pk);
		for (int k = 0; k < n; k++) {
			uint8_t dg[64], sig[96];
			size_t sl = 0;
			assert_int_equal(RAND_bytes(dg, (int)dlen), 1);
			assert_int_equal(vg_client_sign_format(ec, cases[i].key, cases[i].alg,
							       VGC_SIG_RAW, dg, dlen, sig,
							       sizeof sig, &sl),
					 0);
			assert_int_equal(sl, 2 * size);
			assert_true(vt_verify_ecdsa_raw(pk, cases[i].alg, dg, dlen, sig, sl));
			assert_true(vt_verify_ecdsa_raw(pk, cases[i].own_alg, dg, size, sig, sl));
			assert_false(vt_verify_ecdsa_raw(pk, cases[i].own_alg, dg + dlen - size,
							 size, sig, sl));
			high += memcmp(sig + size, cases[i].half, size) > 0;
		}
		printf("# %s, %zu-byte digests: leftmost %zu bytes signed; %d of %d high-s\n",
		       cases[i].key, dlen, size, high, n);
		assert_true(high > 0 && high < n);
		vt_free(pk);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test_setup_teardown(test_ecdsa_statements, ecdsa_setup, ecdsa_teardown),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
