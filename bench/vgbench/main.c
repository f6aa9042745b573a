/* main.c: vgbench, our kernels timed side by side with OpenSSL 3 and
 * libsodium (when built with them): options, set-up, a cross-check that
 * every implementation computes the same result, then one row per op.
 * Nothing here is secret: fixed inputs and public test keys. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "report.h"
#include "tier.h"
#include "timing.h"
#include "vg/cpu.h"
#include "vg_config.h"

#ifndef VGBENCH_KEYDIR
#define VGBENCH_KEYDIR "tests/keys"
#endif

typedef struct {
	int tsv, quick;
	const char *filter, *tier, *keydir;
	double seconds;
} options;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgbench [--tsv] [--filter REGEX] [--tier base|adx|ifma|c|all]\n"
		"               [--quick] [--seconds N] [--keys DIR]\n"
		"  --tsv          rows 'op tier ours_us peer peer_us ratio' (one per op and peer)\n"
		"  --filter RE    only ops whose name matches the POSIX extended regex RE\n"
		"  --tier T       restrict our kernels (VG_CPU_FEATURES) and OpenSSL\n"
		"                 (OPENSSL_ia32cap) to tier T; 'all' runs base, adx, ifma in turn.\n"
		"                 The tier column is the variant that ran, '<variant>@<tier>'\n"
		"                 when it is not the tier asked for\n"
		"  --quick        a few short rounds (smoke test; numbers are rough)\n"
		"  --seconds N    approximate total time budget (default 20)\n"
		"  --keys DIR     directory with rsa2048.pem, rsa3072.pem, rsa4096.pem\n"
		"                 (default %s)\n",
		VGBENCH_KEYDIR);
}

static int parse(int argc, char **argv, options *o)
{
	*o = (options){.keydir = VGBENCH_KEYDIR, .seconds = 20};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (strcmp(a, "--tsv") == 0) {
			o->tsv = 1;
		} else if (strcmp(a, "--quick") == 0) {
			o->quick = 1;
		} else if (strcmp(a, "--filter") == 0 && more) {
			o->filter = argv[++i];
		} else if (strcmp(a, "--tier") == 0 && more) {
			o->tier = argv[++i];
		} else if (strcmp(a, "--keys") == 0 && more) {
			o->keydir = argv[++i];
		} else if (strcmp(a, "--seconds") == 0 && more) {
			char *end;
			o->seconds = strtod(argv[++i], &end);
			if (*end || !(o->seconds > 0 && o->seconds < 1e6)) {
				fprintf(stderr, "vgbench: --seconds wants a positive number\n");
				return -1;
			}
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "vgbench: bad argument '%s'\n", a);
			usage(stderr);
			return -1;
		}
	}
	if (o->tier && strcmp(o->tier, "all") != 0 && !vg_bench_tier_find(o->tier)) {
		fprintf(stderr, "vgbench: unknown tier '%s' (base, adx, ifma, c, all)\n", o->tier);
		return -1;
	}
	return 0;
}

/* Every peer must compute what ours computes: the same public keys,
 * signatures (Ed25519 is deterministic), shared values and RSA blocks. */
static int cross_check(const vg_bench_impl *const *impls, size_t n, int op)
{
	uint8_t want[VG_BENCH_OUT_MAX], got[VG_BENCH_OUT_MAX];
	int want_len = impls[0]->one(op, want);
	if (want_len < 0) {
		fprintf(stderr, "vgbench: %s: vgd failed\n", vg_bench_op_name(op));
		return -1;
	}
	if (op == VG_BENCH_ED_VERIFY && want[0] != 1) {
		fprintf(stderr, "vgbench: %s: vgd rejects a valid signature\n", vg_bench_op_name(op));
		return -1;
	}
	for (size_t i = 1; i < n; i++) {
		int got_len = impls[i]->one(op, got);
		if (got_len != want_len || memcmp(got, want, (size_t)want_len) != 0) {
			fprintf(stderr, "vgbench: %s: %s and vgd disagree\n", vg_bench_op_name(op),
				impls[i]->name);
			return -1;
		}
	}
	return 0;
}

/* "c" when our variant is the tier asked for (or none was), else
 * "c@adx": the variant that ran, under the tier's masks. */
static void tier_label(char *buf, size_t cap, int op, const vg_bench_tier *t)
{
	const char *v = vg_kernel_variant(vg_bench_op_family(op));
	if (t && strcmp(v, t->name) != 0)
		snprintf(buf, cap, "%s@%s", v, t->name);
	else
		snprintf(buf, cap, "%s", v);
}

