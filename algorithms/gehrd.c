/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Hessenberg reduction Q^T A Q = H as a task graph (Tomov, Nath and
 * Dongarra 2010). Typed source: see runtime/precision.h.
 *
 * A is registered as column panels of width nb, views of one handle (so the
 * trailing matrix stays one contiguous matrix on the GPU). For each panel k
 * but the last:
 *   panel(k)       DLAHR2 on its nb columns: V, T, Y = A V T, with one GEMV
 *                  per column over the whole trailing matrix; one task (the
 *                  fused panel, on the GPU or a core) or, split as in the
 *                  seed, a CPU task per column and its GEMVs as tasks;
 *   update(k, c)   for groups of later panels c (after the fused panel one
 *                  group, all of them): A_c -= Y V_c^T (from the right, all
 *                  rows, the paper's M and G parts), then
 *                  A_c = (I - V T^T V^T) A_c (from the left).
 * The last panel goes to LAPACK's DGEHD2 on the CPU. The output is LAPACK
 * dgehrd's: H on and above the first subdiagonal, the reflectors below it,
 * tau(0:n-1). */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])

/* What the panels of one reduction share: the fused panel's scratch (where
 * it may run) and its Y and V of even and odd steps (adjacent views of one
 * matrix, so that a GPU update multiplies by [Y V] at once), or the split
 * panel's v_j, beta and partial sums; the updates' workspace and group width
 * (in panels). */
struct gehrd_run {
	const hyla_desc *A, *tau;
	const starpu_data_handle_t *yv;
	int split;
	unsigned long long where; /* of the fused panel, or the split one's GEMVs, updates, Y top */
	starpu_data_handle_t scratch, w, vj, ei, parts[HYLA_SPLIT_MAX_PARTS];
	int nparts;
	real_t *host; /* the split panel task's pinned memory (with a GPU) */
	int64_t group;
};

/* The split panel k, then Y's top rows. With a GPU one task does the panel
 * (a task a column and its GEMV cost two hand-offs a column, 0.2 ms);
 * else a snapshot of it, then per column a CPU task and the GEMV tasks over
 * nparts groups of trailing panels (the first group also takes the panel's
 * own later columns). */
static int submit_split_panel(const struct gehrd_run *r, int64_t k, starpu_data_handle_t t,
                              starpu_data_handle_t y, starpu_data_handle_t v)
{
	const hyla_desc *A = r->A;
	int64_t nb = A->nb, ntrail = A->nt - k - 1;
	int nparts = ntrail < r->nparts ? (int)ntrail : r->nparts;
	struct hyla_split_panel p = {.panel = A(k), .y = y, .t = t, .tau = hyla__tile(r->tau, k, 0),
	                             .vj = r->vj, .ei = r->ei, .v = v, .col = k * nb};
	if (r->host) {
		int ret = TYPED(hyla__insert_gehrd_split_panel)(&p, A_FROM(k), (int)(A->nt - k), r->host);
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_gehrd_ytop)(y, v, t, A_FROM(k), (int)(A->nt - k), k * nb,
			                                     r->where);
		return ret;
	}
	p.snapshot = hyla__workspace(A->n, nb, sizeof(real_t));
	int ret = TYPED(hyla__insert_gehrd_snapshot)(p.panel, p.snapshot);
	for (int j = 0; j <= nb && ret == HYLA_SUCCESS; j++) {
		ret = TYPED(hyla__insert_gehrd_column)(&p, j, r->parts, j > 0 ? nparts : 0);
		for (int g = 0; j < nb && g < nparts && ret == HYLA_SUCCESS; g++) {
			int64_t c0 = k + 1 + ntrail * g / nparts, c1 = k + 1 + ntrail * (g + 1) / nparts;
			ret = TYPED(hyla__insert_gehrd_gemv)(&p, j, r->parts[g], A_FROM(c0), (int)(c1 - c0),
			                                     c0 * nb, g == 0, r->where);
		}
	}
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_gehrd_ytop)(y, v, t, A_FROM(k), (int)(A->nt - k), k * nb,
		                                     r->where);
	hyla__workspace_release(p.snapshot);
	return ret;
}

/* Submits the reduction of the n-by-n matrix held by A (column panels of
 * width A->nb) into tau (chunks of nb). */
