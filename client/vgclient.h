/* vgclient.h: libvgclient, the client library of vgd (the vgd signing and
 * key-exchange daemon). Talks protocol v1 (protocol/PROTOCOL.md) over the
 * daemon's Unix socket, synchronously or from the caller's event loop.
 *
 * ERRORS. Functions return 0 (or a count >= 0) on success and a negative
 * VGC_E_* code on failure. vg_client_strerror() names a code;
 * vg_client_errmsg() gives the last synchronous error of a client with the
 * daemon's reason. Codes -101..-110 are the daemon's status codes
 * (-100 - status, protocol/PROTOCOL.md 7); a status this header does not
 * name maps the same way, so it stays between -101 and -355.
 *
 * THREADS. A vg_client is not thread-safe and has no locks: use one client
 * per thread (or serialise every call on a client with your own lock, and
 * run its callbacks under that lock). Different clients share nothing and
 * may be used from different threads at the same time. vg_client_strerror
 * is thread-safe.
 *
 * FORK. Every call checks whether it runs in a child forked since the
 * client's connection was made (a pthread_atfork handler marks each child
 * of fork(), so the check costs no system call; a child made by a raw
 * clone system call is not seen). In a forked child the parent's
 * connection is never used: the child closes its copy of the descriptor
 * (which does not disturb the parent), forgets every request the parent
 * had pending (their callbacks never run in the child; the parent still
 * gets them) and opens its own connection on its next request.
 *
 * CONNECTIONS. vg_client_new() does not connect; the first request does.
 * A connection the daemon closed (restart, idle timeout) is replaced on
 * the next request, and every request that was sent but not answered when
 * the connection broke is sent once more on a new connection (no vgd
 * operation has an effect a retry could double; a randomized signature,
 * RSA-PSS or ECDSA, may come back as another valid one); a request that
 * breaks a second connection completes with VGC_E_CLOSED. When the daemon
 * ends a connection with a connection error (PROTOCOL.md 7.1: it refused
 * the connection, "too many connections" or "shutting down"), the
 * requests sent on it complete at once with that status
 * (VGC_E_OVERLOADED, VGC_E_UNAVAILABLE, ...) and the daemon's reason,
 * without a retry.
 *
 * THE CPU HINT. Once per connection, the first ping, sign, x25519 or
 * rsa-private call after it is up, synchronous or asynchronous, also
 * sends a hello (not waited for). That hello is the library's own: no
 * callback of yours runs for it, and neither vg_client_pending() nor
 * vg_client_process()'s count includes it. If the daemon's CAPS has
 * CPU_HINT, later requests of these kinds carry the CPU the calling
 * thread runs on (sched_getcpu, no system call; PROTOCOL.md 6.10). A
 * request sent again on a new connection goes without it, since the
 * daemon there may predate the hint. vgd (follow_clients, its default)
 * uses it to serve a request on the caller's CPU when it is not
 * saturated. The hint changes no result.
 *
 * A BLOCKING CALL SPINS BEFORE IT SLEEPS: once its request is written, it
 * reads the socket without blocking, yielding its CPU in between
 * (sched_yield), for up to VGD_SPIN_US microseconds (the environment
 * variable, read by vg_client_new: 0 to 1000000, default 100; 0: sleep in
 * poll() at once), and only then sleeps in poll(). A thread that sleeps
 * leaves its CPU idle: the reply has to wake it (on a VM an interrupt and
 * an exit), and the kernel may move the thread to another CPU, away from
 * the vgd front that follows it. Asynchronous calls never spin.
 *
 * DIRECT SLOTS. A blocking sign, x25519 or rsa-private call on a
 * connection with nothing else outstanding asks vgd, once per
 * connection, for a direct slot (PROTOCOL.md 6.11): a page of shared
 * memory through which its requests go straight to a vgd keyholder. When
 * it gets one, those calls write their request there and wait on it
 * (spinning as above, then sleeping on a futex), with the same checks of
 * the reply; anything else, and every asynchronous call, uses the socket.
 * A request the slot has not answered within a second (its keyholder is
 * stopped or restarting) goes to the socket instead, where vgd moves it
 * to another keyholder, and the connection gives its slot up (the
 * operation may then run twice; one answer reaches the caller). VGD_DIRECT=0 in the environment (read by vg_client_new)
 * keeps every call on the socket. A child of fork() does not inherit the slot.
 *
 * WHAT A RESULT CAN BE. Before any caller sees a successful reply, the
 * library checks its RESULT against the request that asked for it (one
 * check, shared by synchronous and asynchronous calls), so a broken or
 * hostile daemon cannot hand you more, or other, bytes than these:
 *   ping: nothing (the library sends no DATA to echo);
 *   x25519: exactly 32 bytes;
 *   rsa-private: exactly as many bytes as the input (the modulus length);
 *   sign, Ed25519: exactly 64 bytes;
 *   sign, RSA (PKCS#1 v1.5 or PSS): 256 to 512 bytes (RSA-2048..4096);
 *   sign, ECDSA raw (VGC_SIG_RAW): exactly 64 (P-256) or 96 (P-384) bytes;
 *   sign, ECDSA DER: one DER ECDSA-Sig-Value (SEQUENCE of two positive
 *     minimal INTEGERs, nothing after it) whose r and s fit the curve, so
 *     at most 72 (P-256) or 104 (P-384) bytes;
 *   sign_tls13: what the key's TLS 1.3 scheme makes: 64 (Ed25519),
 *     256..512 (RSA-PSS) or DER ECDSA as above, at most 104 bytes;
 *   sign, VGC_ALG_CSR: what the key's certificate-request algorithm
 *     makes: 64 (Ed25519), 256..512 (RSA PKCS#1 v1.5) or DER ECDSA.
 * Any other RESULT completes the request with VGC_E_PROTOCOL (reason:
 * "... does not fit the request") and no bytes. Limits: a sign reply does
 * not say the key's modulus, and a key may be replaced under its name by
 * a reload between your vg_client_public_key() and your sign, so for RSA
 * the library checks the range above, not the exact length; if you need
 * it, compare *sig_len with the pub_len of the key's vgc_key_info. In TLS
 * 1.3 mode and with VGC_ALG_CSR the request does not name the key type,
 * so a reply of any of the key types' forms passes. No caller buffer is ever written past
 * VGC_RESULT_MAX.
 *
 * SYNCHRONOUS AND ASYNCHRONOUS CALLS on one client may be mixed: a
 * synchronous call submits its request into the same queue and drives the
 * same machinery (vg_client_process) until its own reply arrives, so
 * callbacks of earlier asynchronous requests may run inside a synchronous
 * call. Synchronous calls are refused (VGC_E_BUSY) from inside a
 * callback. */
