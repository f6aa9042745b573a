/* test_dispatch.c: the kernel dispatch (kernels/src/dispatch.c), for every
 * family of its list: row 0 is the C reference, the rows follow the order
 * c, base, adx, ifma (c alone without asm) with growing feature sets, and
 * every pointer of every row is set; the choice is the last row the
 * features allow, or row 0 everywhere for C only; the accessors follow
 * the choice; the report names every operation of every family. The
 * Curve25519 and RSA families have all four rows with asm. Run once
 * with the environment untouched and once per VG_KERNELS / VG_CPU_FEATURES
 * setting (meson.build): --expect NAME asserts the variant the
 * environment chose for every operation. Nothing here is secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "c25519/c25519_impl.h"
#include "dispatch.h"
#include "rsa/rsa_impl.h"
#include "vg/cpu.h"
#include "vg_config.h"

static const char *expect; /* --expect: the variant the environment chose */

static const struct vg_variant *row(const struct vg_family_table *f, size_t i)
{
	return (const struct vg_variant *)(const void *)((const char *)f->first + i * f->stride);
}

/* The variant family f should choose for features (C only: "c"). */
static const char *expected(const struct vg_family_table *f, uint32_t features, int c_only)
{
	size_t best = 0;
	for (size_t i = 1; i < f->count && !c_only; i++)
		if ((features & row(f, i)->features) == row(f, i)->features)
			best = i;
	return row(f, best)->name;
}

/* Every "op=variant" of the report line is one vg_kernel_variant gives,
 * with "+mb" exactly when the operation's batch family "op-mb" runs
 * other than its C row (its operation then has no pair of its own);
 * every operation of every family is in the line, itself or folded so;
 * with check, each operation's variant is the one its family should
 * choose. */
