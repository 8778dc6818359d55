/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The first stage of the two-stage bidiagonal reduction, singular values
 * only (Ltaief, Luszczek and Dongarra 2013): the m-by-n A (m >= n) to an
 * upper band of b superdiagonals, one step task every b columns. Step at
 * column c, w = min(b, n - c):
 *   A(c:m, c:c+w) = Q R (QR), Q^T on A(c:m, c+w:n);
 *   A(c:c+w, c+w:n) = L P (LQ, k = min(w, n - c - w) reflectors), P^T on
 *   A(c+w:m, c+w:n),
 * both block reflectors applied as Level-3 work: by cuBLAS on the GPU that
 * holds the views, else each core its columns (Q^T) or its rows (P^T) by
 * xLARFB. The LQ is the QR of the row block's transpose, a copy: LAPACK's
 * xGELQF on the block in place strides across A's columns (svd 8000 on 16
 * cores 8.2 s, core 0 busy 3.3 s while the others waited; 6.3 s so). R
 * and L lie in the band (the LQ is skipped where the row block lies in it
 * already); Q's reflectors stay below it. A last task gathers the band
 * into the chase's storage (codelets/gb2bd.c). Typed source: see
 * runtime/precision.h. */
#include <lapacke.h>
#include <string.h>
#include "codelets.h"
#include "spmd_team.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define AT(i, c) base[(int64_t)(i) + (int64_t)(c) * (3 * (int64_t)b - 1)]

struct ge2gb_args {
	struct hyla_team_arg team; /* first: zeroed at submission */
	int64_t col, first, n, b;  /* the step's column, its first panel's, A's columns, the band */
};

/* Whether the step at column c has work: a QR of more than one row, or a
 * row block reaching past the band. */
static int step_has_work(int64_t m, int64_t n, int64_t c, int64_t b)
{
	return m - c > 1 || n - c - 1 > b;
}

/* One step's matrices, from the first panel's pointer. */
struct step {
	real_t *p, *row; /* A(c, c), A(c, c + w) */
	int lda, b, w, mc, nc, k, lq;
};

static struct step step_of(void *buffers[], const struct ge2gb_args *arg)
{
	if (!hyla__contiguous_cols(buffers, 0, sizeof(real_t)))
		STARPU_ABORT_MSG("ge2gb step: the panels are not contiguous");
	int lda = LD(buffers[0]), n = (int)arg->n, b = (int)arg->b, c = (int)arg->col;
	int w = n - c < b ? n - c : b, nc = n - c - w;
	real_t *p = MAT(buffers[0]) + (int64_t)(c - arg->first) * lda + c;
	return (struct step){.p = p, .row = p + (int64_t)w * lda, .lda = lda, .b = b, .w = w,
	                     .mc = ROWS(buffers[0]) - c, .nc = nc, .k = w < nc ? w : nc,
	                     .lq = n - c - 1 > b};
}

/* On a combined worker of the cores (or one core): core 0 factors the
 * panel, every core applies Q^T to its columns; core 0 factors the row
 * block, every core applies P^T to its rows. */
