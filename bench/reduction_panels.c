/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* reduction_panels_bench: the tridiagonal and bidiagonal reductions' GPU
 * panels alone (hyla__cuda_latrd_d, hyla__cuda_labrd_d: one persistent
 * kernel each), one panel of NB columns at the corner of an N-by-N matrix,
 * best of 4 by CUDA events; prints a table of µs per column beside the
 * bytes their SYMV or GEMVs read over the GPU's time (what is not
 * bandwidth is the panel's fixed cost per column).
 * Usage: reduction_panels_bench [NB [N ...]] (default 64, 8000 4000 2000 1000). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "program.h"

static void check(cudaError_t err, const char *what)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "reduction_panels_bench: %s: %s\n", what, cudaGetErrorString(err));
		exit(1);
	}
}

static void *device_alloc(size_t bytes)
{
	void *p;
	check(cudaMalloc(&p, bytes), "cudaMalloc");
	return p;
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "reduction_panels_bench",
	                "usage: reduction_panels_bench [NB [N ...]]\n"
	                "The tridiagonal and bidiagonal reductions' GPU panels alone, microseconds per column.\n"
	                "Defaults: NB 64, N 8000 4000 2000 1000.\n");
	int nb = argc > 1 ? atoi(argv[1]) : 64, defaults[] = {8000, 4000, 2000, 1000};
	int count = argc > 2 ? argc - 2 : 4;
	if (nb < 1 || nb > HYLA_REDUCTION_GPU_MAX_NB) {
		fprintf(stderr, "reduction_panels_bench: NB must be 1..%d\n", HYLA_REDUCTION_GPU_MAX_NB);
		return 1;
	}
	cudaStream_t stream;
	cudaEvent_t e0, e1;
	check(cudaStreamCreate(&stream), "stream");
	check(cudaEventCreate(&e0), "event");
	check(cudaEventCreate(&e1), "event");
	printf("| n | nb | tridiagonal µs/column | SYMV bytes / time | bidiagonal µs/column | "
	       "GEMVs' bytes / time |\n| --- | --- | --- | --- | --- | --- |\n");
	for (int k = 0; k < count; k++) {
		int n = argc > 2 ? atoi(argv[k + 2]) : defaults[k];
		if (n <= nb) {
			fprintf(stderr, "reduction_panels_bench: N must exceed NB\n");
			return 1;
		}
		size_t nn = (size_t)n * n;
		double *host = malloc(sizeof(double) * nn), *a = device_alloc(sizeof(double) * nn),
		       *copy = device_alloc(sizeof(double) * nn);
		double *x = device_alloc(sizeof(double) * n * nb), *y = device_alloc(sizeof(double) * n * nb);
		double *vec = device_alloc(sizeof(double) * 4 * nb);
		srand(1);
		for (size_t j = 0; j < (size_t)n; j++)
			for (size_t i = 0; i <= j; i++)
				host[i + j * n] = host[j + i * n] = rand() / (double)RAND_MAX - 0.5;
		check(cudaMemcpy(copy, host, sizeof(double) * nn, cudaMemcpyHostToDevice), "copy in");
		float best[2] = {1e30f, 1e30f};
		for (int rep = 0; rep < 4; rep++)
			for (int which = 0; which < 2; which++) {
				float ms;
				cudaMemcpyAsync(a, copy, sizeof(double) * nn, cudaMemcpyDeviceToDevice, stream);
				cudaEventRecord(e0, stream);
				if (which == 0)
					hyla__cuda_latrd_d(n, nb, a, n, vec, vec + nb, x, n, stream);
				else
					hyla__cuda_labrd_d(n, n, nb, a, n, vec, vec + nb, vec + 2 * nb, vec + 3 * nb, x,
					                   n, y, n, stream);
				cudaEventRecord(e1, stream);
				check(cudaEventSynchronize(e1), "the panel");
				cudaEventElapsedTime(&ms, e0, e1);
				best[which] = ms < best[which] ? ms : best[which];
			}
		double symv = 0, gemvs = 0; /* bytes: half the trailing matrix, twice all of it */
		for (int i = 0; i < nb; i++) {
			symv += 8.0 * (n - i - 1) * (n - i) / 2;
			gemvs += 8.0 * ((double)(n - i) * (n - i - 1) + (double)(n - i - 1) * (n - i - 1));
		}
		printf("| %d | %d | %.1f | %.2f TB/s | %.1f | %.2f TB/s |\n", n, nb, best[0] * 1e3 / nb,
		       symv / (best[0] * 1e-3) / 1e12, best[1] * 1e3 / nb, gemvs / (best[1] * 1e-3) / 1e12);
		free(host);
		cudaFree(a);
		cudaFree(copy);
		cudaFree(x);
		cudaFree(y);
		cudaFree(vec);
	}
	return 0;
}
