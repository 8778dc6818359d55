/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* level2_bench: Milde and Schneider's Level-2 kernels (hyla's dot-product kernel with a
 * tree reduction, and its rank-1 update) against cuBLAS GEMV^T and GER on
 * the shapes the vector variant of qr_cgs meets (m rows, a panel of columns),
 * as bandwidth: bytes moved / time, and as a fraction of cuBLAS's GEMV on
 * the whole 8000-by-8000 matrix in the same run. Matrices rotate through
 * more memory than the L2 cache holds. Usage: level2_bench [M]. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "program.h"
#include "rotating_timer.h"

#define ROTATE 8
#define REPS 64

static cublasHandle_t h;
static double *x[ROTATE], *q, *r, *scratch;

enum kernel { HYLA_DOTS, CUBLAS_GEMV, HYLA_RANK1, CUBLAS_GER };
static const char *const names[] = {"hyla dots (tree)", "cuBLAS dgemv^T", "hyla rank-1",
                                    "cuBLAS dger"};

static void run(enum kernel k, int m, int ncols, int ld, int i)
{
	const double one = 1, zero = 0, minus_one = -1;
	double *a = x[i % ROTATE];
	switch (k) {
	case HYLA_DOTS: hyla__cuda_cgs_dots_d(m, ncols, a, ld, q, r, 1, scratch, 0); break;
	case CUBLAS_GEMV: cublasDgemv(h, CUBLAS_OP_T, m, ncols, &one, a, ld, q, 1, &zero, r, 1); break;
	case HYLA_RANK1: hyla__cuda_cgs_rank1_d(m, ncols, a, ld, q, r, 1, 0); break;
	case CUBLAS_GER: cublasDger(h, m, ncols, &minus_one, q, 1, r, 1, a, ld); break;
	}
}

struct shape {
	enum kernel k;
	int m, ncols, ld;
};

static void call(int i, void *arg)
{
	const struct shape *s = arg;
	run(s->k, s->m, s->ncols, s->ld, i);
}

/* Microseconds per call. */
static double time_us(enum kernel k, int m, int ncols, int ld)
{
	struct shape s = {k, m, ncols, ld};
	return rotating_us(call, &s, ROTATE, REPS);
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "level2_bench",
	                "usage: level2_bench [M]\n"
	                "hyla's Level-2 Gram-Schmidt kernels against cuBLAS GEMV^T and GER, as bandwidth.\n"
	                "Default M 8000.\n");
	int m = argc > 1 ? atoi(argv[1]) : 8000;
	if (m < 8000) {
		fprintf(stderr, "level2_bench: M must be >= 8000\n");
		return 2;
	}
	size_t elems = (size_t)m * 8000;
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "level2_bench: no GPU (cuBLAS did not start)\n");
		return 1;
	}
	for (int i = 0; i < ROTATE; i++)
		if (cudaMalloc((void **)&x[i], elems * sizeof(double)) ||
		    cudaMemset(x[i], 0, elems * sizeof(double)))
			return 1;
	if (cudaMalloc((void **)&q, (size_t)m * sizeof(double)) ||
	    cudaMalloc((void **)&r, 8000 * sizeof(double)) ||
	    cudaMalloc((void **)&scratch, HYLA_CGS_SCRATCH_ELEMS * sizeof(double)) ||
	    cudaMemset(q, 0, (size_t)m * sizeof(double)) || cudaMemset(r, 0, 8000 * sizeof(double)))
		return 1;
	double full = time_us(CUBLAS_GEMV, m, 8000, m);
	double full_bw = (double)m * 8000 * 8 / full * 1e-3;
	printf("# cuBLAS dgemv^T %d x 8000: %.1f us, %.0f GB/s (the reference below)\n", m, full, full_bw);
	printf("| kernel | m | columns | us | GB/s | of the reference |\n| --- | --- | --- | --- | --- | --- |\n");
	int widths[] = {32, 64, 128, 256};
	for (int w = 0; w < 4; w++)
		for (int k = 0; k < 4; k++) {
			int ncols = widths[w];
			double us = time_us((enum kernel)k, m, ncols, m);
			double bytes = (double)m * ncols * 8 * (k >= HYLA_RANK1 ? 2 : 1);
			double bw = bytes / us * 1e-3;
			printf("| %s | %d | %d | %.2f | %.0f | %.0f%% |\n", names[k], m, ncols, us, bw,
			       100 * bw / full_bw);
		}
	/* The blocked panel's leaf: 32 columns, one or two passes, per column. */
	double *t;
	if (cudaMalloc((void **)&t, 32 * 32 * sizeof(double)))
		return 1;
	printf("\n| panel leaf (32 columns, %d rows) | us per column |\n| --- | --- |\n", m);
	for (int passes = 1; passes <= 2; passes++) {
		cudaEvent_t start, stop;
		cudaEventCreate(&start);
		cudaEventCreate(&stop);
		/* The identity's first columns: orthonormal, so repeating is harmless. */
		const double one = 1;
		cudaMemset(x[0], 0, (size_t)m * 32 * sizeof(double));
		for (int j = 0; j < 32; j++)
			cudaMemcpy(x[0] + (size_t)j * m + j, &one, sizeof one, cudaMemcpyHostToDevice);
		cudaEventRecord(start, 0);
		for (int i = 0; i < REPS; i++)
			hyla__cuda_cgs_panel_d(m, 32, passes, x[0], m, t, 32, scratch, 0);
		cudaEventRecord(stop, 0);
		cudaEventSynchronize(stop);
		float ms;
		cudaEventElapsedTime(&ms, start, stop);
		printf("| %s | %.2f |\n", passes == 1 ? "CGS (1 launch per column)" : "CGS2 (2 launches per column)",
		       ms * 1e3 / REPS / 32);
	}
	return cudaDeviceSynchronize() != cudaSuccess;
}