static void step_cpu(void *buffers[], void *cl_arg)
{
	struct ge2gb_args *arg = cl_arg;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	struct step st = step_of(buffers, arg);
	int lda = st.lda, b = st.b, w = st.w, mc = st.mc, nc = st.nc, k = st.k, lq = st.lq;
	real_t *p = st.p, *row = st.row;
	int most = (mc > nc ? mc : nc) / size + 1;
	struct team t;
	/* Common: tau, T, xGEQRF's work, the row block's transpose (nc by w);
	 * a core's slot: its xLARFB work (its columns' or rows' share, w wide). */
	if (!team_join(&t, &arg->team, rank, size,
	               b + (int64_t)b * b + 64 * (int64_t)b + (lq ? (int64_t)nc * w : 0), most * b))
		STARPU_ABORT_MSG("ge2gb step: no memory for the cores' work");
	real_t *tau = t.common + C_FREE, *tt = tau + b, *work = tt + (int64_t)b * b;
	real_t *vt = work + 64 * (int64_t)b; /* the row block's reflectors, as columns */
	real_t *mine = team_slot(&t, rank) + S_DOTS;
	if (rank == 0 && mc > 1) {
		LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, mc, w, p, lda, tau, work, 64 * b);
		TYPED(hyla__larft_host)(mc, w, p, lda, tau, tt, b);
	}
	team_wait(&t);
	int j0 = (int)((int64_t)nc * rank / size), j1 = (int)((int64_t)nc * (rank + 1) / size);
	if (mc > 1 && j1 > j0)
		LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', mc, j1 - j0, w, p, lda, tt, b,
		                    row + (int64_t)j0 * lda, lda, mine, j1 - j0);
	team_wait(&t);
	if (lq && rank == 0) {
		for (int j = 0; j < nc; j++)
			for (int i = 0; i < w; i++)
				vt[j + (int64_t)i * nc] = row[i + (int64_t)j * lda];
		LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, nc, w, vt, nc, tau, work, 64 * b);
		TYPED(hyla__larft_host)(nc, k, vt, nc, tau, tt, b);
		for (int i = 0; i < w; i++) /* L = R^T */
			for (int j = 0; j <= i && j < k; j++)
				row[i + (int64_t)j * lda] = vt[j + (int64_t)i * nc];
	}
	team_wait(&t);
	int rows = mc - w, i0 = (int)((int64_t)rows * rank / size),
	    i1 = (int)((int64_t)rows * (rank + 1) / size);
	if (lq && i1 > i0)
		LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'R', 'N', 'F', 'C', i1 - i0, nc, k, vt, nc, tt, b,
		                    row + w + i0, lda, mine, i1 - i0);
	team_leave(&t);
}

#ifdef HYLA_WITH_CUDA
/* The same on the worker's stream: the panels' QR and T by hyla's kernels
 * (the row block's transpose by GEAM, and back), the rest cuBLAS. A row
 * block of fewer columns than rows (k < w) takes the QR of its square part
 * and Q^T on the rest, as LAPACK's xGEQRF would. */
static void step_cuda(void *buffers[], void *cl_arg)
{
	struct step s = step_of(buffers, cl_arg);
	int b = s.b, w = s.w, k = s.k, nc = s.nc, rows = s.mc - w, wide = nc > w ? nc : w;
	cudaStream_t stream = starpu_cuda_get_local_stream();
	cublasHandle_t h = starpu_cublas_get_local_handle();
	size_t elems = (size_t)b + (size_t)b * b + HYLA_GEQR2_SCRATCH_ELEMS + (size_t)b * wide +
	               (s.lq ? (size_t)nc * w + (size_t)nc * k + 2 * (size_t)rows * k : 0);
	real_t *tau = hyla__cuda_scratch(sizeof *tau * elems, stream);
	real_t *tt = tau + b, *qr = tt + (size_t)b * b, *work = qr + HYLA_GEQR2_SCRATCH_ELEMS;
	real_t *vt = work + (size_t)b * wide, *e = vt + (size_t)nc * w, *x = e + (size_t)nc * k;
	real_t *xt = x + (size_t)rows * k;
	const real_t one = 1, zero = 0, minus_one = -1;
	if (s.mc > 1) {
		TYPED(hyla__cuda_geqrf_panel)(s.mc, w, s.p, s.lda, tau, tt, b, qr, h, stream);
		if (nc > 0)
			TYPED(hyla__cublas_larfb)(h, 1, s.mc, w, nc, s.p, s.lda, tt, b, s.row, s.lda, work);
	}
	if (s.lq) {
		hyla__cublas_check(CUBLAS(geam)(h, CUBLAS_OP_T, CUBLAS_OP_N, nc, w, &one, s.row, s.lda, &zero, vt, nc,
		                   vt, nc));
		TYPED(hyla__cuda_geqrf_panel)(nc, k, vt, nc, tau, tt, b, qr, h, stream);
		if (k < w)
			TYPED(hyla__cublas_larfb)(h, 1, nc, k, w - k, vt, nc, tt, b, vt + (int64_t)k * nc, nc,
			                          work);
		hyla__cublas_check(CUBLAS(geam)(h, CUBLAS_OP_T, CUBLAS_OP_N, w, nc, &one, vt, nc, &zero, s.row, s.lda,
		                   s.row, s.lda)); /* L = R^T (the reflectors past the band) */
		/* A(c+w:m, c+w:n) -= (C V) T V^T */
		TYPED(hyla__cuda_explicit_v)(nc, k, vt, nc, e, stream);
		real_t *c = s.row + w;
		hyla__cublas_check(CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, k, nc, &one, c, s.lda, e, nc, &zero,
		                   x, rows));
		hyla__cublas_check(CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, k, k, &one, x, rows, tt, b, &zero, xt,
		                   rows));
		hyla__cublas_check(CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, rows, nc, k, &minus_one, xt, rows, e, nc,
		                   &one, c, s.lda));
	}
	hyla__cuda_scratch_free(tau, stream);
}
#endif

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {step_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_else_cores,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "ge2gb_step_" PREC_NAME,
};

