/* vgdprov_stats.h: the provider's counters file. When the environment
 * variable VGD_PROVIDER_STATS names a file at provider start-up, the
 * provider keeps its counters in that file (created if missing, shared
 * with mmap, so every process that loads the provider with the same
 * variable adds to the same counters: an nginx's workers, HAProxy). A
 * debugging and benchmarking aid (tests and bench/vghs read it); nothing
 * secret is in it. The layout is this struct, native byte order; a reader
 * checks the magic. */
#ifndef VGDPROV_STATS_H
#define VGDPROV_STATS_H

#include <stdint.h>

#define VG_PROV_STATS_MAGIC "VGDPST1"

enum vg_prov_stat {
	VG_PROV_ST_SYNC = 0,     /* requests made with blocking calls (outside an async job) */
	VG_PROV_ST_ASYNC,        /* requests submitted from inside an async job */
	VG_PROV_ST_PAUSES,       /* ASYNC_pause_job calls while a reply was awaited */
	VG_PROV_ST_INFLIGHT_MAX, /* most async requests pending on one vgd connection at once */
	VG_PROV_ST_WATCHERS,     /* times the vgd connection's watch passed to another job */
	VG_PROV_ST_ABANDONED,    /* async requests whose job was freed before the reply */
	VG_PROV_ST_ERRORS,       /* async requests that completed with an error */
	VG_PROV_ST_SEEN_PAUSES,  /* pauses only to show the server a new descriptor:
				  * the reply had already come (async.c make_seen) */
	VG_PROV_ST_N = 16,
};

typedef struct {
	char magic[8];
	uint64_t v[VG_PROV_ST_N];
} vg_prov_stats_file;

#endif
