/* config.h: vgd's configuration file (format in vgd.conf(5),
 * doc/man/vgd.conf.5.scd).
 * Nothing here is secret: the config names key files, never holds keys. */
#ifndef VGD_CONFIG_H
#define VGD_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "vg/proto.h"

/* max_keys: how many key sections one config may have (default and
 * ceiling). Each key costs a secret slot of vgd_key_secret_size() bytes
 * (about 10 KiB, the RSA-4096 layout, whatever the key's type) locked in
 * the supervisor and in every keyholder, so 1024 keys fit vgd.service's
 * LimitMEMLOCK=16M per process; the supervisor's control queue
 * (VGD_CTL_QUEUE_MAX) and vgd_config's table are sized for the ceiling.
 * A list-keys reply is one frame: a caller allowed to see more than about
 * 100 RSA-4096 (200 RSA-2048, 500 ECDSA) keys gets "reply too large" from
 * it, and public-key still answers key by key. */
#define VGD_MAX_KEYS 1024
#define VGD_MAX_KEYS_DEFAULT VGD_MAX_KEYS
/* max_reply_buffers: 32 MiB by default; at least one largest frame. */
#define VGD_REPLY_BUFFERS_DEFAULT (32u << 20)
#define VGD_REPLY_BUFFERS_MIN ((unsigned long long)VG_PROTO_MAX_FRAME)
#define VGD_REPLY_BUFFERS_MAX (1ull << 40)
#define VGD_MAX_ACL 32
/* include lines one config may have (each names a directory). */
#define VGD_MAX_INCLUDES 8
#define VGD_PATH_MAX 512
/* The front's user when started as root and front_user is not set. */
#define VGD_DEFAULT_FRONT_USER "vgd-front"
/* A Unix socket path with its NUL: what struct sockaddr_un holds. */
#define VGD_SOCKET_PATH_MAX sizeof(((struct sockaddr_un *)0)->sun_path)

typedef struct {
	char name[VG_PROTO_MAX_KEY_NAME + 1];
	char file[VGD_PATH_MAX]; /* resolved path; for credentials, the name */
	int from_credential;     /* file names a $CREDENTIALS_DIRECTORY entry */
	uint32_t allow;          /* VG_ALLOW_* bits */
	size_t n_uids, n_gids;
	uid_t uids[VGD_MAX_ACL];
	gid_t gids[VGD_MAX_ACL];
	int line; /* where the section started, for messages */
} vgd_key_conf;

typedef struct {
	char path[VGD_PATH_MAX]; /* the file this came from */
	char socket_path[VGD_SOCKET_PATH_MAX];
	mode_t socket_mode;
	char socket_group[64];
	char user[64];        /* keyholders (and the front unless front_user) when root */
	char group[64];
	char front_user[64];  /* the front when started as root: its own user */
	char front_group[64];
	int keyholders;       /* 0: one per CPU vgd may run on */
	int direct_slots;     /* direct slots per keyholder (direct.h); 0: none */
	int pin_keyholders;   /* 1: keyholder slot i runs only on the i-th allowed CPU */
	int follow_clients;   /* 1: the front moves to the CPU CLIENT_CPU hints name */
	int max_connections;
	int max_inflight;     /* per connection */
	int max_queue;        /* requests queued to keyholders, all connections */
	size_t max_reply_buffers; /* bytes of unsent-reply buffers, all connections
				   * together; above it the front stops reading
				   * connections that have unread replies */
	int idle_timeout_ms;
	int frame_timeout_ms; /* a partial frame must complete within this */
	int drain_timeout_ms; /* SIGTERM: time to finish in-flight requests */
	int busy_poll_us;     /* front: poll without sleeping this long after work; 0 off */
	int job_timeout_ms;   /* front: a keyholder with jobs silent this long is hung */
	int liveness_timeout_ms; /* supervisor: a child must answer a ping within this */
	int max_conns_per_uid;    /* connections one client uid may hold */
	int max_inflight_per_uid; /* requests one client uid may have in flight */
	int log_level;
	int max_keys; /* key sections allowed, <= VGD_MAX_KEYS */
	/* include = DIR: directories whose NAME.conf files (in name order)
	 * add key sections, such as the ones vgctl genkey writes. */
	size_t n_includes;
	char includes[VGD_MAX_INCLUDES][VGD_PATH_MAX];
	/* Who may ask for a certificate request (ALG csr) with a key it may
	 * use: the front checks the caller's uid against these. */
	size_t n_csr_uids;
	uid_t csr_uids[VGD_MAX_ACL];
	size_t n_keys;
	/* Only keys[0..n_keys) are initialised: a config with few keys
	 * touches few of the table's pages. */
	vgd_key_conf keys[VGD_MAX_KEYS];
} vgd_config;

/* Defaults for everything. */
void vgd_config_defaults(vgd_config *cfg);

/* Parse config text. base_dir resolves relative key paths. On error
 * returns a negative VGD_E_* and writes "line N: why" into err. */
int vgd_config_parse(vgd_config *cfg, const char *text, size_t len, const char *base_dir,
		     char *err, size_t errlen);

/* Read and parse a file (defaults first), then the files of its include
 * directories, which may hold only key sections. err gets "FILE: line N:
 * why". */
int vgd_config_load(vgd_config *cfg, const char *path, char *err, size_t errlen);

/* Lookup by key name; NULL if absent. */
const vgd_key_conf *vgd_config_key(const vgd_config *cfg, const char *name);

#endif
