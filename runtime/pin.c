/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* An application's matrix page-locked for one synchronous call where a GPU
 * takes part. From pageable memory the CUDA driver stages every copy through
 * buffers of its own and the copy holds the thread that issues it (the H200
 * machine, 512 MB: up 67 ms, down 35-40 ms); page-locked the copies run
 * beside the tasks at 55 GB/s, for a lock of about 30 ms and a release of
 * 10-14 ms. Memory already page-locked (hyla_malloc's, an application's own)
 * is left as it is. Exactly the matrix's bytes are registered: CUDA refuses
 * a copy that spans registered and unregistered memory, and every copy of
 * the matrix's panels lies inside them (a neighbour on the same page
 * registers on its own). The calls run on the views' GPU, so that no other
 * device gets a context, and leave an error of the application's own
 * pending. */
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <cuda_runtime.h>
#endif

enum { PIN_FROM_BYTES = 1 << 20 }; /* below, the lock costs what it saves */

void *hyla__pin(void *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize)
{
#ifdef HYLA_WITH_CUDA
	size_t bytes = m > 0 && n > 0 ? (size_t)((n - 1) * ld + m) * elsize : 0;
	if (!ptr || bytes < PIN_FROM_BYTES)
		return NULL;
	int node = hyla__views_node(starpu_sched_ctx_get_context()), device; /* set on entry */
	if (node == STARPU_MAIN_RAM || cudaGetDevice(&device) != cudaSuccess)
		return NULL;
	cudaSetDevice(starpu_memory_node_get_devid((unsigned)node));
	struct cudaPointerAttributes at;
	int locked = 0;
	if (cudaPointerGetAttributes(&at, ptr) != cudaSuccess)
		cudaGetLastError(); /* not sticky: this call's own, cleared */
	else if (at.type == cudaMemoryTypeUnregistered) {
		/* Refused (another call holds some of these bytes, the driver's
		 * limits): the copies stay staged. */
		locked = cudaHostRegister(ptr, bytes, cudaHostRegisterPortable) == cudaSuccess;
		if (!locked)
			cudaGetLastError();
	}
	cudaSetDevice(device);
	return locked ? ptr : NULL;
#else
	(void)ptr, (void)m, (void)n, (void)ld, (void)elsize;
	return NULL;
#endif
}

void hyla__unpin(void *pinned)
{
#ifdef HYLA_WITH_CUDA
	if (pinned && cudaHostUnregister(pinned) != cudaSuccess)
		cudaGetLastError();
#else
	(void)pinned;
#endif
}
