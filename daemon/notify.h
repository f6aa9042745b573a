/* notify.h: the sd_notify protocol ($NOTIFY_SOCKET datagrams), written
 * here rather than pulling in libsystemd for one sendto(). */
#ifndef VGD_NOTIFY_H
#define VGD_NOTIFY_H

/* Send msg ("READY=1", "RELOADING=1", ...) if $NOTIFY_SOCKET is set.
 * Returns 1 if sent, 0 if not under a notify-aware manager, <0 on error. */
int vgd_notify(const char *msg);

#endif
