/* test_tls.c: TLS servers using keys held by vgd through the provider
 * (provider/vgd.so): real handshakes with `openssl s_server` (argument
 * "s_server"), nginx as Debian runs it (argument "nginx": root master,
 * www-data workers, configured from doc/nginx.md, certbot's renewal
 * through the shipped deploy hook; argument "nginx-csr": also a server
 * whose certificate a test CA issued from a `vgctl csr` request) or HAProxy (argument "haproxy":
 * Debian's haproxy.cfg, user haproxy in its chroot, plus doc/haproxy.md's
 * block and socket bind mount, asynchronous signing included) against a
 * real vgd, with Ed25519, RSA and ECDSA P-256/P-384 keys, checked with
 * openssl s_client / curl and vgd's statistics. Every process started
 * here is killed at the end (proc.c), all on 127.0.0.1. */
#include <dirent.h>
#include <pwd.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "hsload.h"
#include "proc.h"
#include "vgclient.h"
#include "vgdprov_stats.h"

static const char keys_conf[] =
	"[key ed]\nfile = ed25519.pem\nallow = sign\n\n"
	"[key ed-tls]\nfile = ed25519-b.pem\nallow = tls13\n\n"
	"[key rsa]\nfile = rsa2048.pem\nallow = sign, rsa-private\n\n"
	"[key rsa-tls]\nfile = rsa2048-pkcs1.pem\nallow = tls13\n\n"
	"[key ec256]\nfile = ecdsa-p256.pem\nallow = sign\n\n"
	"[key ec384]\nfile = ecdsa-p384.pem\nallow = sign\n\n"
	"[key ec256-tls]\nfile = ecdsa-p256.pem\nallow = tls13\n";

enum { SRV_ED, SRV_ED_TLS, SRV_RSA, SRV_RSA_TLS, SRV_EC256, SRV_EC384, SRV_EC256_TLS, N_SRV };
static const char *const srv_key[N_SRV] = {"ed", "ed-tls", "rsa", "rsa-tls",
					   "ec256", "ec384", "ec256-tls"};
static const char *const srv_pem[N_SRV] = {"ed25519.pem", "ed25519-b.pem", "rsa2048.pem",
					   "rsa2048-pkcs1.pem", "ecdsa-p256.pem", "ecdsa-p384.pem",
					   "ecdsa-p256.pem"};
/* The host name in each certificate (HAProxy picks a certificate by it). */
static const char *const srv_host[N_SRV] = {"ed.vgd.test", "ed-tls.vgd.test", "rsa.vgd.test",
					    "rsa-tls.vgd.test", "ec256.vgd.test",
					    "ec384.vgd.test", "ec256-tls.vgd.test"};

/* Everything one test group set up; owned by this file. */
typedef struct {
	vgt_daemon d;
	const char *openssl, *provdir, *nginx, *curl, *haproxy;
	char env_sock[512];    /* VGD_SOCKET=... */
	char env_conf[512];    /* OPENSSL_CONF=... */
	char env_stats[512];   /* VGD_PROVIDER_STATS=... (HAProxy's provider counters) */
	char haproxy_log[400]; /* HAProxy's output */
	int port[N_SRV];       /* s_server ports, nginx ports (RSA, Ed25519, ECDSA), or
				* HAProxy's */
	pid_t pid[N_SRV];
	int out_seq;
	int lfd; /* the socket the test holds as vgd.socket would; -1: vgd makes its own */
} world;

static world W;

static const char *path(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", W.d.dir, name);
	return buf;
}

static const char *crt(char *buf, size_t cap, int i)
{
	char name[64];
	snprintf(name, sizeof(name), "%s.crt", srv_key[i]);
	return path(buf, cap, name);
}

/* A fresh output file name for the next process. */
static const char *next_out(char *buf, size_t cap)
{
	char name[32];
	snprintf(name, sizeof(name), "out.%d", ++W.out_seq);
	return path(buf, cap, name);
}

static void dump(const char *file)
{
	char *s = vgt_slurp(file);
	fprintf(stderr, "---- %s ----\n%s\n----\n", file, s ? s : "(none)");
	free(s);
}

static uint64_t stat_value(const char *name)
{
	vg_client *c = vg_client_new(W.d.sock);
	vgc_stat *s = NULL;
	int n = vg_client_stats(c, &s);
	uint64_t v = UINT64_MAX;
	for (int i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0)
			v = s[i].value;
	free(s);
	vg_client_free(c);
	assert_true(v != UINT64_MAX);
	return v;
}

/* Run a program to completion (at most ms); returns its status, -1 when
 * it had to be killed. out receives its output. */
static int run(char *const argv[], char *const env[], const char *in, const char *out, int ms)
{
	pid_t pid = vgt_spawn(argv, env, in, out);
	assert_true(pid > 0);
	return vgt_wait(pid, ms);
}

static int make_certs(void)
{
	for (int i = 0; i < N_SRV; i++) {
		char key[400], cert[400], out[400], san[128];
		snprintf(san, sizeof(san), "subjectAltName=DNS:localhost,DNS:%s", srv_host[i]);
		char *argv[] = {(char *)W.openssl, "req", "-x509", "-new", "-key",
				(char *)path(key, sizeof(key), srv_pem[i]), "-subj", "/CN=localhost",
				"-addext", san, "-days", "2", "-out",
				(char *)crt(cert, sizeof(cert), i), NULL};
		if (run(argv, NULL, NULL, next_out(out, sizeof(out)), 20000) != 0) {
			dump(out);
			return -1;
		}
	}
	return 0;
}

/* vgd as vgd.socket and vgd.service run it: the listening socket belongs
 * to the test (systemd's part), mode 0666 as SocketMode= makes it, and vgd
 * takes it as fd 3 (LISTEN_FDS), so restarting vgd keeps the socket (and
 * every bind mount of it). Waits until vgd answers ping. */
static int start_activated(void)
{
	const char *bin = getenv("VG_VGD");
	if (!bin)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(W.d.log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		if (dup2(W.lfd, 3) != 3)
			_exit(127);
		char n[32];
		snprintf(n, sizeof(n), "%d", (int)getpid());
		setenv("LISTEN_PID", n, 1);
		setenv("LISTEN_FDS", "1", 1);
		execl(bin, bin, "-c", W.d.conf, (char *)NULL);
		_exit(127);
	}
	W.d.pid = pid;
	vgt_track(pid);
	vg_client *c = vg_client_new(W.d.sock);
	vg_client_set_timeout(c, 1000);
	for (int i = 0; i < 500; i++) {
		if (vg_client_ping(c) == 0) {
			vg_client_free(c);
			return 0;
		}
		if (!vgt_alive(pid))
			break;
		usleep(20000);
	}
	vg_client_free(c);
	vgt_dump_log(&W.d);
	return -1;
}

static int hold_socket(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(W.d.sock) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, W.d.sock, strlen(W.d.sock));
	W.lfd = socket(AF_UNIX, SOCK_STREAM, 0); /* no CLOEXEC: vgd inherits it */
	if (W.lfd < 0 || fchmod(W.lfd, 0666) < 0)
		return -1;
	mode_t old = umask(0);
	int r = bind(W.lfd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	return r == 0 && listen(W.lfd, 128) == 0 ? 0 : -1;
}

/* vgd back after vgt_stop, the way it was started. */
static int restart_vgd(void)
{
	if (W.lfd >= 0)
		return start_activated();
	if (vgt_start(&W.d, 0, NULL) < 0)
		return -1;
	vgt_track(W.d.pid);
	return 0;
}

/* keys: vgd.conf's key sections; activated: vgd takes a socket the test
 * holds (start_activated) instead of making its own. */
static int common_setup_with(const char *keys, int activated, int (*before_start)(void))
{
	vgt_proc_init();
	memset(&W, 0, sizeof(W));
	W.lfd = -1;
	W.openssl = getenv("VG_OPENSSL");
	W.provdir = getenv("VG_PROVIDER_DIR");
	W.nginx = getenv("VG_NGINX");
	W.curl = getenv("VG_CURL");
	W.haproxy = getenv("VG_HAPROXY");
	if (!W.openssl || !W.provdir)
		return -1;
	if (vgt_setup(&W.d, NULL, keys) < 0 || (before_start && before_start() < 0))
		return -1;
	if (activated ? hold_socket() < 0 || start_activated() < 0 : restart_vgd() < 0)
		return -1;
	snprintf(W.env_sock, sizeof(W.env_sock), "VGD_SOCKET=%s", W.d.sock);
	return make_certs();
}

static int common_setup(void)
{
	return common_setup_with(keys_conf, 0, NULL);
}

/* The first line of a doc page (doc/nginx.md, doc/haproxy.md: VG_DOC_*)
 * that starts with prefix, without its newline; the tests configure
 * what the pages tell an admin to write. NULL if there is none. */
static char *doc_line(const char *env, const char *prefix)
{
	const char *file = getenv(env);
	char *text = file ? vgt_slurp(file) : NULL, *out = NULL;
	for (char *l = text; l && *l;) {
		char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (strncmp(l, prefix, strlen(prefix)) == 0) {
			out = strndup(l, n);
			break;
		}
		l = nl ? nl + 1 : l + n;
	}
	if (!out)
		fprintf(stderr, "no line starting \"%s\" in %s (%s)\n", prefix, file ? file : "?",
			env);
	free(text);
	return out;
}