#ifndef VGCLIENT_H
#define VGCLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VGCLIENT_BUILD)
#define VGC_API __attribute__((visibility("default")))
#else
#define VGC_API
#endif

#define VGC_DEFAULT_SOCKET "/run/vgd/vgd.sock"

/* Sizes of what the daemon sends (the protocol's limits, PROTOCOL.md 5).
 * The library refuses a longer RESULT (WHAT A RESULT CAN BE). */
#define VGC_KEY_NAME_MAX 64  /* bytes of a key name, without the NUL */
#define VGC_PUBKEY_MAX 512   /* bytes of a public key (an RSA-4096 modulus) */
#define VGC_RSA_E_MAX 8      /* bytes of an RSA public exponent */
#define VGC_RESULT_MAX 512   /* bytes of a signature or rsa-private result */
/* Bytes of vgc_hello.server, NUL included. The daemon's SERVER text may
 * be up to 255 bytes (PROTOCOL.md 4.1); a longer one than fits is cut at
 * a UTF-8 character boundary, still NUL-terminated. */
#define VGC_SERVER_MAX 128

/* Error codes. */
enum vgc_error {
	VGC_OK = 0,
	VGC_E_CONNECT = -1,   /* cannot connect to the daemon's socket */
	VGC_E_IO = -2,        /* read/write/poll failed */
	VGC_E_TIMEOUT = -3,   /* no reply within the timeout */
	VGC_E_PROTOCOL = -4,  /* the daemon's reply did not parse or match, or its
			       * RESULT does not fit the request (WHAT A RESULT
			       * CAN BE) */
	VGC_E_CLOSED = -5,    /* the connection broke twice before the reply */
	VGC_E_NOMEM = -6,     /* out of memory, or 65535 requests pending */
	VGC_E_INVALID = -7,   /* bad argument (key name, lengths, algorithm) */
	VGC_E_BUFFER = -8,    /* output buffer too small */
	VGC_E_CANCELLED = -9, /* vg_client_cancel_all() or vg_client_free() */
	VGC_E_BUSY = -10,     /* not allowed from inside a completion callback */
	VGC_E_MALFORMED = -101,
	VGC_E_BAD_VERSION = -102,
	VGC_E_UNKNOWN_OP = -103,
	VGC_E_UNKNOWN_KEY = -104,
	VGC_E_NOT_ALLOWED = -105,
	VGC_E_BAD_INPUT = -106,
	VGC_E_TOO_LARGE = -107,
	VGC_E_OVERLOADED = -108, /* daemon queues full, or too many connections: retry later */
	VGC_E_INTERNAL = -109,
	VGC_E_UNAVAILABLE = -110, /* daemon shutting down */
};

