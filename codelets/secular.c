/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The tasks of the tridiagonal eigensolver's divide and conquer
 * (algorithms/stedc.c). T is torn at each cut into two blocks and a rank-one
 * term (Cuppen, 1981); a merge of two blocks with eigenvectors Q1, Q2 and
 * values D solves D + rho z z^T = U L U^T with z from Q1's last row and
 * Q2's first, deflates as Gu and Eisenstat (1995) say (tiny z_i, and close
 * pairs by a rotation), and builds U's columns from the roots of the
 * secular equation with their z recomputed by Loewner's formula (which
 * keeps them orthogonal); the merged eigenvectors are diag(Q1, Q2) U.
 *   scale     T divided by its largest entry (as LAPACK's dstedc)
 *   leaf      a block's eigensystem: LAPACK's dstedc
 *   plan      a merge's z, deflation and secular equation
 *   roots     a share of the roots (LAPACK's dlaed4) and its factors of
 *             Loewner's products
 *   assemble  a panel of U (the values alone: none), the merged values and
 *             the first and last rows of the merged eigenvectors
 *   gemm      a panel of diag(Q1, Q2) U: cuBLAS, or BLAS on a core
 *   finish    the eigenvalues into d, scaled back
 * A node's state: a 3-by-K matrix in panels, rows its values (ascending
 * after the top merge) and the first and last rows of its eigenvectors.
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dc_tasks.h"
#include "lapack.h"
#ifdef HYLA_WITH_CUDA
#include "cuda/kernels.h"
#endif

/* A merge's plan (a vector of plan_bytes(K) bytes): the header, then the
 * arrays of plan_view. */
struct plan {
	int K, k, ndefl, nrot;
	real_t rho;
};
struct plan_view {
	struct plan *h;
	real_t *dlamda, *w, *defl_val, *rot_c, *rot_s, *f, *l;
	int *kept, *defl_idx, *rot_p, *rot_i;
};

#define PLAN_HEAD 64
size_t TYPED(hyla__dc_plan_bytes)(int64_t K)
{
	return PLAN_HEAD + (size_t)K * (7 * sizeof(real_t) + 4 * sizeof(int));
}

static struct plan_view plan_view(void *base, int K)
{
	struct plan_view p = {.h = base};
	real_t *r = (real_t *)((char *)base + PLAN_HEAD);
	p.dlamda = r, p.w = r + K, p.defl_val = r + 2 * K, p.rot_c = r + 3 * K;
	p.rot_s = r + 4 * K, p.f = r + 5 * K, p.l = r + 6 * K;
	int *i = (int *)(r + 7 * K);
	p.kept = i, p.defl_idx = i + K, p.rot_p = i + 2 * K, p.rot_i = i + 3 * K;
	return p;
}

#define PLAN(buf) ((void *)STARPU_VECTOR_GET_PTR(buf))
#define PLAN_K(buf) ((int)((STARPU_VECTOR_GET_NX(buf) - PLAN_HEAD) / (7 * sizeof(real_t) + 4 * sizeof(int))))

struct dc_args {
	int64_t s, n1, n2; /* the node's first row, its blocks' sizes (a leaf: n1) */
	int a, b, c;       /* counts of buffer groups, as each codelet says */
	hyla_sequence *seq;
};

/* tri = [norm, d / norm, e / norm] (a vector of 2n) from the a tiles of d
 * and the b of e (R). */
static void scale_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	real_t *tri = VEC(buffers[arg->a + arg->b]), norm = 0;
	int64_t len = 0;
	for (int t = 0; t < arg->a + arg->b; len += ROWS(buffers[t]), t++)
		memcpy(tri + 1 + len, MAT(buffers[t]), sizeof *tri * (size_t)ROWS(buffers[t]));
	for (int64_t i = 1; i <= len; i++)
		norm = fmax(norm, fabs(tri[i]));
	tri[0] = norm > 0 ? norm : 1;
	for (int64_t i = 1; i <= len; i++)
		tri[i] /= tri[0];
}

