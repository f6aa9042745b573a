/* vgsplit: where a 1x1 request runs, and what one front per CPU would
 * give (issue 23, daemon/DESIGN-cpu.md). vgd has one front, which the
 * kernel keeps on whichever CPU it last ran on; on an idle machine that is
 * rarely the client's, so each request pays two cross-CPU wake-ups, unless
 * the front follows the client's CPU hint (front_follow.c, follow_clients,
 * on by default) and the client stays on its CPU while it waits
 * (libvgclient's blocking calls spin before they sleep, VGD_SPIN_US). It
 * also measures the alternative design without building it: one vgd per
 * CPU, each confined to its CPU (front and keyholder there, as a per-CPU
 * front would be), and a client that sends each request to the vgd on the
 * CPU it runs on at that moment (sched_getcpu). Six clients, interleaved
 * in rounds:
 *   nofollow  vgd with follow_clients = no (one front, keyholders pinned
 *             per CPU);
 *   follow    vgd's defaults (follow_clients = yes);
 *   nofollow@N and follow@N: those two with the client pinned to CPU N
 *             (the last one it may use), as nginx's worker_cpu_affinity
 *             pins its workers;
 *   one-cpu   always the vgd confined to the first CPU;
 *   per-cpu   the vgd on the caller's CPU.
 * The other clients are unpinned.
 * Each row gives p50/p90 of the round trip, "local": the share of
 * requests that started and ended on the CPU of the vgd they used, and
 * "cpu/req": the client thread's CPU time per request (a spin is CPU
 * time; so, on a VM, is much of going to sleep and being woken).
 * Latencies are printed, never asserted. Secret: the copied test key
 * (removed with the temporary directory). */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procutil.h"
#include "vgclient.h"

#define MAX_CPUS 16           /* vgsplit and its vgds use at most this many CPUs */
#define MAX_VGD (MAX_CPUS + 2) /* one per CPU, shipped and follow */
#define NMODES 6
#define ROUNDS 6

typedef struct {
	char sock[160], conf[160];
	pid_t pid;
	int cpu; /* confined to this CPU; -1: the shipped vgd, not confined */
	vg_client *c;
} daemon_t;

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Start vgd on conf, confined to cpu (>= 0) by the affinity it inherits;
 * wait until it answers. 0 or -1. */
static int start(daemon_t *d, const char *vgd, const char *dir, int i, int cpu, int follow)
{
	char log[200];
	snprintf(d->sock, sizeof(d->sock), "%s/vgd%d.sock", dir, i);
	snprintf(d->conf, sizeof(d->conf), "%s/vgd%d.conf", dir, i);
	snprintf(log, sizeof(log), "%s/vgd%d.log", dir, i);
	FILE *f = fopen(d->conf, "w");
	if (!f)
		return -1;
	/* The confined ones have one keyholder, on their CPU; the shipped one
	 * the default (one per CPU, pinned). */
	fprintf(f, "socket = %s\nlog_level = warning\nfront_user = nobody\n%s\n%s\n"
		   "[key ed]\nfile = ed25519.pem\nallow = sign\n",
		d->sock, cpu >= 0 ? "keyholders = 1" : "", follow ? "" : "follow_clients = no");
	if (fclose(f) != 0)
		return -1;
	cpu_set_t all, one;
	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (cpu >= 0 && sched_setaffinity(0, sizeof(one), &one) < 0)
		return -1;
	d->pid = vg_spawn_vgd(vgd, d->conf, log);
	d->cpu = cpu;
	if (cpu >= 0)
		(void)sched_setaffinity(0, sizeof(all), &all);
	if (d->pid < 0)
		return -1;
	d->c = vg_client_new(d->sock);
	if (!d->c)
		return -1;
	for (int t = 0; t < 500; t++) {
		if (vg_client_ping(d->c) == 0)
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "vgsplit: %s did not answer; log: %s\n", vgd, log);
	return -1;
}

typedef struct {
	uint64_t *lat;
	size_t n, cap, local;
	uint64_t cpu_ns; /* the client thread's CPU time over its requests */
	int failed;
} series;

