/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets of classical Gram-Schmidt (Milde and Schneider; Farber; algorithms/cgs.c):
 *   project  a panel's columns against finished columns before it, all at
 *            once (block CGS, Level 3): S = Q^T A, A -= Q S (out of core
 *            one run of them in memory after the other);
 *   panel    the panel's own columns, one after the other, each against the
 *            earlier ones with one (CGS) or two (CGS2) classical passes;
 *   vector   Milde and Schneider's parallel order (Level 2): q_i finished, then its
 *            projection, with coefficients from the original columns V,
 *            taken out of every later column at once.
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
_Static_assert(HYLA_CGS_MAX_NB == HYLA_CGS_MAX_COLS, "one widest GPU panel");
_Static_assert(32 <= HYLA_CHOLESKY_MAX, "the GPU Cholesky takes a sub-panel");
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

/* Project buffers: the panel (RW), its R column (RW), workspace, then the
 * finished panels (R, consecutive). */
enum { P_A, P_R, P_W, P_Q };
/* Panel buffers: the panel (RW), its R column (RW), workspace. */
enum { K_A, K_R, K_W };
/* Vector buffers: the updated panel U (RW), its original columns V (R), its
 * R column (RW), workspace, and for an update the panel holding q (R). */
enum { V_U, V_V, V_R, V_W, V_Q };

struct cgs_args {
	int c;      /* panel, project: row of R's diagonal block; vector: row i of R */
	int first;  /* project: row of R of the first finished column */
	int passes; /* panel: 1 (CGS) or 2 (CGS2); project: pass 1 or 2 */
	int combine; /* panel: R's diagonal block = T (this one) * R's diagonal block */
	int j;      /* vector: column of q_i in its panel */
	hyla_sequence *seq; /* of the call: a failure skips the later tasks */
};

/* The task's arguments (runtime.h's struct hyla_task). */
static struct cgs_args args_of(const void *cl_arg)
{
	return *(const struct cgs_args *)cl_arg;
}

/* The blocked codelets' operations, on the host or on the GPU:
 *   project  pass 1: R = Q^T A, A -= Q R (R: c-by-w); pass 2: S = Q^T A,
 *            A -= Q S, R += S T with T the w-by-w upper triangle at t (S in s);
 *   columns  the w columns of a one after the other, each against the earlier
 *            ones by `passes` classical passes; T (upper) into t;
 *   cholqr   T = chol(A^T A) (upper) into t, A = A T^-1, for w <= IB columns
 *            that are already nearly orthonormal (BCGS2's second pass: there
 *            Cholesky QR is as accurate as CGS, which it equals in exact
 *            arithmetic, and it is Level 3);
 *   combine  r (w-by-w, upper) = t r, reading only the two upper triangles
 *            (NaN from a vanished column must not reach earlier columns). */
struct backend {
	void (*project)(int m, int w, int c, const real_t *q, int ldq, real_t *a, int lda, real_t *r,
	                int ldr, const real_t *t, int ldt, int pass, real_t *s);
	void (*columns)(int m, int w, int passes, real_t *a, int lda, real_t *t, int ldt, real_t *work);
	void (*cholqr)(int m, int w, real_t *a, int lda, real_t *t, int ldt);
	void (*combine)(int w, const real_t *t, int ldt, real_t *r, int ldr);
};

/* How a panel's own columns are orthonormalised. */
enum panel_mode {
	PANEL_CGS = 1,  /* one classical pass per column */
	PANEL_CGS2 = 2, /* two: block CGS2 over sub-panels, CGS2 inside them */
	PANEL_RENORM = 3 /* a nearly orthonormal panel: one pass, Cholesky QR inside */
};

/* The panel's columns go in sub-panels of IB: each projected against the
 * panel's earlier columns (block CGS, Level 3; in PANEL_CGS2 mode the same
 * BCGS2 as across panels), then its own columns (Level 2 on IB columns, or
 * Cholesky QR). Workspace: the columns' own (COLUMNS_WORK), then the
 * projections' S (w * IB) and the second pass's T (IB * IB). */
#define IB 32
#ifdef HYLA_WITH_CUDA
#define COLUMNS_WORK HYLA_CGS_SCRATCH_ELEMS
#else
#define COLUMNS_WORK IB
#endif

static const struct backend host;