/* dstedc ('I') of the L-by-L block from row s, torn at its ends; Z (L-by-L)
 * its eigenvectors. */
static int leaf_solve(const real_t *tri, int64_t n, int64_t s, int L, real_t *d, real_t *z)
{
	const real_t *td = tri + 1, *te = tri + 1 + n;
	real_t *e = malloc(sizeof *e * (size_t)(L > 1 ? L - 1 : 1)), size;
	if (!e)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a block of the eigensolver");
	memcpy(d, td + s, sizeof *d * (size_t)L);
	if (L > 1)
		memcpy(e, te + s, sizeof *e * (size_t)(L - 1));
	if (s > 0)
		d[0] -= fabs(te[s - 1]);
	if (s + L < n)
		d[L - 1] -= fabs(te[s + L - 1]);
	lapack_int isize;
	LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', L, d, e, z, L, &size, -1, &isize, -1);
	int64_t lwork = (int64_t)size > 1 + 4 * (int64_t)L + (int64_t)L * L
	                    ? (int64_t)size : 1 + 4 * (int64_t)L + (int64_t)L * L;
	lapack_int liwork = isize > 3 + 5 * L ? isize : 3 + 5 * L;
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
	int info = work && iwork ? (int)LAPACKE(stedc_work)(LAPACK_COL_MAJOR, 'I', L, d, e, z, L, work,
	                                                    (lapack_int)lwork, iwork, liwork)
	                         : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dstedc's workspace");
	free(e), free(work), free(iwork);
	return info;
}

/* Leaf buffers: tri (R), a state panels (W), b panels of the eigenvectors (W). */
static void leaf_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int L = (int)arg->n1;
	int64_t n = (int64_t)(STARPU_VECTOR_GET_NX(buffers[0]) / 2);
	real_t *d = malloc(sizeof *d * (size_t)L), *z = malloc(sizeof *z * (size_t)L * L);
	int info = d && z ? leaf_solve(VEC(buffers[0]), n, arg->s, L, d, z)
	                  : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a block of the eigensolver");
	if (info == 0) {
		for (int j = 0; j < L; j++) {
			*dc_state_at(buffers, 1, arg->a, 0, j) = d[j];
			*dc_state_at(buffers, 1, arg->a, 1, j) = z[(int64_t)j * L];
			*dc_state_at(buffers, 1, arg->a, 2, j) = z[L - 1 + (int64_t)j * L];
		}
		for (int t = 0, j = 0; t < arg->b; j += COLS(buffers[1 + arg->a + t]), t++) {
			void *p = buffers[1 + arg->a + t];
			for (int c = 0; c < COLS(p); c++)
				memcpy(MAT(p) + c * LD(p), z + (int64_t)(j + c) * L, sizeof *z * (size_t)L);
		}
	}
	free(d), free(z);
	if (info != 0)
		hyla__sequence_fail(arg->seq, info > 0 ? info : 1);
}

static void keep(struct plan_view *p, int i, const real_t *D, const real_t *z)
{
	p->kept[p->h->k] = i, p->dlamda[p->h->k] = D[i], p->w[p->h->k] = z[i];
	p->h->k++;
}

static void deflate(struct plan_view *p, int i, real_t value)
{
	p->defl_idx[p->h->ndefl] = i, p->defl_val[p->h->ndefl] = value;
	p->h->ndefl++;
}

/* Deflation (LAPACK's dlaed2 makes the same decisions): in the order of D,
 * z_i below tol deflates i; of two neighbours left, a rotation that zeroes
 * the first's z_i and moves it off D by less than tol deflates it. */
