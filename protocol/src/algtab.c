/* algtab.c: the algorithm, key type and digest tables (vg/proto_tables.h).
 * Nothing here is secret.
 *
 * Adding a signature algorithm (for a key type vgd already loads):
 *   1. protocol/include/vg/proto.h: its VG_ALG_* value (raise VG_ALG_MAX);
 *   2. the row below;
 *   3. daemon/keyops.c: the kernel call, in the sign entry point its key
 *      type's daemon row names (vgd_kt_*_sign, daemon/keytype.c), if its
 *      key type and padding do not have one yet;
 *   4. client/vgclient.h: the VGC_ALG_* constant of the public API;
 *   5. protocol/PROTOCOL.md 4.2: its line;
 *   6. the tests' own lists, written from the specifications, which fail
 *      until they have it: tests/protocol/test_tables.c (test_alg_spec),
 *      tests/client/test_client_tables.c (test_alg_constants), and the
 *      OpenSSL oracle tests/integration/verify.c (vt_verify).
 * Everything else (the codec's DATA rule, the policy and key-type checks,
 * TLS 1.3 mode, vgctl's names, --help and --hash, vgctl bench's default,
 * the provider's choice of algorithm, the table walks in the tests)
 * reads the row.
 * A new key type is its kernel and two rows: its VG_KEY_* value (raise
 * VG_KEY_MAX) and row here (with a VG_CAP_* bit and its name in optab.c
 * unless it shares one, as the ECDSA curves do), and its daemon row
 * (daemon/keytype.c: secret size, loader, public description, wipe,
 * kernel calls, batch family, slow flag, generate). Outside those rows,
 * each for the reason CONTRIBUTING.md "Adding a key type" gives: its OID
 * in daemon/keyfile.c (named_curves[] or rfc8410_algs[]; the fuzz target
 * builds that parser without the kernels), a batch family in
 * daemon/khbatch.c only for a new multi-buffer kernel, VGC_KEY_* in
 * vgclient.h (asserted in client/client.c), its SubjectPublicKeyInfo
 * (protocol/src/spki.c fixed_spki[]; RSA's is built) and, if it signs,
 * its csr_rows[] row below (with that signature's AlgorithmIdentifier),
 * PROTOCOL.md
 * 4.1 and 6.9, the list in tests/daemon/test_keytype.c and, to be used
 * from OpenSSL, a key manager and signature in provider/. */
#include <string.h>

#include "vg/proto_tables.h"
#include "vg/proto_x509.h"

static const char unknown_name[] = "unknown";

/* ---- digests ---- */

static const uint8_t digest_lens[VG_DIGEST_MAX + 1] = {
	[VG_DIGEST_SHA256] = 32,
	[VG_DIGEST_SHA384] = 48,
	[VG_DIGEST_SHA512] = 64,
};

size_t vg_digest_len(int digest)
{
	if (digest <= 0 || digest > VG_DIGEST_MAX)
		return 0;
	return digest_lens[digest];
}

int vg_digest_from_len(size_t len)
{
	for (int d = 1; d <= VG_DIGEST_MAX; d++)
		if (len != 0 && digest_lens[d] == len)
			return d;
	return VG_DIGEST_NONE;
}

/* ---- signature algorithms ----
 * TLS 1.3 SignatureScheme codes (RFC 8446 4.2.3): ed25519 0x0807,
 * rsa_pss_rsae_sha256/384/512 0x0804/0x0805/0x0806,
 * ecdsa_secp256r1_sha256 0x0403, ecdsa_secp384r1_sha384 0x0503. PKCS#1
 * v1.5 has codes too (0x0401...) but TLS 1.3 forbids it in
 * CertificateVerify: 0 here. TLS 1.3 binds an ECDSA curve to one hash, so
 * only the curve's own hash has a scheme; the other ECDSA rows exist for
 * TLS 1.2, where a client may ask for any hash with any curve (OpenSSL's
 * clients offer (SHA-256, ECDSA) first, whatever the server's curve).
 * Indexed by wire value: a row is looked up for every request. */
#define RSA(id, nm, dg, pd, tls) \
	[id] = { id, nm, VG_KEY_RSA, dg, pd, VG_DATA_DIGEST, tls, VG_ALLOW_SIGN, 0 }
#define ECDSA(id, nm, key, dg, tls) \
	[id] = { id, nm, key, dg, VG_PAD_NONE, VG_DATA_DIGEST, tls, VG_ALLOW_SIGN, 1 }
