/* dudect_c25519.c: statistical timing test (dudect.h) of the c25519 asm
 * tiers. This is the constant-time evidence for the tier valgrind cannot
 * run (ifma); the base and adx tiers are covered too, as a cross-check of
 * the valgrind ct tests. Bounded time: VG_DUDECT_SECONDS per target
 * (default 2). Secret (in the model): the scalars and field elements
 * under test. */
#include <stdio.h>
#include <string.h>

#include "c25519/c25519_impl.h"
#include "c25519/fe4.h"
#include "checkasm.h"
#include "dudect.h"

typedef void (*target_fn)(const uint8_t *in);

/* --- targets: input bytes are the secret --- */
static const struct vg_c25519_impl *impl;
static void (*mul)(vg_fe4 *, const vg_fe4 *, const vg_fe4 *);
static void (*ladder)(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);

static void t_mul(const uint8_t *in)
{
	vg_fe4 a, b, h;
	memcpy(&a, in, 32);
	memcpy(&b, in + 32, 32);
	mul(&h, &a, &b);
	__asm__ volatile("" ::"r"(&h) : "memory");
}

static void t_ladder(const uint8_t *in)
{
	static const vg_fe4 x1 = {{9, 0, 0, 0}}; /* public peer value */
	uint8_t e[32];
	vg_fe4 xz[2];
	memcpy(e, in, 32);
	e[0] &= 248;
	e[31] = (uint8_t)((e[31] & 127) | 64);
	ladder(xz, e, &x1);
	__asm__ volatile("" ::"r"(xz) : "memory");
}

static void t_base(const uint8_t *in)
{
	uint8_t a[32], out[32];
	memcpy(a, in, 32);
	a[31] &= 127;
	impl->base_encode(out, a);
	__asm__ volatile("" ::"r"(out) : "memory");
}

static void t_x25519(const uint8_t *in)
{
	static const uint8_t peer[32] = {9};
	uint8_t out[32];
	(void)impl->x25519(out, in, peer);
	__asm__ volatile("" ::"r"(out) : "memory");
}

int main(int argc, char **argv)
{
	vg_checkasm_init("dudect", argc, argv);
	double sec = vgt_dudect_start();
	int failed = vgt_dudect_control(sec / 2);
	/* The asm rows of the family table, and the asm building blocks each
	 * adds: ifma only its own code (the ladder and the comb, and the
	 * functions around them); its fe4_mul is adx's, timed there. */
	static const struct {
		const char *name;
		void (*mul)(vg_fe4 *, const vg_fe4 *, const vg_fe4 *);
		void (*ladder)(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);
	} blocks[] = {
		{"ifma", NULL, vg_x25519_ladder_ifma},
		{"adx", vg_fe4_mul_adx, vg_x25519_ladder_adx},
		{"base", vg_fe4_mul_base, vg_x25519_ladder_base},
	};
	int ran = 0;
	for (size_t r = vg_c25519_nimpls; r-- > 1;) {
		const struct vg_c25519_impl *row = &vg_c25519_impls[r];
		size_t i = 0;
		while (i < sizeof(blocks) / sizeof(blocks[0]) && strcmp(blocks[i].name, row->v.name))
			i++;
		if (i == sizeof(blocks) / sizeof(blocks[0])) {
			printf("dudect: FAILED: row %s has no targets here\n", row->v.name);
			failed = 1;
			continue;
		}
		if ((vg_cpu_features() & row->v.features) != row->v.features) {
			printf("dudect: tier %s: skipped (CPU lacks features)\n", row->v.name);
			continue;
		}
		impl = row;
		mul = blocks[i].mul;
		ladder = blocks[i].ladder;
		printf("dudect: tier %s (fixed secret = 0 against random)\n", row->v.name);
		char n[64];
		struct {
			const char *what;
			target_fn fn;
		} tg[] = {{"fe4_mul", t_mul}, {"x25519_ladder", t_ladder},
			  {"[a]B comb+encode", t_base}, {"x25519", t_x25519}};
		for (size_t j = 0; j < sizeof(tg) / sizeof(tg[0]); j++) {
			if (!mul && tg[j].fn == t_mul)
				continue;
			snprintf(n, sizeof(n), "%s %s", tg[j].what, row->v.name);
			if (vgt_dudect_leaks(n, tg[j].fn, 64, sec)) {
				printf("dudect: FAILED: %s leaks\n", n);
				failed = 1;
			}
			ran++;
		}
	}
	if (!ran) {
		printf("dudect: FAILED: no target ran\n");
		failed = 1;
	}
	return failed;
}