static void plan_deflation(struct plan_view *p, real_t *D, real_t *z, const int *order)
{
	int K = p->h->K, prev = -1;
	real_t dmax = 0, zmax = 0, rho = p->h->rho;
	for (int i = 0; i < K; i++)
		dmax = fmax(dmax, fabs(D[i])), zmax = fmax(zmax, fabs(z[i]));
	real_t tol = 8 * LAPACKE(lamch_work)('E') * fmax(dmax, zmax);
	for (int o = 0; o < K; o++) {
		int i = order[o];
		if (rho * zmax <= tol || rho * fabs(z[i]) <= tol) {
			deflate(p, i, D[i]);
			continue;
		}
		if (prev >= 0) {
			real_t s = z[prev], c = z[i], tau = hypot(c, s), t = D[i] - D[prev];
			c /= tau, s = -s / tau;
			if (fabs(t * c * s) <= tol) {
				int r = p->h->nrot++;
				p->rot_p[r] = prev, p->rot_i[r] = i, p->rot_c[r] = c, p->rot_s[r] = s;
				z[i] = tau, z[prev] = 0;
				real_t dp = D[prev] * c * c + D[i] * s * s;
				D[i] = D[prev] * s * s + D[i] * c * c;
				deflate(p, prev, dp);
			} else {
				keep(p, prev, D, z);
			}
		}
		prev = i;
	}
	if (prev >= 0)
		keep(p, prev, D, z);
	dc_sort_pairs(p->defl_val, p->defl_idx, p->h->ndefl);
}

/* Plan buffers: tri (R), a state panels of the first block, b of the
 * second (R), the plan (W). */
static void plan_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int n1 = (int)arg->n1, K = (int)(arg->n1 + arg->n2), first2 = 1 + arg->a;
	int64_t n = (int64_t)(STARPU_VECTOR_GET_NX(buffers[0]) / 2);
	struct plan_view p = plan_view(PLAN(buffers[first2 + arg->b]), K);
	real_t beta = VEC(buffers[0])[1 + n + arg->s + n1 - 1];
	real_t *D = malloc(sizeof *D * (size_t)K * 2), *z = D ? D + K : NULL;
	int *order = malloc(sizeof *order * (size_t)K);
	if (!D || !order)
		STARPU_ABORT_MSG("dc: no memory for a merge's plan");
	*p.h = (struct plan){K, 0, 0, 0, fabs(2 * beta)};
	real_t r2 = (real_t)(1 / sqrt(2.0));
	for (int i = 0; i < K; i++) {
		int left = i < n1, j = left ? i : i - n1, first = left ? 1 : first2;
		int count = left ? arg->a : arg->b;
		D[i] = *dc_state_at(buffers, first, count, 0, j);
		real_t f = *dc_state_at(buffers, first, count, 1, j);
		real_t l = *dc_state_at(buffers, first, count, 2, j);
		z[i] = r2 * (left ? l : (beta < 0 ? -f : f));
		p.f[i] = left ? f : 0, p.l[i] = left ? 0 : l;
	}
	for (int o = 0, i = 0, j = n1; o < K; o++) /* D's two ascending halves merged */
		order[o] = j >= K || (i < n1 && D[i] <= D[j]) ? i++ : j++;
	plan_deflation(&p, D, z, order);
	free(D), free(order);
}

size_t TYPED(hyla__dc_share_len)(int64_t K, int64_t cols)
{
	return (size_t)(K + 3 * cols);
}

/* Roots buffers: the plan (R), the share (W); a: its index of b. */
static void roots_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int K = PLAN_K(buffers[0]);
	struct plan_view p = plan_view(PLAN(buffers[0]), K);
	struct dc_share sh = dc_share_of(buffers[1], K);
	int k = p.h->k, j0 = (int)((int64_t)arg->a * k / arg->b);
	int j1 = (int)((int64_t)(arg->a + 1) * k / arg->b);
	real_t *delta = malloc(sizeof *delta * (size_t)(k ? k : 1));
	if (!delta)
		STARPU_ABORT_MSG("dc: no memory for a share of roots");
	for (int i = 0; i < k; i++)
		sh.prod[i] = 1;
	for (int j = j0; j < j1; j++) {
		int jj = j + 1, info = 0, q = j - j0;
		LAPACK(laed4)(&k, &jj, p.dlamda, p.w, delta, &p.h->rho, &sh.root[q], &info);
		if (info != 0) {
			hyla__sequence_fail(arg->seq, (int)arg->s + j + 1);
			break;
		}
		int o = j + 1 < k && fabs(delta[j + 1]) < fabs(delta[j]) ? j + 1 : j;
		sh.origin[q] = o, sh.tau[q] = -delta[o];
		for (int i = 0; i < k; i++)
			sh.prod[i] *= i == j ? delta[i] : delta[i] / (p.dlamda[i] - p.dlamda[j]);
	}
	free(delta);
}

