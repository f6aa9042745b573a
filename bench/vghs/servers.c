/* servers.c: the web servers under test, Debian's nginx and HAProxy, each
 * configured to serve one certificate on 127.0.0.1 with its key either in
 * process (the PEM) or in vgd (a key reference, the provider loaded
 * through OPENSSL_CONF), full handshakes only (no session cache, no
 * tickets), and a fixed tiny response. Secret: the test key an in-process
 * server loads (a published test key). */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procutil.h"
#include "vghs.h"

const char *const vgh_server_names[VGH_NSERVERS] = {"nginx", "haproxy"};
const char *const vgh_mode_names[VGH_NMODES] = {"in-process", "vgd", "vgd-async"};

/* The response body; the load generator's first connection checks it. */
#define BODY "vghs ok"

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t l = sizeof(a);
	int port = 0;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static int port_open(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* The key reference a server names instead of the key (doc/nginx.md, "A
 * key reference instead of the private key"): PEM around the base64 of the
 * key's URI. */
static int write_keyref(const char *name, FILE *o)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char uri[128];
	int n = snprintf(uri, sizeof(uri), "vgd:%s", name);
	fputs("-----BEGIN VGD KEY REFERENCE-----\n", o);
	for (int i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)uri[i] << 16;
		if (i + 1 < n)
			v |= (unsigned char)uri[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)uri[i + 2];
		fputc(b64[v >> 18 & 63], o);
		fputc(b64[v >> 12 & 63], o);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', o);
		fputc(i + 2 < n ? b64[v & 63] : '=', o);
	}
	fputs("\n-----END VGD KEY REFERENCE-----\n", o);
	return 0;
}

static int append_file(FILE *o, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, o);
	fclose(f);
	return 0;
}

static int write_nginx(const vgh_server *s, const vgh_server_opts *o, const char *dir,
		       const char *keyfile, const char *conf)
{
	FILE *f = fopen(conf, "w");
	if (!f)
		return -1;
	/* As root, the workers stay root so they reach the run's vgd socket.
	 * VGD_SPIN_US reaches libvgclient in the workers when it is set. */
	fprintf(f,
		"%sworker_processes %d;\npid %s/nginx.pid;\nerror_log %s/error.log warn;\n"
		"env OPENSSL_CONF;\nenv VGD_PROVIDER_STATS;\nenv VGD_SPIN_US;\n"
		"events { worker_connections 4096; }\n"
		"http {\n access_log off;\n client_body_temp_path %s/body;\n"
		" proxy_temp_path %s/proxy;\n fastcgi_temp_path %s/fcgi;\n"
		" uwsgi_temp_path %s/uwsgi;\n scgi_temp_path %s/scgi;\n"
		" ssl_protocols TLSv1.2 TLSv1.3;\n ssl_session_cache off;\n"
		" ssl_session_tickets off;\n"
		" server {\n  listen 127.0.0.1:%d ssl;\n  server_name %s;\n"
		"  ssl_certificate %s;\n  ssl_certificate_key %s;\n"
		"  location / { return 200 \"" BODY "\\n\"; }\n }\n}\n",
		geteuid() == 0 ? "user root;\n" : "", o->workers, dir, dir, dir, dir, dir, dir, dir,
		s->port, s->host, s->cert, keyfile);
	return fclose(f) == 0 ? 0 : -1;
}

static int write_haproxy(const vgh_server *s, const vgh_server_opts *o, const char *bundle,
			 const char *conf)
{
	FILE *f = fopen(conf, "w");
	if (!f)
		return -1;
	fprintf(f,
		"global\n    nbthread %d\n    maxconn 8192\n%s"
		"    tune.ssl.cachesize 0\n"
		"    ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets\n\n"
		"defaults\n    mode http\n    timeout connect 5s\n    timeout client 30s\n"
		"    timeout server 30s\n\n"
		"frontend vghs\n    bind 127.0.0.1:%d ssl crt %s\n"
		"    http-request return status 200 content-type text/plain string \"" BODY "\"\n",
		o->workers, s->mode == VGH_VGD_ASYNC ? "    ssl-mode-async\n" : "", s->port,
		bundle);
	return fclose(f) == 0 ? 0 : -1;
}

