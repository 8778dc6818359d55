/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What codelets over consecutive column-panel views (hyla__desc_register_views)
 * share: treating the panels as one matrix, where that holds, and the size
 * their performance models go by. */
#include "runtime.h"

int hyla__contiguous_cols(void *buffers[], int first, size_t elsize)
{
	return hyla__contiguous_range(buffers, first, hyla__task_buffers(starpu_task_get_current()),
	                              elsize);
}

int hyla__contiguous_range(void *buffers[], int first, int end, size_t elsize)
{
	char *base = (char *)STARPU_MATRIX_GET_PTR(buffers[first]);
	uint32_t ld = STARPU_MATRIX_GET_LD(buffers[first]);
	int cols = (int)STARPU_MATRIX_GET_NY(buffers[first]);
	for (int b = first + 1; b < end; b++) {
		if ((char *)STARPU_MATRIX_GET_PTR(buffers[b]) != base + (size_t)cols * ld * elsize ||
		    STARPU_MATRIX_GET_LD(buffers[b]) != ld)
			return 0;
		cols += (int)STARPU_MATRIX_GET_NY(buffers[b]);
	}
	return cols;
}

int hyla__next_run(void *buffers[], int *b, int end, size_t elsize)
{
	if (*b >= end)
		return 0;
	int first = (*b)++, cols = (int)STARPU_MATRIX_GET_NY(buffers[first]);
	char *base = (char *)STARPU_MATRIX_GET_PTR(buffers[first]);
	uint32_t ld = STARPU_MATRIX_GET_LD(buffers[first]);
	for (; *b < end && (char *)STARPU_MATRIX_GET_PTR(buffers[*b]) == base + (size_t)cols * ld * elsize &&
	       STARPU_MATRIX_GET_LD(buffers[*b]) == ld;
	     (*b)++)
		cols += (int)STARPU_MATRIX_GET_NY(buffers[*b]);
	return cols;
}

/* Combined workers (ids from starpu_worker_get_count() on) are groups of cores. */
int hyla__is_cuda_worker(unsigned worker)
{
	return worker < starpu_worker_get_count() &&
	       starpu_worker_get_type((int)worker) == STARPU_CUDA_WORKER;
}

/* Beyond the sizes a regression model has measured, a StarPU without hyla's
 * patch (patches/starpu-1.3.10-footprint-history.patch) has no prediction,
 * and dmda then runs the task on an idle core to calibrate it; so does any
 * StarPU for a model with no fit yet: seconds to
 * minutes where the GPU takes milliseconds (qr_cgs 50000 did not finish in
 * 10 minutes; hr_reduce 8000's first run took 95 s with its panels on
 * cores). So a core leaves a task to the GPU when one can run it and the
 * task's model's size base passes the bound. */
int hyla__leave_to_gpu(struct starpu_task *task, unsigned impl, size_t bound)
{
	const struct starpu_perfmodel *model = task->cl->model;
	return hyla__views_node(task->sched_ctx) != STARPU_MAIN_RAM && task->cl->cuda_funcs[0] &&
	       (task->where & STARPU_CUDA) && model && model->size_base &&
	       model->size_base(task, impl) > bound;
}

int hyla__fits_worker(unsigned worker, struct starpu_task *task, unsigned impl)
{
	return hyla__is_cuda_worker(worker) ||
	       !hyla__leave_to_gpu(task, impl, HYLA_CORE_MAX_WORK);
}

int hyla__task_home(struct starpu_task *task)
{
	int home = -1;
	for (int i = 0, n = hyla__task_buffers(task); i < n; i++) {
		intptr_t tag = (intptr_t)starpu_data_get_user_data(STARPU_TASK_GET_HANDLE(task, i));
		if (tag && (STARPU_TASK_GET_MODE(task, i) & STARPU_W))
			return (int)tag - 1;
		if (tag && home < 0)
			home = (int)tag - 1;
	}
	return home >= 0 ? home : hyla__views_node(task->sched_ctx);
}

int hyla__on_views_node(unsigned worker, struct starpu_task *task, unsigned impl)
{
	if (!hyla__is_cuda_worker(worker))
		return hyla__fits_worker(worker, task, impl);
	return (int)starpu_worker_get_memory_node(worker) == hyla__task_home(task);
}

int hyla__on_views_else_cores(unsigned worker, struct starpu_task *task, unsigned impl)
{
	if (hyla__is_cuda_worker(worker))
		return hyla__on_views_node(worker, task, impl);
	return hyla__views_node(task->sched_ctx) == STARPU_MAIN_RAM;
}

/* A core up to bound (the task's size base) when a GPU can take the task;
 * a GPU where the views live. */
static int on_core_within(unsigned worker, struct starpu_task *task, unsigned impl, size_t bound)
{
	if (!hyla__is_cuda_worker(worker))
		return !hyla__leave_to_gpu(task, impl, bound);
	return hyla__on_views_node(worker, task, impl);
}

int hyla__panel_on_views_node(unsigned worker, struct starpu_task *task, unsigned impl)
{
	return on_core_within(worker, task, impl, HYLA_CORE_MAX_PANEL);
}

int hyla__panel_within_width(unsigned worker, struct starpu_task *task, unsigned impl, int own,
                             size_t gpu_max)
{
	if (hyla__is_cuda_worker(worker) &&
	    (starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, own)) > gpu_max ||
	     hyla__task_buffers(task) <= own + 1))
		return 0;
	return hyla__panel_on_views_node(worker, task, impl);
}

int hyla__update_on_views_node(unsigned worker, struct starpu_task *task, unsigned impl)
{
	return on_core_within(worker, task, impl, HYLA_CORE_MAX_UPDATE);
}

size_t hyla__cols_from(struct starpu_task *task, unsigned first)
{
	size_t cols = 0;
	for (int b = (int)first, n = hyla__task_buffers(task); b < n; b++)
		cols += starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, b));
	return cols;
}

/* The size base alone does not tell tasks apart whose costs differ: one
 * product of several dimensions (the Hessenberg panel's n (n - col) leaves
 * out its width nb; a GEMV's rows times columns with or without the
 * panel's own part), or runs at other n and nb under one STARPU_HOME. So
 * the footprint is the size seeded with the buffers' sizes (StarPU's data
 * footprint); codelets with hidden arguments that change the cost (a
 * column offset, a pass) hash those into it too. StarPU keeps one history
 * entry per footprint and warns ("Too big deviation", "Incoherent flops")
 * when tasks of one footprint differ in time or in STARPU_FLOPS. */
uint32_t hyla__size_footprint(struct starpu_task *task)
{
	uint64_t size = task->cl->model->size_base(task, 0);
	return starpu_hash_crc32c_be_n(&size, sizeof size, starpu_task_data_footprint(task));
}
