/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The copies that turn the reductions' other shapes into the ones their
 * graphs take, as tasks on column panels: J A J in place for dsytrd's upper
 * triangle (J the reversal; on a core), A^T into another matrix (dgebrd's
 * and the SVD's m < n, the SVD's reflectors of P and its V^T), A into
 * another matrix (the solvers' reflectors of Q), and a vector retiled; the
 * transpose and the copy on the GPU where the views are. Typed source: see
 * runtime/precision.h. */
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((size_t)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

/* At most d, e and tau. */
#define MAX_VECTORS 3

struct reverse_args {
	int nvectors, tiles[MAX_VECTORS]; /* the vectors' tiles come first, then the panels */
};

static void swap(real_t *x, real_t *y)
{
	real_t t = *x;
	*x = *y, *y = t;
}

/* Column j of a matrix whose panels of nb columns are buffers[first..]. */
static real_t *column(void *buffers[], int first, int nb, int j)
{
	void *panel = buffers[first + j / nb];
	return MAT(panel) + (size_t)(j % nb) * LD(panel);
}

/* Element j of a vector whose tiles of nb are buffers[first..]. */
static real_t *element(void *buffers[], int first, int nb, int j)
{
	return MAT(buffers[first + j / nb]) + j % nb;
}

static void reverse_cpu(void *buffers[], void *cl_arg)
{
	const struct reverse_args *arg = cl_arg;
	int first = 0;
	for (int v = 0; v < arg->nvectors; first += arg->tiles[v++]) {
		int len = 0, nb = ROWS(buffers[first]);
		for (int t = 0; t < arg->tiles[v]; t++)
			len += ROWS(buffers[first + t]);
		for (int j = 0; j < len - 1 - j; j++)
			swap(element(buffers, first, nb, j), element(buffers, first, nb, len - 1 - j));
	}
	int n = ROWS(buffers[first]), nb = COLS(buffers[first]);
	for (int j = 0; j <= n - 1 - j; j++) {
		real_t *x = column(buffers, first, nb, j), *y = column(buffers, first, nb, n - 1 - j);
		for (int i = 0, rows = x == y ? n / 2 : n; i < rows; i++)
			swap(x + i, y + n - 1 - i);
	}
}

static struct starpu_codelet reverse_cl = {
	HYLA_HOST_BODY(reverse_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "reverse_" PREC_NAME,
};

int TYPED(hyla__insert_reverse)(const hyla_desc *a, const hyla_desc *vectors, int nvectors)
{
	struct reverse_args arg = {0, {0}};
	int nfixed = 0;
	for (int v = 0; v < nvectors; v++)
		nfixed += (int)vectors[v].mt;
	struct starpu_data_descr *fixed = malloc(sizeof *fixed * (size_t)(nfixed + 1));
	if (!fixed)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", reverse_cl.name);
	nfixed = 0;
	for (int v = 0; v < nvectors; v++) {
		if (vectors[v].mt == 0) /* an empty vector has no tiles */
			continue;
		arg.tiles[arg.nvectors++] = (int)vectors[v].mt;
		for (int64_t t = 0; t < vectors[v].mt; t++)
			fixed[nfixed++] = (struct starpu_data_descr){vectors[v].tiles[t], STARPU_RW};
	}
	struct hyla_task t = {.cl = &reverse_cl, .data = fixed, .ndata = nfixed,
	                      .arg = &arg, .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO};
	int ret = hyla__submit_on_panels(t, a->tiles, (int)a->nt, STARPU_RW, STARPU_RW);
	free(fixed);
	return ret;
}

/* The tasks from one matrix (or vector) to another: the source's tiles
 * (R) in buffers[0..first), the destination's (W) after them. */
struct from_to_args {
	int first;
};

static int submit_from_to(struct starpu_codelet *cl, const starpu_data_handle_t *from,
                          int64_t nfrom, const hyla_desc *to, uint32_t where)
{
	struct starpu_data_descr *fixed = malloc(sizeof *fixed * (size_t)nfrom);
	if (!fixed)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", cl->name);
	for (int64_t t = 0; t < nfrom; t++)
		fixed[t] = (struct starpu_data_descr){from[t], STARPU_R};
	struct from_to_args arg = {(int)nfrom};
	struct hyla_task t = {.cl = cl, .data = fixed, .ndata = arg.first, .arg = &arg,
	                      .arg_size = sizeof arg, .priority = STARPU_MAX_PRIO, .where = where};
	int ret = hyla__submit_on_panels(t, to->tiles, (int)(to->mt * to->nt), STARPU_W, STARPU_W);
	free(fixed);
	return ret;
}

/* b = a^T, a's panels buffers[0..first), b's the rest: block by block. */
static void transpose_cpu(void *buffers[], void *cl_arg)
{
	int first = ((const struct from_to_args *)cl_arg)->first;
	int nbuffers = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	for (int p = 0, j0 = 0; p < first; j0 += COLS(buffers[p++])) {
		const real_t *a = MAT(buffers[p]);
		size_t lda = LD(buffers[p]);
		for (int q = first, i0 = 0; q < nbuffers; i0 += COLS(buffers[q++])) {
			real_t *b = MAT(buffers[q]);
			size_t ldb = LD(buffers[q]);
			for (int i = 0; i < COLS(buffers[q]); i++)
				for (int j = 0; j < COLS(buffers[p]); j++)
					b[j0 + j + i * ldb] = a[i0 + i + j * lda];
		}
	}
}

#ifdef HYLA_WITH_CUDA
/* The same on the GPU (cuBLAS's geam): in one call where both sets of
 * panels are one matrix there, else block by block. */
static void geam_t(cublasHandle_t h, int rows, int cols, const real_t *a, size_t lda, real_t *b,
                   size_t ldb)
{
	const real_t one = 1, zero = 0;
	cublasStatus_t status = CUBLAS(geam)(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, a,
	                                     (int)lda, &zero, b, (int)ldb, b, (int)ldb);
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}

static void transpose_cuda(void *buffers[], void *cl_arg)
{
	int first = ((const struct from_to_args *)cl_arg)->first;
	int nbuffers = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	cublasHandle_t h = starpu_cublas_get_local_handle();
	int acols = hyla__contiguous_range(buffers, 0, first, sizeof(real_t));
	int bcols = hyla__contiguous_range(buffers, first, nbuffers, sizeof(real_t));
	if (acols && bcols) {
		geam_t(h, acols, bcols, MAT(buffers[0]), LD(buffers[0]), MAT(buffers[first]),
		       LD(buffers[first]));
		return;
	}
	for (int p = 0, j0 = 0; p < first; j0 += COLS(buffers[p++]))
		for (int q = first, i0 = 0; q < nbuffers; i0 += COLS(buffers[q++]))
			geam_t(h, COLS(buffers[p]), COLS(buffers[q]), MAT(buffers[p]) + i0, LD(buffers[p]),
			       MAT(buffers[q]) + j0, LD(buffers[q]));
}
#endif

/* On the GPU that holds the views when there is one. */
static struct starpu_codelet transpose_cl = {
	.cpu_funcs = {transpose_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {transpose_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "transpose_" PREC_NAME,
};

int TYPED(hyla__insert_transpose)(const hyla_desc *a, const hyla_desc *b)
{
	return submit_from_to(&transpose_cl, a->tiles, a->nt, b, hyla_ncuda() > 0 ? STARPU_CUDA : 0);
}

/* b = a's first columns (as many as b has), a's panels buffers[0..first),
 * b's the rest (each set of one width but its last). */
static void copy_cpu(void *buffers[], void *cl_arg)
{
	int first = ((const struct from_to_args *)cl_arg)->first;
	int nbuffers = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()), cols = 0;
	int a_nb = COLS(buffers[0]), b_nb = COLS(buffers[first]), rows = ROWS(buffers[0]);
	for (int q = first; q < nbuffers; q++)
		cols += COLS(buffers[q]);
	for (int j = 0; j < cols; j++)
		memcpy(column(buffers, first, b_nb, j), column(buffers, 0, a_nb, j),
		       sizeof(real_t) * (size_t)rows);
}

#ifdef HYLA_WITH_CUDA
/* The same on the GPU: a 2D copy for each run of columns in one panel of
 * each. */
static void copy_cuda(void *buffers[], void *cl_arg)
{
	int first = ((const struct from_to_args *)cl_arg)->first;
	int nbuffers = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	int rows = ROWS(buffers[0]), p = 0, j = 0; /* a's panel p, its column j */
	for (int q = first; q < nbuffers; q++)
		for (int c = 0, run; c < COLS(buffers[q]); c += run, j += run) {
			if (j == COLS(buffers[p]))
				p++, j = 0;
			run = COLS(buffers[q]) - c < COLS(buffers[p]) - j ? COLS(buffers[q]) - c
			                                                 : COLS(buffers[p]) - j;
			cudaError_t err = cudaMemcpy2DAsync(
				MAT(buffers[q]) + c * LD(buffers[q]), LD(buffers[q]) * sizeof(real_t),
				MAT(buffers[p]) + j * LD(buffers[p]), LD(buffers[p]) * sizeof(real_t),
				(size_t)rows * sizeof(real_t), (size_t)run, cudaMemcpyDeviceToDevice,
				starpu_cuda_get_local_stream());
			if (err != cudaSuccess)
				STARPU_CUDA_REPORT_ERROR(err);
		}
}
#endif

/* On the GPU that holds the views when there is one (the eigensolver's
 * reflectors: 0.09 s on a core at n = 8000 with the matrix's trip home). */
static struct starpu_codelet copy_cl = {
	.cpu_funcs = {copy_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {copy_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "copy_" PREC_NAME,
};

int TYPED(hyla__insert_copy)(const hyla_desc *a, const hyla_desc *b)
{
	int64_t panels = (b->n + a->nb - 1) / a->nb; /* a's that hold b's columns */
	return submit_from_to(&copy_cl, a->tiles, panels, b, hyla_ncuda() > 0 ? STARPU_CUDA : 0);
}

/* The vector in buffers[0..first) copied into the tiles after it (another
 * tiling of the same length). */
static void retile_cpu(void *buffers[], void *cl_arg)
{
	int from = ((const struct from_to_args *)cl_arg)->first;
	int nbuffers = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	int s = 0, si = 0;
	for (int d = from; d < nbuffers; d++)
		for (int i = 0; i < ROWS(buffers[d]); i++) {
			while (si == ROWS(buffers[s]))
				s++, si = 0;
			MAT(buffers[d])[i] = MAT(buffers[s])[si++];
		}
}

static struct starpu_codelet retile_cl = {
	HYLA_HOST_BODY(retile_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "retile_" PREC_NAME,
};

int TYPED(hyla__insert_retile)(const hyla_desc *x, const hyla_desc *y)
{
	return submit_from_to(&retile_cl, x->tiles, x->mt, y, 0);
}
