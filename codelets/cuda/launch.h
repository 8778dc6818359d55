/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Included by hyla's .cu files: a kernel that cannot launch (no code for this
// GPU's architecture, bad configuration) must not pass silently.
#ifndef HYLA_CUDA_LAUNCH_H
#define HYLA_CUDA_LAUNCH_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static inline void hyla_check_launch(const char *kernel)
{
	cudaError_t err = cudaGetLastError();
	if (err != cudaSuccess) {
		std::fprintf(stderr, "hyla: CUDA kernel %s did not launch: %s (is hyla built for this "
		             "GPU's architecture? see CMAKE_CUDA_ARCHITECTURES)\n",
		             kernel, cudaGetErrorString(err));
		std::abort();
	}
}

// A library call that failed on the GPU (out of memory, bad handle).
static inline void hyla_fail(const char *what)
{
	std::fprintf(stderr, "hyla: %s failed\n", what);
	std::abort();
}

#endif
