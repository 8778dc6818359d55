/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The GPU micro-benchmarks' timer: a call's microseconds on the default
 * stream (CUDA events), averaged over reps calls after one call on each of
 * the rotate matrices it cycles through (more memory than the L2 cache
 * holds, so no call finds its data there). call(i) runs the i-th call. */
#ifndef HYLA_BENCH_ROTATING_TIMER_H
#define HYLA_BENCH_ROTATING_TIMER_H

#include <cuda_runtime.h>

static double rotating_us(void (*call)(int i, void *arg), void *arg, int rotate, int reps)
{
	cudaEvent_t start, stop;
	cudaEventCreate(&start);
	cudaEventCreate(&stop);
	for (int i = 0; i < rotate; i++)
		call(i, arg);
	cudaEventRecord(start, 0);
	for (int i = 0; i < reps; i++)
		call(i, arg);
	cudaEventRecord(stop, 0);
	cudaEventSynchronize(stop);
	float ms;
	cudaEventElapsedTime(&ms, start, stop);
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return ms * 1e3 / reps;
}

#endif
