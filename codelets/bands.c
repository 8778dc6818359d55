/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The last step of the tridiagonal and bidiagonal reductions: d and e
 * where LAPACK's dsytrd (lower) and dgebrd (m >= n) leave them, on the
 * diagonals of the matrix and in the vectors. Typed source: see
 * runtime/precision.h. */
#include <stdlib.h>
#include "codelets.h"
#include "runtime.h"

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))

struct band_args {
	int first;       /* the first panel's buffer (d's and e's tiles before) */
	int tridiagonal; /* e on the subdiagonal and d never in the panels' output */
};

/* Element j of a vector whose tiles of nb are buffers[first..]. */
static real_t *tiled(void *buffers[], int first, int nb, int j)
{
	return MAT(buffers[first + j / nb]) + j % nb;
}

/* The vector's element onto the matrix entry (where a panel wrote the
 * vector and left a 1 on the matrix), or the entry into the element. */
static void settle(real_t *x, real_t *entry, int from_vector)
{
	if (from_vector)
		*entry = *x;
	else
		*x = *entry;
}

static void finish_cpu(void *buffers[], void *cl_arg)
{
	const struct band_args *arg = cl_arg;
	int p = arg->first, n = hyla__contiguous_cols(buffers, p, sizeof(real_t));
	if (!n)
		STARPU_ABORT_MSG("band finish: panels are not contiguous in host memory");
	real_t *a = MAT(buffers[p]);
	int lda = (int)STARPU_MATRIX_GET_LD(buffers[p]), nb = (int)STARPU_MATRIX_GET_NY(buffers[p]);
	int nd = (n + nb - 1) / nb, last = (nd - 1) * nb;
	for (int j = 0; j < n; j++) {
		settle(tiled(buffers, 0, nb, j), a + j + j * lda, !arg->tridiagonal && j < last);
		if (j + 1 < n)
			settle(tiled(buffers, nd, nb, j),
			       arg->tridiagonal ? a + j + 1 + j * lda : a + j + (j + 1) * lda, j < last);
	}
}

static struct starpu_codelet finish_cl = {
	HYLA_HOST_BODY(finish_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "band_finish_" PREC_NAME,
};

int TYPED(hyla__insert_band_finish)(const hyla_desc *d, const hyla_desc *e, const hyla_desc *a,
                                    int tridiagonal)
{
	struct band_args arg = {(int)(d->mt + e->mt), tridiagonal};
	struct starpu_data_descr *fixed = malloc(sizeof *fixed * (size_t)arg.first);
	if (!fixed)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", finish_cl.name);
	for (int t = 0; t < arg.first; t++)
		fixed[t] = (struct starpu_data_descr){t < d->mt ? d->tiles[t] : e->tiles[t - d->mt],
		                                      STARPU_RW};
	struct hyla_task t = {.cl = &finish_cl, .data = fixed, .ndata = arg.first,
	                      .arg = &arg, .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO};
	int ret = hyla__submit_on_panels(t, a->tiles, (int)a->nt, STARPU_RW, STARPU_RW);
	free(fixed);
	return ret;
}