static int submit_gehrd(const struct gehrd_run *r)
{
	const hyla_desc *A = r->A;
	int64_t n = A->n, nb = A->nb;
	for (int64_t k = 0; k + 1 < A->nt; k++) {
		starpu_data_handle_t y, v, t = hyla__workspace(nb, nb, sizeof(real_t));
		/* The split panel's own Y and V: shared ones would make step k + 2's
		 * first column wait for every update group of step k. */
		if (r->split) {
			y = hyla__workspace(n, nb, sizeof(real_t));
			v = hyla__workspace(n, nb, sizeof(real_t));
		} else {
			y = r->yv[2 * (k % 2)], v = r->yv[2 * (k % 2) + 1];
		}
		int ret = r->split ? submit_split_panel(r, k, t, y, v)
		                   : TASK(gehrd_panel)(hyla__tile(r->tau, k, 0), t, y, v, r->scratch,
		                                       A_FROM(k), (int)(A->nt - k), k * nb, r->where);
		/* The split panel's first column needs only the next panel: that one
		 * first (on the critical path), then groups wide enough for Level-3
		 * efficiency (also for the panel as one task: one update over all
		 * took 0.345 s against 0.288 s at 4000 on the H200). The fused panel
		 * reads the whole trailing matrix, so its group is all of it: one
		 * update. */
		for (int64_t c = k + 1; c < A->nt && ret == HYLA_SUCCESS;) {
			int64_t count = c == k + 1 && r->split ? 1 : (A->nt - c < r->group ? A->nt - c : r->group);
			int prio = c == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO;
			ret = r->split ? TYPED(hyla__insert_gehrd_split_update)(v, t, y, r->w, A_FROM(c),
			                                                        (int)count, k * nb, c * nb, prio,
			                                                        r->where)
			               : TASK(gehrd_update)(v, t, y, r->w, A_FROM(c), (int)count, k * nb,
			                                    c * nb, prio);
			c += count;
		}
		hyla__workspace_release(t);
		if (r->split) {
			hyla__workspace_release(y);
			hyla__workspace_release(v);
		}
		if (ret != HYLA_SUCCESS)
			return ret;
		hyla__write_back(A, 0, k);
		hyla__progress_mark(hyla__tile(r->tau, k, 0), k + 1, A->nt - 1);
	}
	int64_t last = (A->nt - 1) * nb;
	if (n - last >= 2)
		return TYPED(hyla__insert_gehrd_tail)(hyla__tile(A, 0, A->nt - 1),
		                                      hyla__tile(r->tau, A->nt - 1, 0), last);
	return HYLA_SUCCESS;
}

/* Registers what the panels share (see struct gehrd_run); host: the split
 * panel task's memory, or NULL. */
static void run_register(struct gehrd_run *r, int64_t n, int64_t nb, hyla_gehrd_panel panel,
                         int64_t width, real_t *host)
{
	/* Auto on cores alone: the fused panel where it is a parallel task,
	 * else the split one (its GEMVs as tasks over all cores). */
	r->split = panel == HYLA_PANEL_CPU ||
	           (panel == HYLA_PANEL_AUTO && hyla_ncuda() == 0 && !hyla__parallel_tasks());
	r->group = !r->split ? r->A->nt : width / nb > 1 ? width / nb : 1;
	/* 2nb by nb + the group's columns: see the update codelet. */
	r->w = hyla__workspace(2 * nb, (r->group + 1) * nb, sizeof(real_t));
	/* The fused panel where asked (the models choose under auto); the split
	 * panel's GEMVs, updates and Y top where the trailing matrix lives. */
	r->where = panel == HYLA_PANEL_GPU || (r->split && hyla_ncuda() > 0) ? STARPU_CUDA
	                                                                      : STARPU_CPU | STARPU_CUDA;
	r->scratch = r->split ? NULL : WORKSPACE(gehrd)();
	r->nparts = 0;
	r->host = host;
	if (!r->split || host)
		return;
	/* One GEMV task per column where a GPU holds the trailing matrix, else
	 * one per CPU worker. */
	int ncpus = hyla_ncpus() > 0 ? hyla_ncpus() : 1;
	r->nparts = hyla_ncuda() > 0 ? 1 : ncpus < HYLA_SPLIT_MAX_PARTS ? ncpus : HYLA_SPLIT_MAX_PARTS;
	r->vj = hyla__workspace_vector(n, sizeof(real_t));
	r->ei = hyla__workspace_vector(1, sizeof(real_t));
	for (int g = 0; g < r->nparts; g++)
		r->parts[g] = hyla__workspace_vector(n, sizeof(real_t));
}

static void run_unregister(struct gehrd_run *r)
{
	hyla__workspace_release(r->w);
	hyla__workspace_release(r->scratch);
	if (!r->split || r->host)
		return;
	hyla__workspace_release(r->vj);
	hyla__workspace_release(r->ei);
	for (int g = 0; g < r->nparts; g++)
		hyla__workspace_release(r->parts[g]);
}

/* Submits the reduction of A (column-panel views, ilo = 1, ihi = n) with
 * tau (n-1 scalars, registered here, in the caller's memory once the
 * sequence is waited for) and the sequence's fence. */
