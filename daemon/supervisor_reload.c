/* supervisor_reload.c: SIGHUP (see supervisor_internal.h): load the
 * config and the keys again; if both load, take the keys, the policies
 * and the reloadable limits, start a new generation of keyholders (the
 * front retires the old ones once they have answered their jobs) and send
 * the front the new key descriptions. Settings that need a restart keep
 * their running values. Secret: the new key store, which replaces ours
 * (the old one is wiped). */
#include "supervisor_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "notify.h"

void vgd_sup_on_sighup(evutil_socket_t sig, short what, void *arg)
{
	sup *s = arg;
	(void)sig;
	(void)what;
	if (s->stopping)
		return;
	(void)vgd_notify("RELOADING=1");
	vgd_info("reloading %s", s->cfg->path);
	vgd_config *nc = malloc(sizeof(*nc));
	char err[512];
	vgd_keystore nks;
	if (!nc) {
		vgd_err("reload: out of memory; keeping the running configuration");
		goto done;
	}
	if (vgd_config_load(nc, s->cfg->path, err, sizeof(err)) < 0) {
		vgd_err("reload failed, keeping the running configuration: %s", err);
		free(nc);
		goto done;
	}
	if (vgd_keystore_load(&nks, nc, err, sizeof(err)) < 0) {
		vgd_err("reload failed, keeping the running keys: %s", err);
		free(nc);
		goto done;
	}
	if (strcmp(nc->socket_path, s->cfg->socket_path) || nc->socket_mode != s->cfg->socket_mode ||
	    strcmp(nc->socket_group, s->cfg->socket_group) || nc->keyholders != s->cfg->keyholders ||
	    nc->pin_keyholders != s->cfg->pin_keyholders ||
	    strcmp(nc->user, s->cfg->user) || strcmp(nc->group, s->cfg->group) ||
	    strcmp(nc->front_user, s->cfg->front_user) ||
	    strcmp(nc->front_group, s->cfg->front_group) ||
	    nc->max_connections != s->cfg->max_connections ||
	    nc->max_reply_buffers != s->cfg->max_reply_buffers ||
	    nc->liveness_timeout_ms != s->cfg->liveness_timeout_ms)
		vgd_warn("reload: socket, users, groups, keyholders, pin_keyholders, "
			 "max_connections, max_reply_buffers and liveness_timeout change only "
			 "on restart; keeping the running values");
	/* Keep settings that need a restart; take keys, policies and the
	 * other limits. */
	snprintf(nc->socket_path, sizeof(nc->socket_path), "%s", s->cfg->socket_path);
	nc->socket_mode = s->cfg->socket_mode;
	snprintf(nc->socket_group, sizeof(nc->socket_group), "%s", s->cfg->socket_group);
	snprintf(nc->user, sizeof(nc->user), "%s", s->cfg->user);
	snprintf(nc->group, sizeof(nc->group), "%s", s->cfg->group);
	snprintf(nc->front_user, sizeof(nc->front_user), "%s", s->cfg->front_user);
	snprintf(nc->front_group, sizeof(nc->front_group), "%s", s->cfg->front_group);
	nc->liveness_timeout_ms = s->cfg->liveness_timeout_ms;
	nc->keyholders = s->cfg->keyholders;
	nc->pin_keyholders = s->cfg->pin_keyholders;
	nc->max_connections = s->cfg->max_connections;
	nc->max_reply_buffers = s->cfg->max_reply_buffers;
	vgd_keystore_free(&s->ks);
	s->ks = nks;
	/* Children have their own copies (fork); only ours is replaced. The
	 * first config belongs to main. */
	if (s->cfg_owned)
		free(s->cfg);
	s->cfg = nc;
	s->cfg_owned = 1;
	vgd_log_setup("supervisor", nc->log_level);
	s->gen++;
	vgd_sup_send_limits(s);
	/* New keyholders first (the front retires the old ones once they
	 * finish), then the new key descriptions. */
	for (int slot = 0; slot < s->nslots; slot++)
		if (vgd_sup_spawn_keyholder(s, slot) < 0)
			vgd_err("reload: cannot start keyholder %d", slot);
	vgd_sup_send_keys(s);
	vgd_info("reloaded: %zu key(s), generation %u", s->ks.n, s->gen);
done:
	(void)vgd_notify("READY=1\nSTATUS=serving");
}