/* The first ```lang block of a doc page, with its last newline. */
static char *doc_block(const char *env, const char *lang)
{
	const char *file = getenv(env);
	char *text = file ? vgt_slurp(file) : NULL, fence[32], *out = NULL;
	snprintf(fence, sizeof(fence), "\n```%s\n", lang);
	char *start = text ? strstr(text, fence) : NULL;
	char *end = start ? strstr(start + strlen(fence), "\n```\n") : NULL;
	if (end)
		out = strndup(start + strlen(fence), (size_t)(end + 1 - start - strlen(fence)));
	else
		fprintf(stderr, "no ```%s block in %s (%s)\n", lang, file ? file : "?", env);
	free(text);
	return out;
}

/* keys_conf with the line uids (a doc's) in every key section. */
static char *keys_with(const char *uids)
{
	size_t cap = sizeof(keys_conf) * 2 + 16 * strlen(uids);
	char *out = malloc(cap), *o = out;
	for (const char *k = keys_conf; out && *k; k++) {
		if (k[0] == '\n' && k[1] == '\n')
			o += sprintf(o, "\n%s", uids);
		*o++ = *k;
	}
	if (out)
		sprintf(o, "\n%s\n", uids);
	return out;
}

/* Replace the first from in *s by to (a fresh string); 0 or -1. */
static int subst(char **s, const char *from, const char *to)
{
	char *at = *s ? strstr(*s, from) : NULL;
	if (!at) {
		fprintf(stderr, "\"%s\" not found in a doc block\n", from);
		return -1;
	}
	size_t cap = strlen(*s) + strlen(to) + 1;
	char *n = malloc(cap);
	if (!n)
		return -1;
	snprintf(n, cap, "%.*s%s%s", (int)(at - *s), *s, to, at + strlen(from));
	free(*s);
	*s = n;
	return 0;
}

/* The test directory of the last daemon, checked after the group ran:
 * nothing of a run may stay behind (nginx makes sub-directories there). */
static char last_dir[sizeof(W.d.dir)];

static int common_teardown(void **state)
{
	memcpy(last_dir, W.d.dir, sizeof(last_dir));
	vgt_kill_all();
	vgt_cleanup(&W.d);
	if (W.lfd >= 0)
		close(W.lfd);
	W.lfd = -1;
	return 0;
}

/* cmocka does not count a failed group teardown, so the check is here. */
static int left_behind(int rc)
{
	struct stat st;
	if (last_dir[0] && stat(last_dir, &st) == 0) {
		fprintf(stderr, "test directory %s was left behind\n", last_dir);
		return rc ? rc : 1;
	}
	return rc;
}

/* ---- openssl s_server ---- */

static int start_s_server(int i)
{
	char uri[80], cert[400], out[400];
	snprintf(uri, sizeof(uri), "vgd:%s", srv_key[i]);
	W.port[i] = vgt_free_port();
	char accept[32];
	snprintf(accept, sizeof(accept), "127.0.0.1:%d", W.port[i]);
	char *argv[] = {(char *)W.openssl, "s_server", "-provider-path", (char *)W.provdir,
			"-provider", "default", "-provider", "vgd", "-accept", accept, "-key", uri,
			"-cert", (char *)crt(cert, sizeof(cert), i), "-www", NULL};
	char *env[] = {W.env_sock, "OPENSSL_CONF", NULL};
	W.pid[i] = vgt_spawn(argv, env, NULL, next_out(out, sizeof(out)));
	if (W.pid[i] <= 0 || vgt_wait_file(out, "ACCEPT", 15000) < 0) {
		dump(out);
		return -1;
	}
	return 0;
}

static int s_server_setup(void **state)
{
	int ok = common_setup() == 0;
	for (int i = 0; ok && i < N_SRV; i++)
		ok = start_s_server(i) == 0;
	if (!ok)
		common_teardown(state); /* cmocka skips the teardown then */
	return ok ? 0 : -1;
}

/* One s_client handshake with server i; extra arguments follow (NULL
 * terminated). Returns the exit status (-1: hung and killed) and leaves
 * the output in out. */
static int s_client(int i, char *out, size_t cap, ...)
{
	char connect[32], cert[400];
	snprintf(connect, sizeof(connect), "127.0.0.1:%d", W.port[i]);
	char *argv[32] = {(char *)W.openssl, "s_client", "-connect", connect, "-servername",
			  "localhost", "-brief", "-CAfile", (char *)crt(cert, sizeof(cert), i),
			  "-verify_return_error"};
	int n = 10;
	va_list ap;
	va_start(ap, cap);
	char *a;
	while ((a = va_arg(ap, char *)) && n < 31)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	char *env[] = {"OPENSSL_CONF", NULL};
	return run(argv, env, NULL, next_out(out, cap), 15000);
}

static void expect_ok(int rc, const char *out, const char *proto, const char *sigtype)
{
	char *s = vgt_slurp(out);
	char want[64];
	snprintf(want, sizeof(want), "Signature type: %s\n", sigtype);
	int ok = rc == 0 && s && strstr(s, "Verification: OK") && strstr(s, proto) &&
		 (!sigtype[0] || strstr(s, want));
	free(s);
	if (!ok) {
		fprintf(stderr, "s_client rc=%d, expected %s %s\n", rc, proto, sigtype);
		dump(out);
		vgt_dump_log(&W.d);
	}
	assert_true(ok);
}

static void test_ed25519_tls13(void **state)
{
	char out[400];
	for (int i = SRV_ED; i <= SRV_ED_TLS; i++) {
		uint64_t before = stat_value("sign.count");
		int rc = s_client(i, out, sizeof(out), "-tls1_3", "-sigalgs", "ed25519", NULL);
		expect_ok(rc, out, "Protocol version: TLSv1.3", "ed25519");
		assert_int_equal(stat_value("sign.count"), before + 1);
	}
}

