/* daemon.c: vghs's own vgd: a temporary directory with copies of the test
 * keys (mode 0600, as vgd requires), vgd's config with one key per key
 * table row, the openssl.cnf that makes a server load the provider, and
 * the daemon started there and stopped at the end. Secret: the copied
 * test keys (removed with the directory). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procutil.h"
#include "vgclient.h"
#include "vgdprov_stats.h"
#include "vghs.h"

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

static int write_configs(vgh_daemon *d, const char *keys_dir, const char *provider_dir, char *why,
			 size_t whylen)
{
	char conf[4096];
	int n = snprintf(conf, sizeof(conf),
			 "socket = %s\nkeyholders = 0\nlog_level = warning\nmax_inflight = 128\n"
			 /* Started as root, vgd wants a user of its own for the
			  * front (vgd.conf(5), front_user); a temporary bench uses nobody,
			  * as vgload does. */
			 "front_user = nobody\n",
			 d->sock);
	for (size_t i = 0; i < vgh_nkeys; i++) {
		char a[512], b[512];
		snprintf(a, sizeof(a), "%s/%s", keys_dir, vgh_keys[i].file);
		snprintf(b, sizeof(b), "%s/%s", d->dir, vgh_keys[i].file);
		if (vg_copy_file(a, b) < 0) {
			snprintf(why, whylen, "cannot copy %s", a);
			return -1;
		}
		/* TLS 1.2 signs server parameters: allow = sign. */
		n += snprintf(conf + n, sizeof(conf) - (size_t)n,
			      "\n[key %s]\nfile = %s\nallow = sign\n", vgh_keys[i].name,
			      vgh_keys[i].file);
	}
	char cnf[1024];
	snprintf(cnf, sizeof(cnf),
		 "openssl_conf = openssl_init\n\n[openssl_init]\nproviders = provider_sect\n\n"
		 "[provider_sect]\ndefault = default_sect\nvgd = vgd_sect\n\n"
		 "[default_sect]\nactivate = 1\n\n"
		 "[vgd_sect]\nmodule = %s/vgd.so\nsocket = %s\nactivate = 1\n",
		 provider_dir, d->sock);
	if (write_file(d->conf, conf) < 0 || write_file(d->ossl_cnf, cnf) < 0) {
		snprintf(why, whylen, "cannot write the configuration in %s", d->dir);
		return -1;
	}
	return 0;
}

static int ping(const char *sock)
{
	vg_client *c = vg_client_new(sock);
	if (!c)
		return -1;
	vg_client_set_timeout(c, 1000);
	int r = vg_client_ping(c);
	vg_client_free(c);
	return r;
}

int vgh_daemon_start(vgh_daemon *d, const char *vgd, const char *keys_dir, const char *provider_dir,
		     uint64_t deadline_ns, char *why, size_t whylen)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/vghs.XXXXXX");
	if (!mkdtemp(d->dir)) {
		snprintf(why, whylen, "mkdtemp: %s", strerror(errno));
		d->dir[0] = 0;
		return -1;
	}
	/* Servers running as another user (nginx's workers) read from here. */
	chmod(d->dir, 0755);
	snprintf(d->sock, sizeof(d->sock), "%s/vgd.sock", d->dir);
	snprintf(d->conf, sizeof(d->conf), "%s/vgd.conf", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/vgd.log", d->dir);
	snprintf(d->ossl_cnf, sizeof(d->ossl_cnf), "%s/openssl.cnf", d->dir);
	snprintf(d->prov_stats, sizeof(d->prov_stats), "%s/provider.stats", d->dir);
	if (write_configs(d, keys_dir, provider_dir, why, whylen) < 0)
		return -1;
	pid_t pid = vg_spawn_vgd(vgd, d->conf, d->log); /* dies with vghs */
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	d->pid = pid;
	while (vgh_now_ns() < deadline_ns) {
		if (ping(d->sock) == 0)
			return 0;
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			d->pid = 0;
			snprintf(why, whylen, "%s exited at start; log: %s", vgd, d->log);
			return -1;
		}
		usleep(10000);
	}
	snprintf(why, whylen, "%s did not answer a ping in time; log: %s", vgd, d->log);
	return -1;
}

void vgh_daemon_stop(vgh_daemon *d, int keep_dir)
{
	vg_stop_vgd(d->pid, 3000);
	d->pid = 0;
	if (d->dir[0] && !keep_dir)
		vg_remove_dir(d->dir);
}

long long vgh_daemon_signs(const vgh_daemon *d)
{
	vg_client *c = vg_client_new(d->sock);
	vgc_stat *s = NULL;
	long long v = -1;
	int n = c ? vg_client_stats(c, &s) : -1;
	for (int i = 0; i < n; i++)
		if (strcmp(s[i].name, "sign.count") == 0)
			v = (long long)s[i].value;
	free(s);
	vg_client_free(c);
	return v;
}

int vgh_provider_counters(const vgh_daemon *d, uint64_t *pauses, uint64_t *async_submits,
			  uint64_t *inflight_max)
{
	vg_prov_stats_file st;
	int fd = open(d->prov_stats, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = pread(fd, &st, sizeof(st), 0);
	close(fd);
	if (n != (ssize_t)sizeof(st) || memcmp(st.magic, VG_PROV_STATS_MAGIC, 8) != 0)
		return -1;
	*pauses = st.v[VG_PROV_ST_PAUSES];
	*async_submits = st.v[VG_PROV_ST_ASYNC];
	*inflight_max = st.v[VG_PROV_ST_INFLIGHT_MAX];
	return 0;
}
