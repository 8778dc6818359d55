/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The condensed forms' problems, tasks on the cores: the symmetric
 * tridiagonal eigenproblem (LAPACK's dsterf for the eigenvalues alone,
 * dstedc, Cuppen's divide and conquer in Gu and Eisenstat's stable form,
 * for the eigenvectors too) and the upper bidiagonal SVD (dbdsdc, divide
 * and conquer as well). Their merges are matrix products: the tasks lend
 * OpenBLAS the context's cores, idle then, since everything after them in
 * the solvers waits for them. Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"

#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))

struct solver_args {
	int cores;          /* OpenBLAS threads for the merges' products */
	int u_panels;       /* bdsdc: how many of the buffers are U's panels (W's follow) */
	hyla_sequence *seq; /* of the call: LAPACK's info > 0 goes there */
};

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

/* dstedc ('I') into the n-by-n z, its workspace as LAPACK's query says. */
static int stedc_host(int n, real_t *d, real_t *e, real_t *z, int ldz, int cores)
{
	real_t size;
	lapack_int isize;
	LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', n, d, e, z, ldz, &size, -1, &isize, -1);
	real_t *work;
	lapack_int *iwork;
	int info = workspace((int64_t)size + 1, isize, &work, &iwork);
	if (info == HYLA_SUCCESS) {
		int threads = openblas_get_num_threads();
		openblas_set_num_threads(cores);
		info = (int)LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', n, d, e, z, ldz, work,
		                                (lapack_int)size + 1, iwork, isize);
		openblas_set_num_threads(threads);
	}
	free(work), free(iwork);
	return info;
}

/* Buffers: d (n), e (n - 1), then with eigenvectors the panels of z. */
static void stedc_cpu(void *buffers[], void *cl_arg)
{
	const struct solver_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t *d = VEC(buffers[0]), *e = VEC(buffers[1]);
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]), info;
	if (STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) == 2) {
		info = (int)LAPACKE(sterf_work)(n, d, e);
	} else {
		if (hyla__contiguous_cols(buffers, 2, sizeof(real_t)) != n)
			STARPU_ABORT_MSG("stedc: the eigenvectors' panels are not one matrix");
		info = stedc_host(n, d, e, MAT(buffers[2]), LD(buffers[2]), arg->cores);
	}
	if (info != 0)
		hyla__sequence_fail(arg->seq, info);
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
	if (info != HYLA_SUCCESS) {
		free(work), free(iwork);
		return info;
	}
	int threads = openblas_get_num_threads();
	openblas_set_num_threads(cores);
	info = (int)LAPACKE(bdsdc_work)(LAPACK_COL_MAJOR, 'U', 'I', n, d, e, u, ldu, w, ldw, NULL,
	                                NULL, work, iwork);
	openblas_set_num_threads(threads);
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

/* Buffers: d (n), e (n - 1), then with vectors U's panels and W's. */
static void bdsdc_cpu(void *buffers[], void *cl_arg)
{
	const struct solver_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t *d = VEC(buffers[0]), *e = VEC(buffers[1]);
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]), info;
	if (arg->u_panels == 0) {
		real_t *work;
		lapack_int *iwork;
		info = workspace(4 * (int64_t)n, 8 * (int64_t)n, &work, &iwork);
		if (info == HYLA_SUCCESS)
			info = (int)LAPACKE(bdsdc_work)(LAPACK_COL_MAJOR, 'U', 'N', n, d, e, NULL, 1, NULL, 1,
			                                NULL, NULL, work, iwork);
		free(work), free(iwork);
	} else {
		int w0 = 2 + arg->u_panels, k = hyla__contiguous_range(buffers, 2, w0, sizeof(real_t));
		if (k < n || hyla__contiguous_cols(buffers, w0, sizeof(real_t)) != n)
			STARPU_ABORT_MSG("bdsdc: the singular vectors' panels are not one matrix");
		info = bdsdc_host(ROWS(buffers[2]), n, k, d, e, MAT(buffers[2]), LD(buffers[2]),
		                  MAT(buffers[w0]), LD(buffers[w0]), arg->cores);
	}
	if (info != 0)
		hyla__sequence_fail(arg->seq, info);
}

static struct starpu_codelet stedc_cl = {
	HYLA_HOST_BODY(stedc_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "stedc_" PREC_NAME,
};

static struct starpu_codelet bdsdc_cl = {
	HYLA_HOST_BODY(bdsdc_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "bdsdc_" PREC_NAME,
};

/* A solver task on d, e and the panels of up to two matrices (W). */
static int submit_solver(struct starpu_codelet *cl, starpu_data_handle_t d, starpu_data_handle_t e,
                         const hyla_desc *x, const hyla_desc *y, hyla_sequence *seq)
{
	int nx = x ? (int)x->nt : 0, ny = y ? (int)y->nt : 0;
	struct solver_args arg = {hyla_ncpus() > 1 ? hyla_ncpus() : 1, nx, seq};
	struct starpu_data_descr *data = malloc(sizeof *data * (size_t)(2 + nx + ny));
	if (!data)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", cl->name);
	data[0] = (struct starpu_data_descr){d, STARPU_RW};
	data[1] = (struct starpu_data_descr){e, STARPU_RW};
	for (int p = 0; p < nx + ny; p++)
		data[2 + p] = (struct starpu_data_descr){p < nx ? x->tiles[p] : y->tiles[p - nx], STARPU_W};
	int ret = hyla__submit(&(struct hyla_task){.cl = cl, .data = data, .ndata = 2 + nx + ny,
	                                           .arg = &arg, .arg_size = sizeof arg,
	                                           .priority = STARPU_MAX_PRIO});
	free(data);
	return ret;
}

int TYPED(hyla__insert_stedc)(starpu_data_handle_t d, starpu_data_handle_t e, const hyla_desc *z,
                              hyla_sequence *seq)
{
	return submit_solver(&stedc_cl, d, e, z, NULL, seq);
}

int TYPED(hyla__insert_bdsdc)(starpu_data_handle_t d, starpu_data_handle_t e, const hyla_desc *u,
                              const hyla_desc *w, hyla_sequence *seq)
{
	return submit_solver(&bdsdc_cl, d, e, u, w, seq);
}
