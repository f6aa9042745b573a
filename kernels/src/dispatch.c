/* dispatch.c: chooses every kernel family's variant, once, in one place
 * (the model is described in dispatch.h), and reports the choice
 * (vg_kernel_variant(s), vg/cpu.h). Reads VG_KERNELS here and the CPU
 * features through cpu.c. Nothing here is secret. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c25519/c25519_impl.h"
#include "c25519/c25519_mb_impl.h"
#include "cpu_internal.h"
#include "dispatch.h"
#include "ec/ec.h"
#include "ec/ec_mb.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_mb_impl.h"
#include "sha2/sha256_impl.h"
#include "sha2/sha512_impl.h"

/* The family list, one line per family: X(family, row type, operations).
 * family names the table vg_<family>_impls[] of the row type (row 0 the
 * C reference), its length vg_<family>_nimpls, and the accessor
 * vg_<family>_impl() defined below; operations are the names reported
 * for it (vg_kernel_variants), separated by spaces. */
#define FAMILIES(X)                                            \
	X(c25519, struct vg_c25519_impl, "ed25519 x25519")     \
	X(c25519_mb, struct vg_c25519_mb_impl, "x25519-mb ed25519-mb") \
	X(rsa, struct vg_rsa_impl, "rsa")                      \
	X(rsa_mb, struct vg_rsa_mb_impl, "rsa-mb")             \
	X(ec_p256, struct vg_ec_impl, "p256")                  \
	X(ec_p384, struct vg_ec_impl, "p384")                  \
	X(ec_p256_mb, struct vg_ec_mb_impl, "p256-mb")         \
	X(ec_p384_mb, struct vg_ec_mb_impl, "p384-mb")         \
	X(sha256, struct vg_sha256_impl, "sha256")             \
	X(sha512, struct vg_sha512_impl, "sha512")

enum {
#define FAMILY_ENUM(fam, type, ops) FAM_##fam,
	FAMILIES(FAMILY_ENUM)
#undef FAMILY_ENUM
	NFAM
};

/* A family's table seen through its rows' common head: row i is at
 * first + i * stride bytes. */
struct family {
	const char *ops;
	const struct vg_variant *first;
	size_t stride;
	const size_t *count;
};

static const struct family families[NFAM] = {
#define FAMILY_ROW(fam, type, ops)                                                               \
	[FAM_##fam] = {ops, &vg_##fam##_impls[0].v, sizeof(vg_##fam##_impls[0]), &vg_##fam##_nimpls},
	FAMILIES(FAMILY_ROW)
#undef FAMILY_ROW
};

/* Owned by this file: the chosen row of each family and the report line,
 * written under pthread_once (or by the test-only re-choice), read-only
 * afterwards. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct vg_variant *chosen[NFAM];
static char report[128];

static const struct vg_variant *row(const struct family *f, size_t i)
{
	return (const struct vg_variant *)(const void *)((const char *)f->first + i * f->stride);
}

/* 1 if op is one of the space-separated words of ops. */
static int has_op(const char *ops, const char *op)
{
	size_t n = strlen(op);
	for (const char *p = ops; (p = strstr(p, op)) != NULL; p += n)
		if ((p == ops || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
	return 0;
}

/* The family that reports op, or -1. */
static int family_of(const char *op)
{
	for (size_t k = 0; k < NFAM; k++)
		if (*op && has_op(families[k].ops, op))
			return (int)k;
	return -1;
}

static void choose(uint32_t features, int c_only)
{
	for (size_t k = 0; k < NFAM; k++) {
		const struct family *f = &families[k];
		size_t best = 0; /* row 0, the C reference, runs everywhere */
		for (size_t i = 1; i < *f->count && !c_only; i++)
			if ((features & row(f, i)->features) == row(f, i)->features)
				best = i;
		chosen[k] = row(f, best);
	}

	/* "ed25519=ifma+mb x25519=ifma+mb rsa=adx": every operation of every
	 * family, its batch family ("OP-mb") folded in as "+mb" when that
	 * runs its assembly (not its C row), so that the line stays short
	 * enough for hello's SERVER text in full (libvgclient keeps 127
	 * bytes). A batch family whose operation has no family of its own
	 * is reported as itself. */
	size_t n = 0;
	report[0] = 0;
	for (size_t k = 0; k < NFAM; k++) {
		char ops[64];
		snprintf(ops, sizeof(ops), "%s", families[k].ops);
		for (char *save = NULL, *op = strtok_r(ops, " ", &save); op;
		     op = strtok_r(NULL, " ", &save)) {
			char base[64], mb[64];
			size_t ol = strlen(op);
			snprintf(base, sizeof(base), "%.*s", ol > 3 ? (int)(ol - 3) : 0, op);
			if (ol > 3 && strcmp(op + ol - 3, "-mb") == 0 && family_of(base) >= 0)
				continue; /* folded into its operation's entry */
			snprintf(mb, sizeof(mb), "%s-mb", op);
			int fm = family_of(mb);
			int folded = fm >= 0 && strcmp(chosen[fm]->name, "c") != 0;
			int w = snprintf(report + n, sizeof(report) - n, "%s%s=%s%s", n ? " " : "",
					 op, chosen[k]->name, folded ? "+mb" : "");
			if (w > 0 && (size_t)w < sizeof(report) - n)
				n += (size_t)w;
		}
	}
}

/* VG_KERNELS=c: the C row of every family (tests, comparisons). */
static void choose_from_env(void)
{
	const char *k = getenv("VG_KERNELS");
	int c_only = k && strcmp(k, "c") == 0;
	if (k && *k && !c_only)
		fprintf(stderr, "vg: VG_KERNELS: unknown value '%s' ignored (only 'c')\n", k);
	choose(vg_cpu_features(), c_only);
}

int vg_dispatch_family(size_t k, struct vg_family_table *out)
{
	if (k >= NFAM)
		return -1;
	*out = (struct vg_family_table){families[k].ops, families[k].first, families[k].stride,
					*families[k].count};
	return 0;
}

void vg_dispatch_for_tests(uint32_t features, int c_only)
{
	pthread_once(&once, choose_from_env);
	choose(features, c_only);
}

/* The accessors: the chosen row, converted back from its first member. */
#define FAMILY_ACCESSOR(fam, type, ops)                                   \
	const type *vg_##fam##_impl(void)                                \
	{                                                                 \
		pthread_once(&once, choose_from_env);                     \
		return (const type *)(const void *)chosen[FAM_##fam];     \
	}
FAMILIES(FAMILY_ACCESSOR)
#undef FAMILY_ACCESSOR

const char *vg_kernel_variant(const char *op)
{
	pthread_once(&once, choose_from_env);
	int k = family_of(op);
	return k >= 0 ? chosen[k]->name : "?";
}

const char *vg_kernel_variants(void)
{
	pthread_once(&once, choose_from_env);
	return report;
}