#ifdef HYLA_WITH_CUDA
/* The share's roots on the GPU (codelets/cuda/secular.cu): with a GPU a
 * merge's roots are one such task, by rule: the whole 8000 eigensolver's
 * roots take about 1.4 s of the cores' time (dlaed4 on 128 shares), a few
 * milliseconds there. */
static void roots_cuda(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int K = PLAN_K(buffers[0]);
	struct plan_view p = plan_view(PLAN(buffers[0]), K); /* GPU addresses */
	struct dc_share sh = dc_share_of(buffers[1], K);
	TYPED(hyla__cuda_dc_roots)(K, &p.h->k, &p.h->rho, p.dlamda, p.w, arg->a, arg->b, sh.root,
	                           sh.origin, sh.tau, sh.prod, starpu_cuda_get_local_stream());
}

/* A panel of U and of the merged state on the GPU (codelets/cuda/secular.cu),
 * from the one share of a merge's roots that dc_roots_gpu made (the cores'
 * shares hold dlaed4's vector, not differences, when k = 2): U is made on
 * the GPU, for its products there (from the cores it crossed the bus from
 * pageable memory: 61 ms of the 8000 eigensolver's top merge); the values
 * alone make U's columns in scratch (a merge's state in one panel: one task). */
static void assemble_cuda(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	if (arg->a != 1)
		STARPU_ABORT_MSG("dc: the GPU's assembly takes a merge's roots in one share");
	int K = PLAN_K(buffers[0]);
	struct plan_view p = plan_view(PLAN(buffers[0]), K); /* GPU addresses */
	struct dc_share sh = dc_share_of(buffers[1], K);
	void *state = buffers[2];
	TYPED(hyla__cuda_dc_assemble)(K, COLS(state), arg->c, (const int *)p.h, p.dlamda, p.w,
	                              p.defl_val, p.defl_idx, p.kept, p.rot_p, p.rot_i, p.rot_c,
	                              p.rot_s, p.f, p.l, sh.root, sh.origin, sh.tau, sh.prod, MAT(state),
	                              LD(state), arg->b ? MAT(buffers[3]) : NULL,
	                              arg->b ? LD(buffers[3]) : 0, starpu_cuda_get_local_stream());
}

