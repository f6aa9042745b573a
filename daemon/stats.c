/* stats.c: see stats.h. Buckets: 4 per power of two (about 19 % wide),
 * so percentiles are within a bucket's width of the truth. */
#include "stats.h"

static unsigned bucket_of(uint64_t us)
{
	if (us < 4)
		return (unsigned)us;
	unsigned msb = 63u - (unsigned)__builtin_clzll(us);
	unsigned b = 4 * (msb - 1) + (unsigned)((us >> (msb - 2)) & 3);
	return b < VGD_LAT_BUCKETS ? b : VGD_LAT_BUCKETS - 1;
}

static uint64_t bucket_upper(unsigned b)
{
	if (b < 4)
		return b;
	unsigned msb = b / 4 + 1, sub = b % 4;
	return ((uint64_t)(4 + sub + 1) << (msb - 2)) - 1;
}

void vgd_stats_record(vgd_stats *s, uint8_t op, int status, uint64_t usec)
{
	if (op > VG_OP_MAX)
		op = 0;
	vgd_op_stats *o = &s->op[op];
	o->count++;
	if (status != VG_ST_OK)
		o->errors++;
	o->lat[bucket_of(usec)]++;
}

uint64_t vgd_stats_percentile(const vgd_op_stats *o, double pct)
{
	uint64_t total = 0;
	for (unsigned i = 0; i < VGD_LAT_BUCKETS; i++)
		total += o->lat[i];
	if (total == 0)
		return 0;
	uint64_t want = (uint64_t)((double)total * pct / 100.0 + 0.5), seen = 0;
	if (want == 0)
		want = 1;
	for (unsigned i = 0; i < VGD_LAT_BUCKETS; i++) {
		seen += o->lat[i];
		if (seen >= want)
			return bucket_upper(i);
	}
	return bucket_upper(VGD_LAT_BUCKETS - 1);
}
