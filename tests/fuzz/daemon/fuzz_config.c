/* fuzz_config.c: libFuzzer target for vgd_config_parse (daemon/config.c) on
 * arbitrary text. Properties: no memory error (ASan/UBSan); a failure says
 * "line N: why" with N within the input; a success leaves every string
 * NUL-terminated, every key with a file and an allow set, key names unique,
 * ACL counts and limits within their bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fuzz_check.h"
#include "vg/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t lines_in(const uint8_t *d, size_t n)
{
	size_t k = 1;
	for (size_t i = 0; i < n; i++)
		k += d[i] == '\n';
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static vgd_config cfg; /* large */
	char err[256];
	vgd_config_defaults(&cfg);
	int r = vgd_config_parse(&cfg, (const char *)data, size, "/etc/vgd", err, sizeof(err));
	CHECK(memchr(err, 0, sizeof(err)) != NULL);
	if (r < 0) {
		unsigned long line = 0;
		CHECK(sscanf(err, "line %lu: ", &line) == 1);
		CHECK(line >= 1 && line <= lines_in(data, size));
		return 0;
	}
	CHECK(r == 0);
	CHECK(memchr(cfg.socket_path, 0, sizeof(cfg.socket_path)) != NULL);
	CHECK(cfg.socket_path[0] == '/');
	CHECK(memchr(cfg.user, 0, sizeof(cfg.user)) && memchr(cfg.group, 0, sizeof(cfg.group)));
	CHECK(cfg.keyholders >= 0 && cfg.keyholders <= 256);
	CHECK(cfg.max_connections >= 1 && cfg.max_inflight >= 1 &&
	      cfg.max_inflight <= (int)VG_PROTO_MAX_INFLIGHT && cfg.max_queue >= 1);
	CHECK(cfg.idle_timeout_ms > 0 && cfg.frame_timeout_ms > 0 && cfg.drain_timeout_ms >= 0);
	CHECK(cfg.n_keys <= VGD_MAX_KEYS);
	for (size_t i = 0; i < cfg.n_keys; i++) {
		const vgd_key_conf *k = &cfg.keys[i];
		CHECK(memchr(k->name, 0, sizeof(k->name)) && k->name[0]);
		CHECK(strlen(k->name) <= VG_PROTO_MAX_KEY_NAME);
		CHECK(memchr(k->file, 0, sizeof(k->file)) && k->file[0]);
		CHECK(k->allow != 0);
		CHECK(k->n_uids <= VGD_MAX_ACL && k->n_gids <= VGD_MAX_ACL);
		CHECK(vgd_config_key(&cfg, k->name) == k);
		if (k->from_credential)
			CHECK(strchr(k->file, '/') == NULL);
	}
	return 0;
}