static struct starpu_codelet assemble_gpu_cl = {
	.cuda_funcs = {assemble_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "dc_assemble_gpu_" PREC_NAME,
};

static struct starpu_codelet roots_gpu_cl = {
	.cuda_funcs = {roots_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "dc_roots_gpu_" PREC_NAME,
};
#endif

/* Assemble buffers: the plan (R), a shares (R), the state panel (W), U's
 * panel (W; b = 0: none); c: the panel's first column. */
static void assemble_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int K = PLAN_K(buffers[0]), C = arg->a;
	struct plan_view p = plan_view(PLAN(buffers[0]), K);
	int k = p.h->k, c0 = arg->c, cw = COLS(buffers[1 + C]);
	real_t *zhat = malloc(sizeof *zhat * (size_t)(5 * k + K + 3));
	int *origin = malloc(sizeof *origin * (size_t)(k + 1));
	if (!zhat || !origin)
		STARPU_ABORT_MSG("dc: no memory to assemble a merge");
	real_t *xbuf = zhat + k, *s = xbuf + K, *lambda = s + k, *tau = lambda + k, *delta = tau + k;
	for (int c = 0, j = 0; c < C; c++) {
		struct dc_share sh = dc_share_of(buffers[1 + c], K);
		for (int q = 0, j1 = (int)((int64_t)(c + 1) * k / C); j < j1; j++, q++)
			lambda[j] = sh.root[q], origin[j] = (int)sh.origin[q], tau[j] = sh.tau[q];
	}
	for (int i = 0; i < k && k > 2; i++) {
		real_t prod = 1;
		for (int c = 0; c < C; c++)
			prod *= dc_share_of(buffers[1 + c], K).prod[i];
		zhat[i] = copysign(sqrt(-prod), p.w[i]);
	}
	real_t *state = MAT(buffers[1 + C]), *u = arg->b ? MAT(buffers[2 + C]) : NULL;
	int64_t lds = LD(buffers[1 + C]), ldu = u ? LD(buffers[2 + C]) : 0;
	for (int pos = 0, jr = 0, jd = 0; pos < c0 + cw; pos++) {
		int root = jr < k && (jd >= p.h->ndefl || lambda[jr] <= p.defl_val[jd]);
		int j = root ? jr++ : jd++;
		if (pos < c0)
			continue;
		real_t *x = u ? u + (pos - c0) * ldu : xbuf; /* U's column, built in place */
		memset(x, 0, sizeof *x * (size_t)K);
		if (!root) {
			x[p.defl_idx[j]] = 1;
		} else if (k <= 2) { /* dlaed4's differences are the eigenvector */
			int jj = j + 1, info = 0;
			LAPACK(laed4)(&k, &jj, p.dlamda, p.w, delta, &p.h->rho, &delta[2], &info);
			for (int i = 0; i < k; i++)
				x[p.kept[i]] = k == 1 ? 1 : delta[i];
		} else {
			real_t base = p.dlamda[origin[j]];
			for (int i = 0; i < k; i++)
				s[i] = zhat[i] / ((p.dlamda[i] - base) - tau[j]);
			real_t norm = BLAS(nrm2)(k, s, 1);
			for (int i = 0; i < k; i++)
				x[p.kept[i]] = s[i] / norm;
		}
		for (int r = p.h->nrot - 1; r >= 0; r--) {
			real_t xp = x[p.rot_p[r]], xi = x[p.rot_i[r]], c = p.rot_c[r], sn = p.rot_s[r];
			x[p.rot_p[r]] = c * xp - sn * xi, x[p.rot_i[r]] = sn * xp + c * xi;
		}
		real_t *st = state + (pos - c0) * lds;
		st[0] = root ? lambda[j] : p.defl_val[j];
		st[1] = BLAS(dot)(K, p.f, 1, x, 1), st[2] = BLAS(dot)(K, p.l, 1, x, 1);
	}
	free(zhat), free(origin);
}

/* Gemm buffers: U's panel (R), a panels of the first block's eigenvectors
 * and b of the second's (R), the merged eigenvectors' panels (W, one
 * matrix where the worker runs). */
static void product(void *buffers[], const struct dc_args *arg, dc_gemm_fn *gemm, void *ctx)
{
	void *u = buffers[0], *out = buffers[1 + arg->a + arg->b];
	if (hyla__contiguous_cols(buffers, 1 + arg->a + arg->b, sizeof(real_t)) < COLS(u))
		STARPU_ABORT_MSG("dc gemm: the merged eigenvectors' panels are not one matrix");
	for (int t = 0, q = 0; t < arg->a + arg->b; q += COLS(buffers[1 + t]), t++) {
		void *z = buffers[1 + t];
		int first = t < arg->a, rows = (int)(first ? arg->n1 : arg->n2);
		gemm(ctx, rows, COLS(u), COLS(z), MAT(z), LD(z), MAT(u) + q, LD(u),
		     t == 0 || t == arg->a ? 0 : 1, MAT(out) + (first ? 0 : arg->n1), LD(out));
	}
}

static void gemm_cpu(void *buffers[], void *cl_arg)
{
	if (!hyla__sequence_failed(((const struct dc_args *)cl_arg)->seq))
		product(buffers, cl_arg, dc_gemm_blas, NULL);
}

#ifdef HYLA_WITH_CUDA
static void gemm_cuda(void *buffers[], void *cl_arg)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	if (!hyla__sequence_failed(((const struct dc_args *)cl_arg)->seq))
		product(buffers, cl_arg, dc_gemm_cublas, &h);
}
#endif

