/* hsload.h: many TLS handshakes at once against a server on 127.0.0.1,
 * each verified (the certificate against its CA file, the host name) and
 * followed by one HTTP/1.0 request whose response must hold a given
 * text: the tls tests' concurrent client (threads with blocking OpenSSL
 * connections). */
#ifndef VGT_HSLOAD_H
#define VGT_HSLOAD_H

#include <stddef.h>

typedef struct {
	const char *host;    /* SNI, Host: and the name the certificate must carry */
	const char *ca_file; /* the server's (self-signed) certificate */
} vgt_hs_target;

typedef struct {
	int port;
	const vgt_hs_target *targets; /* connection i goes to targets[i % ntargets] */
	size_t ntargets;
	const char *want; /* text the response must contain */
	int threads;      /* connections in flight */
	int per_thread;   /* handshakes each thread makes, one after another */
	int timeout_s;    /* per connection (send/receive timeouts) */
} vgt_hs_load;

typedef struct {
	int ok, failed;
	int tls13, tls12; /* of the ok ones: which version (they alternate) */
	char first_error[200];
} vgt_hs_result;

/* Run the load; fills r. 0, or -1 if the threads could not start. */
int vgt_hs_run(const vgt_hs_load *l, vgt_hs_result *r);

/* Clients that will go away mid-handshake: open n connections to port and
 * send each a TLS 1.3 ClientHello for host, without waiting for the
 * server's answer. Their sockets go to fds; returns how many were sent. */
int vgt_hs_hello_only(int port, const char *host, int n, int *fds);
/* Drop those connections with a reset (SO_LINGER 0), as a client that
 * vanishes does. */
void vgt_hs_reset(const int *fds, int n);

#endif
