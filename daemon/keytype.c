/* keytype.c: the daemon's key-type rows (keytype.h), one per VG_KEY_*
 * value of the protocol's key-type table. A new key type is its kernel,
 * its row here (with the functions it names) and its protocol row
 * (protocol/src/algtab.c); tests/daemon/test_keytype.c fails until both
 * rows exist and agree. Nothing here is secret. */
#include "keytype.h"

#include "vg/proto.h"

/* slow: RSA takes up to a millisecond; ECDSA 15-50 us with the assembly
 * tiers, 0.3-0.8 ms in portable C. For ECDSA with the tiers holding or
 * not made no measurable difference (vgload --mode saturation, two runs
 * each way: P-256 55-62 k req/s flushing, 47-48 k holding, within this
 * machine's noise), so the cautious choice stays. Ed25519 and X25519 take
 * a few microseconds: their replies may wait for the next ones. */
const vgd_keytype vgd_keytypes[VG_KEY_MAX + 1] = {
	[VG_KEY_ED25519] = {
		.type = VG_KEY_ED25519,
		.secret_size = vgd_kt25519_size,
		.load = vgd_kt_ed25519_load,
		.describe = vgd_kt25519_describe,
		.wipe = vgd_kt25519_wipe,
		.sign = vgd_kt_ed25519_sign,
		.batch = VGD_KB_ED25519,
		.slow = 0,
		.generate = vgd_kt_ed25519_generate,
	},
	[VG_KEY_X25519] = {
		.type = VG_KEY_X25519,
		.secret_size = vgd_kt25519_size,
		.load = vgd_kt_x25519_load,
		.describe = vgd_kt25519_describe,
		.wipe = vgd_kt25519_wipe,
		.agree = vgd_kt_x25519_agree,
		.batch = VGD_KB_X25519,
		.slow = 0,
		.generate = vgd_kt_x25519_generate,
	},
	[VG_KEY_RSA] = {
		.type = VG_KEY_RSA,
		.secret_size = vgd_kt_rsa_size,
		.load = vgd_kt_rsa_load,
		.describe = vgd_kt_rsa_describe,
		.wipe = vgd_kt_rsa_wipe,
		.sign = vgd_kt_rsa_sign,
		.rsa_private = vgd_kt_rsa_private,
		.batch = VGD_KB_RSA,
		.slow = 1,
		.generate = vgd_kt_rsa_generate,
	},
	[VG_KEY_ECDSA_P256] = {
		.type = VG_KEY_ECDSA_P256,
		.secret_size = vgd_kt_ecdsa_size,
		.load = vgd_kt_p256_load,
		.describe = vgd_kt_ecdsa_describe,
		.wipe = vgd_kt_ecdsa_wipe,
		.sign = vgd_kt_ecdsa_sign,
		.batch = VGD_KB_ECDSA,
		.slow = 1,
		.generate = vgd_kt_p256_generate,
	},
	[VG_KEY_ECDSA_P384] = {
		.type = VG_KEY_ECDSA_P384,
		.secret_size = vgd_kt_ecdsa_size,
		.load = vgd_kt_p384_load,
		.describe = vgd_kt_ecdsa_describe,
		.wipe = vgd_kt_ecdsa_wipe,
		.sign = vgd_kt_ecdsa_sign,
		.batch = VGD_KB_ECDSA,
		.slow = 1,
		.generate = vgd_kt_p384_generate,
	},
};

const vgd_keytype *vgd_keytype_get(int type)
{
	if (type <= 0 || type > VG_KEY_MAX || vgd_keytypes[type].type != type)
		return NULL;
	return &vgd_keytypes[type];
}