/* Signature algorithms (same values as the protocol). */
enum vgc_alg {
	VGC_ALG_ED25519 = 1,
	VGC_ALG_RSA_PKCS1_SHA256 = 2,
	VGC_ALG_RSA_PKCS1_SHA384 = 3,
	VGC_ALG_RSA_PKCS1_SHA512 = 4,
	VGC_ALG_RSA_PSS_SHA256 = 5,
	VGC_ALG_RSA_PSS_SHA384 = 6,
	VGC_ALG_RSA_PSS_SHA512 = 7,
	VGC_ALG_TLS13 = 8,
	/* ECDSA over a digest of the named hash (the curve's own hash first;
	 * the others for TLS 1.2, where any hash goes with any curve). */
	VGC_ALG_ECDSA_P256_SHA256 = 9,
	VGC_ALG_ECDSA_P384_SHA384 = 10,
	VGC_ALG_ECDSA_P256_SHA384 = 11,
	VGC_ALG_ECDSA_P256_SHA512 = 12,
	VGC_ALG_ECDSA_P384_SHA256 = 13,
	VGC_ALG_ECDSA_P384_SHA512 = 14,
	/* A PKCS#10 certificate request for the key itself: data is the DER
	 * CertificationRequestInfo (53..8192 bytes), which must carry the
	 * key's own SubjectPublicKeyInfo; vgd checks it and signs it with the
	 * key's algorithm (Ed25519; ECDSA with the curve's hash, DER; RSA
	 * PKCS#1 v1.5 with SHA-256). A key allowed sign or tls13 may, for a
	 * caller in vgd.conf's csr_uids (`vgctl csr` builds the request). */
	VGC_ALG_CSR = 15,
};

enum vgc_tls_role { VGC_TLS_SERVER = 1, VGC_TLS_CLIENT = 2 };
enum vgc_key_type {
	VGC_KEY_ED25519 = 1,
	VGC_KEY_X25519 = 2,
	VGC_KEY_RSA = 3,
	VGC_KEY_ECDSA_P256 = 4, /* pub: the uncompressed point 04||X||Y, 65 bytes */
	VGC_KEY_ECDSA_P384 = 5, /* pub: 97 bytes */
};
/* How an ECDSA signature is encoded (vg_client_sign_format). */
enum vgc_sig_format {
	VGC_SIG_DEFAULT = 0, /* the algorithm's only encoding; DER for ECDSA */
	VGC_SIG_DER = 1,     /* ECDSA-Sig-Value, as TLS and X.509 carry it */
	VGC_SIG_RAW = 2,     /* r || s, 64 bytes (P-256) or 96 (P-384): JOSE, COSE */
};
/* What a key allows (vgc_key_info.ops). */
enum vgc_ops {
	VGC_OPS_SIGN = 1,
	VGC_OPS_SIGN_TLS13 = 2,
	VGC_OPS_X25519 = 4,
	VGC_OPS_RSA_PRIVATE = 8,
};

typedef struct vg_client vg_client;

typedef struct {
	char name[VGC_KEY_NAME_MAX + 1]; /* NUL-terminated */
	int type;              /* enum vgc_key_type */
	uint32_t ops;          /* enum vgc_ops bits */
	uint8_t pub[VGC_PUBKEY_MAX]; /* Ed25519/X25519: 32 bytes; RSA: modulus n;
				      * ECDSA: the uncompressed point 04||X||Y */
	size_t pub_len;
	uint8_t rsa_e[VGC_RSA_E_MAX]; /* RSA public exponent, big-endian */
	size_t rsa_e_len;
} vgc_key_info;

