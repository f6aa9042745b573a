/* selftest.c: tests of the checkasm harness itself. Without arguments it
 * checks an ABI-conforming function (must pass); with "clobber",
 * "overflow" or "df" it checks a function that breaks the rule on purpose
 * (registered as should_fail: the harness must catch it). Nothing secret. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"

uint64_t vg_checkasm_st_good(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
			     uint64_t a6, uint64_t a7, uint64_t a8);
void vg_checkasm_st_clobber(uint64_t unused);
void vg_checkasm_st_overflow(uint8_t out[32]);
void vg_checkasm_st_df(uint64_t unused);

int main(int argc, char **argv)
{
	const char *mode = argc > 1 && argv[1][0] != '-' ? argv[1] : "good";
	vg_checkasm_init("selftest", argc, argv);
	vg_checkasm_tier("base", VG_TIER_BASE);
	vg_checkasm_func(mode);
	if (strcmp(mode, "good") == 0) {
		for (int i = 0; i < vg_checkasm_iters() && vg_checkasm_ok(); i++) {
			uint64_t a[8], want = 0;
			for (int j = 0; j < 8; j++) {
				a[j] = vg_checkasm_rand64();
				want += (uint64_t)(j + 1) * a[j];
			}
			uint64_t got = vg_checkasm_call(vg_checkasm_st_good, a[0], a[1], a[2], a[3],
							a[4], a[5], a[6], a[7]);
			vg_checkasm_eq(&got, &want, 8, "i=%d", i);
		}
		/* the guard helpers must accept an exact write */
		uint8_t raw[VG_CHECKASM_OUT(32)];
		uint8_t *out = vg_checkasm_guard(raw, 32);
		memset(out, 0, 32);
		vg_checkasm_guard_ok(raw, 32);
	} else if (strcmp(mode, "clobber") == 0) {
		vg_checkasm_call(vg_checkasm_st_clobber, 0);
	} else if (strcmp(mode, "overflow") == 0) {
		uint8_t raw[VG_CHECKASM_OUT(32)];
		uint8_t *out = vg_checkasm_guard(raw, 32);
		vg_checkasm_call(vg_checkasm_st_overflow, out);
		vg_checkasm_guard_ok(raw, 32);
	} else if (strcmp(mode, "df") == 0) {
		vg_checkasm_call(vg_checkasm_st_df, 0);
	} else {
		vg_checkasm_fail("unknown mode %s", mode);
	}
	vg_checkasm_func_done();
	return vg_checkasm_finish();
}
