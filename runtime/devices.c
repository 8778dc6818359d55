/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Which GPUs a scheduling context's matrices live on. A matrix's column
 * panels are views of one handle, one matrix on the memory node it was
 * sent to: the first CUDA worker's of the context that registered it (the
 * host's in a context without one), or spread over the context's GPUs in
 * column blocks (runtime/desc.c). The codelets that treat consecutive
 * panels as one matrix run where their views are (runtime/views.c); each
 * context keeps its nodes, so two contexts can each have their own GPU.
 * The rest of a GPU's state is its workers' (StarPU's stream and cuBLAS
 * handle, hyla's side stream: runtime/side_stream.c) or the device's (the
 * scratch pool: codelets/cuda/scratch.cu), and the kernels ask the current
 * device for their launch shapes. */
#include "runtime.h"

/* Set when a call enters a context (hyla__devices_update), read by the
 * schedulers' can_execute calls, which must not scan the workers. */
static int views_node[STARPU_NMAX_SCHED_CTXS];
static int without_cores[STARPU_NMAX_SCHED_CTXS];
static int gpu_nodes[STARPU_NMAX_SCHED_CTXS][STARPU_MAXCUDADEVS], gpu_count[STARPU_NMAX_SCHED_CTXS];

int hyla__main_ram_nodes[HYLA_HOST_BODY_BUFFERS]; /* all STARPU_MAIN_RAM (0) */

int hyla__devices_update(unsigned ctx)
{
	if (ctx >= STARPU_NMAX_SCHED_CTXS)
		ctx = 0;
	int node = STARPU_MAIN_RAM, cores = 0, gpus = 0;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		if (ctx != 0 && !starpu_sched_ctx_contains_worker((int)w, ctx))
			continue;
		if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER) {
			cores++;
			continue;
		}
		if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER)
			continue;
		int here = (int)starpu_worker_get_memory_node(w), seen = 0;
		for (int g = 0; g < gpus; g++)
			seen |= gpu_nodes[ctx][g] == here;
		if (!seen && gpus < STARPU_MAXCUDADEVS)
			gpu_nodes[ctx][gpus++] = here;
	}
	if (gpus > 0)
		node = gpu_nodes[ctx][0];
	__atomic_store_n(&gpu_count[ctx], gpus, __ATOMIC_RELAXED);
	__atomic_store_n(&views_node[ctx], node, __ATOMIC_RELAXED);
	__atomic_store_n(&without_cores[ctx], cores == 0, __ATOMIC_RELAXED);
	hyla__cores_update(ctx, cores, node);
	return node;
}

int hyla__on_cores_else_gpu(unsigned worker, struct starpu_task *task, unsigned impl)
{
	(void)impl;
	unsigned ctx = task->sched_ctx < STARPU_NMAX_SCHED_CTXS ? task->sched_ctx : 0;
	return !hyla__is_cuda_worker(worker) || __atomic_load_n(&without_cores[ctx], __ATOMIC_RELAXED);
}

int hyla__gpu_nodes(unsigned ctx, const int **nodes)
{
	ctx = ctx < STARPU_NMAX_SCHED_CTXS ? ctx : 0;
	*nodes = gpu_nodes[ctx];
	return __atomic_load_n(&gpu_count[ctx], __ATOMIC_RELAXED);
}

int hyla__views_node(unsigned ctx)
{
	return __atomic_load_n(&views_node[ctx < STARPU_NMAX_SCHED_CTXS ? ctx : 0], __ATOMIC_RELAXED);
}
