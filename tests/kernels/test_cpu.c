/* test_cpu.c: CPU detection (kernels/src/cpu.c) against the kernel's own
 * view in /proc/cpuinfo: vendor, family, model and stepping, and the
 * feature flags (each of ours is usable only if the kernel lists it).
 * With --keep LIST (meson.build sets VG_CPU_FEATURES to the same list)
 * the usable features must be exactly the detected ones in LIST. Skips
 * (77) where /proc/cpuinfo has no x86 fields. Nothing here is secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_internal.h"

static char vendor[64], flags[4096];
static long family = -1, model = -1, stepping = -1;
static const char *keep; /* --keep: the VG_CPU_FEATURES list in force */

static const struct {
	const char *name; /* as in /proc/cpuinfo and VG_CPU_FEATURES */
	uint32_t bit;
} feats[] = {
	{"bmi1", VG_CPU_BMI1},         {"bmi2", VG_CPU_BMI2},         {"adx", VG_CPU_ADX},
	{"avx", VG_CPU_AVX},           {"avx2", VG_CPU_AVX2},         {"avx512f", VG_CPU_AVX512F},
	{"avx512vl", VG_CPU_AVX512VL}, {"avx512ifma", VG_CPU_AVX512IFMA}, {"sha_ni", VG_CPU_SHA},
};

/* The value after "key\t: " on the first processor's line. */
static int field(const char *line, const char *key, char *out, size_t cap)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return 0;
	const char *v = line + n + strspn(line + n, " \t"); /* "model" is not "model name" */
	if (*v != ':')
		return 0;
	v++;
	while (*v == ' ')
		v++;
	snprintf(out, cap, "%s", v);
	out[strcspn(out, "\n")] = 0;
	return 1;
}

static int read_cpuinfo(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192], v[64];
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n')
			break; /* the first processor only */
		field(line, "vendor_id", vendor, sizeof(vendor));
		field(line, "flags", flags, sizeof(flags));
		if (field(line, "cpu family", v, sizeof(v)))
			family = strtol(v, NULL, 10);
		if (field(line, "model", v, sizeof(v)))
			model = strtol(v, NULL, 10);
		if (field(line, "stepping", v, sizeof(v)))
			stepping = strtol(v, NULL, 10);
	}
	fclose(f);
	return vendor[0] && flags[0] && family >= 0 && model >= 0 ? 0 : -1;
}

/* 1 if word is one of the space-separated words of list. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == ',') &&
		    (p[n] == ' ' || p[n] == ',' || p[n] == 0))
			return 1;
	return 0;
}

static void test_identity(void **state)
{
	(void)state;
	const struct vg_cpu_id *id = vg_cpu_id();
	assert_non_null(id);
	assert_string_equal(id->vendor, vendor);
	assert_int_equal(id->family, family);
	assert_int_equal(id->model, model);
	if (stepping >= 0)
		assert_int_equal(id->stepping, stepping);
}

static void test_features(void **state)
{
	(void)state;
	uint32_t f = vg_cpu_features();
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		int listed = has_word(flags, feats[i].name);
		if (feats[i].bit == VG_CPU_AVX512IFMA) /* usable only with DQ and BW */
			listed = listed && has_word(flags, "avx512dq") && has_word(flags, "avx512bw");
		int want = listed && (!keep || has_word(keep, feats[i].name));
		if (keep && strcmp(keep, "none") == 0)
			want = 0;
		if (((f & feats[i].bit) != 0) != want)
			fail_msg("%s: usable %d, /proc/cpuinfo %d, kept %s", feats[i].name,
				 (f & feats[i].bit) != 0, listed, keep ? keep : "(all)");
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_features),
	};
	if (argc == 3 && strcmp(argv[1], "--keep") == 0)
		keep = argv[2];
	else if (argc != 1)
		return 2;
	if (read_cpuinfo() < 0) {
		fprintf(stderr, "no x86 fields in /proc/cpuinfo: nothing to compare\n");
		return 77;
	}
	return cmocka_run_group_tests_name("cpu", tests, NULL, NULL) != 0;
}