static void test_rsa_pss_tls13(void **state)
{
	char out[400];
	uint64_t before = stat_value("sign.count");
	int rc = s_client(SRV_RSA, out, sizeof(out), "-tls1_3", "-sigalgs", "rsa_pss_rsae_sha256",
			  NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.3", "RSA-PSS");
	/* allow = tls13: the suite's hash must match the scheme's (vgd's TLS
	 * 1.3 mode), so offer TLS_AES_128_GCM_SHA256 with rsa_pss_rsae_sha256. */
	rc = s_client(SRV_RSA_TLS, out, sizeof(out), "-tls1_3", "-ciphersuites",
		      "TLS_AES_128_GCM_SHA256", "-sigalgs", "rsa_pss_rsae_sha256", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.3", "RSA-PSS");
	assert_int_equal(stat_value("sign.count"), before + 2);
}

static void test_rsa_tls12(void **state)
{
	char out[400];
	uint64_t before = stat_value("sign.count");
	uint64_t dec = stat_value("rsa-private.count");
	int rc = s_client(SRV_RSA, out, sizeof(out), "-tls1_2", "-cipher",
			  "ECDHE-RSA-AES128-GCM-SHA256", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.2", "RSA-PSS");
	rc = s_client(SRV_RSA, out, sizeof(out), "-tls1_2", "-cipher",
		      "ECDHE-RSA-AES128-GCM-SHA256", "-sigalgs", "rsa_pkcs1_sha384", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.2", "RSA");
	assert_int_equal(stat_value("sign.count"), before + 2);
	/* RSA key exchange: the premaster is decrypted with rsa-private. */
	rc = s_client(SRV_RSA, out, sizeof(out), "-tls1_2", "-cipher", "AES128-GCM-SHA256", NULL);
	expect_ok(rc, out, "Ciphersuite: AES128-GCM-SHA256", "");
	assert_int_equal(stat_value("rsa-private.count"), dec + 1);
	assert_int_equal(stat_value("sign.count"), before + 2);
}

/* ECDSA in TLS 1.3: each curve's own scheme. The TLS 1.3-only P-256 key
 * goes through vgd's TLS 1.3 mode, also under a SHA-384 suite, where
 * the transcript hash is SHA-384 and the content is hashed with SHA-256
 * (RFC 8446 4.2.3: the curve fixes the hash). */
static void test_ecdsa_tls13(void **state)
{
	char out[400];
	uint64_t before = stat_value("sign.count");
	int rc = s_client(SRV_EC256, out, sizeof(out), "-tls1_3", "-sigalgs",
			  "ecdsa_secp256r1_sha256", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.3", "ECDSA");
	rc = s_client(SRV_EC384, out, sizeof(out), "-tls1_3", "-sigalgs", "ecdsa_secp384r1_sha384",
		      NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.3", "ECDSA");
	static const char *const suites[] = {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"};
	for (int i = 0; i < 2; i++) {
		rc = s_client(SRV_EC256_TLS, out, sizeof(out), "-tls1_3", "-ciphersuites",
			      suites[i], NULL);
		expect_ok(rc, out, "Protocol version: TLSv1.3", "ECDSA");
	}
	assert_int_equal(stat_value("sign.count"), before + 4);
}

/* ECDSA in TLS 1.2 (ECDHE-ECDSA): the client picks the hash, with either
 * curve (OpenSSL's clients offer SHA-256 first, also to P-384). */
static void test_ecdsa_tls12(void **state)
{
	char out[400];
	uint64_t before = stat_value("sign.count");
	for (int i = SRV_EC256; i <= SRV_EC384; i++) {
		int rc = s_client(i, out, sizeof(out), "-tls1_2", "-cipher",
				  "ECDHE-ECDSA-AES128-GCM-SHA256", NULL);
		expect_ok(rc, out, "Protocol version: TLSv1.2", "ECDSA");
		rc = s_client(i, out, sizeof(out), "-tls1_2", "-sigalgs",
			      i == SRV_EC256 ? "ECDSA+SHA384" : "ECDSA+SHA512", NULL);
		expect_ok(rc, out, "Ciphersuite: ECDHE-ECDSA-", "ECDSA");
	}
	assert_int_equal(stat_value("sign.count"), before + 4);
	/* allow = tls13: the ServerKeyExchange is refused, cleanly */
	uint64_t errs = stat_value("sign.errors");
	int rc = s_client(SRV_EC256_TLS, out, sizeof(out), "-tls1_2", NULL);
	assert_true(rc > 0);
	assert_int_equal(stat_value("sign.errors"), errs + 1);
	assert_true(vgt_alive(W.pid[SRV_EC256_TLS]));
}

static void test_policy_refuses_tls12(void **state)
{
	/* A TLS 1.2 ServerKeyExchange is arbitrary content: an `allow =
	 * tls13` key must refuse it, and the handshake fails cleanly. */
	char out[400];
	uint64_t errs = stat_value("sign.errors");
	int rc = s_client(SRV_RSA_TLS, out, sizeof(out), "-tls1_2", "-cipher",
			  "ECDHE-RSA-AES128-GCM-SHA256", NULL);
	assert_true(rc > 0);
	assert_int_equal(stat_value("sign.errors"), errs + 1);
	assert_true(vgt_alive(W.pid[SRV_RSA_TLS]));
}

/* RSA decryption outside TLS (openssl pkeyutl): PKCS#1 v1.5 and no
 * padding; a block with the wrong padding type must be refused. */
static void test_rsa_decrypt(void **state)
{
	char cert[400], cmd[3000], out[400];
	const char *dir = W.d.dir;
	crt(cert, sizeof(cert), SRV_RSA);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; O='%s'; V=\"$O pkeyutl -provider-path %s -provider default "
		 "-provider vgd -decrypt -inkey vgd:rsa\"\n"
		 "$O x509 -in '%s' -pubkey -noout > pub.pem\n"
		 "printf 'secret message' > m\n"
		 "$O pkeyutl -encrypt -pubin -inkey pub.pem -in m -out m.enc\n"
		 "$V -in m.enc -out m.dec; cmp m m.dec\n"
		 "{ printf '\\000\\001'; head -c 254 /dev/zero | tr '\\000' '\\377'; } > blk\n"
		 "$O pkeyutl -encrypt -pubin -inkey pub.pem -pkeyopt rsa_padding_mode:none "
		 "-in blk -out blk.enc\n"
		 "$V -pkeyopt rsa_padding_mode:none -in blk.enc -out blk.dec; cmp blk blk.dec\n"
		 "if $V -in blk.enc -out bad.dec; then echo 'bad padding accepted'; exit 1; fi\n"
		 "echo all-good\n",
		 dir, W.openssl, W.provdir, cert);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {W.env_sock, "OPENSSL_CONF", NULL};
	uint64_t before = stat_value("rsa-private.count");
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 30000);
	char *s = vgt_slurp(out);
	int ok = rc == 0 && s && strstr(s, "all-good");
	free(s);
	if (!ok)
		dump(out);
	assert_true(ok);
	assert_int_equal(stat_value("rsa-private.count"), before + 3);
}

/* An EC key through the provider outside TLS: OpenSSL reads its curve,
 * size and public key from vgd (the same SubjectPublicKeyInfo as from the
 * key file), signs a digest (EVP_PKEY_sign) and a message with another
 * hash than the curve's (EVP_DigestSign, SHA-384 with P-256), each
 * verified against the key file's public key. */
static void test_ec_openssl_cli(void **state)
{
	char cmd[3000], out[400];
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; O='%s'; P=\"-provider-path %s -provider default -provider vgd\"\n"
		 "$O pkey $P -in vgd:ec384 -pubout -out got.pub\n"
		 "$O pkey -in ecdsa-p384.pem -pubout -out want.pub; cmp got.pub want.pub\n"
		 "$O pkey $P -in vgd:ec384 -text_pub -noout | grep -q 'Public-Key: (384 bit)'\n"
		 "$O pkey $P -in vgd:ec384 -text_pub -noout | grep -q 'NIST CURVE: P-384'\n"
		 "$O pkey -in ecdsa-p256.pem -pubout -out p256.pub\n"
		 "printf 'a message' > m; $O dgst -sha256 -binary m > m.d\n"
		 "$O pkeyutl $P -sign -inkey vgd:ec256 -in m.d -out m.sig\n"
		 "$O pkeyutl -verify -pubin -inkey p256.pub -in m.d -sigfile m.sig\n"
		 "$O dgst $P -sha384 -sign vgd:ec256 -out m2.sig m\n"
		 "$O dgst -sha384 -verify p256.pub -signature m2.sig m\n"
		 "echo all-good\n",
		 W.d.dir, W.openssl, W.provdir);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {W.env_sock, "OPENSSL_CONF", NULL};
	uint64_t before = stat_value("sign.count");
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 30000);
	char *s = vgt_slurp(out);
	int ok = rc == 0 && s && strstr(s, "all-good");
	free(s);
	if (!ok)
		dump(out);
	assert_true(ok);
	assert_int_equal(stat_value("sign.count"), before + 2);
}

/* `openssl pkey` fetching vgd:ed through socket sock, as (uid, gid) when
 * uid is non-zero; the output must name what want lists. */
static void expect_unreachable(const char *sock, unsigned uid, unsigned gid,
			       const char *const want[])
{
	char cmd[1600], out[400];
	/* Another user may not be able to read the build tree (a checkout
	 * under /root is 0700): that user loads a copy of the provider from a
	 * directory of its own. */
	if (uid)
		snprintf(cmd, sizeof(cmd),
			 "d=$(mktemp -d) && chmod 755 \"$d\" && cp %s/vgd.so \"$d\"/ && "
			 "chmod 644 \"$d\"/vgd.so || exit 99; "
			 "setpriv --clear-groups --reuid=%u --regid=%u %s pkey -provider-path "
			 "\"$d\" -provider default -provider vgd -in vgd:ed -pubout; "
			 "rc=$?; rm -rf \"$d\"; exit $rc",
			 W.provdir, uid, gid, W.openssl);
	else
		snprintf(
			cmd, sizeof(cmd),
			"exec %s pkey -provider-path %s -provider default -provider vgd -in vgd:ed "
			"-pubout",
			W.openssl, W.provdir);
	char env_sock[400];
	snprintf(env_sock, sizeof(env_sock), "VGD_SOCKET=%s", sock);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {env_sock, "OPENSSL_CONF", NULL};
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 15000);
	char *s = vgt_slurp(out);
	int ok = rc > 0 && s != NULL;
	for (int i = 0; ok && want[i]; i++)
		ok = strstr(s, want[i]) != NULL;
	if (!ok) {
		fprintf(stderr, "openssl pkey rc=%d; wanted:", rc);
		for (int i = 0; want[i]; i++)
			fprintf(stderr, " \"%s\"", want[i]);
		fprintf(stderr, "\n");
		dump(out);
	}
	free(s);
	assert_true(ok);
}

/* The provider cannot reach vgd: its error (what nginx and HAProxy print)
 * names the socket, the errno and its likely cause, for the three ways a
 * deployment meets it: no socket at the path (vgd down, or a chroot),
 * a socket this user may not use, a socket nobody listens on. */
static void test_provider_unreachable(void **state)
{
	char missing[400], stale[400], line[600];
	path(missing, sizeof(missing), "missing.sock");
	snprintf(line, sizeof(line), "cannot connect to vgd at %s: ENOENT", missing);
	const char *const want_enoent[] = {line, "chroot", "not running", NULL};
	expect_unreachable(missing, 0, 0, want_enoent);

	/* The test directory is root's (0700): nobody may not reach vgd's
	 * socket inside it. */
	char line2[600];
	snprintf(line2, sizeof(line2), "cannot connect to vgd at %s: EACCES", W.d.sock);
	const char *const want_eacces[] = {line2, "uid 65534", "group", NULL};
	expect_unreachable(W.d.sock, 65534, 65534, want_eacces);

	/* A socket file whose listener is gone (vgd killed). */
	path(stale, sizeof(stale), "stale.sock");
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	assert_true(strlen(stale) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, stale, strlen(stale));
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	char line3[600];
	snprintf(line3, sizeof(line3), "cannot connect to vgd at %s: ECONNREFUSED", stale);
	const char *const want_refused[] = {line3, "vgd is not running", NULL};
	expect_unreachable(stale, 0, 0, want_refused);
	unlink(stale);
}

static void test_s_server_vgd_down(void **state)
{
	char out[400];
	assert_int_equal(vgt_stop(&W.d), 0);
	for (int i = SRV_ED; i <= SRV_RSA; i += 2) {
		int rc = s_client(i, out, sizeof(out), "-tls1_3", NULL);
		if (rc <= 0)
			dump(out);
		assert_true(rc > 0); /* failed, and did not hang (-1) */
		assert_true(vgt_alive(W.pid[i]));
	}
	assert_int_equal(vgt_start(&W.d, 0, NULL), 0); /* same socket */
	vgt_track(W.d.pid);
	uint64_t before = stat_value("sign.count");
	int rc = s_client(SRV_ED, out, sizeof(out), "-tls1_3", "-sigalgs", "ed25519", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.3", "ed25519");
	rc = s_client(SRV_RSA, out, sizeof(out), "-tls1_2", "-cipher",
		      "ECDHE-RSA-AES128-GCM-SHA256", NULL);
	expect_ok(rc, out, "Protocol version: TLSv1.2", "RSA-PSS");
	assert_int_equal(stat_value("sign.count"), before + 2);
}

/* ---- nginx ---- */

/* openssl.cnf: default + vgd, socket from the provider's section; its
 * path goes to W.env_conf as OPENSSL_CONF=... */
static int write_openssl_cnf(void)
{
	char f[400];
	FILE *o = fopen(path(f, sizeof(f), "openssl.cnf"), "w");
	if (!o)
		return -1;
	fprintf(o,
		"openssl_conf = openssl_init\n\n[openssl_init]\nproviders = provider_sect\n\n"
		"[provider_sect]\ndefault = default_sect\nvgd = vgd_sect\n\n"
		"[default_sect]\nactivate = 1\n\n"
		"[vgd_sect]\nmodule = %s/vgd.so\nsocket = %s\nactivate = 1\n",
		W.provdir, W.d.sock);
	fclose(o);
	snprintf(W.env_conf, sizeof(W.env_conf), "OPENSSL_CONF=%s", f);
	return 0;
}

/* doc/nginx.md's shell one-liner (step 5), so the documented format is
 * tested. */
static int write_keyref(const char *uri, const char *file)
{
	char cmd[1200], out[400];
	snprintf(cmd, sizeof(cmd),
		 "{ echo '-----BEGIN VGD KEY REFERENCE-----'; printf '%%s' '%s' | base64 -w 64; "
		 "echo '-----END VGD KEY REFERENCE-----'; } > '%s'",
		 uri, file);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	return run(argv, NULL, NULL, next_out(out, sizeof(out)), 10000) == 0 ? 0 : -1;
}

/* ---- certbot ---- */

/* A certificate lineage laid out as certbot lays it out, under the test
 * directory's letsencrypt/: archive/NAME/{privkey,cert,chain,fullchain}N.pem
 * and live/NAME/{privkey,cert,chain,fullchain}.pem, relative symbolic links
 * to the newest. */
#define CB_NAME "certbot.vgd.test"

static const char *cb_path(char *buf, size_t cap, const char *rel)
{
	snprintf(buf, cap, "%s/letsencrypt/%s", W.d.dir, rel);
	return buf;
}

/* Issue (n == 1) or renew (n > 1) the lineage: a new P-256 key, as
 * certbot makes by default, and its certificate; live/ then points at
 * them. */
static int certbot_issue(int n)
{
	char cmd[2400], out[400];
	snprintf(cmd, sizeof(cmd),
		 "set -e; L='%s/letsencrypt'; N=%d; A=$L/archive/" CB_NAME "\n"
		 "mkdir -p $A $L/live/" CB_NAME "; chmod 700 $L/archive $L/live\n"
		 "'%s' genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "
		 "$A/privkey$N.pem\n"
		 "chmod 600 $A/privkey$N.pem\n"
		 "'%s' req -x509 -new -key $A/privkey$N.pem -subj /CN=" CB_NAME
		 " -addext subjectAltName=DNS:" CB_NAME " -days 2 -out $A/cert$N.pem\n"
		 ": > $A/chain$N.pem; cp $A/cert$N.pem $A/fullchain$N.pem\n"
		 "for f in privkey cert chain fullchain; do\n"
		 "  ln -sfn ../../archive/" CB_NAME "/$f$N.pem $L/live/" CB_NAME "/$f.pem\n"
		 "done\n",
		 W.d.dir, n, W.openssl, W.openssl);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	int rc = run(argv, NULL, NULL, next_out(out, sizeof(out)), 20000);
	if (rc != 0)
		dump(out);
	return rc == 0 ? 0 : -1;
}

/* Run the shipped deploy hook as certbot does (RENEWED_LINEAGE), into the
 * test's key directory live-keys/, reloading vgd with reload. */
static int certbot_hook(const char *reload)
{
	char lineage[400], env_l[420], env_dir[420], env_reload[200], out[400];
	const char *hook = getenv("VG_CERTBOT_HOOK");
	if (!hook)
		return -1;
	snprintf(env_l, sizeof(env_l), "RENEWED_LINEAGE=%s",
		 cb_path(lineage, sizeof(lineage), "live/" CB_NAME));
	snprintf(env_dir, sizeof(env_dir), "VGD_KEY_DIR=%s/live-keys", W.d.dir);
	snprintf(env_reload, sizeof(env_reload), "VGD_RELOAD=%s", reload);
	char *argv[] = {"/bin/sh", (char *)hook, NULL};
	char *env[] = {env_l, env_dir, env_reload, NULL};
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 20000);
	if (rc != 0)
		dump(out);
	return rc == 0 ? 0 : -1;
}

/* Before vgd starts: the first certificate, and the hook run by hand
 * as doc/nginx.md says (nothing to reload yet). */
static int certbot_first(void)
{
	char d[400];
	if (mkdir(path(d, sizeof(d), "live-keys"), 0700) < 0 || certbot_issue(1) < 0)
		return -1;
	return certbot_hook("true");
}

/* nginx as Debian ships it: the master as root, the workers as www-data
 * (Debian's nginx.conf says `user www-data;`), vgd's keys with the uids
 * line of doc/nginx.md, and each server from doc/nginx.md's nginx block
 * with this test's port, certificate, key reference and root. The test
 * directory stands in for /run/vgd: 0750, group www-data in place of
 * vgd-clients (a test does not add groups to the machine), the socket
 * 0666 inside it, held by the test as vgd.socket holds it. */
/* ---- a certificate from a CA, for a CSR vgd signed ---- */

#define CSR_HOST "csr.vgd.test"

/* A test CA made with openssl issues the certificate of the tls13-only
 * P-256 key ec256-tls from the request `vgctl csr` had vgd sign (the
 * subjectAltName copied from the request), into csr.crt; ca.crt is the
 * CA's certificate, for the client. */
static int csr_issue(void)
{
	char cmd[2400], out[400];
	const char *vgctl = getenv("VG_VGCTL");
	if (!vgctl)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; O='%s'\n"
		 "cat > ca.cnf <<'EOF'\n"
		 "[req]\ndistinguished_name = dn\nx509_extensions = ca\nprompt = no\n"
		 "[dn]\nCN = vgd test CA\n"
		 "[ca]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign\n"
		 "subjectKeyIdentifier = hash\n"
		 "[leaf]\nbasicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature\n"
		 "extendedKeyUsage = serverAuth\nauthorityKeyIdentifier = keyid\n"
		 "EOF\n"
		 "$O req -x509 -new -config ca.cnf -newkey ec -pkeyopt ec_paramgen_curve:P-256 "
		 "-nodes -keyout ca.key -days 2 -out ca.crt\n"
		 "'%s' --socket '%s' csr ec256-tls --subject 'CN=" CSR_HOST ",O=vgd tests' "
		 "--san DNS:" CSR_HOST " --out csr.pem\n"
		 "$O req -in csr.pem -verify -noout\n"
		 "$O x509 -req -in csr.pem -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 "
		 "-copy_extensions copy -extfile ca.cnf -extensions leaf -out csr.crt\n"
		 "$O x509 -in csr.crt -noout -ext subjectAltName | grep -q 'DNS:" CSR_HOST "'\n",
		 W.d.dir, W.openssl, vgctl, W.d.sock);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {"OPENSSL_CONF", NULL};
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 30000);
	if (rc != 0)
		dump(out);
	return rc == 0 ? 0 : -1;
}