static void panel_blocked(const struct backend *be, int m, int w, enum panel_mode mode, real_t *a,
                          int lda, real_t *t, int ldt, real_t *work)
{
	real_t *s = work + COLUMNS_WORK, *t2 = s + (int64_t)w * IB;
	for (int s0 = 0; s0 < w; s0 += IB) {
		int b = w - s0 < IB ? w - s0 : IB;
		real_t *as = a + (int64_t)s0 * lda, *tps = t + (int64_t)s0 * ldt, *tss = tps + s0;
		if (s0)
			be->project(m, b, s0, a, lda, as, lda, tps, ldt, NULL, 0, 1, s);
		if (mode == PANEL_RENORM)
			be->cholqr(m, b, as, lda, tss, ldt);
		else
			be->columns(m, b, mode, as, lda, tss, ldt, work);
		if (mode == PANEL_CGS2 && s0) {
			be->project(m, b, s0, a, lda, as, lda, tps, ldt, tss, ldt, 2, s);
			be->cholqr(m, b, as, lda, t2, b);
			be->combine(b, t2, b, tss, ldt);
		}
	}
}

/* The finished panels run by run: one in core; out of core StarPU may hold
 * a column block's panels apart, and each run is then projected out in
 * turn (block MGS between runs: the same in exact arithmetic, and no less
 * orthogonal). */
static void project_task(const struct backend *be, void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	real_t *r = MAT(buffers[P_R]), *a = MAT(buffers[P_A]);
	int ldr = LD(buffers[P_R]), end = hyla__task_buffers(starpu_task_get_current());
	for (int b = P_Q, row = arg.first; b < end;) {
		int q = b, c = hyla__next_run(buffers, &b, end, sizeof(real_t));
		be->project(ROWS(buffers[P_A]), COLS(buffers[P_A]), c, MAT(buffers[q]), LD(buffers[q]), a,
		            LD(buffers[P_A]), r + row, ldr, r + arg.c, ldr, arg.passes, VEC(buffers[P_W]));
		row += c;
	}
}

static void panel_task(const struct backend *be, void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	real_t *rkk = MAT(buffers[K_R]) + arg.c, *work = VEC(buffers[K_W]);
	int w = COLS(buffers[K_A]), ldr = LD(buffers[K_R]);
	/* T goes to R's diagonal block, or beside it when it multiplies it. */
	real_t *t = arg.combine ? work + COLUMNS_WORK + (int64_t)w * IB + IB * IB : rkk;
	int ldt = arg.combine ? w : ldr;
	enum panel_mode mode = arg.combine ? PANEL_RENORM : arg.passes == 2 ? PANEL_CGS2 : PANEL_CGS;
	panel_blocked(be, ROWS(buffers[K_A]), w, mode, MAT(buffers[K_A]), LD(buffers[K_A]), t, ldt,
	              work);
	if (arg.combine)
		be->combine(w, t, ldt, rkk, ldr);
	if (be != &host)
		return; /* on a GPU the sequence's wait finds vanished columns */
	for (int j = 0; j < w; j++)
		if (!(rkk[j + (int64_t)j * ldr] > 0)) {
			hyla__sequence_fail(arg.seq, arg.c + j + 1);
			return;
		}
}

/* CPU ----------------------------------------------------------------------- */

static void project_host(int m, int w, int c, const real_t *q, int ldq, real_t *a, int lda,
                         real_t *r, int ldr, const real_t *t, int ldt, int pass, real_t *s)
{
	real_t *dst = pass == 1 ? r : s;
	int ldd = pass == 1 ? ldr : c;
	BLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, c, w, m, 1, q, ldq, a, lda, 0, dst, ldd);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m, w, c, -1, q, ldq, dst, ldd, 1, a, lda);
	if (pass == 1)
		return;
	BLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, c, w, 1, t, ldt,
	           s, c);
	for (int k = 0; k < w; k++)
		BLAS(axpy)(c, 1, s + (int64_t)k * c, 1, r + (int64_t)k * ldr, 1);
}

static void columns_host(int m, int w, int passes, real_t *a, int lda, real_t *t, int ldt,
                         real_t *coef)
{
	for (int j = 0; j < w; j++) {
		real_t *v = a + (int64_t)j * lda, *tj = t + (int64_t)j * ldt;
		for (int pass = 0; pass < passes && j > 0; pass++) {
			real_t *s = pass == 0 ? tj : coef;
			BLAS(gemv)(CblasColMajor, CblasTrans, m, j, 1, a, lda, v, 1, 0, s, 1);
			BLAS(gemv)(CblasColMajor, CblasNoTrans, m, j, -1, a, lda, s, 1, 1, v, 1);
			if (pass > 0)
				BLAS(axpy)(j, 1, coef, 1, tj, 1);
		}
		real_t norm = BLAS(nrm2)(m, v, 1);
		tj[j] = norm;
		for (int i = 0; i < m; i++)
			v[i] /= norm;
	}
}

