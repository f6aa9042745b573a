/* report.c: prints vgbench results as a table or TSV. Ratios are
 * ours / theirs: below 1 means ours is faster; blank ('-') where either
 * side does not have the op. Nothing here is secret. */
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
	char ours[32];
	if (ours_us < 0)
		snprintf(ours, sizeof(ours), "-");
	else
		snprintf(ours, sizeof(ours), "%.2f", ours_us);
	if (rp->tsv) {
		int any = 0;
		for (size_t i = 0; i < rp->n_peers; i++) {
			if (peer_us[i] < 0)
				continue;
			if (ours_us < 0)
				printf("%s\t%s\t-\t%s\t%.2f\t-\n", op, tier, rp->peers[i]->name,
				       peer_us[i]);
			else
				printf("%s\t%s\t%s\t%s\t%.2f\t%.3f\n", op, tier, ours,
				       rp->peers[i]->name, peer_us[i], ours_us / peer_us[i]);
			any = 1;
		}
		if (!any) /* keep our number even without a peer */
			printf("%s\t%s\t%s\t-\t-\t-\n", op, tier, ours);
		fflush(stdout);
		return;
	}
	printf("%-16s %-8s %10s", op, tier, ours);
	for (size_t i = 0; i < rp->n_peers; i++) {
		if (peer_us[i] < 0)
			printf(" %13s %6s", "-", "-");
		else if (ours_us < 0)
			printf(" %13.2f %6s", peer_us[i], "-");
		else
			printf(" %13.2f %6.3f", peer_us[i], ours_us / peer_us[i]);
	}
	printf(" %6u\n", rounds);
	fflush(stdout);
}

void vg_bench_report_end(const vg_bench_report *rp)
{
	int der = 0;
	if (rp->tsv)
		return;
	printf("median us per operation over interleaved rounds%s\n",
	       rp->n_peers ? "; ratio = vgd / peer (< 1: vgd faster)" : "");
	for (size_t i = 0; i < rp->n_peers; i++) {
		const char *name = rp->peers[i]->name;
		if (strcmp(name, "openssl") == 0)
			printf("openssl: EVP API; keypair = import raw seed + export public key; "
			       "rsa private = EVP_PKEY_decrypt RSA_NO_PADDING (CRT, blinding on); "
			       "ecdsa = EVP_PKEY_sign/verify\n");
		if (strcmp(name, "libsodium") == 0)
			printf("libsodium: picks its own code at sodium_init; not restricted by --tier\n");
		if (strcmp(name, "awslc") == 0)
			printf("awslc: its own API through dlsym; "
			       "keypair = ED25519_keypair_from_seed; "
			       "rsa = RSA_sign_raw/RSA_verify_raw RSA_NO_PADDING; "
			       "ecdsa = ECDSA_sign/verify\n");
		der |= rp->peers[i]->check != NULL;
	}
	if (der)
		printf("ecdsa: a SHA-256 (P-256) or SHA-384 (P-384) digest; the peers' DER "
		       "signatures are converted from/to raw r||s in the timed call (~15 ns)\n");
}
