/* log.h: the daemon's logging (stderr, one line per event, journald-friendly
 * "<N>" priority prefixes). Never pass key material to these functions. */
#ifndef VGD_LOG_H
#define VGD_LOG_H

enum vgd_log_level { VGD_LOG_ERR = 3, VGD_LOG_WARN = 4, VGD_LOG_INFO = 6, VGD_LOG_DEBUG = 7 };

/* Set by the process that owns logging (main) before any child is forked. */
void vgd_log_setup(const char *role, int level);
void vgd_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define vgd_err(...) vgd_log(VGD_LOG_ERR, __VA_ARGS__)
#define vgd_warn(...) vgd_log(VGD_LOG_WARN, __VA_ARGS__)
#define vgd_info(...) vgd_log(VGD_LOG_INFO, __VA_ARGS__)
#define vgd_debug(...) vgd_log(VGD_LOG_DEBUG, __VA_ARGS__)

#endif
