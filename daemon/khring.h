/* khring.h: the shared memory between the front and one keyholder, in
 * place of a socket's buffers. Two single-producer rings of fixed-size
 * slots: requests (the front writes, the keyholder reads) and replies
 * (the keyholder writes, the front reads). A memfd the supervisor makes
 * for each keyholder; the keyholder maps it before its sandbox, the front
 * gets it with the keyholder's channel (record.h, VGD_CTL_KH_RING).
 *
 * Why: a request handed over a socket costs a system call on each side
 * for the bytes (sendmmsg, recvmmsg), and those calls are what let a
 * keyholder pass descriptors (seccomp cannot see a message's ancillary
 * data). With the rings the bytes move by memcpy, the keyholder sleeps
 * on a futex that the front rings only while it sleeps, and the
 * keyholder's only calls on the channel socket carry no ancillary data:
 * write (a one-byte doorbell to the front, which sleeps in epoll) and
 * recvfrom (to see the front close the channel). The socket stays for
 * that: the front learns of a dead keyholder from its EOF, and the
 * keyholder of a closed channel from its own.
 *
 * Trust: each side treats the other's writes as untrusted. An index read
 * from the ring is reduced modulo the ring size before use; a slot's
 * length is read once and bounded; a record is copied into the reader's
 * own memory before it is checked (record.h's checks then apply to that
 * copy), so a writer that changes a slot while it is read can only make
 * its own request or reply invalid. The rings carry no key material;
 * reply slots can hold X25519 shared values, which the front wipes as it
 * takes them. */
#ifndef VGD_KHRING_H
#define VGD_KHRING_H

#include <stdatomic.h>
#include <stdint.h>

#include "record.h"

/* Slots per ring: the most jobs the front keeps on one keyholder, so
 * neither ring can fill while both sides follow the protocol (a request
 * slot is free once the keyholder took it; a reply waits in its ring only
 * for a job the front still counts). */
#define VGD_KH_RING VGD_KH_DEPTH
_Static_assert((VGD_KH_RING & (VGD_KH_RING - 1)) == 0, "ring indices wrap by masking");

typedef struct {
	uint32_t len; /* bytes of rec in use */
	uint32_t pad[15];
	uint8_t rec[VGD_KREQ_MAX];
} vgd_khreq_slot;

typedef struct {
	uint32_t len;
	uint32_t pad[15];
	uint8_t rec[VGD_KREP_MAX];
} vgd_khrep_slot;

/* Counters run freely (uint32_t wraps); a ring holds head - tail slots.
 * Each counter sits on its own cache line: one writer per line. */
typedef struct {
	_Alignas(64) atomic_uint req_head; /* front: requests published */
	_Alignas(64) atomic_uint req_tail; /* keyholder: requests taken */
	/* 1 while the keyholder waits (or is about to wait) on req_head:
	 * the front then wakes it after publishing. */
	atomic_uint kh_asleep;
	_Alignas(64) atomic_uint rep_head; /* keyholder: replies published */
	/* 1 once the keyholder has rung the front's doorbell and the front
	 * has not yet looked: later replies need no second ring. */
	atomic_uint rung;
	_Alignas(64) atomic_uint rep_tail; /* front: replies taken */
	/* The front closes the channel: the keyholder answers what it took
	 * and exits. */
	atomic_uint closing;
	_Alignas(64) vgd_khreq_slot req[VGD_KH_RING];
	vgd_khrep_slot rep[VGD_KH_RING];
} vgd_khring;

#define VGD_KHRING_SIZE (((sizeof(vgd_khring) + 4095) / 4096) * 4096)

/* Wake the keyholder waiting on r->req_head (the front's side). */
void vgd_khring_wake(vgd_khring *r);
/* Wait until r->req_head differs from seen or timeout_ms pass (the
 * keyholder's side). 0, or -1 on a timeout or an interruption. */
int vgd_khring_wait(vgd_khring *r, unsigned seen, int timeout_ms);

/* The front's side of the doorbell, when fd (the channel socket) is
 * readable: take its byte, then clear r->rung; the caller then takes every
 * published reply. In that order: a doorbell drained here was rung
 * before the clear, for replies published before it, which the caller
 * sees; a reply published after the clear finds rung 0 and rings again,
 * and that doorbell waits in the socket for the next pass. (Clearing
 * first loses wake-ups: a doorbell rung between the clear and the drain
 * is drained, rung stays 1, and the replies after it ring nothing.) 0,
 * or -1 if the channel is closed or broken. */
int vgd_khring_doorbell(vgd_khring *r, int fd);

/* The supervisor's side: a new region as a memfd, zeroed; -1 on error. */
int vgd_khring_create(void);
/* Map a region's memfd (the keyholder before its sandbox, the front
 * when a channel arrives); NULL on error. The descriptor can be closed
 * afterwards. */
vgd_khring *vgd_khring_map(int mfd);
void vgd_khring_unmap(vgd_khring *r);

#endif
