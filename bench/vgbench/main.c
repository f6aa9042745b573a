/* main.c: vgbench, our kernels timed side by side with OpenSSL 3 and
 * libsodium (when built with them) and, on request, aws-lc (loaded at run
 * time): options, set-up, a cross-check that every implementation
 * computes the same result, then one row per op. Nothing here is secret:
 * fixed inputs and public test keys. */
#include <regex.h>
#include <stdarg.h>
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
#ifndef VGBENCH_SRCDIR
#define VGBENCH_SRCDIR "."
#endif

/* Every peer vgbench knows, in column order. impl is NULL when the build
 * left it out; dflt peers are compared without being named. */
static const struct {
	const char *name, *alias;
	const vg_bench_impl *impl;
	int dflt;
} known[] = {
#ifdef VG_BENCH_HAVE_OPENSSL
	{"openssl", NULL, &vg_bench_openssl, 1},
#else
	{"openssl", NULL, NULL, 1},
#endif
#ifdef VG_BENCH_HAVE_SODIUM
	{"libsodium", "sodium", &vg_bench_sodium, 1},
#else
	{"libsodium", "sodium", NULL, 1},
#endif
	{"awslc", "aws-lc", &vg_bench_awslc, 0},
};
#define N_KNOWN (sizeof(known) / sizeof(known[0]))

typedef struct {
	int tsv, quick;
	const char *filter, *tier, *keydir;
	double seconds;
	int peer_on[N_KNOWN]; /* 0 off, 1 on by default, 2 named by --peer */
	const char *peer_arg[N_KNOWN]; /* "--peer NAME=ARG", else NULL */
} options;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgbench [--tsv] [--filter REGEX] [--tier base|adx|ifma|c|all]\n"
		"               [--peer NAME[=ARG]]... [--quick] [--seconds N] [--keys DIR]\n"
		"  --tsv          rows 'op tier ours_us peer peer_us ratio' (one per op and peer)\n"
		"  --filter RE    only ops whose name matches the POSIX extended regex RE;\n"
		"                 the key generation rows (*-keygen: one key per timed\n"
		"                 batch, at least 31 per implementation) run only when\n"
		"                 selected so\n"
		"  --tier T       restrict our kernels (VG_CPU_FEATURES; 'c': VG_KERNELS=c, the\n"
		"                 portable C) and OpenSSL and aws-lc (OPENSSL_ia32cap) to tier T;\n"
		"                 'all' runs base, adx, ifma in turn.\n"
		"                 The tier column is the variant that ran, '<variant>@<tier>'\n"
		"                 when it is not the tier asked for\n"
		"  --peer awslc[=PATH]  also compare with aws-lc, loaded at run time from PATH\n"
		"                 (default: shared/peers/aws-lc-5.5.0/libawslc.so beside the\n"
		"                 source tree %s or a directory above it); a note if it\n"
		"                 cannot be loaded. openssl and libsodium are compared whenever\n"
		"                 built in; naming them is accepted\n"
		"  --quick        a few short rounds (smoke test; numbers are rough)\n"
		"  --seconds N    approximate total time budget (default 20)\n"
		"  --keys DIR     directory with rsa2048.pem, rsa3072.pem, rsa4096.pem,\n"
		"                 ecdsa-p256.pem, ecdsa-p384.pem (default %s)\n",
		VGBENCH_SRCDIR, VGBENCH_KEYDIR);
}

/* "--peer NAME[=ARG]": turns NAME on, with ARG for its init. */
static int parse_peer(const char *a, options *o)
{
	const char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	for (size_t i = 0; i < N_KNOWN; i++) {
		const char *al = known[i].alias;
		if ((strlen(known[i].name) == len && strncmp(a, known[i].name, len) == 0) ||
		    (al && strlen(al) == len && strncmp(a, al, len) == 0)) {
			o->peer_on[i] = 2; /* named: worth a note if it cannot run */
			o->peer_arg[i] = eq ? eq + 1 : NULL;
			return 0;
		}
	}
	fprintf(stderr, "vgbench: unknown peer '%.*s' (awslc, openssl, libsodium)\n", (int)len, a);
	return -1;
}