static void cholqr_host(int m, int w, real_t *a, int lda, real_t *t, int ldt)
{
	BLAS(syrk)(CblasColMajor, CblasUpper, CblasTrans, w, m, 1, a, lda, 0, t, ldt);
	int info = LAPACKE(potrf_work)(LAPACK_COL_MAJOR, 'U', w, t, ldt);
	for (int j = info > 0 ? info - 1 : w; j < w; j++) /* not positive definite: rank deficient */
		t[j + (int64_t)j * ldt] = NAN;
	BLAS(trsm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, w, 1, t, ldt,
	           a, lda);
}

static void combine_host(int w, const real_t *t, int ldt, real_t *r, int ldr)
{
	for (int k = 0; k < w; k++)
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, k + 1, t, ldt,
		           r + (int64_t)k * ldr, 1);
}

static const struct backend host = {project_host, columns_host, cholqr_host, combine_host};

static void project_cpu(void *buffers[], void *cl_arg)
{
	project_task(&host, buffers, cl_arg);
}

static void panel_cpu(void *buffers[], void *cl_arg)
{
	panel_task(&host, buffers, cl_arg);
}

/* R(i, :) = q^T V; U -= q R(i, :) over the columns [c0, w) of the panel. */
static void vector_apply_cpu(int m, const real_t *q, void *buffers[], int i, int c0)
{
	real_t *u = MAT(buffers[V_U]), *r = MAT(buffers[V_R]) + i;
	const real_t *v = MAT(buffers[V_V]);
	int w = COLS(buffers[V_U]), ldu = LD(buffers[V_U]), ldv = LD(buffers[V_V]);
	int ldr = LD(buffers[V_R]);
	if (c0 >= w)
		return;
	BLAS(gemv)(CblasColMajor, CblasTrans, m, w - c0, 1, v + (int64_t)c0 * ldv, ldv, q, 1, 0,
	           r + (int64_t)c0 * ldr, ldr);
	BLAS(ger)(CblasColMajor, m, w - c0, -1, q, 1, r + (int64_t)c0 * ldr, ldr,
	          u + (int64_t)c0 * ldu, ldu);
}

static void vector_panel_cpu(void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	int m = ROWS(buffers[V_U]), ldu = LD(buffers[V_U]), ldr = LD(buffers[V_R]);
	real_t *q = MAT(buffers[V_U]) + (int64_t)arg.j * ldu;
	real_t norm = BLAS(nrm2)(m, q, 1);
	if (!(norm > 0)) {
		hyla__sequence_fail(arg.seq, arg.c + 1);
		return;
	}
	MAT(buffers[V_R])[arg.c + (int64_t)arg.j * ldr] = norm;
	for (int i = 0; i < m; i++)
		q[i] /= norm;
	vector_apply_cpu(m, q, buffers, arg.c, arg.j + 1);
}

static void vector_update_cpu(void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	const real_t *q = MAT(buffers[V_Q]) + (int64_t)arg.j * LD(buffers[V_Q]);
	vector_apply_cpu(ROWS(buffers[V_U]), q, buffers, arg.c, 0);
}

/* CUDA ---------------------------------------------------------------------- */
#ifdef HYLA_WITH_CUDA
static void project_gpu(int m, int w, int c, const real_t *q, int ldq, real_t *a, int lda,
                        real_t *r, int ldr, const real_t *t, int ldt, int pass, real_t *s)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1, zero = 0, minus_one = -1;
	real_t *dst = pass == 1 ? r : s;
	int ldd = pass == 1 ? ldr : c;
	CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, c, w, m, &one, q, ldq, a, lda, &zero, dst, ldd);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, m, w, c, &minus_one, q, ldq, dst, ldd, &one, a, lda);
	if (pass == 1)
		return;
	CUBLAS(trmm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
	             c, w, &one, t, ldt, s, c, s, c);
	CUBLAS(geam)(h, CUBLAS_OP_N, CUBLAS_OP_N, c, w, &one, r, ldr, &one, s, c, r, ldr);
}

