/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The performance models checked against a later run: with
 * HYLA_MODELS_CHECK=FILE, every hyla task adds at its end the prediction
 * the scheduler made for it (task->predicted: dmda's, from its model on the
 * worker kind it chose) and its measured time (StarPU's task profiling) to
 * its model's sums for that kind of worker; hyla_finalize appends them to
 * FILE, a line a model and kind:
 *   symbol<TAB>kind<TAB>tasks<TAB>unpredicted<TAB>sum |p - t|<TAB>sum t  (us)
 * hyla_models_ready reads them back (perfmodels/README.md). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

#define CHECKED_MAX 128 /* models x worker kinds */

struct checked {
	const char *symbol;
	char kind[64];
	long tasks, unpredicted;
	double error_us, measured_us;
};

static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;
static struct checked checked[CHECKED_MAX];
static int nchecked, checking = -1; /* -1: HYLA_MODELS_CHECK not looked at yet */

int hyla__model_checking(void)
{
	return __atomic_load_n(&checking, __ATOMIC_RELAXED) > 0;
}

int hyla__model_check_start(void)
{
	pthread_mutex_lock(&check_lock);
	if (checking < 0)
		checking = getenv("HYLA_MODELS_CHECK") && *getenv("HYLA_MODELS_CHECK");
	pthread_mutex_unlock(&check_lock);
	if (checking)
		starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	return checking;
}

void hyla__model_check_task(struct starpu_task *task)
{
	struct starpu_profiling_task_info *info = task->profiling_info;
	if (!info || !task->cl || !task->cl->model || !task->cl->model->symbol || info->workerid < 0)
		return;
	struct starpu_perfmodel_arch *arch =
		starpu_worker_get_perf_archtype(info->workerid, task->sched_ctx);
	char kind[64];
	starpu_perfmodel_get_arch_name(arch, kind, sizeof kind, 0);
	double measured = starpu_timing_timespec_delay_us(&info->start_time, &info->end_time);
	double predicted = task->predicted;
	pthread_mutex_lock(&check_lock);
	struct checked *c = checked;
	while (c < checked + nchecked && (strcmp(c->symbol, task->cl->model->symbol) || strcmp(c->kind, kind)))
		c++;
	if (c == checked + nchecked && nchecked < CHECKED_MAX) {
		nchecked++;
		c->symbol = task->cl->model->symbol;
		snprintf(c->kind, sizeof c->kind, "%s", kind);
	}
	if (c < checked + CHECKED_MAX) {
		c->tasks++;
		c->measured_us += measured;
		if (isnan(predicted) || predicted <= 0)
			c->unpredicted++, c->error_us += measured;
		else
			c->error_us += fabs(predicted - measured);
	}
	pthread_mutex_unlock(&check_lock);
}

void hyla__model_check_write(void)
{
	const char *path = getenv("HYLA_MODELS_CHECK");
	pthread_mutex_lock(&check_lock);
	FILE *f = checking > 0 && nchecked && path ? fopen(path, "a") : NULL;
	if (checking > 0 && nchecked && !f)
		fprintf(stderr, "hyla: cannot write the models' check to %s\n", path);
	for (int i = 0; f && i < nchecked; i++)
		fprintf(f, "%s\t%s\t%ld\t%ld\t%.1f\t%.1f\n", checked[i].symbol, checked[i].kind,
		        checked[i].tasks, checked[i].unpredicted, checked[i].error_us,
		        checked[i].measured_us);
	if (f)
		fclose(f);
	nchecked = 0;
	pthread_mutex_unlock(&check_lock);
}
