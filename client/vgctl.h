/* vgctl.h: shared pieces of the vgctl command-line tool: exit codes,
 * output formats (vgctl_fmt.c) and the bench command (vgctl_bench.c). */
#ifndef VGCTL_H
#define VGCTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vg/proto_tables.h" /* names and rules (vgctl links the protocol's tables) */
#include "vg/proto_x509.h"   /* SubjectPublicKeyInfo, DER headers */
#include "vgclient.h"

/* Exit codes (also in --help). */
enum { EX_OK = 0, EX_DAEMON = 1, EX_CONNECT = 2, EX_USAGE = 64, EX_INPUT = 65 };

/* Output encodings for binary results. */
enum { OUT_RAW, OUT_HEX, OUT_BASE64, OUT_PEM };

/* Exit code and message for a library error. */
int vgctl_fail(vg_client *c, int err);

void vgctl_hex(FILE *f, const uint8_t *p, size_t n);
void vgctl_base64(FILE *f, const uint8_t *p, size_t n, int wrap);
/* s as a JSON string literal, quotes included. */
void vgctl_json_str(FILE *f, const char *s);
/* Parse exactly cap bytes of hex (whitespace allowed between digits);
 * returns the number of bytes, or -1. */
long vgctl_unhex(const char *s, size_t slen, uint8_t *out, size_t cap);
/* DER SubjectPublicKeyInfo of a key the daemon described (the
 * protocol's vg_spki_encode) into out (VG_SPKI_MAX bytes); its length, or
 * 0 for a key type or public value it cannot encode. */
size_t vgctl_spki(const vgc_key_info *k, uint8_t out[VG_SPKI_MAX]);
/* Write buf in enc (PEM uses label) to f. */
void vgctl_emit(FILE *f, int enc, const uint8_t *p, size_t n, const char *pem_label);

/* The genkey command (argv[0] is "genkey"; vgctl_genkey.c). */
int vgctl_genkey(vg_client *c, int argc, char **argv);
/* The csr command (argv[0] is "csr"; vgctl_csr.c). */
int vgctl_csr(vg_client *c, int argc, char **argv);

/* The bench command (argv[0] is "bench"). */
int vgctl_bench(vg_client *c, int json, int argc, char **argv);

#endif