static void check_report(int check, uint32_t features, int c_only)
{
	char line[256], *save = NULL;
	size_t pairs = 0, ops = 0;
	struct vg_family_table f;

	snprintf(line, sizeof(line), "%s", vg_kernel_variants());
	for (char *p = strtok_r(line, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(p, '='), mb[64];
		assert_non_null(eq);
		*eq = 0;
		char *plus = strstr(eq + 1, "+mb");
		if (plus)
			*plus = 0;
		assert_string_equal(vg_kernel_variant(p), eq + 1);
		assert_string_not_equal(eq + 1, "?");
		snprintf(mb, sizeof(mb), "%s-mb", p);
		const char *mv = vg_kernel_variant(mb);
		if (plus)
			assert_true(strcmp(mv, "c") != 0 && strcmp(mv, "?") != 0);
		else
			assert_true(strcmp(mv, "c") == 0 || strcmp(mv, "?") == 0);
		pairs += 1 + (strcmp(mv, "?") != 0); /* op-mb, folded in or not */
	}
	for (size_t k = 0; vg_dispatch_family(k, &f) == 0; k++) {
		char o[128], *s2 = NULL;
		snprintf(o, sizeof(o), "%s", f.ops);
		for (char *p = strtok_r(o, " ", &s2); p; p = strtok_r(NULL, " ", &s2)) {
			assert_string_not_equal(vg_kernel_variant(p), "?");
			if (check)
				assert_string_equal(vg_kernel_variant(p), expected(&f, features, c_only));
			ops++;
		}
	}
	assert_true(ops >= 3); /* ed25519, x25519, rsa at least */
	assert_int_equal(pairs, ops);
}

/* --expect: what the environment (meson.build) chose: "c" (VG_KERNELS=c)
 * or "base" (VG_CPU_FEATURES=none), for every family. */
static void test_env_choice(void **state)
{
	(void)state;
	check_report(expect != NULL, 0, expect && strcmp(expect, "c") == 0);
	if (expect && strcmp(expect, "c") != 0) {
		assert_string_equal(vg_kernel_variant("ed25519"), expect);
		assert_string_equal(vg_kernel_variant("rsa"), expect);
	}
	/* the accessors return what is reported */
	assert_string_equal(vg_c25519_impl()->v.name, vg_kernel_variant("ed25519"));
	assert_string_equal(vg_c25519_impl()->v.name, vg_kernel_variant("x25519"));
	assert_string_equal(vg_rsa_impl()->v.name, vg_kernel_variant("rsa"));
	assert_string_equal(vg_kernel_variant("nope"), "?");
	assert_string_equal(vg_kernel_variant(""), "?");
	assert_string_equal(vg_kernel_variant("ed"), "?"); /* whole words only */
}

/* Every family: row 0 "c" with no features, the rows in the order c,
 * base, adx, ifma (c alone without asm; "shani" is the one row of the
 * sha256 family after c), each row's features containing the previous
 * row's, and every word after a row's head a set pointer (a row is its
 * head and pointers only, dispatch.h). */
static void test_tables(void **state)
{
	static const char *const names[] = {"c", "base", "adx", "ifma", "shani"};
	struct vg_family_table f;
	size_t k;

	(void)state;
	for (k = 0; vg_dispatch_family(k, &f) == 0; k++) {
		size_t next = 0; /* the rows' names: a subsequence of names[] from "c" */
		assert_true(f.count >= 1 && f.count <= (VG_HAVE_ASM ? 4 : 1));
		for (size_t i = 0; i < f.count; i++) {
			const struct vg_variant *r = row(&f, i);
			while (next < 5 && strcmp(r->name, names[next]) != 0)
				next++;
			if (next == 5 || (i == 0 && next != 0))
				fail_msg("%s: row %zu is %s, out of order", f.ops, i, r->name);
			next++;
			if (i == 0)
				assert_int_equal(r->features, 0);
			else
				assert_int_equal(r->features & row(&f, i - 1)->features,
						 row(&f, i - 1)->features);
			size_t head = (sizeof(struct vg_variant) + sizeof(void (*)(void)) - 1) /
				      sizeof(void (*)(void)) * sizeof(void (*)(void));
			for (size_t off = head; off < f.stride; off += sizeof(void (*)(void))) {
				void (*fn)(void);
				memcpy(&fn, (const char *)r + off, sizeof(fn));
				if (!fn)
					fail_msg("%s: row %s: no function at byte %zu", f.ops, r->name, off);
			}
		}
	}
	assert_true(k >= 2); /* Curve25519 and RSA at least */
	assert_int_equal(vg_c25519_nimpls, VG_HAVE_ASM ? 4 : 1);
	assert_int_equal(vg_rsa_nimpls, VG_HAVE_ASM ? 4 : 1);
}

/* Choose for features (or C only), then every family chooses what its
 * table says, the report says so, and the Curve25519 and RSA accessors
 * (which have every tier with asm) return want. */
static void force(uint32_t features, int c_only, const char *want)
{
	vg_dispatch_for_tests(features, c_only);
	check_report(1, features, c_only);
	assert_string_equal(vg_c25519_impl()->v.name, want);
	assert_string_equal(vg_rsa_impl()->v.name, want);
	assert_string_equal(vg_kernel_variant("ed25519"), want);
	assert_string_equal(vg_kernel_variant("x25519"), want);
	assert_string_equal(vg_kernel_variant("rsa"), want);
}

static void test_forced(void **state)
{
	(void)state;
	const char *base = VG_HAVE_ASM ? "base" : "c";
	const char *adx = VG_HAVE_ASM ? "adx" : "c";
	const char *ifma = VG_HAVE_ASM ? "ifma" : "c";

	force(VG_TIER_IFMA, 1, "c"); /* C only wins over features */
	force(0, 0, base);
	force(VG_TIER_ADX, 0, adx);
	force(VG_TIER_ADX & ~VG_CPU_ADX, 0, base); /* one feature short */
	force(VG_TIER_IFMA, 0, ifma);
	force(VG_TIER_IFMA & ~VG_CPU_AVX512IFMA, 0, adx);
	force(~0u, 0, ifma);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_choice),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_forced),
	};
	if (argc == 3 && strcmp(argv[1], "--expect") == 0)
		expect = argv[2];
	else if (argc != 1)
		return 2;
	return cmocka_run_group_tests_name("dispatch", tests, NULL, NULL) != 0;
}
