/* vecfile.h: reader for the flattened vector files made by
 * tests/tools/vec2txt.py ("name value" lines, blank line between records,
 * first line "#count N"). Test-only: aborts on malformed files. */
#ifndef VG_TEST_VECFILE_H
#define VG_TEST_VECFILE_H

#include <stddef.h>
#include <stdint.h>

typedef struct vg_vecfile vg_vecfile;

/* Open a vector file by name relative to $VG_VECTOR_DIR (set by meson). */
vg_vecfile *vg_vec_open(const char *name);
/* Advance to the next record: 1 if there is one, 0 at the end. */
int vg_vec_next(vg_vecfile *f);
/* Field of the current record, or NULL. */
const char *vg_vec_str(vg_vecfile *f, const char *name);
/* Field that must exist (aborts otherwise). */
const char *vg_vec_req(vg_vecfile *f, const char *name);
/* Hex field decoded into a fresh malloc'd buffer; *len gets its length. */
uint8_t *vg_vec_hex(vg_vecfile *f, const char *name, size_t *len);
/* Integer field. */
long vg_vec_int(vg_vecfile *f, const char *name);
/* 1 if the comma list in "flags" contains flag. */
int vg_vec_flag(vg_vecfile *f, const char *flag);
/* Records read so far. */
size_t vg_vec_seen(const vg_vecfile *f);
/* Close; fails (returns -1, prints why) unless the file held at least one
 * record and every declared record was read. */
int vg_vec_close(vg_vecfile *f);

/* Decode a hex string into out (exactly cap bytes after stripping leading
 * zero bytes beyond cap, left-padding with zeros). Returns 0 or -1. */
int vg_hex_fixed(const char *hex, uint8_t *out, size_t cap);
/* Decode hex into a fresh buffer. */
uint8_t *vg_hex_alloc(const char *hex, size_t *len);

#endif
