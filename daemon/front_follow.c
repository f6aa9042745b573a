/* front_follow.c: the front moves to the CPU its clients run on (see
 * front_internal.h, daemon/DESIGN-cpu.md).
 *
 * On a machine with idle CPUs the kernel keeps each sleeping process on
 * the CPU it last ran on, so a client and the front, once apart, stay
 * apart, and every request wakes an idle CPU twice (client -> front and
 * front -> client): ping p50 44-65 us against 11 us with both on one CPU
 * on the Zen 4 VM (bench/vgsplit). Clients that send the CLIENT_CPU hint
 * (PROTOCOL.md 6.10; libvgclient does) say where they run. When
 * FOLLOW_STREAK requests in a row name the same CPU, not the front's, and
 * vgd is not saturated, the front pins itself to that CPU; the dispatch
 * then finds the keyholder pinned there (front_dispatch.c), and the
 * whole request stays on one CPU. It moves at most once per
 * FOLLOW_GAP_MS, so clients on several CPUs cannot make it bounce; when
 * vgd saturates (front_sched.c) it lets go of the pin, so that it can
 * run wherever a CPU is free. A hint for a CPU outside the mask the front
 * started with is ignored. follow_clients = no turns it off. It serves
 * clients that stay on their CPU while they wait: pinned ones, and
 * libvgclient's blocking calls, which spin before they sleep; a client
 * that sleeps at once on an idle machine is moved away from the front
 * again by the kernel (measured with bench/vgsplit, daemon/DESIGN-cpu.md).
 * Busy polling (busy_poll_us) turns it off too: a polling front would
 * take the CPU its client needs.
 * Nothing secret. */
#include "front_internal.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

#include "log.h"

#define FOLLOW_STREAK 4
#define FOLLOW_GAP_MS 20

void vgd_front_follow_init(front *f)
{
	f->follow_cpu = -1;
	f->follow_cand = -1;
	if (sched_getaffinity(0, sizeof(f->follow_mask), &f->follow_mask) < 0) {
		vgd_info("front does not follow its clients (sched_getaffinity: %s)",
			 strerror(errno));
		f->follow_fixed = 1;
	}
}

static int pin(front *f, const cpu_set_t *set)
{
	if (sched_setaffinity(0, sizeof(*set), set) == 0)
		return 0;
	/* A filter outside ours (systemd's SystemCallFilter=) or a cpuset
	 * that shrank: stay where we are, say so once. */
	vgd_info("front stops following its clients (sched_setaffinity: %s)", strerror(errno));
	f->follow_fixed = 1;
	return -1;
}

void vgd_front_follow_hint(front *f, uint32_t cpu)
{
	/* A busy-polling front wants a CPU of its own: on its client's, it
	 * would take the CPU the client needs. */
	if (!f->lim.follow_clients || f->lim.busy_poll_us > 0 || f->follow_fixed || f->batch)
		return;
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &f->follow_mask))
		return;
	if ((int)cpu == f->follow_cpu) {
		f->follow_streak = 0;
		return;
	}
	if ((int)cpu != f->follow_cand) {
		f->follow_cand = (int)cpu;
		f->follow_streak = 0;
	}
	if (++f->follow_streak < FOLLOW_STREAK)
		return;
	uint64_t now = vgd_now_ms();
	if (f->follow_cpu >= 0 && vgd_ms_since(now, f->follow_moved_ms) < FOLLOW_GAP_MS)
		return;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (pin(f, &one) < 0)
		return;
	f->follow_cpu = (int)cpu;
	f->follow_streak = 0;
	f->follow_moved_ms = now;
	f->stats.follow_moves++;
}

void vgd_front_follow_release(front *f)
{
	if (f->follow_cpu < 0)
		return;
	if (pin(f, &f->follow_mask) < 0)
		return;
	f->follow_cpu = -1;
	f->follow_cand = -1;
	f->follow_streak = 0;
	f->stats.follow_releases++;
}
