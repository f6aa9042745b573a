/* vecfile.c: see vecfile.h. */
#include "vecfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VEC_MAX_FIELDS 128

struct vg_vecfile {
	char *path;
	char *data; /* whole file, split in place */
	char *pos;
	size_t declared, seen;
	size_t nfields;
	char *names[VEC_MAX_FIELDS];
	char *values[VEC_MAX_FIELDS];
};

static void die(const vg_vecfile *f, const char *why)
{
	fprintf(stderr, "%s: %s\n", f ? f->path : "vector file", why);
	abort();
}

vg_vecfile *vg_vec_open(const char *name)
{
	const char *dir = getenv("VG_VECTOR_DIR");
	vg_vecfile *f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	size_t plen = strlen(dir ? dir : ".") + strlen(name) + 2;
	f->path = malloc(plen);
	if (!f->path)
		abort();
	snprintf(f->path, plen, "%s/%s", dir ? dir : ".", name);
	FILE *fp = fopen(f->path, "rb");
	if (!fp)
		die(f, "cannot open (is VG_VECTOR_DIR set?)");
	if (fseek(fp, 0, SEEK_END) != 0)
		die(f, "cannot seek");
	long n = ftell(fp);
	rewind(fp);
	f->data = malloc((size_t)n + 1);
	if (!f->data || fread(f->data, 1, (size_t)n, fp) != (size_t)n)
		die(f, "cannot read");
	f->data[n] = 0;
	fclose(fp);
	if (sscanf(f->data, "#count %zu", &f->declared) != 1)
		die(f, "missing #count line");
	f->pos = strchr(f->data, '\n');
	f->pos = f->pos ? f->pos + 1 : f->data + n;
	return f;
}

int vg_vec_next(vg_vecfile *f)
{
	f->nfields = 0;
	while (*f->pos == '\n')
		f->pos++;
	if (*f->pos == 0)
		return 0;
	while (*f->pos && *f->pos != '\n') {
		char *line = f->pos;
		char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		f->pos = *end ? end + 1 : end;
		*end = 0;
		char *sp = strchr(line, ' ');
		if (!sp)
			die(f, "line without a value");
		*sp = 0;
		if (f->nfields == VEC_MAX_FIELDS)
			die(f, "too many fields in a record");
		f->names[f->nfields] = line;
		f->values[f->nfields] = sp + 1;
		f->nfields++;
	}
	f->seen++;
	return 1;
}

const char *vg_vec_str(vg_vecfile *f, const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (strcmp(f->names[i], name) == 0)
			return f->values[i];
	return NULL;
}

const char *vg_vec_req(vg_vecfile *f, const char *name)
{
	const char *v = vg_vec_str(f, name);
	if (!v) {
		fprintf(stderr, "%s: record %zu has no field %s\n", f->path, f->seen, name);
		abort();
	}
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

uint8_t *vg_hex_alloc(const char *hex, size_t *len)
{
	size_t n = strlen(hex);
	if (n % 2)
		return NULL;
	uint8_t *out = malloc(n / 2 + 1); /* +1: never malloc(0) */
	if (!out)
		abort();
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return out;
}

int vg_hex_fixed(const char *hex, uint8_t *out, size_t cap)
{
	size_t n;
	uint8_t *b = vg_hex_alloc(hex, &n);
	if (!b)
		return -1;
	size_t skip = 0;
	while (n - skip > cap && b[skip] == 0)
		skip++;
	if (n - skip > cap) {
		free(b);
		return -1;
	}
	memset(out, 0, cap - (n - skip));
	memcpy(out + cap - (n - skip), b + skip, n - skip);
	free(b);
	return 0;
}

uint8_t *vg_vec_hex(vg_vecfile *f, const char *name, size_t *len)
{
	uint8_t *b = vg_hex_alloc(vg_vec_req(f, name), len);
	if (!b)
		die(f, "bad hex");
	return b;
}

long vg_vec_int(vg_vecfile *f, const char *name)
{
	char *end;
	const char *v = vg_vec_req(f, name);
	long x = strtol(v, &end, 10);
	if (*v == 0 || *end)
		die(f, "bad integer");
	return x;
}

int vg_vec_flag(vg_vecfile *f, const char *flag)
{
	const char *v = vg_vec_str(f, "flags");
	size_t fl = strlen(flag);
	while (v && *v) {
		const char *c = strchr(v, ',');
		size_t l = c ? (size_t)(c - v) : strlen(v);
		if (l == fl && memcmp(v, flag, l) == 0)
			return 1;
		v = c ? c + 1 : NULL;
	}
	return 0;
}

size_t vg_vec_seen(const vg_vecfile *f) { return f->seen; }

int vg_vec_close(vg_vecfile *f)
{
	int rc = 0;
	if (f->seen == 0 || f->seen != f->declared) {
		fprintf(stderr, "%s: read %zu records, file declares %zu\n", f->path, f->seen,
			f->declared);
		rc = -1;
	}
	free(f->data);
	free(f->path);
	free(f);
	return rc;
}
