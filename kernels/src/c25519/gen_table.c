/* gen_table.c: build-time generator of ge_base_table.c, the precomputed
 * multiples of the Ed25519 base point B (declared in ge_table.h). Run by
 * meson as a native executable; it links only fe.c, ge.c and wipe.c (the
 * formulas, not the table users). Public data only.
 *
 * B is obtained by decoding its RFC 8032 encoding (y = 4/5, x even), so no
 * coordinate is typed in by hand. Every entry is written with canonical
 * limbs (fully reduced, each below 2^51). */
#include <stdio.h>
#include <stdlib.h>

#include "ge.h"

static void put_fe(FILE *f, const vg_fe *x)
{
	uint8_t s[32];
	vg_fe c;

	vg_fe_tobytes(s, x); /* canonical residue */
	vg_fe_frombytes(&c, s);
	fprintf(f, "{{0x%013llx, 0x%013llx, 0x%013llx, 0x%013llx, 0x%013llx}}",
		(unsigned long long)c.v[0], (unsigned long long)c.v[1], (unsigned long long)c.v[2],
		(unsigned long long)c.v[3], (unsigned long long)c.v[4]);
}

static void put_niels(FILE *f, const vg_ge_p3 *p, const char *indent)
{
	vg_ge_niels n;

	vg_ge_p3_to_niels(&n, p);
	fprintf(f, "%s{", indent);
	put_fe(f, &n.ypx);
	fprintf(f, ",\n%s ", indent);
	put_fe(f, &n.ymx);
	fprintf(f, ",\n%s ", indent);
	put_fe(f, &n.xy2d);
	fprintf(f, "},\n");
}

static void add(vg_ge_p3 *r, const vg_ge_p3 *p, const vg_ge_p3 *q)
{
	vg_ge_cached qc;
	vg_ge_completed t;

	vg_ge_p3_to_cached(&qc, q);
	vg_ge_add_cached(&t, p, &qc);
	vg_ge_completed_to_p3(r, &t);
}

static void dbl(vg_ge_p3 *r, const vg_ge_p3 *p)
{
	vg_ge_completed t;

	vg_ge_p3_dbl(&t, p);
	vg_ge_completed_to_p3(r, &t);
}

/* name[i][j] = (j + 1) * 2^(bits i) * B, for i < rows, j < entries: a
 * comb table, a row per digit position. */
static void put_comb(FILE *f, const vg_ge_p3 *B, const char *name, int rows, int entries, int bits)
{
	vg_ge_p3 row = *B, p;

	fprintf(f, "const vg_ge_niels %s[%d][%d] = {\n", name, rows, entries);
	for (int i = 0; i < rows; i++) {
		fprintf(f, "\t{ /* %d^%d * B times 1..%d */\n", 1 << bits, i, entries);
		p = row;
		for (int j = 0; j < entries; j++) {
			put_niels(f, &p, "\t\t");
			add(&p, &p, &row);
		}
		fprintf(f, "\t},\n");
		for (int k = 0; k < bits; k++)
			dbl(&row, &row);
	}
	fprintf(f, "};\n\n");
}

int main(int argc, char **argv)
{
	/* RFC 8032 5.1: B = (x, 4/5) with x positive (even). */
	static const uint8_t b_enc[32] = {
		0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
		0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
		0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	};
	vg_ge_p3 B, p, b2;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT.c\n", argv[0]);
		return 2;
	}
	if (vg_ge_frombytes(&B, b_enc) != 0) {
		fprintf(stderr, "gen_table: base point does not decode\n");
		return 1;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}

	fprintf(f, "/* ge_base_table.c: GENERATED at build time by gen_table.c; do not edit.\n"
		   " * Multiples of the Ed25519 base point in affine niels form\n"
		   " * (y + x, y - x, 2d*x*y); see ge_table.h. Public constants. */\n"
		   "#include \"c25519/ge_table.h\"\n\n");

	put_comb(f, &B, "vg_ge_base_comb", 32, 8, 8);
	put_comb(f, &B, "vg_ge_base_comb32", 52, 16, 5);
	put_comb(f, &B, "vg_ge_base_comb64", 43, 32, 6);

	/* vg_ge_base_odd[j] = (2j + 1) * B */
	fprintf(f, "const vg_ge_niels vg_ge_base_odd[64] = {\n");
	dbl(&b2, &B);
	p = B;
	for (int j = 0; j < 64; j++) {
		fprintf(f, "\t/* %d * B */\n", 2 * j + 1);
		put_niels(f, &p, "\t");
		add(&p, &p, &b2);
	}
	fprintf(f, "};\n");

	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
