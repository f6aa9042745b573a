/* report.h: vgbench's output, a human table or TSV rows
 * (op tier ours_us peer peer_us ratio, one row per op and peer). */
#ifndef VG_BENCH_REPORT_H
#define VG_BENCH_REPORT_H

#include <stddef.h>

#include "bench.h"
#include "timing.h"

typedef struct {
	int tsv;
	int header; /* print the TSV header (only the first tier of a run) */
	const vg_bench_impl *peers[VG_BENCH_MAX_IMPLS - 1];
	size_t n_peers;
} vg_bench_report;

/* Title lines (human) or the header line (TSV). what describes the run
 * (versions, tier masks): stdout for the table, stderr with TSV. */
void vg_bench_report_begin(const vg_bench_report *rp, const char *what);
/* One op: ours_us < 0 when vgd does not implement it (its ratios are then
 * left blank), peer_us[i] < 0 when peer i does not. */
void vg_bench_report_row(const vg_bench_report *rp, const char *op, const char *tier,
			 double ours_us, const double *peer_us, unsigned rounds);
/* Footnotes under the table. */
void vg_bench_report_end(const vg_bench_report *rp);

#endif
