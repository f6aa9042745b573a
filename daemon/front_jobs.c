/* front_jobs.c: the front's job pool and job queues (see
 * front_internal.h), a leaf: it knows jobs, not connections or
 * keyholders (a job's connection is only an owner to compare). Holds no
 * key material: a job carries a client's input. */
#include "front_internal.h"

#include <stdlib.h>

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

/* ---- the pool ---- */
job *vgd_front_job_alloc(jobpool *p)
{
	job *j = p->spare;
	if (!j)
		return malloc(sizeof(*j));
	p->spare = j->next;
	p->nspare--;
	return j;
}

void vgd_front_job_free(jobpool *p, job *j)
{
	if (j->data != j->inline_data)
		free(j->data);
	j->data = NULL;
	if (p->nspare < JOB_SPARE_MAX) {
		j->next = p->spare;
		p->spare = j;
		p->nspare++;
		return;
	}
	free(j);
}

/* Remove and free the jobs in q that owner sent; returns how many. */
unsigned vgd_front_q_drop_owner(jobq *q, jobpool *p, const conn *owner)
{
	unsigned n = 0;
	for (job *j = q->head, *nx; j; j = nx) {
		nx = j->next;
		if (j->c == owner) {
			vgd_front_q_remove(q, j);
			vgd_front_job_free(p, j);
			n++;
		}
	}
	return n;
}
