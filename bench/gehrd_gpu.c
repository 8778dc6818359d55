/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* gehrd_gpu_bench: the Hessenberg reduction's GPU work with no runtime in
 * between. Per panel, as hyla's CUDA codelets issue it, back to back on one
 * stream: the fused column loop (hyla__cuda_gehrd_columns), V and Y's top
 * rows, the trailing update (in groups of WIDTH columns).
 * Each part is timed with CUDA events; cuBLAS's GEMVs of the panels' shapes
 * are also timed alone (the floor as cuBLAS reaches it; the kernel's own
 * GEMV is faster). The difference with `hr_reduce N`'s time is what
 * StarPU's schedule and the matrix's trips over the bus add.
 * Usage: gehrd_gpu_bench [N [NB [WIDTH]]] (WIDTH: N, one update a step). */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "program.h"

static cublasHandle_t h;
static cudaStream_t stream;
static int n, nb, width;
static double *a, *y, *v, *t, *tau, *w, *scratch, *x;

static int check(int failed, const char *what)
{
	if (failed) {
		fprintf(stderr, "gehrd_gpu_bench: %s failed\n", what);
		exit(1);
	}
	return 0;
}

/* DGEHRD's update of columns c..c+cols-1 by panel col (r0 = col + 1), as the
 * codelet's two-pass GPU path does it (V follows Y in memory). */
static void update(int col, int c, int cols)
{
	const double one = 1, zero = 0, minus_one = -1;
	int r0 = col + 1, ldw = 2 * nb;
	double *ac = a + (size_t)c * n, *b = w + (size_t)nb * ldw, *bw = b + nb;
	cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, nb, n - r0, &one, v + r0, n, y + r0, n, &zero, w, ldw);
	cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, &one, v + c, n, &zero, b, ldw, b, ldw);
	cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, n - r0, &one, v + r0, n, ac + r0, n, &zero,
	            bw, ldw);
	cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, cols, nb, &minus_one, w, ldw, b, ldw, &one, bw, ldw);
	cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, nb,
	            cols, &one, t, nb, bw, ldw, bw, ldw);
	cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, cols, 2 * nb, &minus_one, y, n, b, ldw, &one, ac, n);
}

/* Y's rows above the panel and the panel's columns above the reduction. */
static void ytop(int col)
{
	const double one = 1, zero = 0, minus_one = -1;
	int r0 = col + 1;
	double *ap = a + (size_t)col * n;
	cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, r0, nb, n - r0, &one, ap + n, n, v + r0, n, &zero, y, n);
	cublasDtrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, r0,
	            nb, &one, t, nb, y, n, y, n);
	cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, r0, nb - 1, nb - 1, &minus_one, y, n, v + r0, n, &one,
	            ap + n, n);
}

