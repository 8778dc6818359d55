/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Which GPU a scheduling context's matrices live on. A matrix's column
 * panels are views of one handle, one matrix on the memory node it was
 * sent to: the first CUDA worker's of the context that registered it (the
 * host's in a context without one). The codelets that treat consecutive
 * panels as one matrix run there (runtime/views.c); each context keeps its
 * node, so two contexts can each have their own GPU. The rest of a GPU's
 * state is its workers' (StarPU's stream and cuBLAS handle, hyla's side
 * stream: runtime/side_stream.c) or the device's (the scratch pool:
 * codelets/cuda/scratch.cu), and the kernels ask the current device for
 * their launch shapes. */
#include "runtime.h"

/* Set when a call enters a context (hyla__devices_update), read by the
 * schedulers' can_execute calls, which must not scan the workers. */
static int views_node[STARPU_NMAX_SCHED_CTXS];

int hyla__devices_update(unsigned ctx)
{
	if (ctx >= STARPU_NMAX_SCHED_CTXS)
		ctx = 0;
	int node = STARPU_MAIN_RAM;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++)
		if (starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER &&
		    (ctx == 0 || starpu_sched_ctx_contains_worker((int)w, ctx))) {
			node = (int)starpu_worker_get_memory_node(w);
			break;
		}
	__atomic_store_n(&views_node[ctx], node, __ATOMIC_RELAXED);
	return node;
}

int hyla__views_node(unsigned ctx)
{
	return __atomic_load_n(&views_node[ctx < STARPU_NMAX_SCHED_CTXS ? ctx : 0], __ATOMIC_RELAXED);
}
