/* acct.h: who used which key: per key and caller uid, the successful key
 * operations, the failed and the refused ones, and the wall-clock time
 * and pid of the last use; and one summary log line per key and uid for
 * each interval (a minute) in which that uid used that key. Owned by the
 * front, which sees every request and its outcome; fed through
 * vgd_acct_note() so another request path can feed it too.
 *
 * Bounded: VGD_ACCT_ROWS (key, uid) rows, preallocated with their
 * open-addressed index; a use that finds no row and no room goes into the
 * one "other" row (counted: overflowed). A note is O(1) and never
 * allocates. Keys are the current key set's indexes; vgd_acct_rekey()
 * carries rows across a reload to the same key (same name and public
 * key) and resets the rest with a log line, so a row counts the uses
 * since its key was loaded.
 *
 * Holds no key material: key indexes, uids, pids, counts, times. */
#ifndef VGD_ACCT_H
#define VGD_ACCT_H

#include <stddef.h>
#include <stdint.h>

#include "keystore.h"
#include "vg/proto.h"

/* Rows kept: a STATS reply carries every row (PROTOCOL.md 6.8), at most
 * 136 bytes each, so 256 of them and the counters fit one frame. */
#define VGD_ACCT_ROWS 256
/* Index slots: a power of two, twice the rows, so a probe stays short. */
#define VGD_ACCT_SLOTS 512
#define VGD_ACCT_INTERVAL_MS 60000u
/* User names the log lines can give (the supervisor resolves them: the
 * front may not read /etc/passwd); other uids are numbers. */
#define VGD_ACCT_NAMES 64

enum vgd_acct_outcome {
	VGD_ACCT_OK,      /* the key operation succeeded */
	VGD_ACCT_ERROR,   /* it failed: bad input, keyholder trouble, shutdown */
	VGD_ACCT_REFUSED, /* refused: ACL, key policy, overloaded */
};

#define VGD_ACCT_OUTCOMES 3

/* What an answer's status means for the table: the keyholder checks the
 * ACL and policy again, and the front may answer a job it gave up on
 * (INTERNAL, UNAVAILABLE). The front's jobs and the keyholders' direct
 * slots (khdirect.c) sort their answers with it. */
static inline enum vgd_acct_outcome vgd_acct_outcome_of(int status)
{
	switch (status) {
	case VG_ST_OK:
		return VGD_ACCT_OK;
	case VG_ST_UNKNOWN_KEY:
	case VG_ST_NOT_ALLOWED:
	case VG_ST_OVERLOADED:
		return VGD_ACCT_REFUSED;
	default:
		return VGD_ACCT_ERROR;
	}
}

typedef struct {
	uint64_t ok, errors, refused; /* since the key was loaded */
	uint64_t last_ms;             /* last use: Unix time, milliseconds */
	uint32_t last_pid;
	uint32_t uid;
	uint32_t key;                          /* index in the current key set */
	uint32_t iv_ok, iv_errors, iv_refused; /* this interval's, for its log line */
} vgd_acct_row;

typedef struct {
	vgd_acct_row rows[VGD_ACCT_ROWS];
	uint16_t slot[VGD_ACCT_SLOTS]; /* 0: empty, else a row's index + 1 */
	unsigned nrows;
	unsigned max_rows;   /* VGD_ACCT_ROWS, or fewer for tests */
	vgd_acct_row other;  /* uses that found no row (its key and uid mean nothing) */
	uint64_t overflowed; /* notes that went to other */
	uint64_t interval_ms, interval_start_ms; /* monotonic */
	struct {
		uint32_t uid;
		char name[VG_PROTO_MAX_KEY_NAME + 1];
	} names[VGD_ACCT_NAMES];
	unsigned nnames;
} vgd_acct;

/* An empty table; max_rows 0 means VGD_ACCT_ROWS (tests lower it),
 * interval_ms 0 means VGD_ACCT_INTERVAL_MS. */
void vgd_acct_init(vgd_acct *a, unsigned max_rows, uint64_t interval_ms, uint64_t now_ms);

/* One use of key (its index) by uid/pid with its outcome, at wall_ms
 * (Unix time in milliseconds). */
void vgd_acct_note(vgd_acct *a, uint32_t key, uint32_t uid, uint32_t pid,
		   enum vgd_acct_outcome outcome, uint64_t wall_ms);

/* At the front's tick (now_ms monotonic): once an interval has passed,
 * one log line per row used in it, keys named from keys[0, nkeys). */
void vgd_acct_tick(vgd_acct *a, uint64_t now_ms, const vgd_keyinfo *keys, size_t nkeys);

/* A new key set replaces old: the interval's lines are logged first
 * (under the old names); rows whose key is in the new set with the same
 * name and public key follow it to its new index, the others are dropped
 * with one log line per key. */
void vgd_acct_rekey(vgd_acct *a, const vgd_keyinfo *old, size_t nold, const vgd_keyinfo *keys,
		    size_t nkeys);

/* uid's user name for the log lines (NUL-terminated, cut to fit); past
 * VGD_ACCT_NAMES names, new uids are ignored. */
void vgd_acct_set_name(vgd_acct *a, uint32_t uid, const char *name);

/* The key index of name in keys, or -1 (a job that outlived its key set). */
long vgd_acct_key_index(const vgd_keyinfo *keys, size_t nkeys, const char *name);

/* The current wall clock in Unix milliseconds (CLOCK_REALTIME, vDSO). */
uint64_t vgd_acct_wall_ms(void);

#endif