/* Requests for `ns` nanoseconds by client `mode` (see the top). */
static void run(series *s, daemon_t *d, int nd, int mode, int ed, uint64_t ns, int last_cpu)
{
	cpu_set_t all, one;
	int pinned = mode == 2 || mode == 3;
	if (pinned) {
		CPU_ZERO(&one);
		CPU_SET(last_cpu, &one);
		if (sched_getaffinity(0, sizeof(all), &all) < 0 ||
		    sched_setaffinity(0, sizeof(one), &one) < 0) {
			s->failed = 1;
			return;
		}
	}
	static const uint8_t msg[64] = {1};
	uint8_t sig[64];
	size_t sl;
	uint64_t end = now_ns() + ns;
	struct timespec c0, c1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	while (now_ns() < end && s->n < s->cap) {
		int cpu = sched_getcpu();
		daemon_t *t = &d[mode == 1 || mode == 3]; /* nofollow or follow */
		if (mode == 4)
			t = &d[2];
		if (mode == 5)
			for (int i = 2; i < nd; i++)
				if (d[i].cpu == cpu)
					t = &d[i];
		uint64_t a = now_ns();
		int r = ed ? vg_client_sign(t->c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig,
					    sizeof(sig), &sl)
			   : vg_client_ping(t->c);
		uint64_t b = now_ns();
		if (r != 0) {
			s->failed = 1;
			break;
		}
		s->lat[s->n++] = b - a;
		s->local += t->cpu >= 0 && t->cpu == cpu && sched_getcpu() == cpu;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	s->cpu_ns += (uint64_t)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec));
	if (pinned)
		(void)sched_setaffinity(0, sizeof(all), &all);
}

