/* checkasm.c: the C side of the checkasm harness (checkasm.h): random
 * inputs, sentinel guards, per-function verdicts and the check of the
 * trampoline's register/stack flags. Nothing here is secret. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"

/* Shared with checkasm_call.asm. */
extern uint64_t vg_checkasm_regs[6];
extern uint64_t vg_checkasm_flags;

/* The harness state of this test process (one family per executable). */
static struct {
	const char *family, *tier, *func;
	uint64_t rng[4];
	int iters, func_failed, nfunc_ok, nfunc_failed, ntier_skipped, reported;
} st;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman-Vigna): fast, and good enough for test inputs. */
uint64_t vg_checkasm_rand64(void)
{
	uint64_t *s = st.rng, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

void vg_checkasm_rand_bytes(void *p, size_t n)
{
	uint8_t *b = p;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t r = vg_checkasm_rand64();
		size_t k = n - i < 8 ? n - i : 8;
		memcpy(b + i, &r, k);
	}
}

static void new_regs(void)
{
	for (int i = 0; i < 6; i++)
		vg_checkasm_regs[i] = vg_checkasm_rand64();
}

void vg_checkasm_init(const char *family, int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL);
	const char *s = getenv("CHECKASM_SEED");
	int quick = 0;
	if (s)
		seed = strtoull(s, NULL, 0);
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--seed=", 7) == 0)
			seed = strtoull(argv[i] + 7, NULL, 0);
		else if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
	}
	st.family = family;
	/* splitmix64 expands the seed into the generator state */
	uint64_t z = seed;
	for (int i = 0; i < 4; i++) {
		z += 0x9e3779b97f4a7c15u;
		uint64_t x = z;
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
		st.rng[i] = x ^ (x >> 31);
	}
	st.iters = 10000;
	s = getenv("CHECKASM_ITERS");
	if (s && atoi(s) > st.iters)
		st.iters = atoi(s);
	if (quick)
		st.iters = 100;
	new_regs();
	printf("checkasm %s: seed %llu (replay with CHECKASM_SEED=%llu), %d iterations\n", family,
	       (unsigned long long)seed, (unsigned long long)seed, st.iters);
	printf("checkasm %s: CPU features usable 0x%x\n", family, (unsigned)vg_cpu_features());
}

int vg_checkasm_iters(void) { return st.iters; }

int vg_checkasm_tier(const char *name, uint32_t features)
{
	st.tier = name;
	if ((vg_cpu_features() & features) != features) {
		printf("checkasm %s: tier %s: skipped (CPU lacks features 0x%x)\n", st.family, name,
		       (unsigned)(features & ~vg_cpu_features()));
		st.ntier_skipped++;
		return 0;
	}
	printf("checkasm %s: tier %s\n", st.family, name);
	return 1;
}

int vg_checkasm_row(const struct vg_variant *row)
{
	return vg_checkasm_tier(row->name, row->features);
}

void vg_checkasm_func(const char *name)
{
	st.func = name;
	st.func_failed = 0;
	st.reported = 0;
	vg_checkasm_flags = 0;
	new_regs();
}

void vg_checkasm_fail(const char *fmt, ...)
{
	va_list ap;
	st.func_failed = 1;
	if (st.reported++ >= 5) /* enough to diagnose; keep the log short */
		return;
	printf("  FAIL %s (%s): ", st.func ? st.func : "?", st.tier ? st.tier : "?");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int vg_checkasm_ok(void) { return !st.func_failed; }

static const char *const flag_names[] = {
	"rbx clobbered", "rbp clobbered", "r12 clobbered", "r13 clobbered",
	"r14 clobbered", "r15 clobbered", "called with misaligned stack",
	"direction flag left set",
};

uint64_t vg_checkasm_after_call(uint64_t ret)
{
	uint64_t f = vg_checkasm_flags;
	if (f) {
		for (unsigned i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
			if (f & (1u << i))
				vg_checkasm_fail("ABI: %s", flag_names[i]);
		vg_checkasm_flags = 0;
	}
	new_regs(); /* fresh values for the next call */
	return ret;
}

void vg_checkasm_func_done(void)
{
	if (st.func_failed) {
		st.nfunc_failed++;
		printf("  %-36s %-5s FAILED\n", st.func, st.tier);
	} else {
		st.nfunc_ok++;
		printf("  %-36s %-5s ok\n", st.func, st.tier);
	}
	fflush(stdout);
	st.func = NULL;
}

int vg_checkasm_finish(void)
{
	printf("checkasm %s: %d functions ok, %d failed, %d tiers skipped\n", st.family,
	       st.nfunc_ok, st.nfunc_failed, st.ntier_skipped);
	if (st.nfunc_ok + st.nfunc_failed == 0) {
		printf("checkasm %s: FAILED: no function was checked on this machine\n", st.family);
		return 1;
	}
	return st.nfunc_failed != 0;
}

static void hex(const char *label, const uint8_t *p, size_t n)
{
	printf("    %s ", label);
	for (size_t i = n; i-- > 0;) /* most significant byte first */
		printf("%02x", p[i]);
	printf("\n");
}

int vg_checkasm_eq(const void *got, const void *want, size_t n, const char *fmt, ...)
{
	if (memcmp(got, want, n) == 0)
		return 1;
	char ctx[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	int first = st.reported < 5;
	vg_checkasm_fail("result differs from the C reference (%s)", ctx);
	if (first) {
		hex("got ", got, n);
		hex("want", want, n);
	}
	return 0;
}

static uint8_t sentinel(size_t i) { return (uint8_t)(0xa5 ^ (i * 29)); }

uint8_t *vg_checkasm_guard(uint8_t *raw, size_t n)
{
	for (size_t i = 0; i < VG_CHECKASM_OUT(n); i++)
		raw[i] = sentinel(i);
	return raw + VG_CHECKASM_GUARD;
}

int vg_checkasm_guard_ok(const uint8_t *raw, size_t n)
{
	for (size_t i = 0; i < VG_CHECKASM_GUARD; i++) {
		size_t j = VG_CHECKASM_GUARD + n + i;
		if (raw[i] != sentinel(i)) {
			vg_checkasm_fail("wrote %zu bytes before its output", VG_CHECKASM_GUARD - i);
			return 0;
		}
		if (raw[j] != sentinel(j)) {
			vg_checkasm_fail("wrote past its output (byte %zu after)", i);
			return 0;
		}
	}
	return 1;
}