static int parse(int argc, char **argv, options *o)
{
	*o = (options){.keydir = VGBENCH_KEYDIR, .seconds = 20};
	for (size_t i = 0; i < N_KNOWN; i++)
		o->peer_on[i] = known[i].dflt;
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
		} else if (strcmp(a, "--peer") == 0 && more) {
			if (parse_peer(argv[++i], o) < 0)
				return -1;
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

/* ECDSA signatures are randomized: every implementation's signature must
 * verify under every implementation (OpenSSL among them when built), and
 * every verifier must accept the fixture's signature and reject it with
 * one bit flipped in r, and in s. */
static int cross_check_ecdsa(const vg_bench_impl *const *impls, size_t n, int op,
			     const vg_bench_fixture *fx)
{
	const char *name = vg_bench_op_name(op);
	uint8_t out[VG_BENCH_OUT_MAX];
	size_t n_len = fx->ec[vg_bench_op_ec_index(op)].n_len;
	for (size_t i = 0; i < n; i++) {
		if (!impls[i]->check) {
			fprintf(stderr, "vgbench: %s: %s cannot verify\n", name, impls[i]->name);
			return -1;
		}
	}
	if (vg_bench_op_is_ecdsa_sign(op)) {
		for (size_t i = 0; i < n; i++) {
			int len = vg_bench_one(impls[i], op, out);
			if (len != (int)(2 * n_len)) {
				fprintf(stderr, "vgbench: %s: %s failed\n", name, impls[i]->name);
				return -1;
			}
			for (size_t j = 0; j < n; j++) {
				if (impls[j]->check(op, out, (size_t)len) != 1) {
					fprintf(stderr,
						"vgbench: %s: %s's signature fails %s's verify\n",
						name, impls[i]->name, impls[j]->name);
					return -1;
				}
			}
		}
		return 0;
	}
	const uint8_t *sig = fx->ec[vg_bench_op_ec_index(op)].sig;
	for (size_t i = 0; i < n; i++) {
		if (vg_bench_one(impls[i], op, out) != 1 || out[0] != 1) {
			fprintf(stderr, "vgbench: %s: %s rejects a valid signature\n", name,
				impls[i]->name);
			return -1;
		}
		for (size_t half = 0; half < 2; half++) {
			uint8_t bad[2 * VG_BENCH_EC_MAX];
			memcpy(bad, sig, 2 * n_len);
			bad[(half + 1) * n_len - 1] ^= 1;
			if (impls[i]->check(op, bad, 2 * n_len) != 0) {
				fprintf(stderr, "vgbench: %s: %s does not reject a corrupted %s\n",
					name, impls[i]->name, half ? "s" : "r");
				return -1;
			}
		}
	}
	return 0;
}

/* Every other implementation must compute what the first (vgd when it has
 * the op) computes: the same public keys, signatures (Ed25519 is
 * deterministic), shared values and RSA blocks. */
static int cross_check(const vg_bench_impl *const *impls, size_t n, int op,
		       const vg_bench_fixture *fx)
{
	uint8_t want[VG_BENCH_OUT_MAX], got[VG_BENCH_OUT_MAX];
	if (vg_bench_op_ec_index(op) >= 0)
		return cross_check_ecdsa(impls, n, op, fx);
	if (vg_bench_op_keygen(op)) {
		/* every key differs: each must give a public key of the length */
		for (size_t i = 0; i < n; i++) {
			if (vg_bench_one(impls[i], op, got) != (int)vg_bench_keygen_len(op)) {
				fprintf(stderr, "vgbench: %s: %s failed\n", vg_bench_op_name(op),
					impls[i]->name);
				return -1;
			}
		}
		return 0;
	}
	int want_len = vg_bench_one(impls[0], op, want);
	if (want_len < 0) {
		fprintf(stderr, "vgbench: %s: %s failed\n", vg_bench_op_name(op), impls[0]->name);
		return -1;
	}
	if (op == VG_BENCH_ED_VERIFY && want[0] != 1) {
		fprintf(stderr, "vgbench: %s: %s rejects a valid signature\n", vg_bench_op_name(op),
			impls[0]->name);
		return -1;
	}
	for (size_t i = 1; i < n; i++) {
		int got_len = vg_bench_one(impls[i], op, got);
		if (got_len != want_len || memcmp(got, want, (size_t)want_len) != 0) {
			fprintf(stderr, "vgbench: %s: %s and %s disagree\n", vg_bench_op_name(op),
				impls[i]->name, impls[0]->name);
			return -1;
		}
	}
	return 0;
}

/* The verify rows' input: a signature by the first implementation that
 * signs on that curve (vgd when it can), since ECDSA has no fixed answer. */
static int make_ecdsa_sigs(vg_bench_fixture *fx, const vg_bench_impl *const *impls, size_t n)
{
	uint8_t out[VG_BENCH_OUT_MAX];
	for (int op = 0; op < VG_BENCH_OP_COUNT; op++) {
		if (!vg_bench_op_is_ecdsa_sign(op))
			continue;
		size_t c = (size_t)vg_bench_op_ec_index(op);
		for (size_t i = 0; i < n && fx->ec[c].sig_len == 0; i++) {
			if (!vg_bench_has(impls[i], op))
				continue;
			int len = vg_bench_one(impls[i], op, out);
			if (len != (int)(2 * fx->ec[c].n_len)) {
				fprintf(stderr, "vgbench: %s: %s failed\n", vg_bench_op_name(op),
					impls[i]->name);
				return -1;
			}
			memcpy(fx->ec[c].sig, out, (size_t)len);
			fx->ec[c].sig_len = (size_t)len;
		}
	}
	return 0;
}

/* printf onto the end of buf (cap bytes, *n used so far), truncating. */
static void append(char *buf, size_t cap, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;
	if (*n >= cap)
		return;
	va_start(ap, fmt);
	int r = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n = *n + (size_t)r < cap ? *n + (size_t)r : cap;
}

/* "c" when our variant is the tier asked for (or none was), else
 * "c@adx": the variant that ran, under the tier's masks. */
static void tier_label(char *buf, size_t cap, int op, const vg_bench_tier *t, int ours)
{
	const char *v = vg_kernel_variant(vg_bench_op_family(op));
	if (!ours) /* no kernel of ours: the peers ran the tier asked for */
		snprintf(buf, cap, "%s", t ? t->name : "-");
	else if (t && strcmp(v, t->name) != 0)
		snprintf(buf, cap, "%s@%s", v, t->name);
	else
		snprintf(buf, cap, "%s", v);
}

/* Initialise the chosen peers into rp (column order); those that cannot
 * run are left out with a note in the header, and on stderr once per run.
 * Returns -1 when one must stop the run (VG_BENCH_FATAL). */
static int start_peers(const options *o, vg_bench_fixture *fx, vg_bench_report *rp, int first,
		       char *notes, size_t cap, size_t *nn)
{
	char why[512];
	for (size_t i = 0; i < N_KNOWN; i++) {
		if (!o->peer_on[i])
			continue;
		int r = -1;
		why[0] = 0;
		if (known[i].impl)
			r = known[i].impl->init(fx, o->peer_arg[i], why, sizeof(why));
		else if (o->peer_on[i] == 2) /* a default peer that is not built: no news */
			snprintf(why, sizeof(why), "not built in (no library at build time)");
		else
			continue;
		if (r == VG_BENCH_FATAL) {
			fprintf(stderr, "vgbench: %s: %s\n", known[i].name, why);
			known[i].impl->fini();
			return -1;
		}
		if (r < 0) {
			append(notes, cap, nn, "\n%s: left out: %s", known[i].name, why);
			if (first && !o->tsv) /* with --tsv the header itself goes to stderr */
				fprintf(stderr, "vgbench: %s left out: %s\n", known[i].name, why);
			if (known[i].impl)
				known[i].impl->fini();
			continue;
		}
		rp->peers[rp->n_peers++] = known[i].impl;
	}
	return 0;
}

static int run(const options *o, const regex_t *re)
{
	unsigned part, parts;
	const vg_bench_tier *tier = vg_bench_tier_current(&part, &parts);
	vg_bench_fixture fx;
	vg_bench_report rp = {.tsv = o->tsv, .header = part == 0};
	char why[512] = "", what[2048], notes[1024] = "";
	size_t n = 0, nn = 0;
	int rc = 1;

	if (vg_bench_fixture_init(&fx, o->keydir) < 0) {
		fprintf(stderr, "vgbench: cannot set up the inputs (key path too long?)\n");
		vg_bench_fixture_free(&fx);
		return 1;
	}
	if (vg_bench_ours.init(&fx, NULL, why, sizeof(why)) < 0 || vg_bench_ours_derive(&fx) < 0) {
		fprintf(stderr, "vgbench: vgd set-up: %s\n", why[0] ? why : "RSA private failed");
		goto out_fx;
	}
	if (start_peers(o, &fx, &rp, part == 0, notes, sizeof(notes), &nn) < 0)
		goto out_peers;
	const vg_bench_impl *all[VG_BENCH_MAX_IMPLS] = {&vg_bench_ours};
	for (size_t i = 0; i < rp.n_peers; i++)
		all[i + 1] = rp.peers[i];
	if (make_ecdsa_sigs(&fx, all, rp.n_peers + 1) < 0)
		goto out_peers;

	append(what, sizeof(what), &n, "vgbench %s: vgd %s", VG_VERSION, vg_bench_ours.version());
	for (size_t i = 0; i < rp.n_peers; i++)
		append(what, sizeof(what), &n, "; %s", rp.peers[i]->version());
	if (tier)
		append(what, sizeof(what), &n,
		       "\ntier %s: VG_KERNELS=%s VG_CPU_FEATURES=%s OPENSSL_ia32cap=%s", tier->name,
		       tier->vg_kernels ? tier->vg_kernels : "(unset)",
		       tier->vg_features ? tier->vg_features : "(unset)",
		       tier->ossl_cap ? tier->ossl_cap : "(unset)");
	for (size_t i = 0; i < rp.n_peers; i++)
		if (rp.peers[i]->detail)
			append(what, sizeof(what), &n, "\n%s", rp.peers[i]->detail());
	append(what, sizeof(what), &n, "%s", notes);

	int ops[VG_BENCH_OP_COUNT];
	size_t n_ops = 0;
	for (int op = 0; op < VG_BENCH_OP_COUNT; op++) {
		if (re && regexec(re, vg_bench_op_name(op), 0, NULL, 0) != 0)
			continue;
		if (!re && vg_bench_op_keygen(op))
			continue; /* slow: only when a filter asks for them */
		int any = 0;
		for (size_t i = 0; i <= rp.n_peers; i++)
			any |= vg_bench_has(all[i], op);
		int c = vg_bench_op_ec_index(op);
		if (!any || (c >= 0 && fx.ec[c].sig_len == 0)) {
			fprintf(stderr, "vgbench: %s skipped (no key, or nothing implements it)\n",
				vg_bench_op_name(op));
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
		/* The implementations of op: vgd first when it has it, then the
		 * peers in column order; col[j] is impls[j]'s peer column, or -1
		 * for vgd. */
		const vg_bench_impl *impls[VG_BENCH_MAX_IMPLS];
		int col[VG_BENCH_MAX_IMPLS];
		size_t m = 0;
		for (size_t i = 0; i <= rp.n_peers; i++)
			if (vg_bench_has(all[i], op)) {
				col[m] = (int)i - 1;
				impls[m++] = all[i];
			}
		if (cross_check(impls, m, op, &fx) < 0)
			goto out_peers;
		double med[VG_BENCH_MAX_IMPLS], ours_us = -1, peer_us[VG_BENCH_MAX_IMPLS - 1];
		unsigned rounds;
		if (vg_bench_measure(impls, m, op, &plan, med, &rounds, why, sizeof(why)) < 0) {
			fprintf(stderr, "vgbench: %s\n", why);
			goto out_peers;
		}
		for (size_t i = 0; i < rp.n_peers; i++)
			peer_us[i] = -1;
		for (size_t j = 0; j < m; j++) {
			if (col[j] < 0)
				ours_us = med[j];
			else
				peer_us[col[j]] = med[j];
		}
		char label[32];
		tier_label(label, sizeof(label), op, tier, ours_us >= 0);
		vg_bench_report_row(&rp, vg_bench_op_name(op), label, ours_us, peer_us, rounds);
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
