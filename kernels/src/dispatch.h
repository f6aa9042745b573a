/* dispatch.h: the one kernel dispatch model (dispatch.c), shared by every
 * family. Not installed. Nothing here is secret.
 *
 * A family (Curve25519, RSA, ...) is a const table of variants, one row
 * each. Every row starts with a struct vg_variant (its name and the
 * vg/cpu.h features it needs) followed by the family's function pointers,
 * all set: row 0 is the portable C reference (name "c", features 0), the
 * next rows the assembly tiers in order of preference ("base", "adx",
 * "ifma"; a family tied to one instruction set extension names its row
 * after it instead: sha256's "shani"). dispatch.c chooses one row per family once (pthread_once): the
 * last row whose features the CPU has (vg_cpu_features(), after
 * VG_CPU_FEATURES), or row 0 everywhere under VG_KERNELS=c. Callers fetch
 * the chosen row from the family's accessor, which never returns NULL,
 * and call through it unconditionally. checkasm walks the same tables and
 * checks every row the CPU can run against row 0.
 *
 * A row is its head followed by pointers only (functions, and constant
 * data they need such as the curve of ec/ec.h), every one set
 * (tests/kernels/test_dispatch.c checks that for every family).
 *
 * ADDING A FAMILY (say foo; ec/ holds two, ec_p256 and ec_p384, sharing
 * one row type):
 *  1. its header: the row type, struct vg_foo_impl { struct vg_variant v;
 *     ...the function pointers... }; the table, extern const struct
 *     vg_foo_impl vg_foo_impls[]; extern const size_t vg_foo_nimpls; and
 *     the accessor, const struct vg_foo_impl *vg_foo_impl(void);
 *  2. the table, C row first, in one .c file of the family (see
 *     c25519/c25519_impls.c); the asm rows under #if VG_HAVE_ASM;
 *  3. one line in dispatch.c's family list, X(foo, struct vg_foo_impl,
 *     "foo") (the family, its row type and the operation names vgd
 *     --version reports for it), and its #include there. That line
 *     defines the accessor.
 *  4. with asm rows: a tests/checkasm/foo/checkasm_foo.c that walks
 *     vg_foo_impls[] (see tests/checkasm/rsa/checkasm_rsa.c), and the asm
 *     functions' entry rules in tests/checkasm/ctasm/ct_asm_check.py. */
#ifndef VG_DISPATCH_H
#define VG_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

/* The head of every family row. */
struct vg_variant {
	const char *name;  /* "c", "base", "adx", "ifma" */
	uint32_t features; /* vg/cpu.h features the row needs; 0 for "c" */
};

/* A family's table as dispatch.c sees it: row i is at first + i * stride
 * bytes, count rows; ops are the operations reported for it, separated by
 * spaces. */
struct vg_family_table {
	const char *ops;
	const struct vg_variant *first;
	size_t stride, count;
};

/* TEST ONLY: the table of the k-th family of the list, 0 <= k; returns
 * 0, or -1 past the end of the list. */
int vg_dispatch_family(size_t k, struct vg_family_table *out);

/* TEST ONLY: choose every family's row again, as if the CPU had exactly
 * `features` (which may include features the CPU lacks, e.g. ADX under
 * valgrind, whose cpuid hides it), or the C row everywhere if c_only.
 * Replaces the choice made from the environment. Not thread-safe: call it
 * before any kernel runs on another thread. */
void vg_dispatch_for_tests(uint32_t features, int c_only);

#endif