/* nginx_setup_inner's servers: 0 RSA, 1 Ed25519 (TLS 1.3 only), 2 ECDSA
 * P-256, 3 certbot's lineage, and with csr 4: the tls13-only P-256 key
 * with the certificate the test CA issued from its CSR (csr_issue). */
static int nginx_setup_inner(int csr)
{
	char *uids = doc_line("VG_DOC_NGINX", "uids = ");
	char *base = uids ? keys_with(uids) : NULL, *keys = NULL;
	if (base &&
	    asprintf(&keys,
		     "%s\n[key " CB_NAME "]\nfile = live-keys/" CB_NAME ".pem\nallow = sign\n%s\n",
		     base, uids) < 0)
		keys = NULL;
	free(base);
	char *block = doc_block("VG_DOC_NGINX", "nginx");
	struct passwd *pw = getpwnam("www-data");
	int rc = -1;
	if (!keys || !block || !pw || common_setup_with(keys, 1, certbot_first) < 0 || !W.nginx)
		goto out;
	if (chown(W.d.dir, 0, pw->pw_gid) < 0 || chmod(W.d.dir, 0750) < 0)
		goto out;
	char f[400], g[400], sockuri[512], ref[5][400], cert[5][400];
	static const int srv[3] = {SRV_RSA, SRV_ED_TLS, SRV_EC256};
	int nsrv = csr ? 5 : 4;
	snprintf(sockuri, sizeof(sockuri), "vgd:ed-tls?socket=%s", W.d.sock);
	if (write_keyref("vgd:rsa", path(ref[0], sizeof(ref[0]), "rsa.vgdref")) < 0 ||
	    write_keyref(sockuri, path(ref[1], sizeof(ref[1]), "ed.vgdref")) < 0 ||
	    write_keyref("vgd:ec256", path(ref[2], sizeof(ref[2]), "ec.vgdref")) < 0 ||
	    write_keyref("vgd:" CB_NAME, path(ref[3], sizeof(ref[3]), "cb.vgdref")) < 0 ||
	    write_openssl_cnf() < 0)
		goto out;
	cb_path(cert[3], sizeof(cert[3]), "live/" CB_NAME "/fullchain.pem");
	if (csr && (write_keyref("vgd:ec256-tls", path(ref[4], sizeof(ref[4]), "csr.vgdref")) < 0 ||
		    csr_issue() < 0))
		goto out;
	path(cert[4], sizeof(cert[4]), "csr.crt");
	FILE *o = fopen(path(f, sizeof(f), "index.html"), "w");
	if (!o)
		goto out;
	fputs("hello from nginx with a vgd key\n", o);
	fclose(o);
	chmod(f, 0644);
	o = fopen(path(f, sizeof(f), "nginx.conf"), "w");
	if (!o)
		goto out;
	fprintf(o,
		"user www-data;\nworker_processes 1;\npid %s/nginx.pid;\n"
		"error_log %s/nginx-error.log info;\nenv OPENSSL_CONF;\n"
		"events { worker_connections 64; }\n"
		"http {\n access_log off;\n client_body_temp_path %s/nginx-body;\n"
		" proxy_temp_path %s/nginx-proxy;\n fastcgi_temp_path %s/nginx-fcgi;\n"
		" uwsgi_temp_path %s/nginx-uwsgi;\n scgi_temp_path %s/nginx-scgi;\n",
		W.d.dir, W.d.dir, W.d.dir, W.d.dir, W.d.dir, W.d.dir, W.d.dir);
	int ok = 1;
	for (int i = 0; i < nsrv && ok; i++) {
		char listen[64], c[420], k[420], root[300];
		W.port[i] = vgt_free_port();
		snprintf(listen, sizeof(listen), "listen 127.0.0.1:%d ssl;", W.port[i]);
		if (i < 3)
			crt(cert[i], sizeof(cert[i]), srv[i]);
		snprintf(c, sizeof(c), "ssl_certificate     %s;", cert[i]);
		snprintf(k, sizeof(k), "ssl_certificate_key %s;", ref[i]);
		snprintf(root, sizeof(root), "root %s;", W.d.dir);
		char *b = strdup(block);
		ok = subst(&b, "listen 443 ssl;", listen) == 0 &&
		     subst(&b, "ssl_certificate     /etc/ssl/example.org.crt;", c) == 0 &&
		     subst(&b, "ssl_certificate_key /etc/vgd/refs/example.org.vgdref;", k) == 0 &&
		     subst(&b, "root /var/www/html;", root) == 0;
		if (ok)
			fputs(b, o);
		free(b);
	}
	fputs("}\n", o);
	fclose(o);
	if (!ok)
		goto out;
	char *argv[] = {(char *)W.nginx, "-p", W.d.dir, "-c", f, "-g", "daemon off;", NULL};
	char *env[] = {W.env_conf, "VGD_SOCKET", NULL};
	W.pid[0] = vgt_spawn(argv, env, NULL, next_out(g, sizeof(g)));
	int up = W.pid[0] > 0;
	for (int i = 0; i < nsrv && up; i++)
		up = vgt_wait_port(W.port[i], 15000) == 0;
	if (!up) {
		dump(g);
		dump(path(f, sizeof(f), "nginx-error.log"));
		vgt_dump_log(&W.d);
		goto out;
	}
	rc = 0;
out:
	free(uids);
	free(keys);
	free(block);
	return rc;
}

