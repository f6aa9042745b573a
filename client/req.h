/* req.h: request construction with the library's argument checks (req.c).
 * Each returns 0 or VGC_E_INVALID. */
#ifndef VGCLIENT_REQ_H
#define VGCLIENT_REQ_H

#include "internal.h"

VGC_HIDDEN int vgc_req_key(vg_request *rq, uint8_t op, const char *key);
VGC_HIDDEN int vgc_req_sign(vg_request *rq, const char *key, int alg, int format, const void *data,
			    size_t len);
VGC_HIDDEN int vgc_req_tls13(vg_request *rq, const char *key, int role, const void *hash,
			     size_t len);
VGC_HIDDEN int vgc_req_x25519(vg_request *rq, const char *key, const uint8_t peer[32]);
VGC_HIDDEN int vgc_req_rsa(vg_request *rq, const char *key, const void *in, size_t len);

/* The RESULT a successful reply to rq may carry (internal.h, struct
 * vgc_expect). rq is a request these functions built. */
VGC_HIDDEN void vgc_expect_of(const vg_request *rq, struct vgc_expect *e);
/* 1 if a RESULT of len bytes at res fits e, 0 if not. */
VGC_HIDDEN int vgc_expect_ok(const struct vgc_expect *e, const uint8_t *res, size_t len);

#endif
