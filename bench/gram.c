/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* gram_bench: the Gram-Schmidt panels' cuBLAS calls on their shapes (m rows, a
 * panel of w columns), in double and single, microseconds a call: the Gram
 * matrix Q^T Q by SYRK (what the panels call) and by GEMM (twice the flops),
 * the triangular solve of the Cholesky QR (TRSM, right), and hyla's MGS
 * column kernel on a 32-column sub-panel. Matrices rotate through more memory
 * than the L2 cache holds. Usage: gram_bench [M]. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "program.h"
#include "rotating_timer.h"

#define ROTATE 8
#define REPS 32

enum call { SYRK, GEMM, TRSM, MGS_COLUMNS, CALLS };
static const char *const names[] = {"syrk Q^T Q", "gemm Q^T Q", "trsm Q R^-1", "hyla MGS columns"};

static cublasHandle_t h;
static void *x[ROTATE], *g, *scratch;

static void run(enum call c, char prec, int m, int w, int i)
{
	const double d1 = 1, d0 = 0;
	const float s1 = 1, s0 = 0;
	int d = prec == 'd';
	void *a = x[i % ROTATE];
	switch (c) {
	case SYRK:
		d ? cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, w, m, &d1, a, m, &d0, g, w)
		  : cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, w, m, &s1, a, m, &s0, g, w);
		break;
	case GEMM:
		d ? cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, m, &d1, a, m, a, m, &d0, g, w)
		  : cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, m, &s1, a, m, a, m, &s0, g, w);
		break;
	case TRSM:
		d ? cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
		                CUBLAS_DIAG_NON_UNIT, m, w, &d1, g, w, a, m)
		  : cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
		                CUBLAS_DIAG_NON_UNIT, m, w, &s1, g, w, a, m);
		break;
	case MGS_COLUMNS:
		d ? hyla__cuda_mgs_columns_d(m, 0, 32, a, m, g, 32, scratch, 0)
		  : hyla__cuda_mgs_columns_s(m, 0, 32, a, m, g, 32, scratch, 0);
		break;
	default: break;
	}
}

struct shape {
	enum call c;
	char prec;
	int m, w;
};

static void call(int i, void *arg)
{
	const struct shape *s = arg;
	run(s->c, s->prec, s->m, s->w, i);
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "gram_bench",
	                "usage: gram_bench [M]\n"
	                "The Gram-Schmidt panels' cuBLAS calls (SYRK, GEMM, TRSM) and hyla's MGS column\n"
	                "kernel on M-row panels, double and single, microseconds a call. Default M 8000.\n");
	int m = argc > 1 ? atoi(argv[1]) : 8000;
	if (m < 512 || m > 1 << 20) {
		fprintf(stderr, "gram_bench: M must be 512 to 1048576\n");
		return 2;
	}
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "gram_bench: no GPU (cuBLAS did not start)\n");
		return 1;
	}
	/* Orthonormal-ish data keeps the solves finite: identity columns. */
	size_t elems = (size_t)m * 512;
	double *ident = calloc(elems, sizeof *ident);
	for (int j = 0; j < 512; j++)
		ident[(size_t)j * m + j] = 1;
	for (int i = 0; i < ROTATE; i++)
		if (cudaMalloc(&x[i], elems * sizeof(double)) ||
		    cudaMemcpy(x[i], ident, elems * sizeof(double), cudaMemcpyHostToDevice))
			return 1;
	if (cudaMalloc(&g, 512 * 512 * sizeof(double)) ||
	    cudaMalloc(&scratch, HYLA_MGS_SCRATCH_ELEMS * sizeof(double)))
		return 1;
	double one = 1;
	float onef = 1;
	printf("| call | m | w | double (us) | single (us) | single / double |\n"
	       "| --- | --- | --- | --- | --- | --- |\n");
	int widths[] = {32, 128, 256, 512};
	for (int c = 0; c < CALLS; c++)
		for (int k = 0; k < 4; k++) {
			int w = widths[k];
			if (c == MGS_COLUMNS && w != 32)
				continue;
			double us[2];
			for (int p = 0; p < 2; p++) {
				/* R = I for the solves: its diagonal ones in the precision's bytes. */
				cudaMemset(g, 0, 512 * 512 * sizeof(double));
				for (int j = 0; j < w; j++)
					cudaMemcpy((char *)g + (size_t)(j + j * w) * (p ? 4 : 8), p ? (void *)&onef : (void *)&one,
					           p ? 4 : 8, cudaMemcpyHostToDevice);
				us[p] = rotating_us(call, &(struct shape){(enum call)c, p ? 's' : 'd', m, w}, ROTATE, REPS);
			}
			printf("| %s | %d | %d | %.1f | %.1f | %.2f |\n", names[c], m, w, us[0], us[1],
			       us[1] / us[0]);
		}
	free(ident);
	return cudaDeviceSynchronize() != cudaSuccess;
}
