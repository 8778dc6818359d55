/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The upper bidiagonal SVD as a task on the cores (LAPACK's dbdsdc,
 * divide and conquer: Gu and Eisenstat's method). Its merges are matrix
 * products: the task lends OpenBLAS the context's cores, idle then, since
 * everything after it in the SVD waits for it. Also the eigensolver's
 * first task: the symmetric matrix in its lower triangle, scaled into
 * LAPACK's range (the tridiagonal problem's tasks: codelets/secular.c).
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include "cuda/kernels.h"
#endif

#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))

/* A solver task's buffers: d's tiles, e's tiles, then the panels of two
 * matrices (W). */
struct solver_args {
	int cores;          /* OpenBLAS threads for the merges' products */
	int d_tiles, e_tiles, x_panels;
	hyla_sequence *seq; /* of the call: LAPACK's info > 0 goes there */
};

/* The vector of count tiles (column tiles of a descriptor) from
 * buffers[first], one array; its length in *len. */
static real_t *vector_of(void *buffers[], int first, int count, int *len)
{
	real_t *base = count ? MAT(buffers[first]) : NULL;
	*len = 0;
	for (int t = 0; t < count; t++) {
		if (MAT(buffers[first + t]) != base + *len)
			STARPU_ABORT_MSG("a solver's vector tiles are not one array");
		*len += ROWS(buffers[first + t]);
	}
	return base;
}

/* OpenBLAS's threads are the process's: lend_cores(cores) gives the calling
 * solver task that many until lend_cores(0) puts the count back, one such
 * task at a time (two at once would each restore the other's count). BLAS
 * calls of other tasks meanwhile get the threads too. */
static pthread_mutex_t lending = PTHREAD_MUTEX_INITIALIZER;
static int lent_from;

static void lend_cores(int cores)
{
	if (cores > 0) {
		pthread_mutex_lock(&lending);
		lent_from = openblas_get_num_threads();
		openblas_set_num_threads(cores);
	} else {
		openblas_set_num_threads(lent_from);
		pthread_mutex_unlock(&lending);
	}
}

/* Workspace of elems reals and ielems integers (the caller frees both), or
 * HYLA_ERR_NOMEM. */
static int workspace(int64_t elems, int64_t ielems, real_t **work, lapack_int **iwork)
{
	*work = malloc(sizeof **work * (size_t)elems);
	*iwork = malloc(sizeof **iwork * (size_t)ielems);
	if (*work && *iwork)
		return HYLA_SUCCESS;
	return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for the solver's workspace (%lld elements)",
	                  (long long)elems);
}

/* dbdsdc ('U', 'I') of the n-by-n B: its left vectors on top of the m-by-k
 * u (k >= n; the identity's columns in the rest, as U = Q diag(U_B, I)
 * wants), the transpose of its right ones into w. */
static int bdsdc_host(int m, int n, int k, real_t *d, real_t *e, real_t *u, int ldu, real_t *w,
                      int ldw, int cores)
{
	real_t *work;
	lapack_int *iwork;
	int info = workspace(3 * (int64_t)n * n + 4 * (int64_t)n, 8 * (int64_t)n, &work, &iwork);
	if (info == HYLA_SUCCESS) {
		lend_cores(cores);
		info = (int)LAPACKE(bdsdc_work)(LAPACK_COL_MAJOR, 'U', 'I', n, d, e, u, ldu, w, ldw,
		                                NULL, NULL, work, iwork);
		lend_cores(0);
	}
	free(work), free(iwork);
	for (int j = 0; j < k; j++) {
		int first = j < n ? n : 0;
		memset(u + (int64_t)j * ldu + first, 0, sizeof *u * (size_t)(m - first));
		if (j >= n)
			u[j + (int64_t)j * ldu] = 1;
	}
	for (int j = 0; j < n; j++) /* w = w^T in place */
		for (int i = 0; i < j; i++) {
			real_t t = w[i + (int64_t)j * ldw];
			w[i + (int64_t)j * ldw] = w[j + (int64_t)i * ldw];
			w[j + (int64_t)i * ldw] = t;
		}
	return info;
}

static void bdsdc_cpu(void *buffers[], void *cl_arg)
{
	const struct solver_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int n, ne, first = arg->d_tiles + arg->e_tiles, w0 = first + arg->x_panels;
	real_t *d = vector_of(buffers, 0, arg->d_tiles, &n);
	real_t *e = vector_of(buffers, arg->d_tiles, arg->e_tiles, &ne);
	int k = hyla__contiguous_range(buffers, first, w0, sizeof(real_t));
	if (k < n || hyla__contiguous_cols(buffers, w0, sizeof(real_t)) != n)
		STARPU_ABORT_MSG("bdsdc: the singular vectors' panels are not one matrix");
	int info = bdsdc_host(ROWS(buffers[first]), n, k, d, e, MAT(buffers[first]),
	                      LD(buffers[first]), MAT(buffers[w0]), LD(buffers[w0]), arg->cores);
	if (info != 0)
		hyla__sequence_fail(arg->seq, info);
}

/* The symmetric a (panels, one n-by-n matrix RW) with its uplo triangle
 * given; with mirror, the upper one copied into the lower one first (the
 * eigenvectors overwrite all of a anyway; the values alone leave the other
 * triangle as it was, as LAPACK does). Then, as dsyevd, where the
 * triangle's largest entry is beyond sqrt(safe minimum / eps) or its
 * inverse, the triangle scaled inside that range (the reduction of a tiny
 * matrix would lose digits to subnormal numbers): scale (W) gets the
 * largest entry and the one it was scaled to, or 0 there. */
struct prepare_args {
	char uplo;
	int mirror;
};