static float elapsed(cudaEvent_t from, cudaEvent_t to)
{
	float ms;
	cudaEventElapsedTime(&ms, from, to);
	return ms;
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "gehrd_gpu_bench",
	                "usage: gehrd_gpu_bench [N [NB [WIDTH]]]\n"
	                "The Hessenberg reduction's GPU work with no runtime in between, each part timed\n"
	                "by CUDA events. Defaults: N 8000, NB 64, WIDTH N.\n");
	n = argc > 1 ? atoi(argv[1]) : 8000;
	nb = argc > 2 ? atoi(argv[2]) : 64;
	width = argc > 3 ? atoi(argv[3]) : n;
	if (n < 2 * nb || nb < 2 || nb > HYLA_GEHRD_MAX_NB || width < nb) {
		fprintf(stderr, "gehrd_gpu_bench: want N >= 2 NB, 2 <= NB <= %d, WIDTH >= NB\n",
		        HYLA_GEHRD_MAX_NB);
		return 2;
	}
	check(cublasCreate(&h) != CUBLAS_STATUS_SUCCESS, "cuBLAS's start (no GPU?)");
	check(cudaStreamCreate(&stream) != cudaSuccess, "cudaStreamCreate");
	cublasSetStream(h, stream);
	size_t elems = (size_t)n * n;
	double *host = malloc(elems * sizeof *host);
	check(!host, "malloc");
	srand(1);
	for (size_t i = 0; i < elems; i++)
		host[i] = 2.0 * rand() / RAND_MAX - 1;
	check(cudaMalloc((void **)&a, elems * sizeof *a) || cudaMalloc((void **)&y, (size_t)n * 2 * nb * 8) ||
	          cudaMalloc((void **)&t, (size_t)nb * nb * 8) ||
	          cudaMalloc((void **)&tau, (size_t)n * 8) || cudaMalloc((void **)&x, (size_t)n * 8) ||
	          cudaMalloc((void **)&w, (size_t)2 * nb * (n + nb) * 8) ||
	          cudaMalloc((void **)&scratch, HYLA_GEHRD_SCRATCH_ELEMS * 8),
	      "cudaMalloc");
	v = y + (size_t)n * nb; /* [Y V]: one matrix */
	cudaMemset(x, 0, (size_t)n * 8);
	int panels = (n + nb - 1) / nb - 1; /* the last goes to DGEHD2 on the host */
	cudaEvent_t *ev = malloc(sizeof *ev * (size_t)(4 * panels + 2));
	check(!ev, "malloc");
	for (int i = 0; i < 4 * panels + 2; i++)
		cudaEventCreate(&ev[i]);

	float part[3] = {0, 0, 0}, total = 0;
	for (int rep = 0; rep < 2; rep++) { /* a warm-up, then the timing */
		check(cudaMemcpy(a, host, elems * sizeof *a, cudaMemcpyHostToDevice) != cudaSuccess, "upload");
		cudaEventRecord(ev[4 * panels], stream);
		for (int k = 0; k < panels; k++) {
			int col = k * nb;
			cudaEventRecord(ev[4 * k], stream);
			hyla__cuda_gehrd_columns_d(n, nb, col + 1, a + (size_t)col * n, n, tau + col, t, nb, y, n,
			                           scratch, stream);
			cudaEventRecord(ev[4 * k + 1], stream);
			hyla__cuda_gehrd_build_v_d(n, nb, col + 1, a + (size_t)col * n, n, v, n, stream);
			ytop(col);
			cudaEventRecord(ev[4 * k + 2], stream);
			for (int c = col + nb; c < n; c += width)
				update(col, c, n - c < width ? n - c : width);
			cudaEventRecord(ev[4 * k + 3], stream);
		}
		cudaEventRecord(ev[4 * panels + 1], stream);
		check(cudaStreamSynchronize(stream) != cudaSuccess, "the reduction");
	}
	for (int k = 0; k < panels; k++)
		for (int p = 0; p < 3; p++)
			part[p] += elapsed(ev[4 * k + p], ev[4 * k + p + 1]);
	total = elapsed(ev[4 * panels], ev[4 * panels + 1]);

	/* The panels' GEMVs alone, same shapes, same order. */
	const double one = 1, zero = 0;
	cudaEventRecord(ev[0], stream);
	for (int k = 0; k < panels; k++)
		for (int j = 0, col = k * nb, rows = n - col - 1; j < nb; j++)
			cublasDgemv(h, CUBLAS_OP_N, rows, rows - j, &one, a + col + 1 + (size_t)(col + j + 1) * n,
			            n, x, 1, &zero, y, 1);
	cudaEventRecord(ev[1], stream);
	check(cudaStreamSynchronize(stream) != cudaSuccess, "the GEMVs");
	float gemvs = elapsed(ev[0], ev[1]);

	printf("# gehrd_gpu_bench n=%d nb=%d width=%d: %d panels, %d columns\n", n, nb, width, panels,
	       panels * nb);
	printf("| part | ms | us per column |\n| --- | --- | --- |\n");
	const char *names[] = {"column loop (cooperative kernel + GEMV per column)", "V and Y's top rows",
	                       "trailing updates"};
	for (int p = 0; p < 3; p++)
		printf("| %s | %.1f | %.2f |\n", names[p], part[p], 1e3 * part[p] / (panels * nb));
	printf("| cuBLAS's GEMVs of the same shapes, alone | %.1f | %.2f |\n", gemvs,
	       1e3 * gemvs / (panels * nb));
	printf("| the column loop beyond cuBLAS's GEMVs | %.1f | %.2f |\n", part[0] - gemvs,
	       1e3 * (part[0] - gemvs) / (panels * nb));
	printf("| total (first event to last) | %.1f | |\n", total);
	return 0;
}
