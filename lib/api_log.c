/* api_log: the handle's log callback, called with no lock held.
 *
 * A note is made where the work is, often under one of the handle's locks
 * (the first JIT of a kernel under jit_lock); a callback that called back
 * into the library there would deadlock. So api_note only queues the line,
 * on the calling thread, with the callback it goes to, and the public
 * function delivers the queue as the last thing it does, when it holds no
 * lock and no longer touches the handle: the callback may then call any
 * function of the library, on this handle too, and even destroy it: the
 * notes of a handle still queued when this thread destroys it are dropped,
 * so no callback of it runs after ptxpose_destroy (its user data may be
 * gone). The thread's last error is kept across the callbacks. */
#include "lib/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct api_msg {
	struct api_msg *next;
	uintptr_t from;           /* the handle's id */
	ptxpose_log_fn fn;
	void *user;
	unsigned kind;
	char text[];
} api_msg;

static _Thread_local api_msg *queue_head, *queue_tail;

void api_note(ptxpose_handle h, unsigned kind, const char *text)
{
	if (!h->log_fn || !(h->log_kinds & kind))
		return;
	size_t len = strlen(text);
	api_msg *m = malloc(sizeof *m + len + 1);
	if (!m)
		return; /* out of memory: the note is lost, never the call */
	*m = (api_msg){.from = h->id, .fn = h->log_fn, .user = h->log_user, .kind = kind};
	memcpy(m->text, text, len + 1);
	if (queue_tail)
		queue_tail->next = m;
	else
		queue_head = m;
	queue_tail = m;
}

void api_log_flush(void)
{
	if (!queue_head)
		return;
	char last[1024];
	snprintf(last, sizeof last, "%s", ptxpose_last_error());
	while (queue_head) { /* each off the queue before its call: a callback's own calls deliver the rest */
		api_msg *m = queue_head;
		if (!(queue_head = m->next))
			queue_tail = NULL;
		m->fn(m->user, m->kind, m->text);
		free(m);
	}
	api_fail(PTXPOSE_OK, "%s", last);
}

void api_log_forget(uintptr_t from)
{
	api_msg **at = &queue_head;
	queue_tail = NULL;
	while (*at) {
		api_msg *m = *at;
		if (m->from == from) {
			*at = m->next;
			free(m);
		} else {
			queue_tail = m;
			at = &m->next;
		}
	}
}
