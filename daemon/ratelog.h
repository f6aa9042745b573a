/* ratelog.h: rate-limited log events. A client can make the front log
 * (a malformed frame, a denied request, a refused connection, a stalled
 * frame); without a limit a flood of them floods the log. Each kind of
 * event logs its first VGD_RATELOG_BURST lines per VGD_RATELOG_WINDOW_MS;
 * the rest are counted, and when the window ends one summary line says
 * how many were suppressed. The counts stay available for `stats`. The
 * state belongs to whoever holds the vgd_ratelog (the front). Never pass
 * key material. */
#ifndef VGD_RATELOG_H
#define VGD_RATELOG_H

#include <stdint.h>

#define VGD_RATELOG_BURST 10
#define VGD_RATELOG_WINDOW_MS 10000u

typedef struct {
	const char *name;  /* stats: log.suppressed.NAME */
	const char *what;  /* the summary line: "N more suppressed: WHAT ..." */
	int level;         /* VGD_LOG_* of its lines and its summary */
	uint64_t window_start_ms;
	unsigned logged;     /* lines in the current window */
	uint64_t held;       /* suppressed in the current window, not yet summed up */
	uint64_t events;     /* all events of this kind */
	uint64_t suppressed; /* all suppressed lines of this kind */
} vgd_ratelog;

/* A kind with its names and level, counters zero. */
void vgd_ratelog_init(vgd_ratelog *r, const char *name, const char *what, int level);
/* Log one event of this kind (printf-style) unless its window's burst is
 * spent; counted either way. */
void vgd_ratelog_event(vgd_ratelog *r, uint64_t now_ms, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* End a window that is over: its summary line if lines were suppressed.
 * Called on a timer so the summary comes even when the flood stops. */
void vgd_ratelog_tick(vgd_ratelog *r, uint64_t now_ms);

#endif
