/* ec_gen_table.c: build-time generator of ec_tables.c, the derived
 * constants and precomputed multiples of G for P-256 and P-384, and the
 * two struct vg_ec_curve that reference them. Run by meson as a native
 * executable; it links only the formula files (ec_fe.c, ec_point.c,
 * wipe.c), not the table users. Public data only.
 *
 * From the typed parameters (p256_params.h, p384_params.h) it derives
 * R mod m and R^2 mod m by modular doubling, recomputes -m^-1 mod 2^64 by
 * Newton's iteration and stops if the typed constants disagree, checks
 * that G is on the curve and that n G is the identity, and writes:
 *   comb:  row i, entry j = (j + 1) 2^(7 i) G, affine, Montgomery form;
 *   comb5: row i, entry j = (j + 1) 2^(5 i) G (P-256: its ifma comb);
 *   g_odd: entry j = (2 j + 1) G;
 * and the constant of the divsteps inversion, 2^(64 B - N) R^3 mod m.
 * Every written point is checked against the curve equation. */
#include <stdio.h>
#include <stdlib.h>

#include "ec/ec.h"
#include "ec/p256_params.h"
#include "ec/p384_params.h"

/* The field and scalar arithmetic the generator runs on (the same inline
 * definitions as p256.c and p384.c). */
static void p256_fe_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p256_p, VG_P256_P0INV, 4);
}
static void p256_fe_sqr(uint64_t *r, const uint64_t *a) { p256_fe_mul(r, a, a); }
static void p256_fe_add(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_add(r, a, b, vg_p256_p, 4);
}
static void p256_fe_sub(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_sub(r, a, b, vg_p256_p, 4);
}
static void p256_sc_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p256_n, VG_P256_N0INV, 4);
}
static void p384_fe_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p384_p, VG_P384_P0INV, 6);
}
static void p384_fe_sqr(uint64_t *r, const uint64_t *a) { p384_fe_mul(r, a, a); }
static void p384_fe_add(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_add(r, a, b, vg_p384_p, 6);
}
static void p384_fe_sub(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_sub(r, a, b, vg_p384_p, 6);
}
static void p384_sc_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p384_n, VG_P384_N0INV, 6);
}

struct gen {
	const char *tag;  /* "p256" */
	const char *name; /* "P-256" */
	size_t limbs;
	int comb5; /* 1: also the 5-bit comb (P-256's ifma tier) */
	const uint64_t *p, *n, *b, *gx, *gy;
	uint64_t p0inv, n0inv;
	vg_ec_mul_fn *fe_mul, *fe_add, *fe_sub, *sc_mul;
	vg_ec_sqr_fn *fe_sqr;
	/* derived */
	uint64_t p_one[VG_EC_MAX_LIMBS], p_rr[VG_EC_MAX_LIMBS];
	uint64_t n_one[VG_EC_MAX_LIMBS], n_rr[VG_EC_MAX_LIMBS];
	uint64_t p_invk[VG_EC_MAX_LIMBS], n_invk[VG_EC_MAX_LIMBS];
	uint64_t bm[VG_EC_MAX_LIMBS], gxm[VG_EC_MAX_LIMBS], gym[VG_EC_MAX_LIMBS];
	struct vg_ec_curve curve;
	struct vg_ec_impl impl;
};

static void die(const char *tag, const char *what)
{
	fprintf(stderr, "ec_gen_table: %s: %s\n", tag, what);
	exit(1);
}

/* -m^-1 mod 2^64 by Newton: x = x (2 - m x) doubles the correct low bits;
 * x = m is right to 3 bits for odd m, so 5 steps give 96 > 64. */
static uint64_t neg_inv64(uint64_t m)
{
	uint64_t x = m;
	for (int i = 0; i < 5; i++)
		x *= 2 - m * x;
	return (uint64_t)0 - x;
}

/* r = 2^bits mod m by doubling 1 (m > 2^(64 limbs - 1), so 1 < m). */
static void pow2_mod(uint64_t *r, const uint64_t *m, size_t limbs, size_t bits)
{
	for (size_t i = 0; i < limbs; i++)
		r[i] = 0;
	r[0] = 1;
	for (size_t i = 0; i < bits; i++)
		vg_ec_mod_add(r, r, r, m, limbs);
}

