/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric tridiagonal eigenproblem, a task on the cores: LAPACK's
 * dsterf for the eigenvalues alone, dstedc (Cuppen's divide and conquer,
 * in Gu and Eisenstat's stable form) for the eigenvectors too. Its merges
 * are matrix products: the task lends OpenBLAS the context's cores, idle
 * then, since everything after it in the eigensolver waits for it. Typed
 * source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include "codelets.h"
#include "runtime.h"

#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))

struct stedc_args {
	int cores;          /* OpenBLAS threads for dstedc's products */
	hyla_sequence *seq; /* of the call: LAPACK's info > 0 goes there */
};

/* dstedc ('I') into the n-by-n z: its workspace of n^2 + 4n + 1 elements
 * (LAPACK's query) allocated here. */
static int stedc_host(int n, real_t *d, real_t *e, real_t *z, int ldz, int cores)
{
	real_t size;
	lapack_int isize;
	LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', n, d, e, z, ldz, &size, -1, &isize, -1);
	lapack_int lwork = (lapack_int)size + 1, liwork = isize;
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
	int info;
	if (work && iwork) {
		int threads = openblas_get_num_threads();
		openblas_set_num_threads(cores);
		info = (int)LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', n, d, e, z, ldz, work, lwork,
		                                iwork, liwork);
		openblas_set_num_threads(threads);
	} else {
		info = HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dstedc's workspace (%d elements)",
		                  (int)lwork);
	}
	free(work), free(iwork);
	return info;
}

/* Buffers: d (n), e (n - 1), then with eigenvectors the panels of z. */
static void stedc_cpu(void *buffers[], void *cl_arg)
{
	const struct stedc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t *d = VEC(buffers[0]), *e = VEC(buffers[1]);
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]), info;
	if (STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) == 2) {
		info = (int)LAPACKE(sterf_work)(n, d, e);
	} else {
		if (hyla__contiguous_cols(buffers, 2, sizeof(real_t)) != n)
			STARPU_ABORT_MSG("stedc: the eigenvectors' panels are not one matrix");
		info = stedc_host(n, d, e, (real_t *)STARPU_MATRIX_GET_PTR(buffers[2]),
		                  (int)STARPU_MATRIX_GET_LD(buffers[2]), arg->cores);
	}
	if (info != 0)
		hyla__sequence_fail(arg->seq, info);
}

static struct starpu_codelet stedc_cl = {
	HYLA_HOST_BODY(stedc_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "stedc_" PREC_NAME,
};

int TYPED(hyla__insert_stedc)(starpu_data_handle_t d, starpu_data_handle_t e, const hyla_desc *z,
                              hyla_sequence *seq)
{
	struct stedc_args arg = {hyla_ncpus() > 1 ? hyla_ncpus() : 1, seq};
	struct starpu_data_descr data[] = {{d, STARPU_RW}, {e, STARPU_RW}};
	struct hyla_task t = {.cl = &stedc_cl, .data = data, .ndata = 2, .arg = &arg,
	                      .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO};
	return z ? hyla__submit_on_panels(t, z->tiles, (int)z->nt, STARPU_W, STARPU_W) : hyla__submit(&t);
}
