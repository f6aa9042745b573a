/* log.c: see log.h. Each process has its role name in every line. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* Owned by this file: written once per process before logging starts. */
static const char *log_role = "vgd";
static int log_level = VGD_LOG_INFO;

void vgd_log_setup(const char *role, int level)
{
	log_role = role;
	log_level = level;
}

void vgd_log(int level, const char *fmt, ...)
{
	if (level > log_level)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(line, sizeof(line), "<%d>vgd[%ld] %s: ", level, (long)getpid(), log_role);
	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* One write per line so lines from several processes do not interleave. */
	size_t len = 0;
	while (len < sizeof(line) - 2 && line[len])
		len++;
	line[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, line, len);
	(void)w;
}
