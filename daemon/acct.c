/* acct.c: the per-key, per-uid use table (see acct.h). Holds no key
 * material. The index is open addressing with linear probing over twice
 * as many slots as rows, and rows are never removed one by one (only all
 * at once, by vgd_acct_rekey), so a probe ends at an empty slot within a
 * few steps and no tombstones are needed. */
#include "acct.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"

_Static_assert((VGD_ACCT_SLOTS & (VGD_ACCT_SLOTS - 1)) == 0, "slots: a power of two");
_Static_assert(VGD_ACCT_SLOTS >= 2 * VGD_ACCT_ROWS, "the index stays at most half full");
_Static_assert(VGD_ACCT_ROWS < UINT16_MAX, "a slot holds a row's index + 1");

static unsigned slot_of(uint32_t key, uint32_t uid)
{
	uint64_t h = ((uint64_t)key << 32 | uid) * 0x9e3779b97f4a7c15ull;
	return (unsigned)(h >> 40) & (VGD_ACCT_SLOTS - 1);
}

void vgd_acct_init(vgd_acct *a, unsigned max_rows, uint64_t interval_ms, uint64_t now_ms)
{
	memset(a, 0, sizeof(*a));
	a->max_rows = max_rows == 0 || max_rows > VGD_ACCT_ROWS ? VGD_ACCT_ROWS : max_rows;
	a->interval_ms = interval_ms ? interval_ms : VGD_ACCT_INTERVAL_MS;
	a->interval_start_ms = now_ms;
}

uint64_t vgd_acct_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The row of (key, uid): found, or made if there is room; NULL if not. */
static vgd_acct_row *row_for(vgd_acct *a, uint32_t key, uint32_t uid)
{
	unsigned s = slot_of(key, uid);
	for (;; s = (s + 1) & (VGD_ACCT_SLOTS - 1)) {
		unsigned r = a->slot[s];
		if (r == 0)
			break;
		vgd_acct_row *row = &a->rows[r - 1];
		if (row->key == key && row->uid == uid)
			return row;
	}
	if (a->nrows >= a->max_rows)
		return NULL;
	vgd_acct_row *row = &a->rows[a->nrows++];
	memset(row, 0, sizeof(*row));
	row->key = key;
	row->uid = uid;
	a->slot[s] = (uint16_t)a->nrows;
	return row;
}

static void count(vgd_acct_row *row, uint32_t pid, enum vgd_acct_outcome outcome, uint64_t wall_ms)
{
	switch (outcome) {
	case VGD_ACCT_OK:
		row->ok++;
		row->iv_ok++;
		break;
	case VGD_ACCT_ERROR:
		row->errors++;
		row->iv_errors++;
		break;
	case VGD_ACCT_REFUSED:
		row->refused++;
		row->iv_refused++;
		break;
	}
	row->last_ms = wall_ms;
	row->last_pid = pid;
}

void vgd_acct_note(vgd_acct *a, uint32_t key, uint32_t uid, uint32_t pid,
		   enum vgd_acct_outcome outcome, uint64_t wall_ms)
{
	vgd_acct_row *row = row_for(a, key, uid);
	if (!row) {
		row = &a->other;
		a->overflowed++;
	}
	count(row, pid, outcome, wall_ms);
}

void vgd_acct_set_name(vgd_acct *a, uint32_t uid, const char *name)
{
	unsigned i = 0;
	while (i < a->nnames && a->names[i].uid != uid)
		i++;
	if (i == VGD_ACCT_NAMES)
		return;
	if (i == a->nnames)
		a->nnames++;
	a->names[i].uid = uid;
	snprintf(a->names[i].name, sizeof(a->names[i].name), "%s", name);
}

/* " (name)" for a uid the supervisor named, else "". At most one line
 * per row and interval asks: a walk of VGD_ACCT_NAMES is cheap there. */
static void name_of(const vgd_acct *a, uint32_t uid, char *buf, size_t cap)
{
	buf[0] = 0;
	for (unsigned i = 0; i < a->nnames; i++)
		if (a->names[i].uid == uid) {
			snprintf(buf, cap, " (%s)", a->names[i].name);
			return;
		}
}

