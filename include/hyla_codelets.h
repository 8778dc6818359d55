/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla's codelets for an application's own task graphs: each hyla_task_*
 * function submits one task on the StarPU handles given and returns 0 (or
 * HYLA_ERR_SUBMIT, HYLA_ERR_NOMEM). Handles are StarPU matrix handles
 * (column-major) unless noted; "panel" means a column panel of an
 * hyla_matrix (hyla_async.h), and "consecutive panels" must come from one
 * hyla_matrix, in order (they are one matrix where the task runs). Tasks
 * run on a CPU core or a GPU as the scheduler's models say (the
 * calibration: perfmodels/README.md). Workspaces (hyla_workspace_*) are
 * StarPU scratch handles: StarPU allocates them where a task runs; give one
 * to many tasks, unregister it (starpu_data_unregister_submit) after the
 * last. seq: an hyla_sequence (or NULL): once a task of the sequence failed,
 * the others skip their work; CPU tasks that find a column vanished set
 * its 1-based index as the sequence's info. The d and s versions take
 * double and float matrices. An application that starts StarPU itself
 * calls hyla_init after starpu_init and hyla_finalize before
 * starpu_shutdown: with CUDA workers hyla keeps a second stream and cuBLAS
 * handle per worker for the step codelets. */
#ifndef HYLA_CODELETS_PUBLIC_H
#define HYLA_CODELETS_PUBLIC_H

#include <starpu.h>
#include "hyla_async.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Householder QR (the graph of hyla_dgeqrf / hyla_dorgqr) ------------
 * geqrf_panel: LAPACK's dgeqrf on the rows c0.. of the m-by-w panel (RW)
 * whose first column is c0: R above, the reflectors below, tau (W, a w-by-1
 * matrix) their scalars, and T (W, w-by-w, upper, zero below) of their
 * block reflector as larft makes it. CPU, or CUDA when the rows from c0 are
 * at least w (tau is then written on the GPU: unregister it with
 * coherency, not starpu_data_unregister_submit, to read it). scratch:
 * hyla_workspace_dgeqrf(w or more). */
HYLA_API starpu_data_handle_t hyla_workspace_dgeqrf(int64_t nb);
HYLA_API starpu_data_handle_t hyla_workspace_sgeqrf(int64_t nb);
HYLA_API int hyla_task_dgeqrf_panel(starpu_data_handle_t panel, starpu_data_handle_t tau,
                                    starpu_data_handle_t t, starpu_data_handle_t scratch,
                                    int64_t c0);
HYLA_API int hyla_task_sgeqrf_panel(starpu_data_handle_t panel, starpu_data_handle_t tau,
                                    starpu_data_handle_t t, starpu_data_handle_t scratch,
                                    int64_t c0);
/* larft: T (W, w-by-w, upper, zero below) of the w reflectors in panel (R)
 * from row c0 on, with tau (R): I - V T V^T is their product (LAPACK's
 * dlarft, forward, columnwise). CPU, or CUDA when the rows from c0 are at
 * least w. */
HYLA_API int hyla_task_dlarft(starpu_data_handle_t panel, starpu_data_handle_t tau,
                              starpu_data_handle_t t, int64_t c0, int priority);
HYLA_API int hyla_task_slarft(starpu_data_handle_t panel, starpu_data_handle_t tau,
                              starpu_data_handle_t t, int64_t c0, int priority);
/* larfb: (I - V T V^T) (trans = 0) or its transpose (trans = 1) applied from
 * the left to rows c0.. of the npanels panels (RW; panels that are one
 * matrix in memory are updated in one call), V the reflectors of the panel
 * v (R) from row c0 on, T from larft (R; zero below its diagonal); w: a
 * vector handle of w * (their columns) elements
 * (STARPU_SCRATCH; register it with starpu_vector_data_register(&w, -1, 0,
 * count, elsize)). */
HYLA_API int hyla_task_dlarfb(starpu_data_handle_t v, starpu_data_handle_t t,
                              starpu_data_handle_t w, const starpu_data_handle_t *panels,
                              int npanels, int64_t c0, int trans, int priority);
HYLA_API int hyla_task_slarfb(starpu_data_handle_t v, starpu_data_handle_t t,
                              starpu_data_handle_t w, const starpu_data_handle_t *panels,
                              int npanels, int64_t c0, int trans, int priority);

/* geqrf_step: Q^T of the panel v (R, reflectors from row c0 - its width on,
 * T tv from geqrf_panel, larft or the last step, R; zero below its
 * diagonal) on the npanels consecutive panels (RW) whose first starts at
 * column c0, then geqrf_panel on that first one (tau, t W; scratch as
 * geqrf_panel's). work: a vector handle of v's width times the panels'
 * columns (STARPU_SCRATCH). CPU, or CUDA when the rows from c0 are at
 * least the first panel's columns: there the panel runs on a second stream
 * while the later panels' update goes on, and one task a step spares the
 * runtime's gap between the update and the next panel. */
