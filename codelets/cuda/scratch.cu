/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Scratch memory for hyla's GPU codelets, in stream order, from a memory
// pool of hyla's own per device that keeps up to 64 MiB between uses (the
// scratches of n = 16000's panels and updates; past that, StarPU's data
// needs the memory more): the default pool gives its memory back at every
// synchronisation, and allocating a few MB afresh costs more than the
// kernels that use them.
#include <mutex>
#include "kernels.h"
#include "launch.h"

namespace {

#define MAX_DEVICES 64

std::mutex lock;
cudaMemPool_t pools[MAX_DEVICES];

cudaMemPool_t pool_of_this_device()
{
	int device;
	if (cudaGetDevice(&device) != cudaSuccess || device >= MAX_DEVICES)
		hyla_fail("the GPU scratch pool's device query");
	std::lock_guard<std::mutex> held(lock);
	if (!pools[device]) {
		cudaMemPoolProps props = {};
		props.allocType = cudaMemAllocationTypePinned;
		props.location.type = cudaMemLocationTypeDevice;
		props.location.id = device;
		uint64_t keep = uint64_t(64) << 20;
		if (cudaMemPoolCreate(&pools[device], &props) != cudaSuccess ||
		    cudaMemPoolSetAttribute(pools[device], cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
			hyla_fail("the GPU scratch pool's creation");
	}
	return pools[device];
}

} // namespace

extern "C" void *hyla__cuda_scratch(size_t bytes, cudaStream_t stream)
{
	void *ptr;
	if (cudaMallocFromPoolAsync(&ptr, bytes, pool_of_this_device(), stream) != cudaSuccess)
		hyla_fail("a GPU scratch allocation");
	return ptr;
}

extern "C" void hyla__cuda_scratch_free(void *ptr, cudaStream_t stream)
{
	cudaFreeAsync(ptr, stream);
}