typedef struct {
	char name[64]; /* NUL-terminated */
	uint64_t value;
} vgc_stat;

/* One key's use by one caller uid since the key was loaded (the stats
 * reply's USE items, PROTOCOL.md 6.8). other = 1: the daemon's "other"
 * row, uses past its table's bound (key empty, uid 0). */
typedef struct {
	char key[VGC_KEY_NAME_MAX + 1]; /* NUL-terminated */
	int other;
	uint32_t uid;
	uint64_t ok;       /* successful key operations (signatures, x25519, rsa-private) */
	uint64_t errors;   /* failed ones */
	uint64_t refused;  /* refused: key ACL or policy, daemon overloaded */
	uint64_t last_ms;  /* last use, Unix time in milliseconds */
	uint32_t last_pid; /* the process that used it last */
} vgc_key_use;

typedef struct {
	int versions[8];
	size_t n_versions;
	uint32_t caps;         /* protocol CAPS bits */
	uint32_t max_frame;
	uint32_t max_inflight;
	char server[VGC_SERVER_MAX]; /* NUL-terminated, e.g. "vgd 0.1.0 ed25519=ifma x25519=ifma
				      * rsa=ifma p256=ifma p384=ifma sha256=shani" (76 bytes) */
} vgc_hello;

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */
/* ------------------------------------------------------------------ */

/* Create a client for the daemon at path (NULL or "": $VGD_SOCKET, else
 * VGC_DEFAULT_SOCKET). Does not connect. Returns NULL if out of memory or
 * the path does not fit a Unix socket address. The path is copied. */
VGC_API vg_client *vg_client_new(const char *path);

/* Complete every pending asynchronous request with VGC_E_CANCELLED (each
 * callback runs exactly once, here, in no particular order; a callback must not
 * use the client any more: submits are refused with VGC_E_BUSY), close the
 * connection and free the client. NULL is fine. Must not be called from
 * inside a callback. In a forked child it frees without running the
 * parent's callbacks. */
VGC_API void vg_client_free(vg_client *c);

/* Per-request timeout in milliseconds, for synchronous calls and for
 * asynchronous requests submitted afterwards (default 5000; <= 0: wait
 * forever). The time counts from the submit (or the start of a
 * synchronous call), so it includes connecting and local queueing. */
VGC_API void vg_client_set_timeout(vg_client *c, int ms);

/* Connect now (optional: requests connect on demand). Blocks up to the
 * timeout. 0 if connected, or VGC_E_CONNECT / VGC_E_TIMEOUT. */
VGC_API int vg_client_connect(vg_client *c);

/* Start connecting without blocking. Returns 0 if connected, 1 if the
 * connection is in progress (vg_client_process() finishes it: watch
 * vg_client_fd() for vg_client_events(), and honour vg_client_timeout()),
 * or VGC_E_CONNECT. */
VGC_API int vg_client_connect_start(vg_client *c);

/* ------------------------------------------------------------------ */
/* Synchronous calls. Each blocks until its reply, an error or the      */
/* timeout. Errors also set vg_client_errmsg(). A timed-out request's   */
/* late reply is discarded.                                             */
/* ------------------------------------------------------------------ */

/* Round trip. */
VGC_API int vg_client_ping(vg_client *c);
/* Versions, capabilities and limits. Also lowers the client's in-flight
 * limit to the daemon's max_inflight if that is smaller than 128. */
VGC_API int vg_client_hello(vg_client *c, vgc_hello *out);

/* Sign data with key using alg (any vgc_alg but VGC_ALG_TLS13: see
 * vg_client_sign_tls13). For ed25519, data is the message (0..65000
 * bytes); for RSA and ECDSA algorithms, the digest (32, 48 or 64 bytes to
 * match the hash); for VGC_ALG_CSR, the CertificationRequestInfo. The signature is written to sig (cap bytes: 64 for
 * Ed25519, the modulus length for RSA, up to 72 (P-256) or 104 (P-384)
 * for a DER ECDSA signature; VGC_RESULT_MAX always suffices) and its
 * length to *sig_len (may be NULL). VGC_E_BUFFER if cap is too small;
 * VGC_E_PROTOCOL if the daemon's signature has a length (or, for DER, a
 * form) the algorithm cannot produce (WHAT A RESULT CAN BE). */