static int run(const options *o, const regex_t *re)
{
	static const vg_bench_impl *const candidates[] = {
#ifdef VG_BENCH_HAVE_OPENSSL
		&vg_bench_openssl,
#endif
#ifdef VG_BENCH_HAVE_SODIUM
		&vg_bench_sodium,
#endif
		NULL,
	};
	unsigned part, parts;
	const vg_bench_tier *tier = vg_bench_tier_current(&part, &parts);
	vg_bench_fixture fx;
	vg_bench_report rp = {.tsv = o->tsv, .header = part == 0};
	char why[512] = "", what[1024];
	int rc = 1;

	if (vg_bench_fixture_init(&fx, o->keydir) < 0) {
		fprintf(stderr, "vgbench: key directory path too long\n");
		return 1;
	}
	if (vg_bench_ours.init(&fx, why, sizeof(why)) < 0 || vg_bench_ours_derive(&fx) < 0) {
		fprintf(stderr, "vgbench: vgd set-up: %s\n", why[0] ? why : "RSA private failed");
		goto out_fx;
	}
	for (size_t i = 0; candidates[i]; i++) {
		why[0] = 0;
		if (candidates[i]->init(&fx, why, sizeof(why)) < 0) {
			fprintf(stderr, "vgbench: %s left out: %s\n", candidates[i]->name, why);
			candidates[i]->fini();
			continue;
		}
		rp.peers[rp.n_peers++] = candidates[i];
	}

	int n = snprintf(what, sizeof(what), "vgbench %s: vgd %s", VG_VERSION, vg_bench_ours.version());
	for (size_t i = 0; i < rp.n_peers && n > 0 && (size_t)n < sizeof(what); i++)
		n += snprintf(what + n, sizeof(what) - (size_t)n, "; %s", rp.peers[i]->version());
	if (tier && n > 0 && (size_t)n < sizeof(what))
		snprintf(what + n, sizeof(what) - (size_t)n,
			 "\ntier %s: VG_CPU_FEATURES=%s OPENSSL_ia32cap=%s", tier->name,
			 tier->vg_features ? tier->vg_features : "(unset)",
			 tier->ossl_cap ? tier->ossl_cap : "(unset)");

	int ops[VG_BENCH_OP_COUNT];
	size_t n_ops = 0;
	for (int op = 0; op < VG_BENCH_OP_COUNT; op++) {
		if (re && regexec(re, vg_bench_op_name(op), 0, NULL, 0) != 0)
			continue;
		if (!vg_bench_ours.has(op)) {
			fprintf(stderr, "vgbench: %s skipped (no key)\n", vg_bench_op_name(op));
			continue;
		}
		ops[n_ops++] = op;
	}
	if (n_ops == 0) {
		fprintf(stderr, "vgbench: no operation selected\n");
		goto out_peers;
	}

	vg_bench_plan plan;
	if (o->quick)
		plan = (vg_bench_plan){.batch_ns = 200000, .budget_ns = 0, .min_rounds = 5,
				       .max_rounds = 5};
	else
		plan = (vg_bench_plan){.batch_ns = 1500000,
				       .budget_ns = (uint64_t)(o->seconds * 1e9 / parts / (double)n_ops),
				       .min_rounds = 31,
				       .max_rounds = 2001};

	vg_bench_report_begin(&rp, what);
	for (size_t k = 0; k < n_ops; k++) {
		int op = ops[k];
		const vg_bench_impl *impls[VG_BENCH_MAX_IMPLS] = {&vg_bench_ours};
		size_t slot[VG_BENCH_MAX_IMPLS - 1], m = 1;
		for (size_t i = 0; i < rp.n_peers; i++)
			if (rp.peers[i]->has(op)) {
				slot[m - 1] = i;
				impls[m++] = rp.peers[i];
			}
		if (cross_check(impls, m, op) < 0)
			goto out_peers;
		double med[VG_BENCH_MAX_IMPLS], peer_us[VG_BENCH_MAX_IMPLS - 1];
		unsigned rounds;
		if (vg_bench_measure(impls, m, op, &plan, med, &rounds, why, sizeof(why)) < 0) {
			fprintf(stderr, "vgbench: %s\n", why);
			goto out_peers;
		}
		for (size_t i = 0; i < rp.n_peers; i++)
			peer_us[i] = -1;
		for (size_t j = 1; j < m; j++)
			peer_us[slot[j - 1]] = med[j];
		char label[32];
		tier_label(label, sizeof(label), op, tier);
		vg_bench_report_row(&rp, vg_bench_op_name(op), label, med[0], peer_us, rounds);
	}
	vg_bench_report_end(&rp);
	rc = 0;
out_peers:
	for (size_t i = 0; i < rp.n_peers; i++)
		rp.peers[i]->fini();
	vg_bench_ours.fini();
out_fx:
	vg_bench_fixture_free(&fx);
	return rc;
}

int main(int argc, char **argv)
{
	options o;
	regex_t re;
	if (parse(argc, argv, &o) < 0)
		return 2;
	/* Masks must be in place before either library initialises: run a
	 * fresh copy of this program per tier. */
	unsigned part, parts;
	if (o.tier && !vg_bench_tier_current(&part, &parts))
		return vg_bench_tier_spawn(o.tier, argv);
	if (o.filter) {
		int r = regcomp(&re, o.filter, REG_EXTENDED | REG_NOSUB);
		if (r != 0) {
			char msg[256];
			regerror(r, &re, msg, sizeof(msg));
			fprintf(stderr, "vgbench: --filter: %s\n", msg);
			return 2;
		}
	}
	int rc = run(&o, o.filter ? &re : NULL);
	if (o.filter)
		regfree(&re);
	return rc;
}
