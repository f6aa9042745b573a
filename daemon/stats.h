/* stats.h: the front's counters for the `stats` operation: per-operation
 * counts, errors and latency histograms. Owned by the front. */
#ifndef VGD_STATS_H
#define VGD_STATS_H

#include <stdint.h>

#include "vg/proto.h"

#define VGD_LAT_BUCKETS 64

typedef struct {
	uint64_t count, errors;
	uint64_t lat[VGD_LAT_BUCKETS]; /* log-linear buckets of microseconds */
} vgd_op_stats;

typedef struct {
	vgd_op_stats op[VG_OP_MAX + 1];
	uint64_t connections_total, connections_refused;
	uint64_t queue_max, overloaded;
	uint64_t retries, keyholder_restarts, sandbox_violations;
	uint64_t denied;      /* refused by a key's policy */
	uint64_t unknown_key; /* naming a key the caller cannot see (missing or ACL) */
	uint64_t front_restarts, children_hung, supervisor_dropped; /* the supervisor's */
	uint64_t keyholders_hung; /* keyholders the front gave up on (job_timeout) */
	uint64_t uid_refused;     /* connections refused: max_connections_per_uid */
	uint64_t poisoned; /* requests answered INTERNAL: their keyholders died (MAX_ATTEMPTS) */
	uint64_t malformed; /* frames refused with a closing status */
	uint64_t out_bytes_max; /* peak of the reply buffers' total */
	uint64_t out_paused;    /* pauses for max_reply_buffers */
	/* Jobs handed to a keyholder pinned to the CPU the front ran on at
	 * that moment (local) or not (remote: another CPU, or unpinned). */
	uint64_t dispatch_local, dispatch_remote;
	uint64_t sched_switches; /* the front's SCHED_OTHER <-> SCHED_BATCH changes */
	uint64_t follow_moves, follow_releases; /* front_follow.c: pinned to a
						 * client's CPU; unpinned */
} vgd_stats;

void vgd_stats_record(vgd_stats *s, uint8_t op, int status, uint64_t usec);
/* Latency percentile (0..100) in microseconds from the histogram (upper
 * bound of the bucket). */
uint64_t vgd_stats_percentile(const vgd_op_stats *o, double pct);

#endif
