/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The algorithms' internal entry points, typed by runtime/precision.h. */
#ifndef HYLA_ALGORITHMS_TYPED_H
#define HYLA_ALGORITHMS_TYPED_H

#include <stdint.h>
#include "precision.h"
#include "runtime.h"

/* The Gram-Schmidt QRs' first look at each column (algorithms/gs_columns.c):
 * gs_begin registers the sequence's 2-by-n info (tiles of A->nb columns;
 * the caller frees info->tiles, the sequence owns the handles) and sets the
 * sequence's finish: the wait returns the first column that depends on the
 * earlier ones (1-based) and scales R (n-by-n at r, the caller's memory)
 * back where a column was scaled. gs_columns submits panel k's task, to
 * come before any other access to the panel. */
int TYPED(hyla__gs_begin)(const hyla_desc *A, real_t *r, int64_t ldr, hyla_desc *info,
                          hyla_sequence *seq);
int TYPED(hyla__gs_columns)(const hyla_desc *A, const hyla_desc *info, int64_t k);

/* Q (m-by-n, m >= n >= k) from the k reflectors in a as dgeqrf leaves
 * them, with tau: the task graph over panels of width nb (update tasks as
 * o says), or LAPACK's dorgqr on the host when k <= nb or the matrix cannot
 * be registered. LAPACK's info, or HYLA_ERR_*. */
int TYPED(hyla__orgqr)(int64_t m, int64_t n, int64_t k, real_t *a, int64_t lda, const real_t *tau,
                       const hyla_options *o, int64_t nb);

/* Submits Q of the reflectors in A (column-panel views, k = A->n) and the
 * columns after them in B (or NULL), with tau's tiles (A->nb scalars each,
 * R), update tasks as o says, and the sequence's fence. home: the caller
 * waits for Q in the host's memory (A hyla's own registration), so Q may go
 * home by parts while the rest is formed, the calling thread waiting
 * between the parts' submissions. */
int TYPED(hyla__orgqr_submit)(const hyla_desc *A, const hyla_desc *B, const hyla_desc *tau,
                              const hyla_options *o, int home, hyla_sequence *seq);

/* Submits C = Q C (dormqr's product, left, no transpose) with the reflectors
 * in V (column panels, as dgeqrf leaves them but offset rows down: panel
 * i's first unit element in row i V->nb + offset) and tau's tiles (V->nb
 * scalars each, R): for each panel from the last, its T and its block
 * reflector on C's panels (RW, in groups as o says). */
int TYPED(hyla__ormqr_submit)(const hyla_desc *V, const hyla_desc *tau, const hyla_desc *C,
                              int64_t offset, const hyla_options *o);

/* Submits the eigenvalues of the symmetric tridiagonal T (d and e as
 * dsytrd leaves them: tiles RW; the values end in d, ascending, scaled
 * back by scale, the syevd prepare task's, R) and with z (n-by-n, column
 * panels, W; NULL: none) its eigenvectors, by divide and conquer over
 * panels of width w (algorithms/stedc.c). */
int TYPED(hyla__stedc_submit)(const hyla_desc *d, const hyla_desc *e, starpu_data_handle_t scale,
                              const hyla_desc *z, int64_t w, hyla_sequence *seq);

/* Submits the SVD of the n-by-n upper bidiagonal B (d and e as dgebrd
 * leaves them: tiles RW; the singular values end in d, descending) and with
 * u and v (W, column panels of width w; NULL: none) its singular vectors:
 * U on u's first n rows (the rest of those columns zeroed; u_rw: u's panels
 * keep their other columns, so RW) and V on v's n-by-n, by divide and
 * conquer over panels of width w (algorithms/bdsdc.c). */
int TYPED(hyla__bdsdc_submit)(const hyla_desc *d, const hyla_desc *e, const hyla_desc *u, int u_rw,
                              const hyla_desc *v, int64_t w, hyla_sequence *seq);

/* Submits the tridiagonal reduction of A (column-panel views; upper: the
 * lower one of J A J, A reversed in place before and back after) into out:
 * d, e and tau, tiles of A->nb (registered by the caller), d and e where
 * dsytrd leaves them at the end. */
int TYPED(hyla__sytrd_submit)(const hyla_desc *A, int upper, const hyla_desc out[3],
                              const hyla_options *o);

/* The tridiagonal reduction of the n-by-n a (upper: its upper triangle),
 * dsytrd's output, in the calling thread's context: the task graph over
 * panels of o's width (else the default), or LAPACK's dsytrd on the host
 * for n at most that. LAPACK's info, or HYLA_ERR_*. */
int TYPED(hyla__sytrd)(int upper, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tau, const hyla_options *o);

/* Submits the bidiagonal reduction of A (column-panel views, m >= n) into
 * the host arrays d, e, tauq and taup, registered as the sequence's vectors
 * in tiles of A's width (out: their descriptors, whose tiles arrays the
 * caller frees), and its end (d and e where dgebrd leaves them); width:
 * hyla__update_width's. */
int TYPED(hyla__gebrd_tall_submit)(const hyla_desc *A, real_t *d, real_t *e, real_t *tauq,
                                   real_t *taup, int64_t width, hyla_desc out[4],
                                   hyla_sequence *seq);

/* The bidiagonal reduction of the m-by-n a, dgebrd's output, the same way. */
int TYPED(hyla__gebrd)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tauq, real_t *taup, const hyla_options *o);

/* LAPACK on the host (algorithms/host.c), each routine's own arguments;
 * ormhr applies the Q of the reduced block b: C = op(Q) C (side 'L') or
 * C op(Q) (side 'R'), C rows-by-cols at c with b's leading dimension.
 * LAPACK's info, or HYLA_ERR_NOMEM. */
int TYPED(hyla__host_geqrf)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *tau);
int TYPED(hyla__host_orgqr)(int64_t m, int64_t n, int64_t k, real_t *a, int64_t lda,
                            const real_t *tau);
int TYPED(hyla__host_sytrd)(char uplo, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                            real_t *tau);
int TYPED(hyla__host_gebrd)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                            real_t *tauq, real_t *taup);
int TYPED(hyla__host_gehrd)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda,
                            real_t *tau);
int TYPED(hyla__host_ormhr)(char side, char trans, int64_t rows, int64_t cols, const real_t *b,
                            int64_t ld, const real_t *tau, real_t *c);
int TYPED(hyla__host_syevd)(char jobz, char uplo, int64_t n, real_t *a, int64_t lda, real_t *w);
int TYPED(hyla__host_gesdd)(char jobz, int64_t m, int64_t n, real_t *a, int64_t lda, real_t *s,
                            real_t *u, int64_t ldu, real_t *vt, int64_t ldvt);

#endif
