/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla inside an application that started StarPU itself: hyla_dmgs must use
 * the caller's StarPU, leave it running, and give a correct factorisation. */
#include <cblas.h>
#include <math.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

int main(void)
{
	const int64_t m = 200, n = 120;
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *r = malloc(sizeof *r * n * n);
	random_matrix(m, n, a0, m, 5);
	memcpy(a, a0, sizeof *a * m * n);

	int failures = 0;
	for (int round = 0; round < 2; round++) {
		int info = hyla_dmgs(m, n, a, m, r, n, &(hyla_options){.nb = 32});
		double resid = qr_residual(m, n, a0, m, a, m, r, n);
		double orth = orthogonality(m, n, a, m);
		int ok = info == 0 && resid < 1e-13 && orth < 1e-12 && starpu_is_initialized();
		printf("embedded round %d: info=%d resid=%.2e orth=%.2e starpu_running=%d %s\n", round,
		       info, resid, orth, starpu_is_initialized(), ok ? "pass" : "FAILED");
		failures += !ok;
		memcpy(a, a0, sizeof *a * m * n);
	}
	free(a0), free(a), free(r);
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return failures;
}
