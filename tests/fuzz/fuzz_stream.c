/* fuzz_stream.c: libFuzzer target for stream reassembly as the daemon does
 * it: the input is a byte stream fed in pseudo-random chunks into a bounded
 * receive buffer; the frames found, their decode results and the final
 * outcome must equal those of a one-shot parse of the whole stream. Headers
 * are judged as the daemon judges a request stream (vg_request_frame_check:
 * the request rules with the header). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "vg/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 8192
/* Every frame is at least 16 bytes, so this bounds the events to fit. */
#define MAX_STREAM ((MAX_EVENTS - 2) * VG_PROTO_HDR_LEN)

/* One event per frame, then one for the end of the connection. */
struct event {
	size_t off, len; /* frame position in the stream (frames only) */
	int status;      /* decode status of a frame, or the closing status */
	uint32_t id;     /* request id of the frame, or of the error reply */
	int is_end;
};

struct transcript {
	struct event ev[MAX_EVENTS];
	size_t n;
};

static struct transcript whole, chunked;
static uint8_t rbuf[VG_PROTO_MAX_FRAME]; /* the daemon's receive buffer */

static void add(struct transcript *t, struct event e)
{
	CHECK(t->n < MAX_EVENTS);
	t->ev[t->n++] = e;
}

/* A frame is complete: decode it as the daemon would. Returns 1 if the
 * connection must close after the reply. */
static int on_frame(struct transcript *t, const uint8_t *f, size_t len, size_t off)
{
	vg_request req;
	const char *why;
	int st = vg_request_decode(f, len, &req, &why);
	struct event e = { off, len, st, req.id, 0 };

	add(t, e);
	return vg_status_closes(st);
}

/* Reference: the whole stream is in memory at once. */
static void parse_whole(const uint8_t *s, size_t size)
{
	size_t off = 0;
	vg_frame_hdr h;

	whole.n = 0;
	for (;;) {
		long n = vg_request_frame_check(s + off, size - off, &h, NULL);
		if (n < 0) {
			add(&whole, (struct event){ off, 0, (int)-n, h.id, 1 });
			return;
		}
		if (n == 0) {
			/* End of stream: the leftover partial frame, if any. */
			add(&whole, (struct event){ off, size - off, 0, 0, 1 });
			return;
		}
		if (on_frame(&whole, s + off, (size_t)n, off)) {
			add(&whole, (struct event){ off + (size_t)n, 0, -1, 0, 1 });
			return;
		}
		off += (size_t)n;
	}
}

/* xorshift32: chunk sizes from a seed in the input, so libFuzzer explores
 * the split points too. */
static uint32_t rng(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* The daemon's loop: read a chunk into the free space, then take every
 * complete frame off the front of the buffer. */
static void parse_chunked(const uint8_t *s, size_t size, uint32_t seed, uint32_t maxchunk)
{
	size_t fed = 0, have = 0, consumed = 0;
	vg_frame_hdr h;

	chunked.n = 0;
	for (;;) {
		long n = vg_request_frame_check(rbuf, have, &h, NULL);
		if (n < 0) {
			add(&chunked, (struct event){ consumed, 0, (int)-n, h.id, 1 });
			return;
		}
		if (n > 0) {
			CHECK((size_t)n <= have);
			if (on_frame(&chunked, rbuf, (size_t)n, consumed)) {
				add(&chunked, (struct event){ consumed + (size_t)n, 0, -1, 0, 1 });
				return;
			}
			memmove(rbuf, rbuf + n, have - (size_t)n);
			have -= (size_t)n;
			consumed += (size_t)n;
			continue;
		}
		if (fed == size) {
			add(&chunked, (struct event){ consumed, have, 0, 0, 1 });
			return;
		}
		/* Need more: the buffer can never be full here, because a
		 * frame that passed the header check fits it. */
		CHECK(have < sizeof rbuf);
		size_t want = 1 + rng(&seed) % maxchunk;
		size_t space = sizeof rbuf - have;
		if (want > space)
			want = space;
		if (want > size - fed)
			want = size - fed;
		memcpy(rbuf + have, s + fed, want);
		have += want;
		fed += want;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t seed, maxchunk;

	/* 4 bytes of seed, 1 byte choosing the chunk scale, then the stream. */
	if (size < 5)
		return 0;
	seed = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
	seed |= 1; /* xorshift must not start at 0 */
	maxchunk = data[4] & 0x80 ? 1u + (data[4] & 0x7f) * 600u : 1u + (data[4] & 0x1f);
	data += 5;
	size -= 5;
	if (size > MAX_STREAM)
		size = MAX_STREAM;

	parse_whole(data, size);
	parse_chunked(data, size, seed, maxchunk);
	CHECK(whole.n == chunked.n);
	for (size_t i = 0; i < whole.n; i++) {
		const struct event *a = &whole.ev[i], *b = &chunked.ev[i];
		CHECK(a->off == b->off && a->len == b->len && a->status == b->status);
		CHECK(a->id == b->id && a->is_end == b->is_end);
	}
	return 0;
}