int TYPED(hyla__insert_ge2gb_steps)(const hyla_desc *A, int64_t b)
{
	int ret = HYLA_SUCCESS;
	for (int64_t c = 0; ret == HYLA_SUCCESS && c < A->n; c += b) {
		if (!step_has_work(A->m, A->n, c, b))
			continue;
		int64_t k = c / A->nb;
		struct ge2gb_args arg = {.col = c, .first = k * A->nb, .n = A->n, .b = b};
		ret = hyla__submit_on_panels((struct hyla_task){.cl = &step_cl, .arg = &arg,
		                                                .arg_size = sizeof arg,
		                                                .priority = hyla__parallel_prio(STARPU_MAX_PRIO),
		                                                .all_cores = 1},
		                             &A->tiles[k], (int)(A->nt - k), STARPU_RW, STARPU_RW);
	}
	return ret;
}

/* Band entry (i, c), c - b <= i <= c, from the matrix into the chase's
 * storage (codelets/gb2bd.c), the fill's places zero. Buffers: the band
 * (W), the panels (R). */
static void gather_cpu(void *buffers[], void *cl_arg)
{
	int b = (int)((const struct ge2gb_args *)cl_arg)->b;
	if (!hyla__contiguous_cols(buffers, 1, sizeof(real_t)))
		STARPU_ABORT_MSG("ge2gb gather: the panels are not contiguous");
	const real_t *a = MAT(buffers[1]);
	int n = (int)((const struct ge2gb_args *)cl_arg)->n, lda = LD(buffers[1]);
	real_t *band = (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]), *base = band + 2 * b - 1;
	memset(band, 0, sizeof *band * TYPED(hyla__gb2bd_len)(n, b));
	for (int c = 0; c < n; c++)
		for (int i = c - b < 0 ? 0 : c - b; i <= c; i++)
			AT(i, c) = a[i + (int64_t)c * lda];
}

#ifdef HYLA_WITH_CUDA
static void gather_cuda(void *buffers[], void *cl_arg)
{
	const struct ge2gb_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, 1, sizeof(real_t)))
		STARPU_ABORT_MSG("ge2gb gather: the panels are not contiguous");
	TYPED(hyla__cuda_upper_band_gather)((int)arg->n, (int)arg->b, MAT(buffers[1]), LD(buffers[1]),
	                                    (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]),
	                                    starpu_cuda_get_local_stream());
}
#endif

static struct starpu_codelet gather_cl = {
	.cpu_funcs = {gather_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {gather_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_else_cores,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "ge2gb_gather_" PREC_NAME,
};

int TYPED(hyla__insert_ge2gb_gather)(const hyla_desc *A, starpu_data_handle_t band, int64_t b)
{
	struct ge2gb_args arg = {.n = A->n, .b = b};
	const struct starpu_data_descr fixed[] = {{band, STARPU_W}};
	return hyla__submit_on_panels((struct hyla_task){.cl = &gather_cl, .data = fixed, .ndata = 1,
	                                                 .arg = &arg, .arg_size = sizeof arg,
	                                                 .priority = STARPU_MAX_PRIO},
	                              A->tiles, (int)A->nt, STARPU_R, STARPU_R);
}
