/* rsa_testutil.c: see rsa_testutil.h. */
#include "rsa_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hex_fields[8] = {
	"privateKey.modulus",   "privateKey.publicExponent", "privateKey.privateExponent",
	"privateKey.prime1",    "privateKey.prime2",         "privateKey.exponent1",
	"privateKey.exponent2", "privateKey.coefficient",
};
static const char *const jwk_fields[8] = {
	"privateKeyJwk.n",  "privateKeyJwk.e",  "privateKeyJwk.d",  "privateKeyJwk.p",
	"privateKeyJwk.q",  "privateKeyJwk.dp", "privateKeyJwk.dq", "privateKeyJwk.qi",
};

static void set_view(trsa_parts *t, size_t len[8])
{
	vg_rsa_key_parts *p = &t->parts;

	p->n = t->buf[0], p->n_len = len[0];
	p->e = t->buf[1], p->e_len = len[1];
	p->d = t->buf[2], p->d_len = len[2];
	p->p = t->buf[3], p->p_len = len[3];
	p->q = t->buf[4], p->q_len = len[4];
	p->dp = t->buf[5], p->dp_len = len[5];
	p->dq = t->buf[6], p->dq_len = len[6];
	p->qinv = t->buf[7], p->qinv_len = len[7];
}

void trsa_parts_hex(trsa_parts *t, vg_vecfile *f)
{
	size_t len[8];

	for (int i = 0; i < 8; i++)
		t->buf[i] = vg_vec_hex(f, hex_fields[i], &len[i]);
	set_view(t, len);
}

int trsa_parts_jwk(trsa_parts *t, vg_vecfile *f)
{
	size_t len[8];

	for (int i = 0; i < 8; i++)
		if (!vg_vec_str(f, jwk_fields[i]))
			return -1;
	for (int i = 0; i < 8; i++)
		t->buf[i] = trsa_b64url(vg_vec_str(f, jwk_fields[i]), &len[i]);
	set_view(t, len);
	return 0;
}

void trsa_parts_free(trsa_parts *t)
{
	for (int i = 0; i < 8; i++) {
		free(t->buf[i]);
		t->buf[i] = NULL;
	}
}

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

uint8_t *trsa_b64url(const char *s, size_t *len)
{
	size_t n = strlen(s);
	uint8_t *out = malloc(n * 3 / 4 + 1);
	uint32_t acc = 0;
	int bits = 0;
	size_t o = 0;

	if (!out)
		abort();
	for (size_t i = 0; i < n && s[i] != '='; i++) {
		int v = b64val(s[i]);
		if (v < 0) {
			fprintf(stderr, "bad base64url: %s\n", s);
			abort();
		}
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	*len = o;
	return out;
}

int trsa_hash_alg(const char *name)
{
	if (strcmp(name, "SHA-256") == 0)
		return VG_HASH_SHA256;
	if (strcmp(name, "SHA-384") == 0)
		return VG_HASH_SHA384;
	if (strcmp(name, "SHA-512") == 0)
		return VG_HASH_SHA512;
	return 0;
}

vg_rsa_key *trsa_key_new(const vg_rsa_key_parts *parts, int *rc)
{
	vg_rsa_key *key = malloc(vg_rsa_key_size());

	if (!key)
		abort();
	*rc = vg_rsa_key_init(key, parts);
	if (*rc != 0) {
		free(key);
		return NULL;
	}
	return key;
}

void trsa_key_free(vg_rsa_key *key)
{
	if (key) {
		vg_rsa_key_wipe(key);
		free(key);
	}
}

vg_rsa_key *trsa_key_from_file(const char *name)
{
	vg_vecfile *f = vg_vec_open(name);
	trsa_parts t;
	vg_rsa_key *key;
	int rc;

	if (!vg_vec_next(f))
		abort();
	trsa_parts_hex(&t, f);
	key = trsa_key_new(&t.parts, &rc);
	trsa_parts_free(&t);
	if (!key) {
		fprintf(stderr, "%s: key does not load (%d)\n", name, rc);
		abort();
	}
	/* Not every record is read: this helper only wants a key. */
	while (vg_vec_next(f))
		;
	if (vg_vec_close(f) != 0)
		abort();
	return key;
}

uint64_t trsa_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void trsa_rand_bytes(uint64_t *state, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)trsa_rand(state);
}
