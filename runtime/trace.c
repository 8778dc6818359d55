/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The schedule of hyla's tasks, for pictures of it: while a trace is on,
 * every task records at its end the worker that ran it, its codelet, when it
 * became ready, its start and end (StarPU's task profiling). */
#include <pthread.h>
#include <stdlib.h>
#include "runtime.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static hyla_trace_event *events;
static size_t count, capacity;
static int tracing;
static double origin_us;

void hyla_trace_start(void)
{
	pthread_mutex_lock(&trace_lock);
	free(events);
	events = NULL;
	count = capacity = 0;
	__atomic_store_n(&tracing, 1, __ATOMIC_RELAXED);
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	origin_us = starpu_timing_now();
	pthread_mutex_unlock(&trace_lock);
}

size_t hyla_trace_stop(hyla_trace_event **out)
{
	pthread_mutex_lock(&trace_lock);
	__atomic_store_n(&tracing, 0, __ATOMIC_RELAXED);
	*out = events;
	size_t n = count;
	events = NULL;
	count = capacity = 0;
	pthread_mutex_unlock(&trace_lock);
	return n;
}

void hyla__task_done(void *arg)
{
	(void)arg;
	int traced = __atomic_load_n(&tracing, __ATOMIC_RELAXED), checked = hyla__model_checking();
	if (!traced && !checked)
		return; /* every task passes here: nothing when no one traces or checks */
	struct starpu_task *task = starpu_task_get_current();
	if (checked)
		hyla__model_check_task(task);
	if (!traced)
		return;
	pthread_mutex_lock(&trace_lock);
	struct starpu_profiling_task_info *info = task ? task->profiling_info : NULL;
	if (tracing && info) {
		if (count == capacity) {
			size_t grown = capacity ? 2 * capacity : 1024;
			hyla_trace_event *more = realloc(events, sizeof *more * grown);
			if (more)
				events = more, capacity = grown;
		}
		if (count < capacity)
			events[count++] = (hyla_trace_event){
				.codelet = task->cl && task->cl->name ? task->cl->name : "task",
				.worker = info->workerid,
				.ready = (starpu_timing_timespec_to_us(&info->push_start_time) - origin_us) * 1e-6,
				.start = (starpu_timing_timespec_to_us(&info->start_time) - origin_us) * 1e-6,
				.end = (starpu_timing_timespec_to_us(&info->end_time) - origin_us) * 1e-6};
	}
	pthread_mutex_unlock(&trace_lock);
}