static const vg_alg_info algs[VG_ALG_MAX + 1] = {
	[VG_ALG_ED25519] = { VG_ALG_ED25519, "ed25519", VG_KEY_ED25519, VG_DIGEST_NONE,
			     VG_PAD_NONE, VG_DATA_MESSAGE, 0x0807, VG_ALLOW_SIGN, 0 },
	RSA(VG_ALG_RSA_PKCS1_SHA256, "rsa-pkcs1-sha256", VG_DIGEST_SHA256, VG_PAD_PKCS1, 0),
	RSA(VG_ALG_RSA_PKCS1_SHA384, "rsa-pkcs1-sha384", VG_DIGEST_SHA384, VG_PAD_PKCS1, 0),
	RSA(VG_ALG_RSA_PKCS1_SHA512, "rsa-pkcs1-sha512", VG_DIGEST_SHA512, VG_PAD_PKCS1, 0),
	RSA(VG_ALG_RSA_PSS_SHA256, "rsa-pss-sha256", VG_DIGEST_SHA256, VG_PAD_PSS, 0x0804),
	RSA(VG_ALG_RSA_PSS_SHA384, "rsa-pss-sha384", VG_DIGEST_SHA384, VG_PAD_PSS, 0x0805),
	RSA(VG_ALG_RSA_PSS_SHA512, "rsa-pss-sha512", VG_DIGEST_SHA512, VG_PAD_PSS, 0x0806),
	/* The mode, not a scheme: the key's TLS 1.3 row signs the content. */
	[VG_ALG_TLS13] = { VG_ALG_TLS13, "tls13", 0, VG_DIGEST_NONE, VG_PAD_NONE,
			   VG_DATA_TLS13_HASH, 0, VG_ALLOW_SIGN_TLS13, 0 },
	ECDSA(VG_ALG_ECDSA_P256_SHA256, "ecdsa-p256-sha256", VG_KEY_ECDSA_P256, VG_DIGEST_SHA256,
	      0x0403),
	ECDSA(VG_ALG_ECDSA_P384_SHA384, "ecdsa-p384-sha384", VG_KEY_ECDSA_P384, VG_DIGEST_SHA384,
	      0x0503),
	ECDSA(VG_ALG_ECDSA_P256_SHA384, "ecdsa-p256-sha384", VG_KEY_ECDSA_P256, VG_DIGEST_SHA384, 0),
	ECDSA(VG_ALG_ECDSA_P256_SHA512, "ecdsa-p256-sha512", VG_KEY_ECDSA_P256, VG_DIGEST_SHA512, 0),
	ECDSA(VG_ALG_ECDSA_P384_SHA256, "ecdsa-p384-sha256", VG_KEY_ECDSA_P384, VG_DIGEST_SHA256, 0),
	ECDSA(VG_ALG_ECDSA_P384_SHA512, "ecdsa-p384-sha512", VG_KEY_ECDSA_P384, VG_DIGEST_SHA512, 0),
	/* A mode too: the key's csr row (vg_alg_csr) signs the request.
	 * tls13's bit, which the config's `sign` sets as well, so a key
	 * allowed either may: the keyholder signs only a request for this
	 * very key (vg_csr_info_check), which no TLS 1.3 peer takes for
	 * CertificateVerify content, so it widens neither policy. */
	[VG_ALG_CSR] = { VG_ALG_CSR, "csr", 0, VG_DIGEST_NONE, VG_PAD_NONE, VG_DATA_CSR_INFO, 0,
			 VG_ALLOW_SIGN_TLS13, 0 },
};
#undef RSA
#undef ECDSA

const vg_alg_info *vg_alg_at(size_t i)
{
	/* The i-th row present, in wire order (the index may have gaps). */
	for (int a = 1; a <= VG_ALG_MAX; a++)
		if (algs[a].alg == a && i-- == 0)
			return &algs[a];
	return NULL;
}

const vg_alg_info *vg_alg_get(int alg)
{
	if (alg <= 0 || alg > VG_ALG_MAX || algs[alg].alg != alg)
		return NULL;
	return &algs[alg];
}

const char *vg_alg_name(int alg)
{
	const vg_alg_info *a = vg_alg_get(alg);

	return a ? a->name : unknown_name;
}

int vg_alg_from_name(const char *name)
{
	const vg_alg_info *a;

	if (name == NULL)
		return 0;
	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++)
		if (strcmp(name, a->name) == 0)
			return a->alg;
	return 0;
}

size_t vg_alg_digest_len(int alg)
{
	const vg_alg_info *a = vg_alg_get(alg);

	return a != NULL && a->data == VG_DATA_DIGEST ? vg_digest_len(a->digest) : 0;
}

int vg_alg_data_len_ok(int alg, size_t len)
{
	const vg_alg_info *a = vg_alg_get(alg);

	if (a == NULL)
		return 0;
	switch (a->data) {
	case VG_DATA_MESSAGE: return len <= VG_PROTO_MAX_DATA;
	case VG_DATA_DIGEST: return len == vg_digest_len(a->digest);
	case VG_DATA_TLS13_HASH: return vg_digest_from_len(len) != VG_DIGEST_NONE;
	case VG_DATA_CSR_INFO: return len >= VG_CSR_INFO_MIN && len <= VG_CSR_INFO_MAX;
	default: return 0;
	}
}

int vg_alg_format_ok(int alg, int format)
{
	const vg_alg_info *a = vg_alg_get(alg);

	if (a == NULL)
		return 0;
	if (format == 0)
		return 1;
	return a->formats && (format == VG_SIGFMT_DER || format == VG_SIGFMT_RAW);
}

