/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The eigensolver's first task: the symmetric matrix in its lower
 * triangle, scaled into LAPACK's range (the tridiagonal problem's tasks:
 * codelets/secular.c). Typed source: see runtime/precision.h. */
#include <lapacke.h>
#include <math.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include "cuda/kernels.h"
#endif

#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))

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

static struct starpu_codelet prepare_cl = {
	.cpu_funcs = {prepare_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {prepare_cuda},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "syevd_prepare_" PREC_NAME,
};

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
