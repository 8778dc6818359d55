/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Q of the Hessenberg reduction (LAPACK dorghr's first step): the
 * reflectors move one column right, so that they stand where dgeqrf would
 * leave them and dorgqr's graph forms Q. Typed source: see
 * runtime/precision.h. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))

/* Columns [first, end) of the shift from the last: column j takes column
 * j - 1's rows from j + 1 to ihi, column first those at first_from (column
 * first - 1's, saved before any part started when another part writes it);
 * rows outside [ilo, ihi) zero. */
struct shift_part {
	real_t *a;
	const real_t *first_from;
	int64_t n, lda, ilo, ihi, first, end;
	pthread_t thread;
	int running;
};

static void *shift_columns(void *arg)
{
	const struct shift_part *p = arg;
	for (int64_t j = p->end - 1; j >= p->first; j--) {
		real_t *col = p->a + j * p->lda;
		memset(col, 0, sizeof *col * (size_t)p->ilo);
		memcpy(col + j + 1, j > p->first ? col - p->lda + j + 1 : p->first_from,
		       sizeof *col * (size_t)(p->ihi - 1 - j));
		memset(col + p->ihi, 0, sizeof *col * (size_t)(p->n - p->ihi));
	}
	return NULL;
}

enum { SHIFT_PARTS = 8, SHIFT_BYTES_A_PART = 1 << 22 };

void TYPED(hyla__orghr_shift)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda,
                              int threads)
{
	/* Parts of equal areas (column j moves ihi - 1 - j elements), one a
	 * thread for each 4 MB moved, at most SHIFT_PARTS. */
	int64_t nh = ihi - ilo;
	double bytes = (double)nh * (double)nh / 2 * sizeof *a;
	int parts = threads ? (int)(bytes / SHIFT_BYTES_A_PART) : 1;
	parts = parts < 1 ? 1 : parts > SHIFT_PARTS ? SHIFT_PARTS : parts;
	struct shift_part part[SHIFT_PARTS];
	real_t *saved = parts > 1 ? malloc(sizeof *saved * (size_t)(nh * parts)) : NULL;
	if (!saved)
		parts = 1;
	int64_t first = ilo;
	for (int t = 0; t < parts; t++) {
		/* The columns from first on hold (parts - t) / parts of the area. */
		int64_t end = t + 1 == parts ? ihi : ihi - (int64_t)(nh * sqrt(1 - (t + 1.0) / parts));
		const real_t *from = first < ihi ? a + (first - 1) * lda + first + 1 : NULL;
		if (t > 0 && from) { /* column first - 1 is part t - 1's */
			memcpy(saved + t * nh, from, sizeof *saved * (size_t)(ihi - 1 - first));
			from = saved + t * nh;
		}
		part[t] = (struct shift_part){.a = a, .first_from = from, .n = n, .lda = lda, .ilo = ilo,
		                              .ihi = ihi, .first = first, .end = end};
		first = end;
	}
	for (int t = 1; t < parts; t++)
		part[t].running = pthread_create(&part[t].thread, NULL, shift_columns, &part[t]) == 0;
	for (int t = 0; t < parts; t++)
		if (t == 0 || !part[t].running) /* the first part, or no thread to be had: here */
			shift_columns(&part[t]);
	for (int t = 1; t < parts; t++)
		if (part[t].running)
			pthread_join(part[t].thread, NULL);
	free(saved);
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
	TYPED(hyla__orghr_shift)(n, 1, n, MAT(buffers[first]), STARPU_MATRIX_GET_LD(buffers[first]), 0);
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