/* Finish buffers: tri (R), a state panels (R), the prepare task's scale
 * (R) if b, c tiles of d (W). */
static void finish_cpu(void *buffers[], void *cl_arg)
{
	const struct dc_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t norm = VEC(buffers[0])[0];
	const real_t *scale = arg->b ? VEC(buffers[1 + arg->a]) : NULL;
	for (int t = 0, j = 0, first = 1 + arg->a + arg->b; t < arg->c; t++) {
		real_t *d = MAT(buffers[first + t]);
		int len = ROWS(buffers[first + t]);
		for (int i = 0; i < len; i++, j++)
			d[i] = *dc_state_at(buffers, 1, arg->a, 0, j) * norm;
		if (scale && scale[1] != 0) /* the eigenvalues of the matrix given */
			LAPACKE(lascl_work)(LAPACK_COL_MAJOR, 'G', 0, 0, scale[1], scale[0], len, 1, d, len);
	}
}

static size_t gemm_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct dc_args *arg = task->cl_arg;
	return (size_t)(arg->n1 * arg->n1 + arg->n2 * arg->n2) *
	       starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
}

DC_GEMM_CODELET("dc_gemm");

/* The host tasks' size bases: a leaf's dstedc is L^3, a share's roots and
 * an assembled panel cost the merge's size times their columns (a panel
 * without vectors less: a model of its own). */
static size_t leaf_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	size_t L = (size_t)((const struct dc_args *)task->cl_arg)->n1;
	return L * L * L;
}

static size_t plan_size(starpu_data_handle_t plan)
{
	return (starpu_vector_get_nx(plan) - PLAN_HEAD) / (7 * sizeof(real_t) + 4 * sizeof(int));
}

static size_t roots_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	size_t K = plan_size(STARPU_TASK_GET_HANDLE(task, 0));
	return K * ((starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 1)) - K) / 3);
}

static size_t assemble_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct dc_args *arg = task->cl_arg;
	return plan_size(STARPU_TASK_GET_HANDLE(task, 0)) * starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 1 + arg->a));
}

DC_HOST_CODELET(scale, "dc_scale", NULL);
DC_MODELED_CODELET(leaf, "dc_leaf", leaf_size);
DC_HOST_CODELET(plan, "dc_plan", NULL);
DC_MODELED_CODELET(roots, "dc_roots", roots_size);
DC_MODELED_CODELET(assemble, "dc_assemble", assemble_size);
DC_MODELED_AS(assemble_values, assemble, "dc_assemble_values", assemble_size);
DC_HOST_CODELET(finish, "dc_finish", NULL);

int TYPED(hyla__insert_dc_scale)(const hyla_desc *d, const hyla_desc *e, starpu_data_handle_t tri)
{
	struct dc_args arg = {.a = (int)d->mt, .b = (int)e->mt};
	struct dc_group g[] = {{d->tiles, d->mt, STARPU_R}, {e->tiles, e->mt, STARPU_R}, {&tri, 1, STARPU_W}};
	return dc_submit(&scale_cl, &arg, sizeof arg, g, 3, 0);
}

int TYPED(hyla__insert_dc_leaf)(starpu_data_handle_t tri, int64_t s, const hyla_desc *state,
                                const hyla_desc *z, hyla_sequence *seq)
{
	struct dc_args arg = {s, state->n, 0, (int)state->nt, z ? (int)z->nt : 0, 0, seq};
	struct dc_group g[] = {{&tri, 1, STARPU_R}, {state->tiles, state->nt, STARPU_W},
	                    {z ? z->tiles : NULL, arg.b, STARPU_W}};
	return dc_submit(&leaf_cl, &arg, sizeof arg, g, 3, 0);
}