static int nginx_setup(void **state)
{
	if (nginx_setup_inner(0) == 0)
		return 0;
	common_teardown(state); /* cmocka skips the teardown then */
	return -1;
}

static int nginx_csr_setup(void **state)
{
	if (nginx_setup_inner(1) == 0)
		return 0;
	common_teardown(state);
	return -1;
}

/* Fetch / over TLS (version "1.2" or "1.3") from server i's certificate
 * (a SRV_*: its host name, for SNI) on port; want is a line of the page.
 * Returns the exit status; *body_ok tells whether the page came back. */
static int fetch_host(const char *host, const char *cert, int port, const char *version,
		      const char *want, int *body_ok)
{
	char url[128], resolve[128], out[400], body[400];
	snprintf(url, sizeof(url), "https://%s:%d/", host, port);
	snprintf(resolve, sizeof(resolve), "%s:%d:127.0.0.1", host, port);
	next_out(body, sizeof(body));
	unlink(body);
	int rc;
	if (W.curl) {
		char *argv[20] = {(char *)W.curl, "-sS",       "--max-time", "10", "--cacert",
				  (char *)cert,   "--resolve", resolve,      "-o", body};
		int n = 10;
		if (strcmp(version, "1.2") == 0) {
			argv[n++] = "--tlsv1.2";
			argv[n++] = "--tls-max";
			argv[n++] = "1.2";
		} else {
			argv[n++] = "--tlsv1.3";
		}
		argv[n++] = url;
		argv[n] = NULL;
		rc = run(argv, NULL, NULL, next_out(out, sizeof(out)), 15000);
	} else {
		char req[400], connect[32];
		snprintf(connect, sizeof(connect), "127.0.0.1:%d", port);
		FILE *o = fopen(path(req, sizeof(req), "request"), "w");
		assert_non_null(o);
		fprintf(o, "GET / HTTP/1.0\r\nHost: %s\r\n\r\n", host);
		fclose(o);
		char *argv[] = {(char *)W.openssl,
				"s_client",
				"-connect",
				connect,
				"-servername",
				(char *)host,
				"-quiet",
				"-ign_eof",
				"-CAfile",
				(char *)cert,
				"-verify_return_error",
				strcmp(version, "1.2") == 0 ? "-tls1_2" : "-tls1_3",
				NULL};
		char *env[] = {"OPENSSL_CONF", NULL};
		rc = run(argv, env, req, body, 15000);
	}
	char *s_body = vgt_slurp(body);
	*body_ok = s_body && strstr(s_body, want) != NULL;
	free(s_body);
	if (rc != 0 || !*body_ok) {
		dump(out);
		dump(body);
	}
	return rc;
}

static int fetch_from(int i, int port, const char *version, const char *want, int *body_ok)
{
	char cert[400];
	return fetch_host(srv_host[i], crt(cert, sizeof(cert), i), port, version, want, body_ok);
}

/* nginx server s: 0 RSA, 1 Ed25519 (TLS 1.3 only), 2 ECDSA P-256. */
static int fetch(int s, const char *version, int *body_ok)
{
	static const int srv[] = {SRV_RSA, SRV_ED_TLS, SRV_EC256};
	return fetch_from(srv[s], W.port[s], version, "hello from nginx with a vgd key", body_ok);
}

static void test_nginx_tls13_tls12(void **state)
{
	uint64_t before = stat_value("sign.count");
	int ok;
	assert_int_equal(fetch(0, "1.3", &ok), 0);
	assert_true(ok);
	assert_int_equal(fetch(0, "1.2", &ok), 0);
	assert_true(ok);
	/* Ed25519 key allowing only TLS 1.3, named with ?socket= */
	assert_int_equal(fetch(1, "1.3", &ok), 0);
	assert_true(ok);
	/* ECDSA P-256: TLS 1.3 and ECDHE-ECDSA */
	assert_int_equal(fetch(2, "1.3", &ok), 0);
	assert_true(ok);
	assert_int_equal(fetch(2, "1.2", &ok), 0);
	assert_true(ok);
	assert_int_equal(stat_value("sign.count"), before + 5);
}

/* vgd's public key for CB_NAME (through the provider) is the one of
 * letsencrypt/archive/CB_NAME/privkeyN.pem. */
static int vgd_serves_key(int n)
{
	char cmd[2000], out[400];
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; O='%s'\n"
		 "$O pkey -provider-path %s -provider default -provider vgd -in vgd:" CB_NAME
		 " -pubout -out vgd.pub\n"
		 "$O pkey -in letsencrypt/archive/" CB_NAME "/privkey%d.pem -pubout -out want.pub\n"
		 "cmp vgd.pub want.pub\n",
		 W.d.dir, W.openssl, W.provdir, n);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {W.env_sock, "OPENSSL_CONF", NULL};
	return run(argv, env, NULL, next_out(out, sizeof(out)), 20000) == 0;
}