/* What dsyevd scales a triangle of largest entry norm to: sqrt(safe
 * minimum / eps) or its inverse where norm is beyond them, else 0 (none). */
static real_t scaled_to(real_t norm)
{
	real_t small = (real_t)sqrt(LAPACKE(lamch_work)('S') / LAPACKE(lamch_work)('P'));
	return norm > 0 && norm < small ? small : norm > 1 / small ? 1 / small : 0;
}

static void prepare_cpu(void *buffers[], void *cl_arg)
{
	const struct prepare_args *arg = cl_arg;
	real_t *scale = VEC(buffers[0]), *a = MAT(buffers[1]);
	int n = ROWS(buffers[1]), lda = LD(buffers[1]);
	char uplo = arg->mirror ? 'L' : arg->uplo;
	if (hyla__contiguous_cols(buffers, 1, sizeof(real_t)) != n)
		STARPU_ABORT_MSG("syevd: the matrix's panels are not one matrix");
	for (int j = 0; arg->mirror && j < n; j++)
		for (int i = j + 1; i < n; i++)
			a[i + (int64_t)j * lda] = a[j + (int64_t)i * lda];
	real_t norm = LAPACKE(lansy_work)(LAPACK_COL_MAJOR, 'M', uplo, n, a, lda, NULL);
	real_t to = scaled_to(norm);
	if (to != 0)
		LAPACKE(lascl_work)(LAPACK_COL_MAJOR, uplo, 0, 0, norm, to, n, n, a, lda);
	scale[0] = norm, scale[1] = to;
}

#ifdef HYLA_WITH_CUDA
/* The same where the matrix lives on the GPU (no trip home: 0.11 s of the
 * eigensolver's 0.98 s at n = 8000, and as long again to bring it back). */
static void prepare_cuda(void *buffers[], void *cl_arg)
{
	const struct prepare_args *arg = cl_arg;
	real_t *a = MAT(buffers[1]), found[2];
	int n = ROWS(buffers[1]), lda = LD(buffers[1]), lower = arg->mirror || arg->uplo == 'L';
	if (hyla__contiguous_cols(buffers, 1, sizeof(real_t)) != n)
		STARPU_ABORT_MSG("syevd: the matrix's panels are not one matrix");
	cudaStream_t stream = starpu_cuda_get_local_stream();
	real_t *amax = hyla__cuda_scratch(sizeof *amax, stream);
	TYPED(hyla__cuda_sym_prepare)(n, a, lda, lower, arg->mirror, amax, stream);
	cudaMemcpyAsync(found, amax, sizeof *amax, cudaMemcpyDeviceToHost, stream);
	hyla__cuda_scratch_free(amax, stream);
	cudaStreamSynchronize(stream);
	found[1] = isfinite(found[0]) ? scaled_to(found[0]) : 0;
	if (found[1] != 0)
		TYPED(hyla__cuda_sym_scale)(n, a, lda, lower, found[1] / found[0], stream);
	cudaMemcpyAsync(VEC(buffers[0]), found, sizeof found, cudaMemcpyHostToDevice, stream);
	cudaStreamSynchronize(stream);
}
#endif

static struct starpu_codelet bdsdc_cl = {
	HYLA_HOST_BODY(bdsdc_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "bdsdc_" PREC_NAME,
};

static struct starpu_codelet prepare_cl = {
	.cpu_funcs = {prepare_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {prepare_cuda},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "syevd_prepare_" PREC_NAME,
};

/* A solver task on d's and e's tiles (RW) and the panels of two matrices (W). */
static int submit_solver(struct starpu_codelet *cl, const hyla_desc *d, const hyla_desc *e,
                         const hyla_desc *x, const hyla_desc *y, hyla_sequence *seq)
{
	int nx = x ? (int)x->nt : 0, ny = y ? (int)y->nt : 0, nd = (int)d->mt, ne = (int)e->mt;
	struct solver_args arg = {hyla_ncpus() > 1 ? hyla_ncpus() : 1, nd, ne, nx, seq};
	int count = nd + ne + nx + ny, i = 0;
	struct starpu_data_descr *data = malloc(sizeof *data * (size_t)count);
	if (!data)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", cl->name);
	for (int t = 0; t < nd; t++)
		data[i++] = (struct starpu_data_descr){d->tiles[t], STARPU_RW};
	for (int t = 0; t < ne; t++)
		data[i++] = (struct starpu_data_descr){e->tiles[t], STARPU_RW};
	for (int p = 0; p < nx + ny; p++)
		data[i++] = (struct starpu_data_descr){p < nx ? x->tiles[p] : y->tiles[p - nx], STARPU_W};
	int ret = hyla__submit(&(struct hyla_task){.cl = cl, .data = data, .ndata = count,
	                                           .arg = &arg, .arg_size = sizeof arg,
	                                           .priority = STARPU_MAX_PRIO});
	free(data);
	return ret;
}

int TYPED(hyla__insert_bdsdc)(const hyla_desc *d, const hyla_desc *e, const hyla_desc *u,
                              const hyla_desc *w, hyla_sequence *seq)
{
	return submit_solver(&bdsdc_cl, d, e, u, w, seq);
}

int TYPED(hyla__insert_syevd_prepare)(const hyla_desc *a, char uplo, int mirror,
                                       starpu_data_handle_t scale)
{
	struct prepare_args arg = {uplo, mirror};
	struct starpu_data_descr data[] = {{scale, STARPU_W}};
	struct hyla_task t = {.cl = &prepare_cl, .data = data, .ndata = 1, .arg = &arg,
	                      .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO,
	                      .where = hyla_ncuda() > 0 ? STARPU_CUDA : 0};
	return hyla__submit_on_panels(t, a->tiles, (int)a->nt, STARPU_RW, STARPU_RW);
}
