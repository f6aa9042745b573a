/* supervisor_brake.c: restarting the children that died (see
 * supervisor_internal.h), at once, unless children have died more than
 * BRAKE_BURST times in the last second: then a crash loop is on, and it
 * must not spin the CPU or flood the log, so everything that died waits
 * for one timer: 1 s the first time, doubling up to BRAKE_MAX_S while the
 * loop goes on, back to 1 s when a minute has passed since the last pause
 * without another. */
#include "supervisor_internal.h"

#include <stdlib.h>

#include "clock.h"
#include "log.h"

#define BRAKE_BURST 20 /* restarts in one window before the brake */
#define BRAKE_WINDOW_MS 1000
#define BRAKE_MAX_S 32
#define BRAKE_RESET_MS 60000

/* The window BRAKE_BURST restarts are counted in. vgd-testhooks takes it
 * from VGD_TEST_BRAKE_WINDOW_MS: on a loaded test machine keyholders may
 * not die and restart 20 times within a second, and the crash-loop test
 * is about the brake, not about the machine's speed. */
static long long brake_window_ms(void)
{
#ifdef VGD_TEST_HOOKS
	const char *e = getenv("VGD_TEST_BRAKE_WINDOW_MS");
	long long w = e ? atoll(e) : 0;
	if (w > 0)
		return w;
#endif
	return BRAKE_WINDOW_MS;
}

static void do_restarts(sup *s)
{
	if (s->stopping)
		return;
	if (s->respawn_front) {
		s->respawn_front = 0;
		s->front_restarts++;
		if (vgd_sup_spawn_front(s) < 0)
			vgd_err("cannot restart the front");
		vgd_sup_answer_update(s);
	}
	for (int i = 0; i < s->nslots; i++) {
		if (!s->respawn_slots[i])
			continue;
		s->respawn_slots[i] = 0;
		s->restarts++;
		if (vgd_sup_spawn_keyholder(s, i) < 0)
			vgd_err("cannot restart keyholder %d", i);
	}
	vgd_sup_send_counters(s);
}

int vgd_sup_slot_covered(const sup *s, int slot)
{
	if (s->respawn_slots[slot])
		return 1;
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++) {
		const child *k = &s->kh[i];
		if (k->pid > 0 && k->slot == slot && k->gen == s->gen && !k->orphan && !k->killed)
			return 1;
	}
	return 0;
}

void vgd_sup_on_respawn_timer(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	do_restarts(arg);
}

/* Restart what s->respawn_front and s->respawn_slots name, now or when
 * the brake's pause ends. */
void vgd_sup_restart_later(sup *s)
{
	long long now = (long long)vgd_now_ms();
	if (evtimer_pending(s->respawn_timer, NULL))
		return; /* braking: the timer restarts everything that died */
	if (s->brake_s && now - s->brake_until_ms > BRAKE_RESET_MS)
		s->brake_s = 0; /* stayed up long enough: the loop is over */
	if (now - s->window_start_ms > brake_window_ms()) {
		s->window_start_ms = now;
		s->window_restarts = 0;
	}
	if (++s->window_restarts <= BRAKE_BURST) {
		do_restarts(s);
		return;
	}
	s->brake_s = s->brake_s ? s->brake_s * 2 : 1;
	if (s->brake_s > BRAKE_MAX_S)
		s->brake_s = BRAKE_MAX_S;
	s->brake_until_ms = now + 1000LL * s->brake_s;
	vgd_warn("children are crashing in a loop; restarting them in %d s", s->brake_s);
	struct timeval tv = {s->brake_s, 0};
	evtimer_add(s->respawn_timer, &tv);
}