int main(int argc, char **argv)
{
	const char *vgd = VGSPLIT_VGD, *keys = getenv("VG_TEST_KEYS");
	double seconds = 2;
	int tsv = 0, opt;
	if (!keys)
		keys = VGSPLIT_KEYS;
	static const struct option lo[] = {{"vgd", 1, 0, 'v'}, {"keys", 1, 0, 'K'},
					   {"tsv", 0, 0, 'T'}, {"spin", 1, 0, 'S'},
					   {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
	while ((opt = getopt_long(argc, argv, "t:h", lo, NULL)) != -1) {
		switch (opt) {
		case 't': seconds = atof(optarg); break;
		case 'v': vgd = optarg; break;
		case 'K': keys = optarg; break;
		case 'T': tsv = 1; break;
		case 'S': setenv("VGD_SPIN_US", optarg, 1); break; /* read by vg_client_new */
		default:
			printf("usage: vgsplit [-t SECONDS per row] [--vgd PATH] [--keys DIR] [--tsv]\n"
			       "               [--spin US]\n"
			       "Times 1x1 ping and Ed25519 requests to vgd with and without\n"
			       "follow_clients, to one vgd confined to one CPU, and to one vgd per CPU\n"
			       "chosen by the caller's CPU (the one-front-per-CPU design), interleaved\n"
			       "in rounds. --spin sets VGD_SPIN_US for its clients (libvgclient's\n"
			       "spin before a blocking call sleeps; 0: sleep at once).\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	char dir[] = "/tmp/vgsplit.XXXXXX", src[512], dst[512];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(src, sizeof(src), "%s/ed25519.pem", keys);
	snprintf(dst, sizeof(dst), "%s/ed25519.pem", dir);
	int rc = 1, nd = 0;
	daemon_t d[MAX_VGD];
	memset(d, 0, sizeof(d));
	cpu_set_t mask;
	if (vg_copy_file(src, dst) < 0 || sched_getaffinity(0, sizeof(mask), &mask) < 0) {
		fprintf(stderr, "vgsplit: cannot copy %s\n", src);
		goto out;
	}
	/* A large machine: the first MAX_CPUS CPUs only, for the client and
	 * (inherited) every vgd, so that each CPU the client can run on has
	 * its own vgd and the run stays a few dozen processes. */
	for (int cpu = 0, n = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mask) && ++n > MAX_CPUS)
			CPU_CLR(cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask) < 0) {
		fprintf(stderr, "vgsplit: sched_setaffinity: %s\n", strerror(errno));
		goto out;
	}
	if (start(&d[nd++], vgd, dir, 0, -1, 0) < 0 || start(&d[nd++], vgd, dir, 1, -1, 1) < 0)
		goto out;
	int last_cpu = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && nd < MAX_VGD; cpu++)
		if (CPU_ISSET(cpu, &mask)) {
			if (start(&d[nd], vgd, dir, nd, cpu, 0) < 0)
				goto out;
			nd++;
			last_cpu = cpu;
		}
	char model[128] = "?";
	FILE *ci = fopen("/proc/cpuinfo", "r");
	for (char line[256]; ci && fgets(line, sizeof(line), ci);)
		if (!strncmp(line, "model name", 10)) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	if (ci)
		fclose(ci);
	char pin_s[32], pin_f[32];
	snprintf(pin_s, sizeof(pin_s), "nofollow@%d", last_cpu);
	snprintf(pin_f, sizeof(pin_f), "follow@%d", last_cpu);
	const char *const modes[NMODES] = {"nofollow", "follow", pin_s, pin_f, "one-cpu", "per-cpu"};
	const char *spin = getenv("VGD_SPIN_US");
	printf(tsv ? "# vgsplit\t%s\t%d CPUs\tVGD_SPIN_US=%s\n"
		   : "vgsplit: %s, %d CPUs, VGD_SPIN_US=%s, p50/p90 in us\n",
	       model, nd - 2, spin ? spin : "(default)");
	if (tsv)
		printf("op\tclient\tp50_us\tp90_us\tlocal_pct\tcpu_us_per_req\tn\n");
	for (int ed = 0; ed < 2; ed++) {
		series s[NMODES];
		for (int m = 0; m < NMODES; m++) {
			s[m] = (series){.cap = (size_t)(seconds * 400000) + 1000};
			s[m].lat = malloc(s[m].cap * sizeof(uint64_t));
			if (!s[m].lat)
				goto out;
		}
		/* Rounds interleave the clients, so drift in the machine's load
		 * falls on all of them alike. */
		for (int r = 0; r < ROUNDS; r++)
			for (int m = 0; m < NMODES; m++)
				run(&s[m], d, nd, m, ed, (uint64_t)(seconds / ROUNDS * 1e9), last_cpu);
		for (int m = 0; m < NMODES; m++) {
			if (s[m].failed || s[m].n == 0) {
				fprintf(stderr, "vgsplit: %s requests failed\n", modes[m]);
				goto out;
			}
			qsort(s[m].lat, s[m].n, sizeof(uint64_t), cmp_u64);
			double p50 = s[m].lat[s[m].n / 2] / 1e3, p90 = s[m].lat[s[m].n * 9 / 10] / 1e3;
			/* The nofollow and follow fronts are not confined: no
			 * "local" to give. */
			char loc[16] = "-";
			if (m >= 4)
				snprintf(loc, sizeof(loc), "%.0f%%",
					 100.0 * (double)s[m].local / (double)s[m].n);
			const char *op = ed ? "ed25519" : "ping";
			double cpu = (double)s[m].cpu_ns / 1e3 / (double)s[m].n;
			if (tsv)
				printf("%s\t%s\t%.1f\t%.1f\t%s\t%.1f\t%zu\n", op, modes[m], p50, p90,
				       loc, cpu, s[m].n);
			else
				printf("  %-8s %-11s p50 %7.1f  p90 %7.1f  local %4s  cpu/req %6.1f  (%zu)\n",
				       op, modes[m], p50, p90, loc, cpu, s[m].n);
			free(s[m].lat);
		}
	}
	rc = 0;
out:
	for (int i = 0; i < nd; i++) {
		if (d[i].c)
			vg_client_free(d[i].c);
		if (d[i].pid > 0)
			vg_stop_vgd(d[i].pid, 3000);
	}
	vg_remove_dir(dir);
	return rc;
}