/* certbot renews: a new key in archive/, live/ relinked, the shipped
 * deploy hook run as certbot runs it. vgd must then serve the new key,
 * its copy a regular file of the key directory's owner, mode 0600; a
 * client connected before the reload keeps working on its connection;
 * nginx, reloaded after (doc/nginx.md's second hook), serves the new
 * certificate, signed by vgd with the new key. */
static void test_nginx_certbot_renewal(void **state)
{
	char cert1[400], cert2[400], cmd[200], copy[400], arch[400];
	int ok;
	cb_path(cert1, sizeof(cert1), "archive/" CB_NAME "/cert1.pem");
	cb_path(cert2, sizeof(cert2), "archive/" CB_NAME "/cert2.pem");
	static const char want[] = "hello from nginx with a vgd key";
	assert_int_equal(fetch_host(CB_NAME, cert1, W.port[3], "1.3", want, &ok), 0);
	assert_true(ok);
	assert_true(vgd_serves_key(1));

	vg_client *c = vg_client_new(W.d.sock);
	vgc_key_info before, after;
	assert_int_equal(vg_client_public_key(c, CB_NAME, &before), 0);
	int fd = vg_client_fd(c);

	assert_int_equal(certbot_issue(2), 0);
	snprintf(cmd, sizeof(cmd), "kill -HUP %d", (int)W.d.pid);
	assert_int_equal(certbot_hook(cmd), 0);

	struct stat st, dir;
	path(copy, sizeof(copy), "live-keys/" CB_NAME ".pem");
	assert_int_equal(lstat(copy, &st), 0);
	assert_int_equal(stat(path(arch, sizeof(arch), "live-keys"), &dir), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_uid, dir.st_uid);
	assert_int_equal(st.st_gid, dir.st_gid);
	char *a = vgt_slurp(copy),
	     *b = vgt_slurp(cb_path(arch, sizeof(arch), "archive/" CB_NAME "/privkey2.pem"));
	assert_true(a && b && strcmp(a, b) == 0);
	free(a);
	free(b);

	/* The reload is asynchronous: the same client asks until the key
	 * changes (at most 10 s), on the connection it had. */
	int changed = 0;
	for (int i = 0; i < 100 && !changed; i++) {
		assert_int_equal(vg_client_public_key(c, CB_NAME, &after), 0);
		changed = after.pub_len != before.pub_len ||
			  memcmp(after.pub, before.pub, before.pub_len) != 0;
		if (!changed)
			usleep(100000);
	}
	assert_true(changed);
	assert_int_equal(vg_client_fd(c), fd);
	assert_true(vgt_log_count(&W.d, "reloaded") > 0);
	vg_client_free(c);
	assert_true(vgd_serves_key(2));

	/* nginx reloads (certbot's next deploy hook) and serves the new
	 * certificate; its old workers finish, new ones connect to vgd. */
	assert_int_equal(kill(W.pid[0], SIGHUP), 0);
	int rc = -1;
	ok = 0;
	for (int i = 0; i < 50 && !(rc == 0 && ok); i++) {
		rc = fetch_host(CB_NAME, cert2, W.port[3], "1.3", want, &ok);
		if (!(rc == 0 && ok))
			usleep(200000);
	}
	assert_int_equal(rc, 0);
	assert_true(ok);
	assert_int_equal(fetch_host(CB_NAME, cert2, W.port[3], "1.2", want, &ok), 0);
	assert_true(ok);
	assert_true(vgt_alive(W.pid[0]));
}

/* The certificate a CA issued from vgctl csr's request serves TLS 1.3
 * with the key in vgd, a key allowed only tls13: curl trusts only the
 * test CA and checks the host name the request asked for, and vgd signs
 * the handshake (one more signature). The certificate's key is vgd's. */
static void test_nginx_csr(void **state)
{
	char ca[400], cmd[1200], out[400];
	int ok;
	uint64_t before = stat_value("sign.count");
	assert_int_equal(fetch_host(CSR_HOST, path(ca, sizeof(ca), "ca.crt"), W.port[4], "1.3",
				    "hello from nginx with a vgd key", &ok),
			 0);
	assert_true(ok);
	assert_int_equal(stat_value("sign.count"), before + 1);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; O='%s'\n"
		 "$O x509 -in csr.crt -noout -pubkey > csr-crt.pub\n"
		 "$O pkey -in ecdsa-p256.pem -pubout > csr-want.pub\n"
		 "cmp csr-crt.pub csr-want.pub\n"
		 "$O verify -CAfile ca.crt csr.crt\n",
		 W.d.dir, W.openssl);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *env[] = {"OPENSSL_CONF", NULL};
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 20000);
	if (rc != 0)
		dump(out);
	assert_int_equal(rc, 0);
}

static void test_nginx_vgd_down(void **state)
{
	int ok;
	assert_int_equal(vgt_stop(&W.d), 0);
	int rc = fetch(0, "1.3", &ok);
	assert_true(rc > 0); /* failed, not hung */
	assert_false(ok);
	assert_true(vgt_alive(W.pid[0]));
	assert_int_equal(restart_vgd(), 0);
	assert_int_equal(fetch(0, "1.3", &ok), 0);
	assert_true(ok);
	assert_int_equal(fetch(0, "1.2", &ok), 0);
	assert_true(ok);
	assert_true(vgt_alive(W.pid[0]));
}

/* ---- HAProxy ---- */

/* /etc/haproxy/haproxy.cfg as Debian 12's haproxy package (2.6) installs
 * it, global and defaults sections: user and group haproxy (supplementary
 * groups dropped), chroot /var/lib/haproxy, the stats socket in
 * /run/haproxy. The test runs it as it is and appends doc/haproxy.md's
 * block. */
static const char debian_haproxy_cfg[] =
	"global\n"
	"\tlog /dev/log\tlocal0\n"
	"\tlog /dev/log\tlocal1 notice\n"
	"\tchroot /var/lib/haproxy\n"
	"\tstats socket /run/haproxy/admin.sock mode 660 level admin\n"
	"\tstats timeout 30s\n"
	"\tuser haproxy\n"
	"\tgroup haproxy\n"
	"\tdaemon\n\n"
	"\t# Default SSL material locations\n"
	"\tca-base /etc/ssl/certs\n"
	"\tcrt-base /etc/ssl/private\n\n"
	"        ssl-default-bind-ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-"
	"SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-"
	"POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-"
	"SHA384\n"
	"        ssl-default-bind-ciphersuites TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
	"TLS_CHACHA20_POLY1305_SHA256\n"
	"        ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets\n\n"
	"defaults\n"
	"\tlog\tglobal\n"
	"\tmode\thttp\n"
	"\toption\thttplog\n"
	"\toption\tdontlognull\n"
	"        timeout connect 5000\n"
	"        timeout client  50000\n"
	"        timeout server  50000\n"
	"\terrorfile 400 /etc/haproxy/errors/400.http\n"
	"\terrorfile 403 /etc/haproxy/errors/403.http\n"
	"\terrorfile 408 /etc/haproxy/errors/408.http\n"
	"\terrorfile 500 /etc/haproxy/errors/500.http\n"
	"\terrorfile 502 /etc/haproxy/errors/502.http\n"
	"\terrorfile 503 /etc/haproxy/errors/503.http\n"
	"\terrorfile 504 /etc/haproxy/errors/504.http\n\n";

/* Debian's configuration plus doc/haproxy.md's haproxy block, with the
 * crt directory and the port this test uses in place of the page's. */
static char *doc_haproxy_cfg(const char *crt_dir, int port)
{
	char *block = doc_block("VG_DOC_HAPROXY", "haproxy");
	char bind[64], crt[420];
	snprintf(bind, sizeof(bind), "bind 127.0.0.1:%d ssl", port);
	snprintf(crt, sizeof(crt), "crt %s", crt_dir);
	if (subst(&block, "bind :443 ssl", bind) < 0 ||
	    subst(&block, "crt /etc/haproxy/vgd/", crt) < 0) {
		free(block);
		return NULL;
	}
	size_t cap = sizeof(debian_haproxy_cfg) + strlen(block) + 1;
	char *out = malloc(cap);
	if (out)
		snprintf(out, cap, "%s%s", debian_haproxy_cfg, block);
	free(block);
	return out;
}

/* HAProxy's worker (-W: the master forks one), the process that serves. */
static pid_t haproxy_worker(void)
{
	char f[96];
	snprintf(f, sizeof(f), "/proc/%d/task/%d/children", (int)W.pid[0], (int)W.pid[0]);
	for (int i = 0; i < 500; i++) {
		char *s = vgt_slurp(f);
		long pid = s ? strtol(s, NULL, 10) : 0;
		free(s);
		if (pid > 0)
			return (pid_t)pid;
		usleep(10000);
	}
	return -1;
}

/* The keys HAProxy serves: one bundle (certificate, then the key
 * reference) per key, in one crt directory. */