static void derive(struct gen *g)
{
	size_t n = g->limbs;

	if (neg_inv64(g->p[0]) != g->p0inv)
		die(g->tag, "typed -p^-1 mod 2^64 is wrong");
	if (neg_inv64(g->n[0]) != g->n0inv)
		die(g->tag, "typed -n^-1 mod 2^64 is wrong");
	pow2_mod(g->p_one, g->p, n, 64 * n);
	pow2_mod(g->p_rr, g->p, n, 128 * n);
	pow2_mod(g->n_one, g->n, n, 64 * n);
	pow2_mod(g->n_rr, g->n, n, 128 * n);
	size_t invk_bits = 64 * VG_EC_INV_BATCHES(n) - VG_EC_INV_STEPS(n) + 3 * 64 * n;
	pow2_mod(g->p_invk, g->p, n, invk_bits);
	pow2_mod(g->n_invk, g->n, n, invk_bits);

	g->curve = (struct vg_ec_curve){
		.name = g->name,
		.limbs = n,
		.bytes = 8 * n,
		.p = {.m = g->p, .rr = g->p_rr, .one = g->p_one, .m0inv = g->p0inv,
		      .inv_k = g->p_invk},
		.n = {.m = g->n, .rr = g->n_rr, .one = g->n_one, .m0inv = g->n0inv,
		      .inv_k = g->n_invk},
		.b = g->bm,
		.gx = g->gxm,
		.gy = g->gym,
	};
	g->impl = (struct vg_ec_impl){
		.v = {"gen", 0},
		.curve = &g->curve,
		.fe_mul = g->fe_mul,
		.fe_sqr = g->fe_sqr,
		.fe_add = g->fe_add,
		.fe_sub = g->fe_sub,
		.sc_mul = g->sc_mul,
		.fe_inv = vg_ec_fe_inv_c,
		.sc_inv = vg_ec_sc_inv_c,
		.inv2 = vg_ec_inv2_c,
	};
	vg_ec_fe_to_mont(&g->impl, g->bm, g->b);
	vg_ec_fe_to_mont(&g->impl, g->gxm, g->gx);
	vg_ec_fe_to_mont(&g->impl, g->gym, g->gy);
	if (!vg_ec_on_curve(&g->impl, g->gxm, g->gym))
		die(g->tag, "G is not on the curve");
}

static void put_limbs(FILE *f, const uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s0x%016llx", i ? ", " : "", (unsigned long long)a[i]);
}

static void put_array(FILE *f, const char *tag, const char *name, const uint64_t *a, size_t n)
{
	fprintf(f, "static const uint64_t %s_%s[%zu] = {", tag, name, n);
	put_limbs(f, a, n);
	fprintf(f, "};\n");
}

/* Write P as an affine entry after checking it. */
static void put_affine(FILE *f, struct gen *g, const vg_ec_point *P)
{
	uint64_t x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS];

	if (vg_ec_point_to_affine(&g->impl, x, y, P))
		die(g->tag, "a table entry is the identity");
	if (!vg_ec_on_curve(&g->impl, x, y))
		die(g->tag, "a table entry is off the curve");
	fprintf(f, "\t");
	put_limbs(f, x, g->limbs);
	fprintf(f, ",\n\t");
	put_limbs(f, y, g->limbs);
	fprintf(f, ",\n");
}

/* A comb table NAME: rows of `entries` affine points, entry j of row i =
 * (j + 1) 2^(w i) G. */
static void put_comb(FILE *f, struct gen *g, const vg_ec_point *G, const char *name, size_t rows,
		     size_t entries, int w)
{
	vg_ec_point base = *G, P;

	fprintf(f, "static const uint64_t %s_%s[%zu] __attribute__((aligned(64))) = {\n", g->tag,
		name, rows * entries * 2 * g->limbs);
	for (size_t i = 0; i < rows; i++) {
		P = base;
		for (size_t j = 0; j < entries; j++) {
			put_affine(f, g, &P);
			vg_ec_point_add(&g->impl, &P, &P, &base);
		}
		for (int s = 0; s < w; s++)
			vg_ec_point_dbl(&g->impl, &base, &base);
	}
	fprintf(f, "};\n");
}