HYLA_API int hyla_task_dgeqrf_step(starpu_data_handle_t v, starpu_data_handle_t tv,
                                   starpu_data_handle_t work, const starpu_data_handle_t *panels,
                                   int npanels, starpu_data_handle_t tau, starpu_data_handle_t t,
                                   starpu_data_handle_t scratch, int64_t c0);
HYLA_API int hyla_task_sgeqrf_step(starpu_data_handle_t v, starpu_data_handle_t tv,
                                   starpu_data_handle_t work, const starpu_data_handle_t *panels,
                                   int npanels, starpu_data_handle_t tau, starpu_data_handle_t t,
                                   starpu_data_handle_t scratch, int64_t c0);

/* orgqr_step: a step of forming Q (dorgqr) from the last panel to the
 * first, for panel i (RW, its reflectors from row c0 on, T t from larft or
 * the last step, R; zero below its diagonal): its block reflector applied
 * to the nlater later panels (RW, consecutive), then the panel's own
 * columns of Q in place of its reflectors (submit any other use of them
 * first), and (with a GPU on a second stream, beside them) T of the panel
 * before it (prev, R; its tau prev_tau, R) into prev_t (W, w-by-w); prev,
 * prev_tau and prev_t NULL for the first panel. w_form: a vector handle of
 * 2 w * w elements, w_apply: of w * (the later panels' columns)
 * (STARPU_SCRATCH). */
HYLA_API int hyla_task_dorgqr_step(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                                   starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                                   starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                                   int nlater, int64_t c0);
HYLA_API int hyla_task_sorgqr_step(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                                   starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                                   starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                                   int nlater, int64_t c0);

/* ---- Classical Gram-Schmidt (the graph of hyla_dcgs) ---------------------
 * r: the panel's column of R, a matrix handle of its c + w rows (c: the
 * columns before the panel, w its width) and w columns.
 * cgs_project: the panel a (RW) against the nq consecutive finished panels
 * q (R; apart in memory or not: a run of adjacent ones at a time, the runs
 * one after the other): pass 1: R(0:c, :) = Q^T A, A -= Q R(0:c, :); pass 2
 * (after cgs_panel, with T in R's diagonal block): S = Q^T A, A -= Q S,
 * R(0:c, :) += S T. w: hyla_workspace_dcgs(n, nb, 1) (n: the matrix's
 * columns, nb: its panel width). */
HYLA_API starpu_data_handle_t hyla_workspace_dcgs(int64_t n, int64_t nb, int project);
HYLA_API starpu_data_handle_t hyla_workspace_scgs(int64_t n, int64_t nb, int project);
HYLA_API int hyla_task_dcgs_project(starpu_data_handle_t a, starpu_data_handle_t r,
                                    starpu_data_handle_t w, const starpu_data_handle_t *q, int nq,
                                    int pass, hyla_sequence *seq);
HYLA_API int hyla_task_scgs_project(starpu_data_handle_t a, starpu_data_handle_t r,
                                    starpu_data_handle_t w, const starpu_data_handle_t *q, int nq,
                                    int pass, hyla_sequence *seq);
/* cgs_panel: the panel a's columns (RW) one after the other, each against
 * the earlier ones by `passes` classical passes (1 or 2), T into R's
 * diagonal block (rows c..c+w of r, RW); combine = 1 (BCGS2's second pass,
 * after cgs_project pass 2): one renormalisation, and the block becomes T
 * times it. w: hyla_workspace_dcgs(n, nb, 0). */
HYLA_API int hyla_task_dcgs_panel(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t w, int64_t c, int passes, int combine,
                                  hyla_sequence *seq);
HYLA_API int hyla_task_scgs_panel(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t w, int64_t c, int passes, int combine,
                                  hyla_sequence *seq);

/* ---- Modified Gram-Schmidt (the graph of hyla_dmgs) ---------------------
 * mgs_panel: MGS on columns [c0, c1) of the m-by-w panel a (RW; col: its
 * first column in the matrix), each normalised and projected out of the
 * panel's later columns: R(c0:c1, c0:w) into the panel's diagonal R tile r
 * (RW, w-by-w), the Gram matrix Q1^T Q1 into g(c0:c1, c0:c1) (W, w-by-w,
 * lower). scratch: hyla_workspace_dmgs(). mgs_update: the projections of
 * columns [c0, c1) of the factored panel q (R), with g (R), on the panel a
 * (RW): R(c0:c1, :) = (I + L)^-1 Q1^T A (L: g's strict lower part), A -= Q1
 * R(c0:c1, :), into rows c0..c1 of the R tile r (RW). */