int TYPED(hyla__insert_dc_plan)(starpu_data_handle_t tri, int64_t s, const hyla_desc *first,
                                const hyla_desc *second, starpu_data_handle_t plan,
                                hyla_sequence *seq)
{
	struct dc_args arg = {s, first->n, second->n, (int)first->nt, (int)second->nt, 0, seq};
	struct dc_group g[] = {{&tri, 1, STARPU_R}, {first->tiles, first->nt, STARPU_R},
	                    {second->tiles, second->nt, STARPU_R}, {&plan, 1, STARPU_W}};
	return dc_submit(&plan_cl, &arg, sizeof arg, g, 4, 0);
}

int TYPED(hyla__insert_dc_roots)(starpu_data_handle_t plan, starpu_data_handle_t share,
                                 int64_t s, int index, int shares, int gpu, hyla_sequence *seq)
{
	struct dc_args arg = {s, 0, 0, index, shares, 0, seq};
	struct dc_group g[] = {{&plan, 1, STARPU_R}, {&share, 1, STARPU_W}};
#ifdef HYLA_WITH_CUDA
	if (gpu)
		return dc_submit(&roots_gpu_cl, &arg, sizeof arg, g, 2, 0);
#endif
	(void)gpu;
	return dc_submit(&roots_cl, &arg, sizeof arg, g, 2, 0);
}

int TYPED(hyla__insert_dc_assemble)(starpu_data_handle_t plan, const starpu_data_handle_t *shares,
                                    int nshares, int64_t c0, starpu_data_handle_t state,
                                    starpu_data_handle_t u, int gpu, hyla_sequence *seq)
{
	struct dc_args arg = {0, 0, 0, nshares, u != NULL, (int)c0, seq};
	struct dc_group g[] = {{&plan, 1, STARPU_R}, {shares, nshares, STARPU_R}, {&state, 1, STARPU_W},
	                    {u ? &u : NULL, 1, STARPU_W}};
#ifdef HYLA_WITH_CUDA
	if (gpu)
		return dc_submit(&assemble_gpu_cl, &arg, sizeof arg, g, 4, 0);
#endif
	(void)gpu;
	return dc_submit(u ? &assemble_cl : &assemble_values_cl, &arg, sizeof arg, g, 4, 0);
}

int TYPED(hyla__insert_dc_gemm)(starpu_data_handle_t u, const hyla_desc *first,
                                const hyla_desc *second, const starpu_data_handle_t *out,
                                int nout, hyla_sequence *seq)
{
	struct dc_args arg = {0, first->n, second->n, (int)first->nt, (int)second->nt, 0, seq};
	struct dc_group g[] = {{&u, 1, STARPU_R}, {first->tiles, first->nt, STARPU_R},
	                    {second->tiles, second->nt, STARPU_R}, {out, nout, STARPU_W}};
	double flops = 2.0 * (double)(first->n * first->n + second->n * second->n) *
	               (double)starpu_matrix_get_ny(u);
	return dc_submit(&gemm_cl, &arg, sizeof arg, g, 4, flops);
}

int TYPED(hyla__insert_dc_finish)(starpu_data_handle_t tri, const hyla_desc *state,
                                  starpu_data_handle_t scale, const hyla_desc *d,
                                  hyla_sequence *seq)
{
	struct dc_args arg = {0, 0, 0, (int)state->nt, scale != NULL, (int)d->mt, seq};
	struct dc_group g[] = {{&tri, 1, STARPU_R}, {state->tiles, state->nt, STARPU_R},
	                    {scale ? &scale : NULL, 1, STARPU_R}, {d->tiles, d->mt, STARPU_W}};
	return dc_submit(&finish_cl, &arg, sizeof arg, g, 4, 0);
}