/* The interval's line of one row, and its interval counts cleared. The
 * KEY= and UID= fields at the end are for grep and journalctl --grep:
 * vgd logs plain lines to stderr, which the journal stores as MESSAGE.
 * The front may not read /etc/passwd (no open under its sandbox): the
 * user name is the supervisor's (vgd_acct_set_name), for the uids the
 * keys' ACLs name; other uids are numbers. */
static void log_row(vgd_acct *a, vgd_acct_row *row, const char *name)
{
	if (row->iv_ok == 0 && row->iv_errors == 0 && row->iv_refused == 0)
		return;
	unsigned secs = (unsigned)((a->interval_ms + 999) / 1000);
	if (row == &a->other)
		vgd_info("keys past the use table's %u rows: %u sign, %u errors, %u refused in the "
			 "last %u s KEY=* UID=*",
			 a->max_rows, row->iv_ok, row->iv_errors, row->iv_refused, secs);
	else {
		char user[VG_PROTO_MAX_KEY_NAME + 4];
		name_of(a, row->uid, user, sizeof(user));
		vgd_info("key %s: %u sign, %u errors, %u refused for uid %u%s in the last %u s "
			 "(last pid %u) KEY=%s UID=%u",
			 name, row->iv_ok, row->iv_errors, row->iv_refused, (unsigned)row->uid,
			 user, secs, (unsigned)row->last_pid, name, (unsigned)row->uid);
	}
	row->iv_ok = row->iv_errors = row->iv_refused = 0;
}

static void log_interval(vgd_acct *a, const vgd_keyinfo *keys, size_t nkeys)
{
	for (unsigned i = 0; i < a->nrows; i++) {
		vgd_acct_row *row = &a->rows[i];
		log_row(a, row, row->key < nkeys ? keys[row->key].name : "?");
	}
	log_row(a, &a->other, "");
}

void vgd_acct_tick(vgd_acct *a, uint64_t now_ms, const vgd_keyinfo *keys, size_t nkeys)
{
	if (vgd_ms_since(now_ms, a->interval_start_ms) < a->interval_ms)
		return;
	a->interval_start_ms = now_ms;
	log_interval(a, keys, nkeys);
}

long vgd_acct_key_index(const vgd_keyinfo *keys, size_t nkeys, const char *name)
{
	for (size_t i = 0; i < nkeys; i++)
		if (strcmp(keys[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* The index in keys of the key old[i] still is (same name and public
 * key), or -1. */
static long same_key(const vgd_keyinfo *o, const vgd_keyinfo *keys, size_t nkeys)
{
	long j = vgd_acct_key_index(keys, nkeys, o->name);
	if (j < 0 || keys[j].type != o->type || keys[j].pub_len != o->pub_len ||
	    memcmp(keys[j].pub, o->pub, o->pub_len) != 0)
		return -1;
	return j;
}

void vgd_acct_rekey(vgd_acct *a, const vgd_keyinfo *old, size_t nold, const vgd_keyinfo *keys,
		    size_t nkeys)
{
	log_interval(a, old, nold);
	/* Rows are compacted in place (their order kept) and reindexed. A key
	 * is looked up once per row: a reload is rare and rows are few. */
	unsigned kept = 0;
	uint8_t said[VGD_MAX_KEYS] = {0}; /* the keys whose reset was logged */
	memset(a->slot, 0, sizeof(a->slot));
	for (unsigned i = 0; i < a->nrows; i++) {
		vgd_acct_row row = a->rows[i];
		long j = row.key < nold ? same_key(&old[row.key], keys, nkeys) : -1;
		if (j < 0) {
			if (row.key < nold && row.key < VGD_MAX_KEYS && !said[row.key]) {
				said[row.key] = 1;
				vgd_info("key %s: use counts reset: the reload removed or replaced "
					 "it KEY=%s",
					 old[row.key].name, old[row.key].name);
			}
			continue;
		}
		row.key = (uint32_t)j;
		unsigned s = slot_of(row.key, row.uid);
		while (a->slot[s] != 0)
			s = (s + 1) & (VGD_ACCT_SLOTS - 1);
		a->rows[kept++] = row;
		a->slot[s] = (uint16_t)kept;
	}
	a->nrows = kept;
}