HYLA_API starpu_data_handle_t hyla_workspace_dmgs(void);
HYLA_API starpu_data_handle_t hyla_workspace_smgs(void);
HYLA_API int hyla_task_dmgs_panel(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t g, starpu_data_handle_t scratch, int64_t c0,
                                  int64_t c1, int64_t col, int priority, hyla_sequence *seq);
HYLA_API int hyla_task_smgs_panel(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t g, starpu_data_handle_t scratch, int64_t c0,
                                  int64_t c1, int64_t col, int priority, hyla_sequence *seq);
HYLA_API int hyla_task_dmgs_update(starpu_data_handle_t q, starpu_data_handle_t g,
                                   starpu_data_handle_t a, starpu_data_handle_t r, int64_t c0,
                                   int64_t c1, int priority, hyla_sequence *seq);
HYLA_API int hyla_task_smgs_update(starpu_data_handle_t q, starpu_data_handle_t g,
                                   starpu_data_handle_t a, starpu_data_handle_t r, int64_t c0,
                                   int64_t c1, int priority, hyla_sequence *seq);

/* ---- The two-sided reductions (the graphs of hyla_dgehrd, _dsytrd, _dgebrd)
 * On the n-by-n (gehrd, sytrd) or m-by-n, m >= n (gebrd) matrix of an
 * hyla_matrix of panel width nb. col: the first column of the panel being
 * reduced (k nb for panel k). A panel task takes that panel
 * (panels[0]) and every panel after it to the last column, an update task
 * any npanels consecutive panels after it, from matrix column first: both
 * read them as one matrix (CPU, or CUDA on the GPU where hyla_matrix_create
 * put the matrix). Submit panel k, then its updates of all later panels,
 * then panel k + 1; any panel but the last (col + nb < n): the last columns
 * are LAPACK's (dgehrd with ilo = col + 1, dsytrd or dgebrd on the block
 * from (col, col)), in a task of yours or on the host after the graph.
 * tau, e, d, tauq, taup: nb-by-1 matrix handles (W) for elements col..col+nb-1
 * of the vectors that LAPACK's routine returns.
 *
 * gehrd_panel: LAPACK's DLAHR2 on the panel (RW, all rows: final, H on and
 * above the subdiagonal, the reflectors below, as dgehrd leaves them),
 * reading the later panels (R, all rows); writes tau, T (t: W, nb-by-nb,
 * upper), Y = A V T (y: W, n-by-nb) and the explicit V (v: W, n-by-nb; zeros
 * above reflector j's unit element at row col + 1 + j). where: STARPU_CPU,
 * STARPU_CUDA or both (the models choose); CUDA takes at most
 * HYLA_GEHRD_GPU_MAX_NB columns. scratch: hyla_workspace_dgehrd().
 * gehrd_update: with the panel's v, t, y (R), A -= Y V^T on all rows of the
 * panels (RW), then (I - V T^T V^T) from the left on their rows col+1..;
 * w: a scratch matrix handle of nb rows and at least the panels' columns
 * (starpu_matrix_data_register(&w, -1, 0, nb, nb, cols, elsize)). On a GPU
 * the update makes two passes over the panels instead of three when v lies
 * right after y in memory with the same leading dimension (adjacent views of
 * one n-by-2nb matrix) and w has 2nb rows and nb + cols columns.
 * Both bodies on cores run as parallel tasks on combined workers (pheft,
 * peager); the panel's sums then follow the worker's number of cores. */
#define HYLA_GEHRD_GPU_MAX_NB 128
HYLA_API starpu_data_handle_t hyla_workspace_dgehrd(void);
HYLA_API starpu_data_handle_t hyla_workspace_sgehrd(void);
HYLA_API int hyla_task_dgehrd_panel(starpu_data_handle_t tau, starpu_data_handle_t t,
                                    starpu_data_handle_t y, starpu_data_handle_t v,
                                    starpu_data_handle_t scratch,
                                    const starpu_data_handle_t *panels, int npanels, int64_t col,
                                    unsigned long long where);
HYLA_API int hyla_task_sgehrd_panel(starpu_data_handle_t tau, starpu_data_handle_t t,
                                    starpu_data_handle_t y, starpu_data_handle_t v,
                                    starpu_data_handle_t scratch,
                                    const starpu_data_handle_t *panels, int npanels, int64_t col,
                                    unsigned long long where);
HYLA_API int hyla_task_dgehrd_update(starpu_data_handle_t v, starpu_data_handle_t t,
                                     starpu_data_handle_t y, starpu_data_handle_t w,
                                     const starpu_data_handle_t *panels, int npanels, int64_t col,
                                     int64_t first, int priority);
