/* ops.c: the operations vgload measures, their request inputs (fixed,
 * valid for the test keys) and the clock every measurement uses. Nothing
 * here is secret. */
#include <string.h>
#include <time.h>

#include "vg/proto.h"
#include "vg/x25519.h"
#include "vgload.h"

/* Key names are those of vgload's own config (spawn.c); --socket expects a
 * daemon serving the test keys under the same names. */
const vgl_op vgl_ops[] = {
	/* No key, no kernel: the client <-> front round trip alone, the part
	 * of every request's overhead that is not the keyholder hop. */
	{"ping", "", NULL, VG_OP_PING, 0, 16, 16},
	{"ed25519", "ed", "ed25519.pem", VG_OP_SIGN, VG_ALG_ED25519, 64, 64},
	{"rsa2048-pkcs1", "rsa2048", "rsa2048.pem", VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA256, 32, 256},
	{"rsa2048-pss", "rsa2048", "rsa2048.pem", VG_OP_SIGN, VG_ALG_RSA_PSS_SHA256, 32, 256},
	{"rsa3072-pkcs1", "rsa3072", "rsa3072.pem", VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA256, 32, 384},
	{"rsa3072-pss", "rsa3072", "rsa3072.pem", VG_OP_SIGN, VG_ALG_RSA_PSS_SHA256, 32, 384},
	{"x25519", "x", "x25519.pem", VG_OP_X25519, 0, 32, 32},
	{"rsa2048-private", "rsa2048", "rsa2048.pem", VG_OP_RSA_PRIVATE, 0, 256, 256},
	/* ECDSA over a digest, DER as a TLS server asks (its length varies). */
	{"ecdsa-p256", "ec256", "ecdsa-p256.pem", VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA256, 32, 0},
	{"ecdsa-p384", "ec384", "ecdsa-p384.pem", VG_OP_SIGN, VG_ALG_ECDSA_P384_SHA384, 48, 0},
};
const size_t vgl_nops = sizeof(vgl_ops) / sizeof(vgl_ops[0]);

void vgl_op_data(const vgl_op *op, uint8_t data[VGL_DATA_MAX])
{
	/* A fixed xorshift stream: the same input every run. */
	uint64_t s = 0x9e3779b97f4a7c15u ^ (uint64_t)op->data_len;
	for (size_t i = 0; i < VGL_DATA_MAX; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		data[i] = (uint8_t)s;
	}
	if (op->op == VG_OP_X25519) {
		/* A peer public value of full order: X25519(scalar, 9). */
		uint8_t scalar[VG_X25519_LEN];
		memcpy(scalar, data, sizeof(scalar));
		vg_x25519_base(data, scalar);
	} else if (op->op == VG_OP_RSA_PRIVATE) {
		data[0] = 0; /* below n, whose top bit is set */
	}
}

uint64_t vgl_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
