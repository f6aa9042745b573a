/* report.c: prints vgbench results as a table or TSV. Ratios are
 * ours / theirs: below 1 means ours is faster. Nothing here is secret. */
#include <stdio.h>
#include <string.h>

#include "report.h"

void vg_bench_report_begin(const vg_bench_report *rp, const char *what)
{
	if (rp->tsv) {
		fprintf(stderr, "%s\n", what);
		if (rp->header)
			printf("op\ttier\tours_us\tpeer\tpeer_us\tratio\n");
		return;
	}
	printf("%s\n", what);
	printf("%-16s %-8s %10s", "op", "tier", "vgd_us");
	for (size_t i = 0; i < rp->n_peers; i++) {
		char h[40];
		snprintf(h, sizeof(h), "%s_us", rp->peers[i]->name);
		printf(" %13s %6s", h, "ratio");
	}
	printf(" %6s\n", "rounds");
}

void vg_bench_report_row(const vg_bench_report *rp, const char *op, const char *tier,
			 double ours_us, const double *peer_us, unsigned rounds)
{
	if (rp->tsv) {
		int any = 0;
		for (size_t i = 0; i < rp->n_peers; i++) {
			if (peer_us[i] < 0)
				continue;
			printf("%s\t%s\t%.2f\t%s\t%.2f\t%.3f\n", op, tier, ours_us, rp->peers[i]->name,
			       peer_us[i], ours_us / peer_us[i]);
			any = 1;
		}
		if (!any) /* keep our number even without a peer */
			printf("%s\t%s\t%.2f\t-\t-\t-\n", op, tier, ours_us);
		fflush(stdout);
		return;
	}
	printf("%-16s %-8s %10.2f", op, tier, ours_us);
	for (size_t i = 0; i < rp->n_peers; i++) {
		if (peer_us[i] < 0)
			printf(" %13s %6s", "-", "-");
		else
			printf(" %13.2f %6.3f", peer_us[i], ours_us / peer_us[i]);
	}
	printf(" %6u\n", rounds);
	fflush(stdout);
}

void vg_bench_report_end(const vg_bench_report *rp)
{
	if (rp->tsv)
		return;
	printf("median us per operation over interleaved rounds%s\n",
	       rp->n_peers ? "; ratio = vgd / peer (< 1: vgd faster)" : "");
	for (size_t i = 0; i < rp->n_peers; i++) {
		if (strcmp(rp->peers[i]->name, "openssl") == 0)
			printf("openssl: EVP API; keypair = import raw seed + export public key; "
			       "rsa private = EVP_PKEY_decrypt RSA_NO_PADDING (CRT, blinding on)\n");
		if (strcmp(rp->peers[i]->name, "libsodium") == 0)
			printf("libsodium: picks its own code at sodium_init; not restricted by --tier\n");
	}
}
