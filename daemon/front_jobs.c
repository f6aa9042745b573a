/* front_jobs.c: the front's jobs (see front_internal.h). Holds no key
 * material: a job carries a client's input; results pass through on their
 * way to the client (an X25519 result is a shared secret: the staging
 * frame is wiped once the reply is queued). The job pool and queues, and
 * vgd_front_answer(): every request ends here exactly once. */
#include "front_internal.h"

#include <stdlib.h>

#include "stats.h"
#include "vg/proto.h"
#include "vg/wipe.h"

/* ---- job queues ---- */
void vgd_front_q_push_tail(jobq *q, job *j)
{
	j->next = NULL;
	j->prev = q->tail;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	q->len++;
}

void vgd_front_q_push_head(jobq *q, job *j)
{
	j->prev = NULL;
	j->next = q->head;
	if (q->head)
		q->head->prev = j;
	else
		q->tail = j;
	q->head = j;
	q->len++;
}

void vgd_front_q_remove(jobq *q, job *j)
{
	if (j->prev)
		j->prev->next = j->next;
	else
		q->head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		q->tail = j->prev;
	j->next = j->prev = NULL;
	q->len--;
}

job *vgd_front_job_alloc(front *f)
{
	job *j = f->spare;
	if (!j)
		return malloc(sizeof(*j));
	f->spare = j->next;
	f->nspare--;
	return j;
}

void vgd_front_job_free(front *f, job *j)
{
	if (j->data != j->inline_data)
		free(j->data);
	j->data = NULL;
	if (f->nspare < JOB_SPARE_MAX) {
		j->next = f->spare;
		f->spare = j;
		f->nspare++;
		return;
	}
	free(j);
}

void vgd_front_send_error(front *f, conn *c, uint8_t op, uint32_t id, int status,
			  const char *reason)
{
	long n = vg_error_encode(op, id, (uint8_t)status, reason, f->frame, sizeof(f->frame));
	vgd_front_conn_send(c, f->frame, n);
}

/* Every request ends here exactly once (directly or through a job). */
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

void vgd_front_job_finish(front *f, job *j, int status, const uint8_t *res, size_t rlen,
		       const char *reason)
{
	conn *c = j->c;
	vgd_front_answer(f, c, j->op, j->req_id, status, res, rlen, reason, j->t_start_us);
	c->inflight--;
	vgd_front_job_free(f, j);
	if (c->dead) {
		if (c->inflight == 0)
			vgd_front_conn_release(f, c);
		return;
	}
	if (c->eof && c->inflight == 0)
		c->closing = 1;
	if (c->closing) {
		vgd_front_conn_maybe_finish(f, c);
		return;
	}
	vgd_front_conn_maybe_resume(f, c);
}
