/* front_sched.c: the front's scheduling policy (see front_internal.h).
 * SCHED_OTHER while vgd has CPU to spare, SCHED_BATCH while every CPU has
 * a busy keyholder.
 *
 * Saturated, every reply and request wakes the front, and as SCHED_OTHER
 * each wake-up preempted a keyholder: two context switches per request,
 * more than the front's own work (vgload, RSA-2048 4x8 on 2 cores: the
 * keyholders got 1.45 of the 2 cores). A SCHED_BATCH task never preempts
 * on wake-up: it runs when a CPU is free or at the next tick and handles
 * what arrived meanwhile in one pass (the keyholders got 1.75 cores).
 * But not saturated, a SCHED_BATCH front woken on a CPU that other work
 * keeps busy (a web server's workers) waits for that tick: 4 ms on a
 * HZ=250 kernel, measured as 1x1 p50 of ~4 ms for ping, Ed25519 and
 * RSA-2048 whenever the front and its client were on different busy CPUs
 * (daemon/DESIGN-cpu.md), against 50-80 us as SCHED_OTHER. So the front
 * switches: to SCHED_BATCH when a dispatch leaves as many keyholders busy
 * as there are CPUs and some job waiting behind another (one request per
 * keyholder is not saturation: vgd on one CPU serving one client would
 * count as saturated by every request), back to SCHED_OTHER once that
 * has not happened for SCHED_HOLD_MS (checked at the tick), so a
 * saturated front switches once, and a load on the edge at most a few
 * times a second. A filter
 * that refuses the call (systemd's SystemCallFilter=) leaves the policy
 * as it is, said once in the log. Nothing secret. */
#include "front_internal.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

#include "log.h"

#define SCHED_HOLD_MS 200

static void set_policy(front *f, int batch)
{
	struct sched_param sp = {.sched_priority = 0};
	if (sched_setscheduler(0, batch ? SCHED_BATCH : SCHED_OTHER, &sp) < 0) {
		vgd_info("front keeps its scheduling policy (sched_setscheduler: %s)",
			 strerror(errno));
		f->sched_fixed = 1;
		return;
	}
	f->batch = batch;
	f->stats.sched_switches++;
}

void vgd_front_sched_dispatched(front *f)
{
	if (f->sched_fixed)
		return;
	int busy = 0;
	size_t jobs = 0;
	for (int i = 0; i < f->nkh; i++)
		if (f->kh[i] && f->kh[i]->out.len > 0) {
			busy++;
			jobs += f->kh[i]->out.len;
		}
	if (busy < f->ncpus || jobs <= (size_t)busy)
		return;
	f->batch_until_ms = vgd_now_ms() + SCHED_HOLD_MS;
	if (!f->batch) {
		set_policy(f, 1);
		/* Saturated: the front may have to run wherever a CPU frees up. */
		vgd_front_follow_release(f);
	}
}

void vgd_front_sched_tick(front *f, uint64_t now_ms)
{
	if (f->batch && !f->sched_fixed && now_ms >= f->batch_until_ms)
		set_policy(f, 0);
}
