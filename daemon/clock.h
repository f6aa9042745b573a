/* clock.h: the monotonic clock the daemon's processes read (timeouts,
 * latency stats, the keyholder's reply holding, the crash-loop brake).
 * Nothing here is secret. */
#ifndef VGD_CLOCK_H
#define VGD_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t vgd_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static inline uint64_t vgd_now_ms(void) { return vgd_now_us() / 1000u; }

/* Milliseconds from then to now, 0 if then is later: a timestamp taken
 * after now was read (work done between reading the clock and comparing)
 * must not wrap to an age of 584 million years and expire at once. */
static inline uint64_t vgd_ms_since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

#endif
