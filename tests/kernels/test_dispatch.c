/* test_dispatch.c: the kernel dispatch (kernels/src/dispatch.c): every
 * family's table has the C reference as row 0 and every slot set; the
 * choice is the last row the features allow, or row 0 everywhere for C
 * only; accessors follow the choice and never return NULL; the report
 * names every operation. Run once with the environment untouched and once
 * per VG_KERNELS / VG_CPU_FEATURES setting (meson.build): --expect NAME
 * asserts the variant the environment chose for every operation. Nothing
 * here is secret. */
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

/* The operations and the family (table) each belongs to. */
static const char *const ops[] = {"ed25519", "x25519", "rsa"};

/* The name the accessor of op's family returns now. */
static const char *accessor_name(const char *op)
{
	if (strcmp(op, "rsa") == 0)
		return vg_rsa_impl()->v.name;
	return vg_c25519_impl()->v.name;
}

static void test_env_choice(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const char *v = vg_kernel_variant(ops[i]);
		assert_string_equal(v, accessor_name(ops[i]));
		if (expect)
			assert_string_equal(v, expect);
	}
	if (expect) {
		char want[128];
		snprintf(want, sizeof(want), "ed25519=%s x25519=%s rsa=%s", expect, expect, expect);
		assert_string_equal(vg_kernel_variants(), want);
	}
	assert_string_equal(vg_kernel_variant("nope"), "?");
	assert_string_equal(vg_kernel_variant(""), "?");
	assert_string_equal(vg_kernel_variant("ed"), "?"); /* whole words only */
}

/* Rows: row 0 is "c" with no features; every row's features contain the
 * previous row's (each tier builds on the one before), names are unique,
 * and with asm the tiers are exactly base, adx, ifma. */
static void check_rows(const struct vg_variant *first, size_t stride, size_t n)
{
	static const char *const asm_rows[] = {"c", "base", "adx", "ifma"};
	const struct vg_variant *prev = NULL;

	assert_int_equal(n, VG_HAVE_ASM ? 4 : 1);
	for (size_t i = 0; i < n; i++) {
		const struct vg_variant *r =
			(const struct vg_variant *)(const void *)((const char *)first + i * stride);
		assert_string_equal(r->name, asm_rows[i]);
		if (i == 0)
			assert_int_equal(r->features, 0);
		if (prev)
			assert_int_equal(r->features & prev->features, prev->features);
		prev = r;
	}
}

static void test_tables(void **state)
{
	(void)state;
	check_rows(&vg_c25519_impls[0].v, sizeof(vg_c25519_impls[0]), vg_c25519_nimpls);
	check_rows(&vg_rsa_impls[0].v, sizeof(vg_rsa_impls[0]), vg_rsa_nimpls);
	for (size_t i = 0; i < vg_c25519_nimpls; i++) {
		const struct vg_c25519_impl *r = &vg_c25519_impls[i];
		assert_non_null(r->x25519);
		assert_non_null(r->x25519_base);
		assert_non_null(r->base_encode);
		assert_non_null(r->dsm_encode);
	}
	for (size_t i = 0; i < vg_rsa_nimpls; i++) {
		const struct vg_rsa_impl *r = &vg_rsa_impls[i];
		for (size_t k = 0; k < VG_RSA_MONT_SIZES; k++) {
			assert_non_null(r->mul[k]);
			assert_non_null(r->sqr[k]);
		}
		for (size_t k = 0; k < VG_RSA52_SIZES; k++) {
			assert_non_null(r->r52[k].mul);
			assert_non_null(r->r52[k].sqr);
			assert_non_null(r->r52[k].select);
			assert_non_null(r->amm52x1[k]);
		}
		assert_non_null(r->crt);
		assert_non_null(r->pub);
	}
}

/* Every operation reports `want` and the accessors agree. */
static void check_all(const char *want)
{
	char line[128];
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		assert_string_equal(vg_kernel_variant(ops[i]), want);
		assert_string_equal(accessor_name(ops[i]), want);
	}
	snprintf(line, sizeof(line), "ed25519=%s x25519=%s rsa=%s", want, want, want);
	assert_string_equal(vg_kernel_variants(), line);
}

static void test_forced(void **state)
{
	(void)state;
	const char *base = VG_HAVE_ASM ? "base" : "c";
	const char *adx = VG_HAVE_ASM ? "adx" : "c";
	const char *ifma = VG_HAVE_ASM ? "ifma" : "c";

	vg_dispatch_for_tests(VG_TIER_IFMA, 1); /* C only wins over features */
	check_all("c");
	vg_dispatch_for_tests(0, 0);
	check_all(base);
	vg_dispatch_for_tests(VG_TIER_ADX, 0);
	check_all(adx);
	vg_dispatch_for_tests(VG_TIER_ADX & ~VG_CPU_ADX, 0); /* one feature short */
	check_all(base);
	vg_dispatch_for_tests(VG_TIER_IFMA, 0);
	check_all(ifma);
	vg_dispatch_for_tests(VG_TIER_IFMA & ~VG_CPU_AVX512IFMA, 0);
	check_all(adx);
	vg_dispatch_for_tests(~0u, 0);
	check_all(ifma);
	vg_dispatch_for_tests(vg_cpu_features(), 0); /* leave the machine's choice */
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