static const int haproxy_srv[] = {SRV_RSA, SRV_ED, SRV_EC256};

/* HAProxy as Debian runs it (master as root, its worker as haproxy in
 * the chroot), with doc/haproxy.md's steps: the uids line, the openssl.cnf
 * naming /run/vgd/vgd.sock, and the unit's BindReadOnlyPaths= done by hand
 * in a mount namespace of HAProxy's own (unshare -m). There /run is a
 * fresh tmpfs (so /run/vgd/vgd.sock and /run/haproxy are the test's, the
 * machine's untouched) and so is /var/lib/haproxy, with the test's socket
 * bound read-only at run/vgd/vgd.sock in both. The test directory stays
 * root's 0700: the worker can reach vgd only through the bind mount. */
static int haproxy_setup_inner(void)
{
	char dir[400], f[400], g[400], cmd[2400], ref[400], cert[400];
	char *uids_doc = doc_line("VG_DOC_HAPROXY", "uids = ");
	struct passwd *pw = getpwnam("haproxy");
	char *keys = NULL, uids[64];
	int rc = -1;
	if (!uids_doc || !pw || subst(&uids_doc, "$(id -u haproxy)", "") < 0)
		goto out;
	snprintf(uids, sizeof(uids), "%s%u", uids_doc, (unsigned)pw->pw_uid);
	keys = keys_with(uids);
	if (!keys || common_setup_with(keys, 1, NULL) < 0 || !W.haproxy)
		goto out;
	/* the provider's socket: the path the page's openssl.cnf names */
	char real_sock[sizeof(W.d.sock)];
	memcpy(real_sock, W.d.sock, sizeof(real_sock));
	snprintf(W.d.sock, sizeof(W.d.sock), "%s", "/run/vgd/vgd.sock");
	int cnf = write_openssl_cnf();
	memcpy(W.d.sock, real_sock, sizeof(real_sock));
	if (cnf < 0)
		goto out;
	path(dir, sizeof(dir), "haproxy-crt/");
	if (mkdir(dir, 0700) < 0)
		goto out;
	for (size_t i = 0; i < sizeof(haproxy_srv) / sizeof(haproxy_srv[0]); i++) {
		int s = haproxy_srv[i];
		char uri[80], name[80];
		snprintf(uri, sizeof(uri), "vgd:%s", srv_key[s]);
		snprintf(name, sizeof(name), "%s.vgdref", srv_key[s]);
		if (write_keyref(uri, path(ref, sizeof(ref), name)) < 0)
			goto out;
		snprintf(cmd, sizeof(cmd), "cat '%s' '%s' > '%s%s.pem'", crt(cert, sizeof(cert), s), ref,
			 dir, srv_key[s]);
		char *argv[] = {"/bin/sh", "-c", cmd, NULL};
		if (run(argv, NULL, NULL, next_out(g, sizeof(g)), 10000) != 0)
			goto out;
	}
	W.port[0] = vgt_free_port();
	char *cfg = doc_haproxy_cfg(dir, W.port[0]);
	FILE *o = cfg ? fopen(path(f, sizeof(f), "haproxy.cfg"), "w") : NULL;
	if (!o) {
		fprintf(stderr, "no HAProxy configuration from doc/haproxy.md (VG_DOC_HAPROXY)\n");
		free(cfg);
		goto out;
	}
	fputs(cfg, o);
	fclose(o);
	free(cfg);
	snprintf(cmd, sizeof(cmd),
		 "set -e\n"
		 "mount -t tmpfs -o mode=0755 vgd-test /run\n"
		 "mkdir -p /run/vgd /run/haproxy\n"
		 "touch /run/vgd/vgd.sock\n"
		 "mount --bind '%s' /run/vgd/vgd.sock\n"
		 "mount -t tmpfs -o mode=0755 vgd-test /var/lib/haproxy\n"
		 "mkdir -p /var/lib/haproxy/run/vgd\n"
		 "touch /var/lib/haproxy/run/vgd/vgd.sock\n"
		 "mount --bind '%s' /var/lib/haproxy/run/vgd/vgd.sock\n"
		 "mount -o remount,bind,ro /var/lib/haproxy/run/vgd/vgd.sock\n"
		 "exec '%s' -W -db -f '%s'\n",
		 W.d.sock, W.d.sock, W.haproxy, f);
	char *argv[] = {"/usr/bin/unshare", "-m", "/bin/sh", "-c", cmd, NULL};
	snprintf(W.env_stats, sizeof(W.env_stats), "VGD_PROVIDER_STATS=%s/provider.stats", W.d.dir);
	char *env[] = {W.env_conf, W.env_stats, "VGD_SOCKET", NULL};
	W.pid[0] = vgt_spawn(argv, env, NULL, next_out(g, sizeof(g)));
	if (W.pid[0] <= 0 || vgt_wait_port(W.port[0], 15000) < 0) {
		dump(f);
		dump(g);
		goto out;
	}
	memcpy(W.haproxy_log, g, sizeof(W.haproxy_log));
	rc = 0;
out:
	free(uids_doc);
	free(keys);
	return rc;
}

static int haproxy_setup(void **state)
{
	if (haproxy_setup_inner() == 0)
		return 0;
	common_teardown(state); /* cmocka skips the teardown then */
	return -1;
}

/* Each key, TLS 1.3 and 1.2, chosen by SNI from the one crt directory;
 * each handshake is one signature in vgd. */
static void test_haproxy_keys(void **state)
{
	static const char *const versions[] = {"1.3", "1.2"};
	for (size_t i = 0; i < sizeof(haproxy_srv) / sizeof(haproxy_srv[0]); i++) {
		for (int v = 0; v < 2; v++) {
			uint64_t before = stat_value("sign.count");
			int ok;
			int rc = fetch_from(haproxy_srv[i], W.port[0], versions[v],
					    "served by HAProxy with a key held by vgd", &ok);
			if (rc != 0 || !ok)
				dump(W.haproxy_log);
			assert_int_equal(rc, 0);
			assert_true(ok);
			assert_int_equal(stat_value("sign.count"), before + 1);
		}
	}
	assert_true(vgt_alive(W.pid[0]));
}

/* One of HAProxy's provider counters (vgdprov_stats.h), from the file
 * VGD_PROVIDER_STATS names. */