static void columns_gpu(int m, int w, int passes, real_t *a, int lda, real_t *t, int ldt,
                        real_t *work)
{
	TYPED(hyla__cuda_cgs_panel)(m, w, passes, a, lda, t, ldt, work, starpu_cuda_get_local_stream());
}

static void cholqr_gpu(int m, int w, real_t *a, int lda, real_t *t, int ldt)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1;
	TYPED(hyla__cublas_gram)(h, m, w, a, lda, t, ldt); /* t is scratch: its lower part unread */
	TYPED(hyla__cuda_cholesky_upper)(w, t, ldt, starpu_cuda_get_local_stream());
	CUBLAS(trsm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m,
	             w, &one, t, ldt, a, lda);
}

static void combine_gpu(int w, const real_t *t, int ldt, real_t *r, int ldr)
{
	TYPED(hyla__cuda_upper_product)(w, t, ldt, r, ldr, starpu_cuda_get_local_stream());
}

static const struct backend gpu = {project_gpu, columns_gpu, cholqr_gpu, combine_gpu};

static void project_cuda(void *buffers[], void *cl_arg)
{
	project_task(&gpu, buffers, cl_arg);
}

static void panel_cuda(void *buffers[], void *cl_arg)
{
	panel_task(&gpu, buffers, cl_arg);
}

/* cuBLAS's GEMV and GER are the vector variant's default: measured faster
 * end to end on the H100 (bench/results/2026-11-22-h100-qr_cgs.md), as GEMV
 * is on panels wider than 64 columns; HYLA_LEVEL2=hyla takes the paper's
 * dot-product and rank-1 kernels instead (for the comparison). */
static int level2_cublas(void)
{
	static int choice = -1;
	if (choice < 0) {
		const char *env = getenv("HYLA_LEVEL2");
		choice = !env || strcmp(env, "hyla");
	}
	return choice;
}

static void vector_apply_cuda(int m, const real_t *q, void *buffers[], int i, int c0)
{
	real_t *u = MAT(buffers[V_U]), *r = MAT(buffers[V_R]) + i;
	const real_t *v = MAT(buffers[V_V]);
	int w = COLS(buffers[V_U]), ldu = LD(buffers[V_U]), ldv = LD(buffers[V_V]);
	int ldr = LD(buffers[V_R]);
	if (c0 >= w)
		return;
	real_t *rc = r + (int64_t)c0 * ldr, *uc = u + (int64_t)c0 * ldu;
	const real_t *vc = v + (int64_t)c0 * ldv;
	if (level2_cublas()) {
		cublasHandle_t h = starpu_cublas_get_local_handle();
		const real_t one = 1, zero = 0, minus_one = -1;
		CUBLAS(gemv)(h, CUBLAS_OP_T, m, w - c0, &one, vc, ldv, q, 1, &zero, rc, ldr);
		CUBLAS(ger)(h, m, w - c0, &minus_one, q, 1, rc, ldr, uc, ldu);
		return;
	}
	cudaStream_t stream = starpu_cuda_get_local_stream();
	TYPED(hyla__cuda_cgs_dots)(m, w - c0, vc, ldv, q, rc, ldr, VEC(buffers[V_W]), stream);
	TYPED(hyla__cuda_cgs_rank1)(m, w - c0, uc, ldu, q, rc, ldr, stream);
}

static void vector_panel_cuda(void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	int m = ROWS(buffers[V_U]), ldu = LD(buffers[V_U]), ldr = LD(buffers[V_R]);
	real_t *q = MAT(buffers[V_U]) + (int64_t)arg.j * ldu;
	TYPED(hyla__cuda_cgs_normalise)(m, q, MAT(buffers[V_R]) + arg.c + (int64_t)arg.j * ldr,
	                                VEC(buffers[V_W]), starpu_cuda_get_local_stream());
	vector_apply_cuda(m, q, buffers, arg.c, arg.j + 1);
}

static void vector_update_cuda(void *buffers[], void *cl_arg)
{
	const struct cgs_args arg = args_of(cl_arg);
	if (hyla__sequence_failed(arg.seq))
		return;
	const real_t *q = MAT(buffers[V_Q]) + (int64_t)arg.j * LD(buffers[V_Q]);
	vector_apply_cuda(ROWS(buffers[V_U]), q, buffers, arg.c, 0);
}
#endif

/* Models -------------------------------------------------------------------- */

static size_t project_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, P_A);
	return starpu_matrix_get_nx(a) * starpu_matrix_get_ny(a) * hyla__cols_from(task, P_Q);
}