HYLA_API int hyla_task_sgehrd_update(starpu_data_handle_t v, starpu_data_handle_t t,
                                     starpu_data_handle_t y, starpu_data_handle_t w,
                                     const starpu_data_handle_t *panels, int npanels, int64_t col,
                                     int64_t first, int priority);
/* sytrd_panel (lower triangle; the upper one is not read): LAPACK's DLATRD
 * on rows col.. of the panel (RW) and the later panels (R); writes e, tau
 * and W (w: W, n-by-nb, rows col..). It leaves the reflectors below the
 * subdiagonal and 1 on it: once the graph is done, put e(j) at (j + 1, j)
 * and read d(j) off (j, j), as dsytrd leaves them.
 * sytrd_update: with the panel (v: R, its reflectors) and its W (R),
 * A -= V W^T + W V^T on the lower triangle of the panels (RW, rows first..).
 * The reductions' panels run on a GPU only up to HYLA_REDUCTION_GPU_MAX_NB
 * columns wide and with later panels after them (npanels > 1); otherwise on
 * a core. */
#define HYLA_REDUCTION_GPU_MAX_NB 128
HYLA_API int hyla_task_dsytrd_panel(starpu_data_handle_t e, starpu_data_handle_t tau,
                                    starpu_data_handle_t w, const starpu_data_handle_t *panels,
                                    int npanels, int64_t col);
HYLA_API int hyla_task_ssytrd_panel(starpu_data_handle_t e, starpu_data_handle_t tau,
                                    starpu_data_handle_t w, const starpu_data_handle_t *panels,
                                    int npanels, int64_t col);
HYLA_API int hyla_task_dsytrd_update(starpu_data_handle_t v, starpu_data_handle_t w,
                                     const starpu_data_handle_t *panels, int npanels, int64_t col,
                                     int64_t first, int priority);
HYLA_API int hyla_task_ssytrd_update(starpu_data_handle_t v, starpu_data_handle_t w,
                                     const starpu_data_handle_t *panels, int npanels, int64_t col,
                                     int64_t first, int priority);
/* sytrd_step: the panel, then the update of all later panels (RW), in one
 * task; w (n-by-nb) is its scratch (STARPU_SCRATCH; written, STARPU_W, where
 * the task runs on all the cores). One step a panel in place of a panel and
 * its updates: the panel reads the whole trailing matrix, so the next panel
 * waits for the whole update anyway. With a GPU a task less a step spares
 * the runtime's gap between dependent GPU tasks; without one the step is a
 * parallel task of all the cores (as the panel), each core a share of the
 * update. */
HYLA_API int hyla_task_dsytrd_step(starpu_data_handle_t e, starpu_data_handle_t tau,
                                   starpu_data_handle_t w, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col);
HYLA_API int hyla_task_ssytrd_step(starpu_data_handle_t e, starpu_data_handle_t tau,
                                   starpu_data_handle_t w, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col);
/* gebrd_panel (upper bidiagonal, m >= n): LAPACK's DLABRD on rows col.. of
 * the panel and the later panels (all RW: it writes the row reflectors
 * into rows col..col+nb-1 of the later columns); out: d, e, tauq, taup (W);
 * X (x: W, m-by-nb) and Y (y: W, n-by-nb), rows col... It leaves 1 on the
 * block's diagonal and superdiagonal: once the graph is done, put d(j) at
 * (j, j) and e(j) at (j, j + 1), as dgebrd leaves them.
 * gebrd_update: with the panel (v: R), its x and y (R), A -= V Y^T + X U^T
 * on rows col+nb.. of the panels (RW), U their rows col..col+nb-1. */
HYLA_API int hyla_task_dgebrd_panel(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                                    starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                    int npanels, int64_t col);
HYLA_API int hyla_task_sgebrd_panel(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                                    starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                    int npanels, int64_t col);
HYLA_API int hyla_task_dgebrd_update(starpu_data_handle_t v, starpu_data_handle_t x,
                                     starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                     int npanels, int64_t col, int64_t first, int priority);
HYLA_API int hyla_task_sgebrd_update(starpu_data_handle_t v, starpu_data_handle_t x,
                                     starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                     int npanels, int64_t col, int64_t first, int priority);
/* gebrd_step: the panel, then the update of all later panels, in one task
 * (as sytrd_step); x (m-by-nb) and y (n-by-nb) are its scratches. */
HYLA_API int hyla_task_dgebrd_step(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                                   starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col);
HYLA_API int hyla_task_sgebrd_step(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                                   starpu_data_handle_t y, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col);

#ifdef __cplusplus
}
#endif
#endif
