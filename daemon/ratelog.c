/* ratelog.c: see ratelog.h. */
#include "ratelog.h"

#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "log.h"

void vgd_ratelog_init(vgd_ratelog *r, const char *name, const char *what, int level)
{
	*r = (vgd_ratelog){ .name = name, .what = what, .level = level };
}

void vgd_ratelog_tick(vgd_ratelog *r, uint64_t now_ms)
{
	if (vgd_ms_since(now_ms, r->window_start_ms) < VGD_RATELOG_WINDOW_MS)
		return;
	if (r->held != 0)
		vgd_log(r->level, "%llu more suppressed: %s (at most %d lines per %u s)",
			(unsigned long long)r->held, r->what, VGD_RATELOG_BURST,
			VGD_RATELOG_WINDOW_MS / 1000u);
	r->held = 0;
	r->logged = 0;
	r->window_start_ms = now_ms;
}

void vgd_ratelog_event(vgd_ratelog *r, uint64_t now_ms, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	vgd_ratelog_tick(r, now_ms); /* a new window starts with its summary */
	r->events++;
	if (r->logged >= VGD_RATELOG_BURST) {
		r->held++;
		r->suppressed++;
		return;
	}
	r->logged++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	vgd_log(r->level, "%s", line);
}
