/* front_reply.c: the front's answers (see front_internal.h): every
 * request ends here exactly once, answered at once (local operations,
 * refusals) or through its job. Holds no key material, but results pass
 * through on their way to the client (an X25519 result is a shared
 * secret: the staging frame is wiped once the reply is queued). Calls
 * only down: the connection's output and bookkeeping, the job pool. */
#include "front_internal.h"

#include "stats.h"
#include "vg/proto.h"
#include "vg/wipe.h"

void vgd_front_send_error(front *f, conn *c, uint8_t op, uint32_t id, int status,
			  const char *reason)
{
	long n = vg_error_encode(op, id, (uint8_t)status, reason, f->frame, sizeof(f->frame));
	vgd_front_conn_send(c, f->frame, n);
}

/* A frame refused from its header (front_read.c): a reply to it, or a
 * connection error when it has no readable header or a reserved opcode
 * (the codec's rule, vg_frame_error_encode). */
void vgd_front_send_frame_error(front *f, conn *c, const vg_frame_hdr *h, int why)
{
	long n = vg_frame_error_encode(h, why, f->frame, sizeof(f->frame));
	vgd_front_conn_send(c, f->frame, n);
}

void vgd_front_answer(front *f, conn *c, uint8_t op, uint32_t id, int status, const uint8_t *res,
		      size_t rlen, const char *reason, uint64_t t_start_us)
{
	vgd_stats_record(&f->stats, op, status, vgd_now_us() - t_start_us);
	if (status != VG_ST_OK) {
		vgd_front_send_error(f, c, op, id, status, reason);
		return;
	}
	vg_writer w;
	vg_frame_begin(&w, f->frame, sizeof(f->frame), op | VG_OP_REPLY, VG_ST_OK, id);
	vg_put(&w, VG_T_RESULT, res, rlen);
	vgd_front_conn_send(c, f->frame, vg_frame_end(&w));
	/* An X25519 result is a shared secret: the connection's output
	 * buffer has it now; the staging frame keeps no copy (w.len: what
	 * was written, never past the buffer). */
	vg_wipe(f->frame, w.len);
}

/* Count a job's outcome in its key's row. A job from before a reload
 * finds its key by name in the new set; one whose key went is not
 * counted (its rows were reset, acct.h). */
static void job_acct(front *f, const job *j, int status)
{
	long ki = j->key_gen == f->generation ? (long)j->key_index
					      : vgd_acct_key_index(f->keys, f->nkeys, j->key);
	if (ki >= 0 && (size_t)ki < f->nkeys)
		vgd_front_acct(f, j->c, (size_t)ki, vgd_acct_outcome_of(status));
}

/* A job's one answer. The job must be in no queue. Its connection may
 * read on afterwards, but not here: it is queued for the loop (see
 * vgd_front_conn_job_done), so a reply never parses requests. */
void vgd_front_job_finish(front *f, job *j, int status, const uint8_t *res, size_t rlen,
			  const char *reason)
{
	conn *c = j->c;
	job_acct(f, j, status);
	vgd_front_answer(f, c, j->op, j->req_id, status, res, rlen, reason, j->t_start_us);
	vgd_front_job_free(&f->pool, j);
	vgd_front_conn_job_done(f, c);
}
