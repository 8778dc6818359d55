/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla's classical Gram-Schmidt codelets in an application's own graph, on
 * panels each of its own allocation and handle (apart in host memory, as
 * StarPU may hold a matrix's panels out of core): block CGS2 as hyla_dcgs builds it
 * from hyla_task_dcgs_project and hyla_task_dcgs_panel, the projections
 * taking the finished panels one run of memory after the other. Checks
 * ||A - QR||_F / ||A||_F and ||I - Q^T Q||_F at most 10 n eps, and R against
 * hyla_dcgs's on the same matrix within 100 n eps ||R||_F.
 * Usage: test_cgs_codelets [M N NB]. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla_codelets.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

/* Block CGS2 of the m-by-n a (column-major, ld m) into Q (over a) and R (n-by-n,
 * zeroed), panels of nb columns each copied into memory of its own. */
static int cgs2_by_codelets(int64_t m, int64_t n, int64_t nb, double *a, double *r)
{
	int64_t np = (n + nb - 1) / nb;
	double **mem = calloc((size_t)np, sizeof *mem);
	starpu_data_handle_t *panel = calloc((size_t)np, sizeof *panel);
	starpu_data_handle_t *rk = calloc((size_t)np, sizeof *rk);
	int ret = !mem || !panel || !rk;
	for (int64_t k = 0; k < np && !ret; k++) {
		int64_t c = k * nb, w = c + nb <= n ? nb : n - c;
		if (!(mem[k] = malloc(sizeof **mem * (size_t)(m * w)))) {
			ret = 1;
			break;
		}
		memcpy(mem[k], a + c * m, sizeof **mem * (size_t)(m * w));
		starpu_matrix_data_register(&panel[k], STARPU_MAIN_RAM, (uintptr_t)mem[k], (uint32_t)m,
		                            (uint32_t)m, (uint32_t)w, sizeof(double));
		starpu_matrix_data_register(&rk[k], STARPU_MAIN_RAM, (uintptr_t)(r + c * n), (uint32_t)n,
		                            (uint32_t)(c + w), (uint32_t)w, sizeof(double));
	}
	starpu_data_handle_t wproj = hyla_workspace_dcgs(n, nb, 1), wpanel = hyla_workspace_dcgs(n, nb, 0);
	for (int64_t k = 0; k < np && !ret; k++) {
		if (k > 0)
			ret = hyla_task_dcgs_project(panel[k], rk[k], wproj, panel, (int)k, 1, NULL);
		if (!ret)
			ret = hyla_task_dcgs_panel(panel[k], rk[k], wpanel, k * nb, 2, 0, NULL);
		if (!ret && k > 0)
			ret = hyla_task_dcgs_project(panel[k], rk[k], wproj, panel, (int)k, 2, NULL);
		if (!ret && k > 0)
			ret = hyla_task_dcgs_panel(panel[k], rk[k], wpanel, k * nb, 1, 1, NULL);
	}
	starpu_data_unregister_submit(wproj);
	starpu_data_unregister_submit(wpanel);
	starpu_task_wait_for_all();
	for (int64_t k = 0; k < np && panel && rk; k++) {
		int64_t c = k * nb, w = c + nb <= n ? nb : n - c;
		if (panel[k])
			starpu_data_unregister(panel[k]);
		if (rk[k])
			starpu_data_unregister(rk[k]);
		if (mem && mem[k])
			memcpy(a + c * m, mem[k], sizeof **mem * (size_t)(m * w));
	}
	for (int64_t k = 0; k < np && mem; k++)
		free(mem[k]);
	free(mem), free(panel), free(rk);
	return ret;
}

int main(int argc, char **argv)
{
	int64_t m = argc > 3 ? atoll(argv[1]) : 300, n = argc > 3 ? atoll(argv[2]) : 200;
	int64_t nb = argc > 3 ? atoll(argv[3]) : 48;
	if (m < n || n < 1 || nb < 1)
		return 2;
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0 || hyla_init() != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	size_t mn = (size_t)(m * n), nn = (size_t)(n * n);
	double *a0 = malloc(sizeof *a0 * mn), *q = malloc(sizeof *q * mn), *ref = malloc(sizeof *ref * mn);
	double *r = calloc(nn, sizeof *r), *rref = calloc(nn, sizeof *rref), *g = malloc(sizeof *g * nn);
	double *qr = malloc(sizeof *qr * mn);
	if (!a0 || !q || !ref || !r || !rref || !g || !qr) {
		fprintf(stderr, "test_cgs_codelets: no memory\n");
		return 2;
	}
	random_matrix(m, n, a0, m, 5);
	memcpy(q, a0, sizeof *q * mn);
	memcpy(ref, a0, sizeof *ref * mn);
	int ret = cgs2_by_codelets(m, n, nb, q, r);
	int ref_ret = hyla_dcgs(m, n, ref, m, rref, n, NULL);

	/* ||A - QR||_F / ||A||_F, ||I - Q^T Q||_F, ||R - R_hyla||_F / ||R||_F */
	memcpy(qr, a0, sizeof *qr * mn);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)n, -1, q, (int)m, r,
	            (int)n, 1, qr, (int)m);
	cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)n, (int)m, 1, q, (int)m, q,
	            (int)m, 0, g, (int)n);
	double resid = 0, norm = 0, orth = 0, rd = 0, rs = 0;
	for (size_t i = 0; i < mn; i++)
		resid += qr[i] * qr[i], norm += a0[i] * a0[i];
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++) {
			double d = g[i + j * n] - (i == j), e = r[i + j * n] - rref[i + j * n];
			orth += d * d, rd += e * e, rs += rref[i + j * n] * rref[i + j * n];
		}
	resid = sqrt(resid / norm), orth = sqrt(orth), rd = sqrt(rd / rs);
	double eps = 0x1p-53, tol = 10 * (double)n * eps;
	int ok = ret == 0 && ref_ret == 0 && resid <= tol && orth <= tol && rd <= 10 * tol;
	printf("public codelets: CGS2 %lldx%lld nb=%lld on panels apart in memory: resid %.2e, orth "
	       "%.2e (tol %.1e), R vs hyla_dcgs %.2e (tol %.1e) %s\n", (long long)m, (long long)n,
	       (long long)nb, resid, orth, tol, rd, 10 * tol, ok ? "pass" : "FAILED");
	free(a0), free(q), free(ref), free(r), free(rref), free(g), free(qr);
	hyla_finalize();
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
