/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The performance models checked against a later run: with
 * HYLA_MODELS_CHECK=FILE, every hyla task (but the first of its shape in
 * the process) adds at its end the prediction
 * the scheduler made for it (task->predicted: dmda's, from its model on the
 * worker kind it chose) and its measured time (StarPU's task profiling) to
 * its model's sums for that kind of worker; hyla_finalize appends them to
 * FILE, a line a model and kind:
 *   symbol<TAB>kind<TAB>tasks<TAB>unpredicted<TAB>sum |p - t|<TAB>sum t<TAB>
 *   the largest |p - t|<TAB>that task's t<TAB>sum over shapes |P - T|  (us)
 * (P, T: a shape's tasks' predictions and times in all).
 * hyla_models_ready reads them back (perfmodels/README.md).
 * HYLA_MODELS_CHECK_TASKS=FILE appends the tasks one by one to FILE (what a
 * model is fitted from and judged by, for finding why one is off):
 *   symbol<TAB>kind<TAB>footprint<TAB>start<TAB>predicted<TAB>measured  (us)
 * after a line with the run's command. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

#define CHECKED_MAX 128 /* models x worker kinds */

/* A shape's (footprint's) tasks together: what they were predicted and
 * took in all. */
struct shape_total {
	uint32_t footprint;
	double predicted_us, measured_us;
};

struct checked {
	const char *symbol;
	char kind[64];
	long tasks, unpredicted;
	double error_us, measured_us, worst_error_us, worst_measured_us;
	struct shape_total *shapes;
	int nshapes;
};

static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;
static struct checked checked[CHECKED_MAX];
static int nchecked, checking = -1; /* -1: HYLA_MODELS_CHECK not looked at yet */
static FILE *task_log;
static double started_us;
static long expected; /* tasks submitted while checking whose end is not seen yet */

/* A task shape's first run in a process pays one-time costs that no model
 * of its size predicts: CUDA loads a kernel at its first launch (cuBLAS's
 * among them, chosen by shape), library set-ups. On an H200 the first tasks
 * of a process took 26-160 ms where the same shapes took 0.1-4 ms after
 * (loading every kernel at the start, CUDA_MODULE_LOADING=EAGER, took the
 * Hessenberg update's first from 35 to 3.7 ms). So a shape's first task
 * (model, kind of worker, footprint) is not judged: the check runs each
 * driver twice in a process. The shapes seen, in an open-addressed set; a
 * full set judges every task. */
#define SHAPES (1 << 16)
static uint64_t shapes[SHAPES];

static int first_of_shape(const struct starpu_perfmodel *model, int kind, uint32_t footprint)
{
	uint64_t key = ((uint64_t)(uintptr_t)model * 0x9e3779b97f4a7c15u) ^
	               ((uint64_t)(unsigned)kind << 32) ^ footprint;
	if (!key)
		key = 1; /* 0 marks a free slot */
	for (uint64_t i = key % SHAPES, probes = 0; probes < SHAPES; i = (i + 1) % SHAPES, probes++) {
		if (shapes[i] == key)
			return 0;
		if (!shapes[i]) {
			shapes[i] = key;
			return 1;
		}
	}
	return 0;
}

/* A run's tasks start with its command line and whether StarPU calibrated. */
static void log_command(FILE *log)
{
	char line[512] = "";
	FILE *cmd = fopen("/proc/self/cmdline", "r");
	size_t n = cmd ? fread(line, 1, sizeof line - 1, cmd) : 0;
	if (cmd)
		fclose(cmd);
	for (size_t i = 0; i + 1 < n; i++)
		if (!line[i])
			line[i] = ' ';
	const char *calibrate = getenv("STARPU_CALIBRATE");
	fprintf(log, "# %s (STARPU_CALIBRATE=%s)\n", line, calibrate ? calibrate : "");
}

int hyla__model_checking(void)
{
	return __atomic_load_n(&checking, __ATOMIC_RELAXED) > 0;
}

int hyla__model_check_start(void)
{
	pthread_mutex_lock(&check_lock);
	if (checking < 0) {
		const char *log = getenv("HYLA_MODELS_CHECK_TASKS");
		if (log && *log && !(task_log = fopen(log, "a")))
			fprintf(stderr, "hyla: cannot write the models' tasks to %s\n", log);
		if (task_log)
			log_command(task_log);
		checking = (getenv("HYLA_MODELS_CHECK") && *getenv("HYLA_MODELS_CHECK")) || task_log;
		started_us = starpu_timing_now();
	}
	pthread_mutex_unlock(&check_lock);
	if (checking)
		starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	return checking;
}

void hyla__model_check_expect(int tasks)
{
	__atomic_add_fetch(&expected, tasks, __ATOMIC_RELEASE);
}

static void add_to_shape(struct checked *c, uint32_t footprint, double predicted, double measured)
{
	int i = 0;
	while (i < c->nshapes && c->shapes[i].footprint != footprint)
		i++;
	if (i == c->nshapes) {
		struct shape_total *more = realloc(c->shapes, sizeof *more * (size_t)(i + 1));
		if (!more)
			return; /* the shapes' column then covers the shapes seen */
		c->shapes = more, c->nshapes++;
		c->shapes[i] = (struct shape_total){footprint, 0, 0};
	}
	c->shapes[i].predicted_us += predicted, c->shapes[i].measured_us += measured;
}

/* sum over shapes |predicted - measured| of their totals. */
static double shapes_error(const struct checked *c)
{
	double error = 0;
	for (int i = 0; i < c->nshapes; i++)
		error += fabs(c->shapes[i].predicted_us - c->shapes[i].measured_us);
	return error;
}

static void check(struct starpu_task *task)
{
	struct starpu_profiling_task_info *info = task ? task->profiling_info : NULL;
	if (!info || !task->cl || !task->cl->model || !task->cl->model->symbol || info->workerid < 0)
		return;
	if (task->execute_on_a_specific_worker)
		return; /* all the cores' (runtime/spmd.c): no model placed it */
	struct starpu_perfmodel_arch *arch =
		starpu_worker_get_perf_archtype(info->workerid, task->sched_ctx);
	char kind[64];
	starpu_perfmodel_get_arch_name(arch, kind, sizeof kind, 0);
	double measured = starpu_timing_timespec_delay_us(&info->start_time, &info->end_time);
	double predicted = task->predicted;
	/* Worked out at the submission (runtime/submit.c): the handles may be
	 * gone by now, so nothing here may read them. */
	struct starpu_perfmodel *model = task->cl->model;
	uint32_t footprint = starpu_task_footprint(model, task, arch, starpu_task_get_implementation(task));
	pthread_mutex_lock(&check_lock);
	if (task_log)
		fprintf(task_log, "%s\t%s\t%08x\t%.0f\t%.1f\t%.1f\n", model->symbol, kind, footprint,
		        starpu_timing_timespec_to_us(&info->start_time) - started_us, predicted, measured);
	int first = first_of_shape(model, starpu_perfmodel_arch_comb_get(arch->ndevices, arch->devices),
	                           footprint);
	struct checked *c = checked;
	while (c < checked + nchecked && (strcmp(c->symbol, task->cl->model->symbol) || strcmp(c->kind, kind)))
		c++;
	if (c == checked + nchecked && nchecked < CHECKED_MAX) {
		nchecked++;
		*c = (struct checked){.symbol = task->cl->model->symbol};
		snprintf(c->kind, sizeof c->kind, "%s", kind);
	}
	if (c < checked + CHECKED_MAX && !first) {
		int unpredicted = isnan(predicted) || predicted <= 0;
		double error = unpredicted ? measured : fabs(predicted - measured);
		c->tasks++;
		c->unpredicted += unpredicted;
		c->measured_us += measured, c->error_us += error;
		if (error > c->worst_error_us)
			c->worst_error_us = error, c->worst_measured_us = measured;
		add_to_shape(c, footprint, unpredicted ? 0 : predicted, measured);
	}
	pthread_mutex_unlock(&check_lock);
}

void hyla__model_check_task(struct starpu_task *task)
{
	check(task);
	hyla__model_check_expect(-1);
}

void hyla__model_check_write(void)
{
	const char *path = getenv("HYLA_MODELS_CHECK");
	/* The last tasks' ends (a few microseconds after the caller's wait;
	 * ten seconds at most). */
	for (int waits = 0; __atomic_load_n(&expected, __ATOMIC_ACQUIRE) > 0 && waits < 100000; waits++)
		starpu_sleep(0.0001f);
	pthread_mutex_lock(&check_lock);
	if (task_log)
		fflush(task_log);
	FILE *f = checking > 0 && nchecked && path && *path ? fopen(path, "a") : NULL;
	if (checking > 0 && nchecked && path && *path && !f)
		fprintf(stderr, "hyla: cannot write the models' check to %s\n", path);
	for (int i = 0; f && i < nchecked; i++)
		fprintf(f, "%s\t%s\t%ld\t%ld\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", checked[i].symbol,
		        checked[i].kind, checked[i].tasks, checked[i].unpredicted, checked[i].error_us,
		        checked[i].measured_us, checked[i].worst_error_us, checked[i].worst_measured_us,
		        shapes_error(&checked[i]));
	if (f)
		fclose(f);
	for (int i = 0; i < nchecked; i++)
		free(checked[i].shapes);
	nchecked = 0;
	pthread_mutex_unlock(&check_lock);
}
