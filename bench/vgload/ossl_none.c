/* ossl_none.c: vgload without libcrypto: no OpenSSL column. Nothing secret. */
#include <stdio.h>

#include "vgload.h"

vgl_ossl *vgl_ossl_new(const char *dir, char *why, size_t whylen)
{
	(void)dir;
	snprintf(why, whylen, "built without libcrypto");
	return NULL;
}

void vgl_ossl_free(vgl_ossl *o) { (void)o; }

int vgl_ossl_sample(vgl_ossl *o, const vgl_op *op, const uint8_t *data, vgl_sampler *s,
		    uint64_t deadline_ns)
{
	(void)o;
	(void)op;
	(void)data;
	(void)s;
	(void)deadline_ns;
	return -1;
}

const char *vgl_ossl_version(void) { return "none"; }
