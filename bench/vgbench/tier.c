/* tier.c: per-tier settings for our kernels (VG_KERNELS, VG_CPU_FEATURES)
 * and OpenSSL (OPENSSL_ia32cap), and the re-execution that applies them.
 * Nothing here is secret. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tier.h"

/* OPENSSL_ia32cap (OpenSSL 3.0, OPENSSL_ia32cap(3)): "A:B", where B is the
 * 64-bit vector of CPUID leaf 7 (EBX in bits 0-31, ECX in bits 32-63) and
 * a leading '~' clears the given bits; an empty A keeps leaf 1 as
 * detected. Bits cleared below, as numbered there (EBX): BMI1 3, AVX2 5,
 * BMI2 8, AVX512F 16, AVX512DQ 17, ADX 19, AVX512IFMA 21, AVX512CD 28,
 * AVX512BW 30, AVX512VL 31; (ECX, +32) AVX512VBMI 1, AVX512VBMI2 6, VAES 9,
 * VPCLMULQDQ 10, AVX512VNNI 11, AVX512BITALG 12, AVX512VPOPCNTDQ 14. The
 * base tier leaves OpenSSL x86-64 with SSE2..AVX (no AVX2, no mulx/adx,
 * no AVX-512), adx adds BMI1/BMI2/ADX back: like our tiers. Neither mask
 * clears the SHA extensions (leaf 7 EBX bit 29), which the peers use at
 * every tier; ours keep them too ("sha_ni": the sha256 family's SHA-NI row,
 * used by the ECDSA nonces), so SHA-256 is compared like for like and the
 * tiers differ only in the multiplications. AVX (leaf 1, never cleared
 * for the peers) stays for ours too ("avx": the Ed25519 comb's radix-64
 * table scan at base and adx). */
#define OSSL_BASE ":~0x00005E42D02B0128"
#define OSSL_ADX ":~0x00005E42D0230020" /* OSSL_BASE without bits 3, 8, 19 */

static const vg_bench_tier tiers[] = {
	{"base", NULL, "avx,sha_ni", OSSL_BASE},
	{"adx", NULL, "bmi1,bmi2,adx,avx,sha_ni", OSSL_ADX},
	{"ifma", NULL, NULL, NULL},
	/* Our portable C reference of every family (VG_KERNELS=c), against
	 * the peers at the base tier. */
	{"c", "c", "none", OSSL_BASE},
};

const vg_bench_tier *vg_bench_tier_find(const char *name)
{
	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++)
		if (strcmp(tiers[i].name, name) == 0)
			return &tiers[i];
	return NULL;
}

const vg_bench_tier *vg_bench_tier_current(unsigned *index, unsigned *count)
{
	const char *t = getenv("VGBENCH_TIER"), *part = getenv("VGBENCH_PART");
	*index = 0;
	*count = 1;
	if (!t)
		return NULL;
	if (part && sscanf(part, "%u/%u", index, count) != 2) {
		*index = 0;
		*count = 1;
	}
	if (*count == 0)
		*count = 1;
	return vg_bench_tier_find(t);
}

static int set(const char *var, const char *value)
{
	return value ? setenv(var, value, 1) : unsetenv(var);
}

static int run_one(const vg_bench_tier *t, unsigned index, unsigned count, char *const argv[])
{
	char part[32];
	snprintf(part, sizeof(part), "%u/%u", index, count);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("vgbench: fork");
		return 1;
	}
	if (pid == 0) {
		if (set("VG_KERNELS", t->vg_kernels) < 0 ||
		    set("VG_CPU_FEATURES", t->vg_features) < 0 ||
		    set("OPENSSL_ia32cap", t->ossl_cap) < 0 || setenv("VGBENCH_TIER", t->name, 1) < 0 ||
		    setenv("VGBENCH_PART", part, 1) < 0) {
			perror("vgbench: setenv");
			_exit(1);
		}
		execv("/proc/self/exe", argv);
		perror("vgbench: execv /proc/self/exe");
		_exit(1);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("vgbench: waitpid");
			return 1;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "vgbench: tier %s: killed by signal %d\n", t->name, WTERMSIG(status));
	return 1;
}

int vg_bench_tier_spawn(const char *name, char *const argv[])
{
	static const char *const all[] = {"base", "adx", "ifma"};
	const char *one[1] = {name};
	const char *const *list = one;
	unsigned n = 1;
	if (strcmp(name, "all") == 0) {
		list = all;
		n = 3;
	}
	int worst = 0;
	for (unsigned i = 0; i < n; i++) {
		const vg_bench_tier *t = vg_bench_tier_find(list[i]);
		if (!t) {
			fprintf(stderr, "vgbench: unknown tier '%s' (base, adx, ifma, c, all)\n", list[i]);
			return 2;
		}
		int r = run_one(t, i, n, argv);
		if (r > worst)
			worst = r;
	}
	return worst;
}
