/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Q of the Hessenberg reduction (LAPACK dorghr's first step): the
 * reflectors move one column right, so that they stand where dgeqrf would
 * leave them and dorgqr's graph forms Q. Typed source: see
 * runtime/precision.h. */
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))

void TYPED(hyla__orghr_shift)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda)
{
	for (int64_t j = ihi - 1; j >= ilo; j--) {
		real_t *col = a + j * lda;
		memset(col, 0, sizeof *col * (size_t)j);
		memcpy(col + j + 1, col - lda + j + 1, sizeof *col * (size_t)(ihi - 1 - j));
		memset(col + ihi, 0, sizeof *col * (size_t)(n - ihi));
	}
	for (int64_t j = 0; j < n; j++) {
		if (j >= ilo && j < ihi)
			continue;
		memset(a + j * lda, 0, sizeof *a * (size_t)n);
		a[j + j * lda] = 1;
	}
}

/* Buffers: tau (R, a vector of n-1; none for n = 1), the shifted tau's
 * tiles (W), then the matrix's panels (RW, contiguous). */
struct shift_args {
	int first; /* the first panel's buffer */
};

static void shift_cpu(void *buffers[], void *cl_arg)
{
	int first = ((const struct shift_args *)cl_arg)->first;
	int n = hyla__contiguous_cols(buffers, first, sizeof(real_t));
	if (!n)
		STARPU_ABORT_MSG("orghr shift: panels are not contiguous in host memory");
	TYPED(hyla__orghr_shift)(n, 1, n, MAT(buffers[first]), STARPU_MATRIX_GET_LD(buffers[first]));
	const real_t *tau = n > 1 ? (const real_t *)STARPU_VECTOR_GET_PTR(buffers[0]) : NULL;
	for (int b = n > 1, j = 0; b < first; b++)
		for (int i = 0; i < (int)STARPU_MATRIX_GET_NX(buffers[b]); i++, j++)
			MAT(buffers[b])[i] = j ? tau[j - 1] : 0;
}

static struct starpu_codelet shift_cl = {
	HYLA_HOST_BODY(shift_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "orghr_shift_" PREC_NAME,
};

int TYPED(hyla__insert_orghr_shift)(starpu_data_handle_t tau, const starpu_data_handle_t *shifted,
                                    int nshifted, const starpu_data_handle_t *panels, int npanels)
{
	int nfixed = (tau != NULL) + nshifted;
	struct starpu_data_descr *fixed = malloc(sizeof *fixed * (size_t)nfixed);
	if (!fixed)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for an orghr shift task");
	if (tau)
		fixed[0] = (struct starpu_data_descr){tau, STARPU_R};
	for (int t = 0; t < nshifted; t++)
		fixed[nfixed - nshifted + t] = (struct starpu_data_descr){shifted[t], STARPU_W};
	struct shift_args arg = {nfixed};
	struct hyla_task t = {.cl = &shift_cl, .data = fixed, .ndata = nfixed,
	                      .arg = &arg, .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO};
	int ret = hyla__submit_on_panels(t, panels, npanels, STARPU_RW, STARPU_RW);
	free(fixed);
	return ret;
}