/* Columns times rows times the columns each one is projected against. */
static size_t panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct cgs_args arg = args_of(task->cl_arg);
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, K_A);
	size_t w = starpu_matrix_get_ny(a);
	return starpu_matrix_get_nx(a) * (w * w * (size_t)arg.passes / 2 + w);
}

static size_t vector_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct cgs_args arg = args_of(task->cl_arg);
	starpu_data_handle_t u = STARPU_TASK_GET_HANDLE(task, V_U);
	int own = STARPU_TASK_GET_NBUFFERS(task) == V_Q;
	return starpu_matrix_get_nx(u) * (starpu_matrix_get_ny(u) - (own ? (size_t)arg.j : 0));
}

/* Footprints: what decides a task's cost and its flops. The project's
 * size and buffers, and its pass (the second also multiplies by T); the
 * panel's rows, width, passes and mode (with combine, Cholesky QR inside
 * the sub-panels: the size of a one-pass panel, a fraction of its time);
 * the vector tasks' rows, width and first column (the panel's task also
 * normalises q). Not R's column block: its height grows with the panel's
 * index at the same cost. */
static uint32_t project_footprint(struct starpu_task *task)
{
	const struct cgs_args arg = args_of(task->cl_arg);
	return starpu_hash_crc32c_be_n(&arg.passes, sizeof arg.passes, hyla__size_footprint(task));
}

static uint32_t dims_footprint(starpu_data_handle_t a, uint64_t what)
{
	uint64_t key[3] = {starpu_matrix_get_nx(a), starpu_matrix_get_ny(a), what};
	return starpu_hash_crc32c_be_n(key, sizeof key, 0);
}

static uint32_t panel_footprint(struct starpu_task *task)
{
	const struct cgs_args arg = args_of(task->cl_arg);
	return dims_footprint(STARPU_TASK_GET_HANDLE(task, K_A),
	                      (uint64_t)arg.passes << 1 | (arg.combine != 0));
}

/* The columns a vector task projects from: j + 1 on in q's panel, all in
 * a later one. */
static int vector_first(int own, int j)
{
	return own ? j + 1 : 0;
}

static uint32_t vector_footprint(struct starpu_task *task)
{
	const struct cgs_args arg = args_of(task->cl_arg);
	int own = STARPU_TASK_GET_NBUFFERS(task) == V_Q;
	return dims_footprint(STARPU_TASK_GET_HANDLE(task, V_U),
	                      (uint64_t)vector_first(own, arg.j) << 1 | (uint64_t)own);
}

#define CGS_MODEL(name, size)                                                                      \
	static struct starpu_perfmodel name##_model = {                                                \
		.type = STARPU_NL_REGRESSION_BASED,                                                        \
		.symbol = "hyla_cgs_" #name "_" PREC_NAME "_v1",                                           \
		.size_base = size,                                                                         \
		.footprint = name##_footprint,                                                             \
	}
CGS_MODEL(project, project_size);
CGS_MODEL(panel, panel_size);
CGS_MODEL(vector, vector_size);

#ifdef HYLA_WITH_CUDA
#define CGS_CUDA(f) .cuda_funcs = {f}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define CGS_CUDA(f)
#endif

static struct starpu_codelet project_cl = {
	.cpu_funcs = {project_cpu},
	CGS_CUDA(project_cuda)
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &project_model,
	.name = "cgs_project_" PREC_NAME,
};

static struct starpu_codelet panel_cl = {
	.cpu_funcs = {panel_cpu},
	CGS_CUDA(panel_cuda)
	.nbuffers = 3,
	.modes = {STARPU_RW, STARPU_RW, STARPU_SCRATCH},
	.model = &panel_model,
	.name = "cgs_panel_" PREC_NAME,
};

static struct starpu_codelet vector_panel_cl = {
	.cpu_funcs = {vector_panel_cpu},
	CGS_CUDA(vector_panel_cuda)
	.nbuffers = 4,
	.modes = {STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH},
	.model = &vector_model,
	.name = "cgs_vector_panel_" PREC_NAME,
};

static struct starpu_codelet vector_update_cl = {
	.cpu_funcs = {vector_update_cpu},
	CGS_CUDA(vector_update_cuda)
	.nbuffers = 5,
	.modes = {STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_R},
	.model = &vector_model,
	.name = "cgs_vector_update_" PREC_NAME,
};

/* Insert functions ---------------------------------------------------------- */