static uint64_t prov_counter(int which)
{
	char f[400];
	vg_prov_stats_file st;
	int fd = open(path(f, sizeof(f), "provider.stats"), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	ssize_t n = pread(fd, &st, sizeof(st), 0);
	close(fd);
	assert_int_equal(n, sizeof(st));
	assert_memory_equal(st.magic, VG_PROV_STATS_MAGIC, 8);
	return st.v[which];
}

/* threads x per_thread verified handshakes, one GET each, spread over the
 * three keys, TLS 1.3 and 1.2 alternating. */
static vgt_hs_result haproxy_load(int threads, int per_thread)
{
	static char certs[3][400];
	vgt_hs_target t[3];
	for (int i = 0; i < 3; i++) {
		t[i].host = srv_host[haproxy_srv[i]];
		t[i].ca_file = crt(certs[i], sizeof(certs[i]), haproxy_srv[i]);
	}
	vgt_hs_load l = {.port = W.port[0], .targets = t, .ntargets = 3,
			 .want = "served by HAProxy with a key held by vgd", .threads = threads,
			 .per_thread = per_thread, .timeout_s = 30};
	vgt_hs_result r;
	assert_int_equal(vgt_hs_run(&l, &r), 0);
	return r;
}

/* ssl-mode-async: many handshakes at once, every one correct, and every
 * signature submitted from an async job that paused for it (none made
 * with a blocking call). Pipelining on one connection is shown
 * deterministically by the provider-async test. */
static void test_haproxy_async_concurrent(void **state)
{
	uint64_t signs = stat_value("sign.count");
	uint64_t async0 = prov_counter(VG_PROV_ST_ASYNC), sync0 = prov_counter(VG_PROV_ST_SYNC);
	uint64_t pauses0 = prov_counter(VG_PROV_ST_PAUSES);
	vgt_hs_result r = haproxy_load(32, 4);
	if (r.failed) {
		fprintf(stderr, "%d handshakes failed: %s\n", r.failed, r.first_error);
		dump(W.haproxy_log);
	}
	assert_int_equal(r.ok, 128);
	assert_int_equal(r.tls13, 64);
	assert_int_equal(stat_value("sign.count"), signs + 128);
	assert_int_equal(prov_counter(VG_PROV_ST_ASYNC), async0 + 128);
	assert_int_equal(prov_counter(VG_PROV_ST_SYNC), sync0);
	assert_true(prov_counter(VG_PROV_ST_PAUSES) > pauses0);
	fprintf(stderr, "HAProxy: 128 handshakes, %llu pauses, at most %llu requests pending at once\n",
		(unsigned long long)(prov_counter(VG_PROV_ST_PAUSES) - pauses0),
		(unsigned long long)prov_counter(VG_PROV_ST_INFLIGHT_MAX));
	assert_true(vgt_alive(W.pid[0]));
}

/* Descriptors HAProxy has open (its process's /proc/PID/fd). */
static int open_fds(pid_t pid)
{
	char d[64];
	snprintf(d, sizeof(d), "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(d);
	assert_non_null(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(dir));)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* HAProxy closes a finished client's connection a little after the
 * client saw its response: wait until the count of open descriptors
 * reaches want (want < 0: stays the same for 200 ms), at most 5 s. */
static int settled_fds(pid_t pid, int want)
{
	int n = open_fds(pid), same = 0;
	for (int i = 0; i < 500 && (want >= 0 ? n != want : same < 20); i++) {
		usleep(10000);
		int m = open_fds(pid);
		same = m == n ? same + 1 : 0;
		n = m;
	}
	return n;
}

/* vgd's processes stopped (SIGSTOP) or continued: requests queue unread
 * in its socket meanwhile, so the provider's replies are held. */
static void freeze_vgd(int sig)
{
	pid_t kids[16];
	int n = vgt_children(&W.d, kids, 16);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(kill(kids[i], sig), 0);
	assert_int_equal(kill(W.d.pid, sig), 0);
}

/* Clients that go away while their handshakes wait for vgd. vgd is
 * frozen, so every signature's reply is held: more handshakes than
 * HAProxy has threads all submit their request (only an async job that
 * paused lets its thread take the next one), then the clients reset
 * their connections. vgd continues; HAProxy must free those connections
 * (no descriptor left open), stay up, and serve new clients. */
static void test_haproxy_client_gone(void **state)
{
	enum { GONE = 12 };
	int fds[GONE];
	/* Warm: the provider's vgd connection for the key is already open. */
	vgt_hs_result r = haproxy_load(3, 1);
	assert_int_equal(r.ok, 3);
	pid_t worker = haproxy_worker();
	assert_true(worker > 0);
	int fd0 = settled_fds(worker, -1);
	uint64_t async0 = prov_counter(VG_PROV_ST_ASYNC), pauses0 = prov_counter(VG_PROV_ST_PAUSES);
	uint64_t signs0 = stat_value("sign.count");
	freeze_vgd(SIGSTOP);
	int n = vgt_hs_hello_only(W.port[0], srv_host[SRV_ED], GONE, fds);
	uint64_t async = async0;
	for (int i = 0; i < 300 && async < async0 + (uint64_t)n; i++) {
		usleep(10000);
		async = prov_counter(VG_PROV_ST_ASYNC);
	}
	uint64_t pauses = prov_counter(VG_PROV_ST_PAUSES);
	vgt_hs_reset(fds, n);
	usleep(100000); /* HAProxy sees the resets (or not) while the jobs wait */
	freeze_vgd(SIGCONT);
	fprintf(stderr, "HAProxy: %d handshakes waiting on a frozen vgd at once, %llu pauses\n",
		(int)(async - async0), (unsigned long long)(pauses - pauses0));
	assert_int_equal(n, GONE);
	assert_int_equal(async, async0 + GONE); /* all in flight at once: paused */
	assert_true(pauses >= pauses0 + GONE);
	/* Their late replies come and are dropped; HAProxy closes what it
	 * opened for them. */
	assert_int_equal(settled_fds(worker, fd0), fd0);
	assert_true(vgt_alive(W.pid[0]));
	/* vgd answers the held requests after it continues (HAProxy may have
	 * let those connections go before): wait for its count. */
	uint64_t signs = stat_value("sign.count");
	for (int i = 0; i < 500 && signs < signs0 + GONE; i++) {
		usleep(10000);
		signs = stat_value("sign.count");
	}
	assert_int_equal(signs, signs0 + GONE);
	r = haproxy_load(8, 2);
	if (r.failed) {
		fprintf(stderr, "%d handshakes failed: %s\n", r.failed, r.first_error);
		dump(W.haproxy_log);
	}
	assert_int_equal(r.ok, 16);
	assert_int_equal(settled_fds(worker, fd0), fd0);
}

/* HAProxy prints none of OpenSSL's errors ("No Private Key found"), so
 * the provider writes why it cannot reach vgd to stderr as well: `haproxy
 * -c` with a socket path where nothing is (vgd down, or a chroot hiding
 * it) must show the line with the path and ENOENT, once. */
static void test_haproxy_check_unreachable(void **state)
{
	char cnf[400], env_conf[420], missing[400], out[400], line[600];
	FILE *o = fopen(path(cnf, sizeof(cnf), "openssl-missing.cnf"), "w");
	assert_non_null(o);
	path(missing, sizeof(missing), "missing.sock");
	fprintf(o,
		"openssl_conf = openssl_init\n\n[openssl_init]\nproviders = provider_sect\n\n"
		"[provider_sect]\ndefault = default_sect\nvgd = vgd_sect\n\n"
		"[default_sect]\nactivate = 1\n\n"
		"[vgd_sect]\nmodule = %s/vgd.so\nsocket = %s\nactivate = 1\n",
		W.provdir, missing);
	fclose(o);
	snprintf(env_conf, sizeof(env_conf), "OPENSSL_CONF=%s", cnf);
	char cfg[400];
	path(cfg, sizeof(cfg), "haproxy.cfg");
	char *argv[] = {(char *)W.haproxy, "-c", "-f", cfg, NULL};
	char *env[] = {env_conf, "VGD_SOCKET", NULL};
	int rc = run(argv, env, NULL, next_out(out, sizeof(out)), 20000);
	char *s = vgt_slurp(out);
	snprintf(line, sizeof(line), "vgd provider: cannot connect to vgd at %s: ENOENT", missing);
	char *first = s ? strstr(s, line) : NULL;
	int ok = rc > 0 && first && !strstr(first + 1, line);
	if (!ok)
		dump(out);
	free(s);
	assert_true(ok);
}

/* vgd stops: handshakes fail (they do not hang) and HAProxy stays up;
 * vgd back: they succeed again, the worker reconnecting from inside its
 * chroot as the haproxy user, through the bind mount. */
static void test_haproxy_vgd_restart(void **state)
{
	assert_int_equal(vgt_stop(&W.d), 0);
	vgt_hs_result r = haproxy_load(4, 2);
	assert_int_equal(r.ok, 0);
	assert_int_equal(r.failed, 8);
	assert_true(vgt_alive(W.pid[0]));
	assert_int_equal(restart_vgd(), 0);
	/* As under vgd.socket, the socket stayed open while vgd was down: the
	 * requests of the failed handshakes waited in it, and the new vgd
	 * answers them (to clients gone by then). Count from after those. */
	uint64_t signs = stat_value("sign.count"), prev;
	do {
		prev = signs;
		usleep(300000);
		signs = stat_value("sign.count");
	} while (signs != prev);
	r = haproxy_load(16, 2);
	if (r.failed) {
		fprintf(stderr, "%d handshakes failed: %s\n", r.failed, r.first_error);
		dump(W.haproxy_log);
	}
	assert_int_equal(r.ok, 32);
	assert_int_equal(stat_value("sign.count"), signs + 32);
	assert_true(vgt_alive(W.pid[0]));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest s_server_tests[] = {
		cmocka_unit_test(test_ed25519_tls13),
		cmocka_unit_test(test_rsa_pss_tls13),
		cmocka_unit_test(test_rsa_tls12),
		cmocka_unit_test(test_policy_refuses_tls12),
		cmocka_unit_test(test_ecdsa_tls13),
		cmocka_unit_test(test_ecdsa_tls12),
		cmocka_unit_test(test_rsa_decrypt),
		cmocka_unit_test(test_ec_openssl_cli),
		cmocka_unit_test(test_s_server_vgd_down),
		cmocka_unit_test(test_provider_unreachable),
	};
	const struct CMUnitTest nginx_tests[] = {
		cmocka_unit_test(test_nginx_tls13_tls12),
		cmocka_unit_test(test_nginx_certbot_renewal),
		cmocka_unit_test(test_nginx_vgd_down),
	};
	const struct CMUnitTest nginx_csr_tests[] = {
		cmocka_unit_test(test_nginx_csr),
	};
	const struct CMUnitTest haproxy_tests[] = {
		cmocka_unit_test(test_haproxy_keys),
		cmocka_unit_test(test_haproxy_async_concurrent),
		cmocka_unit_test(test_haproxy_client_gone),
		cmocka_unit_test(test_haproxy_vgd_restart),
		cmocka_unit_test(test_haproxy_check_unreachable),
	};
	if (argc == 2 && strcmp(argv[1], "s_server") == 0)
		return left_behind(cmocka_run_group_tests_name("s_server", s_server_tests,
							       s_server_setup, common_teardown));
	if (argc == 2 && strcmp(argv[1], "nginx") == 0)
		return left_behind(cmocka_run_group_tests_name("nginx", nginx_tests, nginx_setup,
							       common_teardown));
	if (argc == 2 && strcmp(argv[1], "nginx-csr") == 0)
		return left_behind(cmocka_run_group_tests_name("nginx-csr", nginx_csr_tests,
							       nginx_csr_setup, common_teardown));
	if (argc == 2 && strcmp(argv[1], "haproxy") == 0)
		return left_behind(cmocka_run_group_tests_name("haproxy", haproxy_tests,
							       haproxy_setup, common_teardown));
	fprintf(stderr, "usage: test_tls s_server|nginx|nginx-csr|haproxy\n");
	return 2;
}