VGC_API int vg_client_sign(vg_client *c, const char *key, int alg, const void *data, size_t len,
			   uint8_t *sig, size_t cap, size_t *sig_len);
/* vg_client_sign with the signature's encoding chosen (enum
 * vgc_sig_format): VGC_SIG_RAW gives an ECDSA signature as r || s,
 * VGC_SIG_DER (or VGC_SIG_DEFAULT) as DER. A format other than
 * VGC_SIG_DEFAULT with an algorithm that has one encoding (Ed25519, RSA)
 * is VGC_E_INVALID. */
VGC_API int vg_client_sign_format(vg_client *c, const char *key, int alg, int format,
				  const void *data, size_t len, uint8_t *sig, size_t cap,
				  size_t *sig_len);
/* TLS 1.3 CertificateVerify: the daemon builds the signed content from
 * the transcript hash (32, 48 or 64 bytes) and role (enum vgc_tls_role);
 * Ed25519 keys sign with Ed25519, RSA keys with RSA-PSS and the hash that
 * matches hash_len, ECDSA keys with their curve's scheme (P-256 with
 * SHA-256, P-384 with SHA-384, whatever hash_len is; RFC 8446 4.2.3) and a
 * DER signature. */
VGC_API int vg_client_sign_tls13(vg_client *c, const char *key, int role, const void *hash,
				 size_t hash_len, uint8_t *sig, size_t cap, size_t *sig_len);
/* X25519 with a held key: shared = X25519(key, peer). A low-order peer
 * gives VGC_E_BAD_INPUT. The library wipes its copy of the secret. */
VGC_API int vg_client_x25519(vg_client *c, const char *key, const uint8_t peer[32],
			     uint8_t shared[32]);
/* Raw RSA private operation m^d mod n; in is exactly the modulus length
 * and below n. The result (modulus length: a reply of any other length is
 * VGC_E_PROTOCOL) goes to out (cap bytes). The library wipes its copy of
 * the result. */
VGC_API int vg_client_rsa_private(vg_client *c, const char *key, const void *in, size_t len,
				  uint8_t *out, size_t cap, size_t *out_len);

/* The keys the caller may use. *keys is malloc'ed (release with free());
 * NULL on error. Returns the count (>= 0) or an error. */
VGC_API int vg_client_list_keys(vg_client *c, vgc_key_info **keys);
/* One key's public part. */
VGC_API int vg_client_public_key(vg_client *c, const char *key, vgc_key_info *out);
/* Daemon statistics; *stats malloc'ed (free()); returns the count. */
VGC_API int vg_client_stats(vg_client *c, vgc_stat **stats);
/* Who used which key: the rows of the daemon's use table this caller may
 * see (root: all; others: their own uid's, for keys they may use); *uses
 * malloc'ed (free()); returns the count. */
VGC_API int vg_client_key_use(vg_client *c, vgc_key_use **uses);

/* ------------------------------------------------------------------ */
/* Asynchronous calls                                                  */
/* ------------------------------------------------------------------ */

/* Completion callback. status: 0 or a VGC_E_* code. result/result_len:
 * the daemon's output (signature, shared secret, rsa-private result; for
 * ping nothing) when status is 0, else NULL/0; its length is one the
 * request can produce (WHAT A RESULT CAN BE; otherwise status is
 * VGC_E_PROTOCOL), never above VGC_RESULT_MAX; the bytes are valid only
 * during the callback (they are wiped afterwards: copy what you keep).
 * reason: NUL-terminated text, "" on success, else the daemon's reason or
 * the error's name; valid only during the callback. arg: the submit's.
 *
 * Exactly one call per successful submit (one that returned 0); never for
 * a failed submit, and never from inside the submit itself. Callbacks run
 * from vg_client_process(), vg_client_cancel_all(), vg_client_free() or a
 * synchronous call on the same client. A callback may submit new requests
 * (they go out on the next process) and may call vg_client_cancel_all()
 * or read vg_client_pending(); it must not call vg_client_process(),
 * vg_client_free() or synchronous calls (they return VGC_E_BUSY; free is
 * ignored). */
typedef void (*vg_client_cb)(int status, const uint8_t *result, size_t result_len,
			     const char *reason, void *arg);

