/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* An application's own registered matrix, reduced by hyla in place:
 * test_wrap N NB
 * The application registers an N-by-N matrix (leading dimension N + 5),
 * doubles it with a task of its own, and (with a GPU) fetches it there;
 * hyla_matrix_wrap makes it an hyla matrix without a copy, the Hessenberg
 * reduction runs on it, hyla_matrix_destroy gives the handle back. Checks
 * ||2A - Q H Q^T||_F / (n ||2A||_F) and ||I - Q^T Q||_F / n at most 30 eps
 * (Q from LAPACK's dorghr), and under dmda with a GPU that the bytes that
 * crossed the bus between the wrap and the handle given back are fewer
 * than the matrix's each way (it stays on the GPU; panels that tasks on
 * the cores take cross). Also prints how long the wrap and the give-back
 * took, and for comparison hyla_matrix_create on a copy of the matrix in
 * host memory (the path that sends it whole).
 * Prints one line; exit status 0 pass, 1 fail, 77 no StarPU. */
#include <cblas.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla_async.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

static void double_cpu(void *buffers[], void *arg)
{
	(void)arg;
	double *a = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	size_t m = STARPU_MATRIX_GET_NX(buffers[0]), n = STARPU_MATRIX_GET_NY(buffers[0]);
	size_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < m; i++)
			a[i + j * ld] *= 2;
}

static struct starpu_codelet double_cl = {
	.cpu_funcs = {double_cpu}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "app_double"};

/* Bytes moved from main memory to other nodes (to_gpu) and back since the
 * last call (StarPU's bus profiling; the call resets the counters). */
static void bus_bytes(long long *to_gpu, long long *from_gpu)
{
	*to_gpu = *from_gpu = 0;
	for (int bus = 0; bus < starpu_bus_get_count(); bus++) {
		struct starpu_profiling_bus_info info;
		starpu_bus_get_profiling_info(bus, &info);
		if (starpu_bus_get_src(bus) == STARPU_MAIN_RAM)
			*to_gpu += info.transferred_bytes;
		else if (starpu_bus_get_dst(bus) == STARPU_MAIN_RAM)
			*from_gpu += info.transferred_bytes;
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_wrap N NB\n");
		return 2;
	}
	int64_t n = atoll(argv[1]), nb = atoll(argv[2]), ld = n + 5;
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	double *a = malloc(sizeof *a * (size_t)(ld * n)), *a0 = malloc(sizeof *a0 * (size_t)(n * n));
	double *tau = malloc(sizeof *tau * (size_t)n);
	random_matrix(n, n, a, ld, 9);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			a0[i + j * n] = 2 * a[i + j * ld];
	starpu_data_handle_t handle;
	starpu_matrix_data_register(&handle, STARPU_MAIN_RAM, (uintptr_t)a, (uint32_t)ld, (uint32_t)n,
	                            (uint32_t)n, sizeof(double));
	starpu_task_insert(&double_cl, STARPU_RW, handle, 0);
	int gpu = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
	if (gpu >= 0) { /* the application's matrix on the GPU before hyla has it */
		unsigned node = starpu_worker_get_memory_node(gpu);
		starpu_data_acquire_on_node(handle, (int)node, STARPU_R);
		starpu_data_release_on_node(handle, (int)node);
	}

	long long to_gpu, from_gpu;
	bus_bytes(&to_gpu, &from_gpu);
	double t0 = starpu_timing_now();
	hyla_matrix *m = hyla_matrix_wrap(handle, nb);
	double wrap_us = starpu_timing_now() - t0;
	hyla_sequence *seq = hyla_sequence_create();
	int info = m && seq ? hyla_dgehrd_async(m, tau, NULL, seq) : -1;
	if (seq)
		info = info ? info : hyla_sequence_wait(seq);
	hyla_sequence_destroy(seq);
	t0 = starpu_timing_now();
	hyla_matrix_destroy(m);
	double give_back_us = starpu_timing_now() - t0;
	bus_bytes(&to_gpu, &from_gpu);

	/* The copying path on the same sizes: a matrix in host memory,
	 * registered and sent to the GPU whole by hyla_matrix_create. */
	double *copy = hyla_malloc(sizeof *copy * (size_t)(n * n)), create_us = -1;
	if (copy) {
		memcpy(copy, a0, sizeof *copy * (size_t)(n * n));
		t0 = starpu_timing_now();
		hyla_matrix *c = hyla_matrix_create(copy, sizeof *copy, n, n, n, nb);
		create_us = starpu_timing_now() - t0;
		hyla_matrix_destroy(c);
		hyla_free(copy, sizeof *copy * (size_t)(n * n));
	}

	starpu_data_acquire(handle, STARPU_R);
	double resid = 1, orth = 1, eps = 0x1p-53, matrix = 8.0 * (double)(n * n);
	if (info == 0)
		hessenberg_residuals(n, a0, n, a, ld, tau, NULL, &resid, &orth);
	const char *sched = getenv("STARPU_SCHED");
	int moved_ok = gpu < 0 || !sched || strcmp(sched, "dmda") ||
	               (to_gpu < matrix && from_gpu < matrix);
	int ok = info == 0 && resid <= 30 * eps && orth <= 30 * eps && moved_ok;
	printf("wrapped handle %lld-by-%lld (ld %lld, nb %lld): info %d, resid %.2e, orth %.2e, bus "
	       "while hyla held it: %.1f MB to the GPU, %.1f MB back (the matrix: %.1f MB); wrap %.2f ms, "
	       "give back %.2f ms; hyla_matrix_create of a host copy %.2f ms %s\n",
	       (long long)n, (long long)n, (long long)ld, (long long)nb, info, resid, orth,
	       (double)to_gpu / 1e6, (double)from_gpu / 1e6, matrix / 1e6, wrap_us / 1e3,
	       give_back_us / 1e3, create_us / 1e3, ok ? "pass" : "FAILED");
	starpu_data_release(handle);
	starpu_data_unregister(handle);
	free(a), free(a0), free(tau);
	hyla_finalize();
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
