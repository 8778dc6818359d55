/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* A second stream per CUDA worker, for a codelet that runs two parts of its
 * work side by side (the Householder QR step: the next panel beside the
 * trailing update). Its priority is the highest, so that the side's blocks
 * take the multiprocessors as they free; it has its own cuBLAS handle (a
 * handle's workspace serves one stream at a time) and the events that fork
 * it from the worker's stream and join it back, so that StarPU sees the
 * task end after both. Each worker touches only its own: made by hyla_init
 * (a first call would pay for the cuBLAS handle, about 10 ms; both
 * handles' first GEMMs are made there too) or at a
 * worker's first use, released by hyla_finalize while StarPU runs. */
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <cublas_v2.h>
#include <starpu_cublas_v2.h>
#include <starpu_cuda.h>

struct side {
	cudaStream_t stream;
	cublasHandle_t blas;
	cudaEvent_t fork, join;
	int device;
};
static struct side sides[STARPU_NMAXWORKERS];

static struct side *side_of_this_worker(void)
{
	struct side *s = &sides[starpu_worker_get_id_check()];
	int least, greatest, device;
	if (cudaGetDevice(&device) != cudaSuccess)
		STARPU_ABORT_MSG("hyla: a CUDA worker without a device");
	if (s->stream && s->device != device) /* StarPU restarted, the worker on another GPU */
		*s = (struct side){0};
	s->device = device;
	if (!s->stream &&
	    (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess ||
	     cudaStreamCreateWithPriority(&s->stream, cudaStreamNonBlocking, greatest) != cudaSuccess ||
	     cublasCreate(&s->blas) != CUBLAS_STATUS_SUCCESS ||
	     cublasSetStream(s->blas, s->stream) != CUBLAS_STATUS_SUCCESS ||
	     cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming) != cudaSuccess ||
	     cudaEventCreateWithFlags(&s->join, cudaEventDisableTiming) != cudaSuccess))
		STARPU_ABORT_MSG("hyla: a CUDA worker's side stream could not be made");
	return s;
}

cudaStream_t hyla__side_fork(cublasHandle_t *blas)
{
	struct side *s = side_of_this_worker();
	if (cudaEventRecord(s->fork, starpu_cuda_get_local_stream()) != cudaSuccess ||
	    cudaStreamWaitEvent(s->stream, s->fork, 0) != cudaSuccess)
		STARPU_ABORT_MSG("hyla: the side stream's fork failed");
	*blas = s->blas;
	return s->stream;
}

void hyla__side_join(void)
{
	struct side *s = side_of_this_worker();
	if (cudaEventRecord(s->join, s->stream) != cudaSuccess ||
	    cudaStreamWaitEvent(starpu_cuda_get_local_stream(), s->join, 0) != cudaSuccess)
		STARPU_ABORT_MSG("hyla: the side stream's join failed");
}

/* A first GEMM on a cuBLAS handle pays cuBLAS's set-up: one tiny GEMM per
 * handle and precision at hyla_init takes it out of the first task (on an
 * H200 the Householder QR's first GPU panel took 48-76 ms without it, 20-32
 * ms with it, 0.5-0.7 ms once its own kernels had run). */
static void warm_up(cublasHandle_t blas, cudaStream_t stream, double *x)
{
	const double one = 1;
	const float one_s = 1;
	if (!blas)
		return;
	cublasSetStream(blas, stream);
	cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, x, 8, x, 8, &one, x + 64, 8);
	cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one_s, (float *)x, 8, (float *)x, 8,
	            &one_s, (float *)(x + 64), 8);
}

static void prepare_worker(void *arg)
{
	(void)arg;
	struct side *s = side_of_this_worker();
	double *x;
	if (cudaMalloc((void **)&x, sizeof *x * 128) != cudaSuccess)
		return; /* no warm-up: the first tasks pay for it */
	cudaMemset(x, 0, sizeof *x * 128);
	warm_up(starpu_cublas_get_local_handle(), starpu_cuda_get_local_stream(), x);
	warm_up(s->blas, s->stream, x);
	cudaDeviceSynchronize();
	cudaFree(x);
}

void hyla__side_streams_create(void)
{
	starpu_execute_on_each_worker(prepare_worker, NULL, STARPU_CUDA);
}

static void destroy_side(void *arg)
{
	(void)arg;
	struct side *s = &sides[starpu_worker_get_id_check()];
	if (!s->stream)
		return;
	cudaStreamSynchronize(s->stream);
	cublasDestroy(s->blas);
	cudaEventDestroy(s->fork);
	cudaEventDestroy(s->join);
	cudaStreamDestroy(s->stream);
	*s = (struct side){0};
}

void hyla__side_streams_destroy(void)
{
	starpu_execute_on_each_worker(destroy_side, NULL, STARPU_CUDA);
}
#endif