/* Submit a request and return at once. Inputs are copied (encoded) before
 * return. Returns 0 (the callback will run exactly once), or VGC_E_INVALID
 * (bad argument: the same checks as the synchronous call),
 * VGC_E_CONNECT (no connection and the daemon's socket refuses one),
 * VGC_E_NOMEM, VGC_E_BUSY (from a callback run by vg_client_free). Up to
 * the daemon's in-flight limit (128) requests are written to the socket;
 * more wait in a local queue and go out as replies come back. Replies may
 * complete in any order. */
VGC_API int vg_client_submit_ping(vg_client *c, vg_client_cb cb, void *arg);
VGC_API int vg_client_submit_sign(vg_client *c, const char *key, int alg, const void *data,
				  size_t len, vg_client_cb cb, void *arg);
VGC_API int vg_client_submit_sign_format(vg_client *c, const char *key, int alg, int format,
					 const void *data, size_t len, vg_client_cb cb, void *arg);
VGC_API int vg_client_submit_sign_tls13(vg_client *c, const char *key, int role,
					const void *hash, size_t hash_len, vg_client_cb cb,
					void *arg);
VGC_API int vg_client_submit_x25519(vg_client *c, const char *key, const uint8_t peer[32],
				    vg_client_cb cb, void *arg);
VGC_API int vg_client_submit_rsa_private(vg_client *c, const char *key, const void *in,
					 size_t len, vg_client_cb cb, void *arg);

/* The socket to watch in an event loop (epoll, poll, libevent, nginx), or
 * -1 when there is no connection (nothing to watch). The descriptor
 * changes when the library reconnects, and is closed by the library when
 * the connection ends: call vg_client_fd() again after every
 * vg_client_process() and submit, and re-register when it differs from
 * the one you watch (when process() replaces a connection it opens the
 * new one before closing the old, so the number differs; when a
 * connection just ends, process() leaves -1). A forked child gets its own
 * descriptor: watch it from the child's own event loop. */
VGC_API int vg_client_fd(vg_client *c);

/* The poll(2) events (POLLIN, POLLOUT) to wait for on vg_client_fd():
 * POLLIN while connected; POLLOUT as well while requests are waiting to
 * be written or a connect is in progress. 0: do not watch the fd (use
 * vg_client_timeout()). Meant for level-triggered loops; edge-triggered
 * epoll works too: process() reads until EAGAIN, or if it stops early it
 * leaves vg_client_timeout() at 0. */
VGC_API int vg_client_events(vg_client *c);

/* Milliseconds until vg_client_process() must run even without fd
 * activity (the earliest request deadline, or a connect retry); 0 if
 * due now (also when the last process() stopped early to give the caller's
 * loop a turn while replies kept arriving); -1 if no timer is needed. */
VGC_API int vg_client_timeout(vg_client *c);

/* Do all the work that can be done without blocking: finish a connect,
 * write queued requests, read replies, expire requests past their
 * deadline (VGC_E_TIMEOUT), replace a broken connection (retrying its
 * unanswered requests once), and run the callbacks of what completed.
 * Call it when the fd is ready for vg_client_events(), or when
 * vg_client_timeout() expires; calling it at other times is harmless.
 * Returns the number of callbacks run (>= 0), or VGC_E_BUSY if called from
 * a callback. Connection failures are reported through the callbacks
 * (VGC_E_CLOSED, VGC_E_CONNECT, VGC_E_TIMEOUT), not here. */
VGC_API int vg_client_process(vg_client *c);

/* Number of submitted requests whose callback has not run yet. */
VGC_API size_t vg_client_pending(vg_client *c);

/* Complete every pending request now with VGC_E_CANCELLED (callbacks run
 * here, in no particular order; requests submitted from those callbacks are not
 * cancelled). Replies that arrive later for them are discarded. The
 * connection stays open. Returns the number of callbacks run. */
VGC_API int vg_client_cancel_all(vg_client *c);

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

/* Static text for a code (thread-safe; "unknown error" if unknown). */
VGC_API const char *vg_client_strerror(int err);
/* The last synchronous error of this client: the code's text plus the
 * daemon's reason. Valid until the next call on the client. */
VGC_API const char *vg_client_errmsg(const vg_client *c);

#ifdef __cplusplus
}
#endif

#endif