#ifdef HYLA_PREC_D
starpu_data_handle_t hyla_workspace_dcgs(int64_t n, int64_t nb, int project)
#else
starpu_data_handle_t hyla_workspace_scgs(int64_t n, int64_t nb, int project)
#endif
{
	starpu_data_handle_t scratch;
	/* The panel's: the columns' own, S and T of the sub-panels, T of the
	 * panel's second pass (panel_task). */
	int64_t elems = project ? n * nb : COLUMNS_WORK + nb * IB + IB * IB + nb * nb;
	starpu_vector_data_register(&scratch, -1, 0, (uint32_t)(elems > 0 ? elems : 1), sizeof(real_t));
	return scratch;
}

int TYPED(hyla__task_cgs_project)(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t w, const starpu_data_handle_t *q, int nq,
                                  int64_t first, int64_t c, int pass, hyla_sequence *seq)
{
	int count = P_Q + nq;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a project task");
	descr[P_A] = (struct starpu_data_descr){a, STARPU_RW};
	descr[P_R] = (struct starpu_data_descr){r, STARPU_RW};
	descr[P_W] = (struct starpu_data_descr){w, STARPU_SCRATCH};
	double cols_q = 0;
	for (int p = 0; p < nq; p++) {
		descr[P_Q + p] = (struct starpu_data_descr){q[p], STARPU_R};
		cols_q += starpu_matrix_get_ny(q[p]);
	}
	struct cgs_args arg = {.c = (int)c, .first = (int)first, .passes = pass, .seq = seq};
	double m = starpu_matrix_get_nx(a), cols = starpu_matrix_get_ny(a);
	/* The second pass also adds S T to R. */
	double flops = 4 * m * cols_q * cols + (pass == 2 ? cols_q * cols * (cols + 1) : 0);
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &project_cl, .data = descr, .ndata = count, .arg = &arg,
		.arg_size = sizeof arg, .priority = STARPU_MAX_PRIO, .flops = flops});
	free(descr);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_task_dcgs_project(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t w,
                           const starpu_data_handle_t *q, int nq, int pass, hyla_sequence *seq)
#else
int hyla_task_scgs_project(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t w,
                           const starpu_data_handle_t *q, int nq, int pass, hyla_sequence *seq)
#endif
{
	int64_t c = 0;
	for (int p = 0; p < nq; p++)
		c += starpu_matrix_get_ny(q[p]);
	return TYPED(hyla__task_cgs_project)(a, r, w, q, nq, 0, c, pass, seq);
}

#ifdef HYLA_PREC_D
int hyla_task_dcgs_panel(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t w,
                         int64_t c, int passes, int combine, hyla_sequence *seq)
#else
int hyla_task_scgs_panel(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t w,
                         int64_t c, int passes, int combine, hyla_sequence *seq)
#endif
{
	struct cgs_args arg = {.c = (int)c, .passes = passes, .combine = combine, .seq = seq};
	double m = starpu_matrix_get_nx(a), cols = starpu_matrix_get_ny(a);
	struct starpu_data_descr data[] = {{a, STARPU_RW}, {r, STARPU_RW}, {w, STARPU_SCRATCH}};
	return hyla__submit(&(struct hyla_task){
		.cl = &panel_cl, .data = data, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO, .flops = 2 * m * cols * cols * passes});
}

int TYPED(hyla__insert_cgs_vector)(starpu_data_handle_t q, starpu_data_handle_t u,
                                   starpu_data_handle_t v, starpu_data_handle_t r,
                                   starpu_data_handle_t w, int64_t i, int64_t j, int priority,
                                   hyla_sequence *seq)
{
	struct cgs_args arg = {.c = (int)i, .j = (int)j, .seq = seq};
	/* GEMV and GER over the columns from vector_first on; the panel's task
	 * first normalises q. */
	double m = starpu_matrix_get_nx(u);
	double flops = 4 * m * ((double)starpu_matrix_get_ny(u) - vector_first(q == u, (int)j)) +
	               (q == u ? 3 * m : 0);
	struct starpu_data_descr data[] = {
		{u, STARPU_RW}, {v, STARPU_R}, {r, STARPU_RW}, {w, STARPU_SCRATCH}, {q, STARPU_R}};
	return hyla__submit(&(struct hyla_task){
		.cl = q == u ? &vector_panel_cl : &vector_update_cl, .data = data,
		.ndata = q == u ? 4 : 5, .arg = &arg, .arg_size = sizeof arg, .priority = priority,
		.flops = flops});
}