static void generate(FILE *f, struct gen *g)
{
	size_t n = g->limbs, rows = VG_EC_COMB_ROWS(n);
	size_t rows5 = g->comb5 ? VG_EC_COMB5_ROWS(n) : 0;
	vg_ec_point G, P, t;

	derive(g);
	vg_ec_point_from_affine(&g->impl, &G, g->gxm, g->gym);

	/* n G must be the identity: the order is right and the formulas agree
	 * with the parameters. Computed as (n - 1) G + G by double-and-add. */
	{
		uint64_t nm1[VG_EC_MAX_LIMBS];
		vg_ec_copy(nm1, g->n, n);
		nm1[0] -= 1;
		vg_ec_point_identity(&g->impl, &P);
		for (size_t i = 64 * n; i-- > 0;) {
			vg_ec_point_dbl(&g->impl, &P, &P);
			if ((nm1[i / 64] >> (i % 64)) & 1)
				vg_ec_point_add(&g->impl, &P, &P, &G);
		}
		vg_ec_point_add(&g->impl, &t, &P, &G);
		if (!vg_ec_iszero(t.z, n))
			die(g->tag, "n G is not the identity");
	}

	fprintf(f, "\n/* %s */\n", g->name);
	put_array(f, g->tag, "p_rr", g->p_rr, n);
	put_array(f, g->tag, "p_one", g->p_one, n);
	put_array(f, g->tag, "n_rr", g->n_rr, n);
	put_array(f, g->tag, "n_one", g->n_one, n);
	put_array(f, g->tag, "p_invk", g->p_invk, n);
	put_array(f, g->tag, "n_invk", g->n_invk, n);
	put_array(f, g->tag, "b_mont", g->bm, n);
	put_array(f, g->tag, "gx_mont", g->gxm, n);
	put_array(f, g->tag, "gy_mont", g->gym, n);

	put_comb(f, g, &G, "comb", rows, VG_EC_COMB_ENTRIES, VG_EC_COMB_W);
	if (g->comb5)
		put_comb(f, g, &G, "comb5", rows5, VG_EC_COMB5_ENTRIES, VG_EC_COMB5_W);

	fprintf(f, "static const uint64_t %s_g_odd[%zu] = {\n", g->tag,
		(size_t)VG_EC_GNAF_ENTRIES * 2 * n);
	vg_ec_point_dbl(&g->impl, &t, &G); /* 2G */
	P = G;
	for (size_t j = 0; j < VG_EC_GNAF_ENTRIES; j++) {
		put_affine(f, g, &P);
		vg_ec_point_add(&g->impl, &P, &P, &t);
	}
	fprintf(f, "};\n");

	fprintf(f,
		"const struct vg_ec_curve vg_%s_curve = {\n"
		"\t.name = \"%s\",\n"
		"\t.limbs = %zu,\n"
		"\t.bytes = %zu,\n"
		"\t.p = {.m = vg_%s_p, .rr = %s_p_rr, .one = %s_p_one, .m0inv = 0x%llx,\n"
		"\t      .inv_k = %s_p_invk},\n"
		"\t.n = {.m = vg_%s_n, .rr = %s_n_rr, .one = %s_n_one, .m0inv = 0x%llx,\n"
		"\t      .inv_k = %s_n_invk},\n"
		"\t.b = %s_b_mont,\n"
		"\t.gx = %s_gx_mont,\n"
		"\t.gy = %s_gy_mont,\n"
		"\t.comb = %s_comb,\n"
		"\t.comb_rows = %zu,\n"
		"\t.g_odd = %s_g_odd,\n",
		g->tag, g->name, n, 8 * n, g->tag, g->tag, g->tag, (unsigned long long)g->p0inv,
		g->tag, g->tag, g->tag, g->tag, (unsigned long long)g->n0inv, g->tag, g->tag,
		g->tag, g->tag, g->tag, rows, g->tag);
	if (g->comb5)
		fprintf(f, "\t.comb5 = %s_comb5,\n\t.comb5_rows = %zu,\n", g->tag, rows5);
	fprintf(f, "};\n");
}

int main(int argc, char **argv)
{
	static struct gen p256 = {
		.tag = "p256",
		.name = "P-256",
		.limbs = 4,
		.comb5 = 1,
		.p = vg_p256_p,
		.n = vg_p256_n,
		.b = vg_p256_b,
		.gx = vg_p256_gx,
		.gy = vg_p256_gy,
		.p0inv = VG_P256_P0INV,
		.n0inv = VG_P256_N0INV,
		.fe_mul = p256_fe_mul,
		.fe_sqr = p256_fe_sqr,
		.sc_mul = p256_sc_mul,
		.fe_add = p256_fe_add,
		.fe_sub = p256_fe_sub,
	};
	static struct gen p384 = {
		.tag = "p384",
		.name = "P-384",
		.limbs = 6,
		.p = vg_p384_p,
		.n = vg_p384_n,
		.b = vg_p384_b,
		.gx = vg_p384_gx,
		.gy = vg_p384_gy,
		.p0inv = VG_P384_P0INV,
		.n0inv = VG_P384_N0INV,
		.fe_mul = p384_fe_mul,
		.fe_sqr = p384_fe_sqr,
		.sc_mul = p384_sc_mul,
		.fe_add = p384_fe_add,
		.fe_sub = p384_fe_sub,
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT.c\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "/* ec_tables.c: GENERATED by ec_gen_table.c at build time; do not edit.\n"
		   " * P-256 and P-384 derived constants and multiples of G (public). */\n"
		   "#include \"ec/ec.h\"\n"
		   "#include \"ec/p256_params.h\"\n"
		   "#include \"ec/p384_params.h\"\n");
	generate(f, &p256);
	generate(f, &p384);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