static pid_t spawn(char *const argv[], const vgh_daemon *d, int vgd_mode, const char *log)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() == 1)
		_exit(127);
	setpgid(0, 0);
	/* The load generator may be pinned: servers get every CPU. */
	cpu_set_t all;
	CPU_ZERO(&all);
	for (int i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	/* The load generator may be niced: servers run at 0 (needs root to
	 * lower; otherwise they keep the generator's niceness). */
	(void)setpriority(PRIO_PROCESS, 0, 0);
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int nul = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (nul >= 0)
		dup2(nul, 0);
	if (vgd_mode) {
		setenv("OPENSSL_CONF", d->ossl_cnf, 1);
		setenv("VGD_PROVIDER_STATS", d->prov_stats, 1);
	} else {
		unsetenv("OPENSSL_CONF");
		unsetenv("VGD_PROVIDER_STATS");
	}
	unsetenv("VGD_SOCKET");
	execv(argv[0], argv);
	_exit(127);
}

int vgh_server_start(vgh_server *s, const vgh_server_opts *o, const vgh_daemon *d,
		     const vgh_key *key, int kind, int mode, uint64_t deadline_ns, char *why,
		     size_t whylen)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->mode = mode;
	const char *bin = kind == VGH_NGINX ? o->nginx : o->haproxy;
	if (!bin) {
		snprintf(why, whylen, "%s not found", vgh_server_names[kind]);
		return -1;
	}
	char dir[160], conf[200], keyfile[200], key_pem[200];
	snprintf(dir, sizeof(dir), "%s/%s-%s-%s", d->dir, vgh_server_names[kind], key->name,
		 vgh_mode_names[mode]);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(why, whylen, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(s->host, sizeof(s->host), "%s.vghs.test", key->name);
	snprintf(s->cert, sizeof(s->cert), "%s/%s.crt", d->dir, key->name);
	snprintf(s->log, sizeof(s->log), "%s/server.log", dir);
	snprintf(key_pem, sizeof(key_pem), "%s/%s", d->dir, key->file);
	if (access(s->cert, R_OK) != 0 && vgh_make_cert(key_pem, s->host, s->cert, why, whylen) < 0)
		return -1;
	/* The key: the PEM in process, or a reference to vgd's key. */
	int in_vgd = mode != VGH_INPROC;
	snprintf(keyfile, sizeof(keyfile), "%s/key.pem", dir);
	FILE *k = fopen(keyfile, "w");
	if (!k)
		return -1;
	if (kind == VGH_HAPROXY)
		append_file(k, s->cert); /* HAProxy's crt: certificate, then key */
	if (in_vgd)
		write_keyref(key->name, k);
	else
		append_file(k, key_pem);
	if (fclose(k) != 0)
		return -1;
	chmod(keyfile, 0600);
	s->port = free_port();
	int wr;
	char *argv[12];
	if (kind == VGH_NGINX) {
		snprintf(conf, sizeof(conf), "%s/nginx.conf", dir);
		wr = write_nginx(s, o, dir, keyfile, conf);
		char *a[] = {(char *)bin, "-p", dir, "-c", conf, "-g", "daemon off;", NULL};
		memcpy(argv, a, sizeof(a));
	} else {
		snprintf(conf, sizeof(conf), "%s/haproxy.cfg", dir);
		wr = write_haproxy(s, o, keyfile, conf);
		char *a[] = {(char *)bin, "-db", "-f", conf, NULL};
		memcpy(argv, a, sizeof(a));
	}
	if (wr < 0 || s->port == 0) {
		snprintf(why, whylen, "cannot write %s", conf);
		return -1;
	}
	s->pid = spawn(argv, d, in_vgd, s->log);
	if (s->pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	while (vgh_now_ns() < deadline_ns) {
		if (port_open(s->port))
			return 0;
		int st;
		if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
			s->pid = 0;
			snprintf(why, whylen, "%s exited at start; log: %s", bin, s->log);
			return -1;
		}
		usleep(10000);
	}
	snprintf(why, whylen, "%s did not listen in time; log: %s", bin, s->log);
	return -1;
}

void vgh_server_stop(vgh_server *s)
{
	if (s->pid <= 0)
		return;
	/* nginx: QUIT would wait for connections; TERM is a fast stop for
	 * both. The whole process group: nginx's workers too. */
	kill(-s->pid, SIGTERM);
	uint64_t end = vgh_now_ns() + 3000000000u;
	int st;
	while (waitpid(s->pid, &st, WNOHANG) == 0) {
		if (vgh_now_ns() >= end) {
			kill(-s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
			break;
		}
		usleep(5000);
	}
	kill(-s->pid, SIGKILL); /* any worker left behind */
	s->pid = 0;
}

int vgh_server_pids(const vgh_server *s, pid_t *pids, int cap)
{
	return vgh_tree(s->pid, pids, cap);
}