const vg_alg_info *vg_alg_find(int key_type, int pad, int digest)
{
	const vg_alg_info *a;

	for (size_t i = 0; key_type != 0 && (a = vg_alg_at(i)) != NULL; i++)
		if (a->key_type == key_type && a->pad == pad && a->digest == digest)
			return a;
	return NULL;
}

const vg_alg_info *vg_alg_tls13(int key_type, size_t hash_len)
{
	const vg_alg_info *a, *only = NULL;
	size_t n = 0;

	if (key_type == 0 || vg_digest_from_len(hash_len) == VG_DIGEST_NONE)
		return NULL;
	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++) {
		if (a->key_type != key_type || a->tls13 == 0)
			continue;
		n++;
		only = a;
		if (vg_digest_len(a->digest) == hash_len)
			return a; /* several rows: the one with the transcript's hash */
	}
	return n == 1 ? only : NULL;
}

/* What a certificate request is signed with, per key type: the
 * signature algorithms CAs accept in a PKCS#10 request for such a key.
 * ECDSA keeps the curve's own hash (as in TLS 1.3); RSA uses PKCS#1 v1.5
 * with SHA-256, which every CA takes (not every CA takes RSA-PSS). A key
 * type without a row (X25519) cannot sign one. */
/* Each row also holds that signature's X.509 AlgorithmIdentifier, which
 * the request carries beside the signature (RFC 2986 4.2): RFC 8410
 * id-Ed25519 (no parameters), RFC 5758 ecdsa-with-SHA256/SHA384 (no
 * parameters), RFC 4055 sha256WithRSAEncryption (NULL parameters). */
/* clang-format off */
static const struct {
	uint8_t key_type, alg;
	uint8_t alg_id[15];
	uint8_t alg_id_len;
} csr_rows[] = {
	{ VG_KEY_ED25519, VG_ALG_ED25519,
	  { 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70 }, 7 },
	{ VG_KEY_RSA, VG_ALG_RSA_PKCS1_SHA256,
	  { 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00 }, 15 },
	{ VG_KEY_ECDSA_P256, VG_ALG_ECDSA_P256_SHA256,
	  { 0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02 }, 12 },
	{ VG_KEY_ECDSA_P384, VG_ALG_ECDSA_P384_SHA384,
	  { 0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03 }, 12 },
};
/* clang-format on */

const vg_alg_info *vg_alg_csr(int key_type)
{
	for (size_t i = 0; i < sizeof csr_rows / sizeof csr_rows[0]; i++)
		if (key_type != 0 && csr_rows[i].key_type == key_type)
			return vg_alg_get(csr_rows[i].alg);
	return NULL;
}

const uint8_t *vg_alg_csr_id(int key_type, size_t *len)
{
	for (size_t i = 0; i < sizeof csr_rows / sizeof csr_rows[0]; i++)
		if (key_type != 0 && csr_rows[i].key_type == key_type) {
			*len = csr_rows[i].alg_id_len;
			return csr_rows[i].alg_id;
		}
	*len = 0;
	return NULL;
}

/* ---- key types ---- */

static const vg_key_type_info key_types[VG_KEY_MAX + 1] = {
	/* cost: from vgbench on one core (x25519 and the ECDSA signatures
	 * against Ed25519's comb; RSA-4096 about 130 Ed25519 signatures) */
	[VG_KEY_ED25519] = { VG_KEY_ED25519, "ed25519", VG_CAP_ED25519, 255, 1 },
	[VG_KEY_X25519] = { VG_KEY_X25519, "x25519", VG_CAP_X25519, 255, 2 },
	[VG_KEY_RSA] = { VG_KEY_RSA, "rsa", VG_CAP_RSA, 0, 130 },
	[VG_KEY_ECDSA_P256] = { VG_KEY_ECDSA_P256, "ecdsa-p256", VG_CAP_ECDSA, 256, 2 },
	[VG_KEY_ECDSA_P384] = { VG_KEY_ECDSA_P384, "ecdsa-p384", VG_CAP_ECDSA, 384, 5 },
};

const vg_key_type_info *vg_key_type_get(int type)
{
	if (type <= 0 || type > VG_KEY_MAX || key_types[type].type != type)
		return NULL;
	return &key_types[type];
}

const char *vg_key_type_name(int type)
{
	const vg_key_type_info *k = vg_key_type_get(type);

	return k ? k->name : unknown_name;
}

uint32_t vg_key_type_allow(int type)
{
	const vg_alg_info *a;
	uint32_t allow = 0;

	if (vg_key_type_get(type) == NULL)
		return 0;
	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++) {
		if (a->key_type != type)
			continue;
		allow |= a->allow;
		if (a->tls13 != 0)
			allow |= VG_ALLOW_SIGN_TLS13;
	}
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vg_op_info *o = vg_op_get(op);
		if (o != NULL && o->kind == VG_OPK_KEY && o->key_type == type)
			allow |= o->allow;
	}
	return allow;
}