static int submit_reduction(const hyla_desc *A, real_t *tau, const hyla_options *o,
                            hyla_sequence *seq)
{
	hyla_desc descTau;
	int64_t n = A->n, nb = A->nb;
	int ret = hyla__desc_register(&descTau, tau, n - 1, 1, n - 1, nb, 1, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	ret = hyla__sequence_own_tiles(seq, &descTau);
	struct gehrd_run run = {.A = A, .tau = &descTau};
	real_t *host = NULL;
	if (ret == HYLA_SUCCESS && o->gehrd_panel == HYLA_PANEL_CPU && hyla_ncuda() > 0 &&
	    !(host = hyla__sequence_pinned(seq, TYPED(hyla__gehrd_split_host)(n, nb))))
		ret = HYLA_ERROR(HYLA_ERR_NOMEM, "no pinned memory for the split panel");
	if (ret == HYLA_SUCCESS) {
		run_register(&run, n, nb, o->gehrd_panel, hyla__update_width(o, n), host);
		const hyla_desc *yv = NULL;
		if (!run.split)
			ret = hyla__sequence_matrix(seq, n, 4 * nb, nb, sizeof(real_t), 0, &yv);
		run.yv = yv ? yv->tiles : NULL;
		if (ret == HYLA_SUCCESS)
			ret = submit_gehrd(&run);
		run_unregister(&run);
	}
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_fence(seq, A, NULL);
	free(descTau.tiles); /* the handles are the sequence's */
	return ret;
}

/* The task graph on the n-by-n a (ilo = 1, ihi = n). */
static int reduce_graph(int64_t n, real_t *a, int64_t lda, real_t *tau, const hyla_options *o,
                        int64_t nb)
{
	hyla_desc descA;
	/* The fused panel's Y and V (n by 4 nb) whole beside A. */
	int ret = hyla__fits_whole(n, n, o->gehrd_panel == HYLA_PANEL_CPU ? 0 : 4 * nb * n,
	                           sizeof(real_t));
	void *pinned = ret == HYLA_SUCCESS ? hyla__pin(a, n, n, lda, sizeof(real_t)) : NULL;
	if (ret == HYLA_SUCCESS &&
	    (ret = hyla__desc_register_views(&descA, a, n, n, lda, nb, sizeof(real_t))) == HYLA_SUCCESS) {
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &descA, submit_reduction(&descA, tau, o, &seq));
	}
	hyla__unpin(pinned);
	return ret;
}

/* Whether the workers of the call's context (hyla_init first) can take
 * the panel variant of o with panels of width nb. */
static int check_panel_workers(const hyla_options *o, int arg, int64_t nb)
{
	if (o->gehrd_panel == HYLA_PANEL_GPU && hyla_ncuda() == 0)
		return HYLA_ERROR(HYLA_ERR_NODEV, "the GPU panel needs a CUDA worker; none is running");
	if (o->gehrd_panel == HYLA_PANEL_GPU && nb > HYLA_GEHRD_GPU_MAX_NB)
		return HYLA_ERROR(-arg, "nb = %lld: the GPU panel takes at most %d columns",
		                  (long long)nb, HYLA_GEHRD_GPU_MAX_NB);
	return HYLA_SUCCESS;
}

/* The block ilo..ihi (1-based) reduces on its own; Q then goes to the rows
 * above it from the right and the columns after it from the left. */
static int reduce_block(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda, real_t *tau,
                        const hyla_options *o)
{
	int64_t lo = ilo - 1, m = ihi - lo;
	int64_t nb = hyla__gehrd_nb(o, m);
	int ret = check_panel_workers(o, 7, nb);
	if (ret != HYLA_SUCCESS)
		return ret;
	if (m <= nb)
		return TYPED(hyla__host_gehrd)(n, ilo, ihi, a, lda, tau);
	for (int64_t i = 0; i < n - 1; i++)
		if (i < lo || i >= ihi - 1)
			tau[i] = 0;
	real_t *b = a + lo + lo * lda;
	if ((ret = reduce_graph(m, b, lda, tau + lo, o, nb)) != HYLA_SUCCESS)
		return ret;
	if (lo > 0)
		ret = TYPED(hyla__host_ormhr)('R', 'N', lo, m, b, lda, tau + lo, a + lo * lda);
	if (ret == HYLA_SUCCESS && ihi < n)
		ret = TYPED(hyla__host_ormhr)('L', 'T', m, n - ihi, b, lda, tau + lo, b + m * lda);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgehrd(int64_t n, int64_t ilo, int64_t ihi, double *a, int64_t lda, double *tau,
                const hyla_options *opts)
#else
int hyla_sgehrd(int64_t n, int64_t ilo, int64_t ihi, float *a, int64_t lda, float *tau,
                const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_hessenberg_args(n, ilo, ihi, a, lda, tau, n > 1);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 7, &o);
	if (ret != HYLA_SUCCESS || n <= 1 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = reduce_block(n, ilo, ihi, a, lda, tau, &o);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgehrd_async(hyla_matrix *a, double *tau, const hyla_options *opts, hyla_sequence *seq)
#else
int hyla_sgehrd_async(hyla_matrix *a, float *tau, const hyla_options *opts, hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS && A->m != A->n)
		ret = HYLA_ERROR(-1, "a is %lld-by-%lld, not square", (long long)A->m, (long long)A->n);
	if (ret == HYLA_SUCCESS && !tau && A->n > 1)
		ret = HYLA_ERROR(-2, "tau is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 3, seq, &o);
	if (ret != HYLA_SUCCESS || A->n == 1)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	/* The context's workers decide whether the panel variant can run: an
	 * argument error, not the sequence's. */
	ret = check_panel_workers(&o, 1, A->nb);
	if (ret != HYLA_SUCCESS) {
		hyla__context_leave(&o, outer);
		return ret;
	}
	return hyla__async_done(seq, &o, outer, submit_reduction(A, tau, &o, seq));
}
