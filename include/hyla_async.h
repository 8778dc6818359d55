/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla inside a StarPU application: matrices registered as StarPU handles
 * the application uses in its own tasks, and calls that only submit hyla's
 * tasks on them and return at once. StarPU's data dependencies order the
 * application's tasks before and after hyla's; nothing here waits for all
 * tasks, synchronises a device or creates a cuBLAS handle or stream.
 * Thread safety: submit from one thread at a time per matrix (StarPU's
 * sequential consistency follows submission order). */
#ifndef HYLA_ASYNC_H
#define HYLA_ASYNC_H

#include <starpu.h>
#include "hyla.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An m-by-n column-major matrix at ptr (leading dimension ld, elements of
 * elsize bytes: 8 double, 4 float) registered as column panels of width nb,
 * views of one StarPU handle; with a GPU present it is copied there whole
 * first (here, once, not in the calls below), so that panels next to each
 * other are one matrix there too. The caller's memory must stay valid until
 * hyla_matrix_destroy; use the panels' handles (hyla_matrix_panel) in your
 * tasks, not the memory, in between. NULL on a bad argument or failure (a
 * line on stderr; a matrix of more than three quarters of what the GPU's
 * memory leaves beside the 32 MB StarPU takes small buffers from is one).
 * Calls hyla_init. */
typedef struct hyla_matrix hyla_matrix;
HYLA_API hyla_matrix *hyla_matrix_create(void *ptr, size_t elsize, int64_t m, int64_t n, int64_t ld,
                                         int64_t nb);
/* The application's own registered StarPU matrix handle (any leading
 * dimension, double or float) as an hyla matrix of column panels of width
 * nb, without unregistering it or copying it: the panels are views of its
 * memory wherever its valid copy is, the GPU included (with a GPU, a handle
 * valid only on the host is sent there whole first, once). The cost:
 * StarPU's partitioning (starpu_data_partition) waits here for the tasks
 * already submitted on the handle, and until hyla_matrix_destroy gives it
 * back, tasks go on the panels (hyla_matrix_panel), not on the handle.
 * NULL on a bad argument or failure (a line on stderr). Calls hyla_init. */
HYLA_API hyla_matrix *hyla_matrix_wrap(starpu_data_handle_t handle, int64_t nb);
/* Waits for the tasks on the matrix, then: a created matrix's data comes
 * home and its handles are unregistered; a wrapped handle is given back
 * whole, in LAPACK's layout, gathered on the GPU when every panel is valid
 * there (nothing crosses the bus), else in main memory, and stays
 * registered. */
HYLA_API void hyla_matrix_destroy(hyla_matrix *a);
/* hyla_finalize (the last one) does the same for the matrices not yet
 * destroyed, before StarPU stops; the calls then refuse them
 * (HYLA_ERR_NOINIT), and hyla_matrix_destroy only frees them. */
HYLA_API int64_t hyla_matrix_panels(const hyla_matrix *a);
/* Panel k: columns k*nb .. min((k+1)*nb, n)-1, a StarPU matrix handle. */
HYLA_API starpu_data_handle_t hyla_matrix_panel(const hyla_matrix *a, int64_t k);

/* A sequence: the asynchronous calls that share one outcome (Chameleon's
 * sequence and request in one object). info follows LAPACK's convention:
 * a call that cannot submit records its error there; a Gram-Schmidt call
 * records its first dependent column (the first such call in the
 * sequence wins), its tasks on cores that have not started yet skip
 * their work once one is found; once the sequence has failed, the calls
 * given it submit nothing (HYLA_ERR_SEQUENCE). Calls of one sequence may
 * follow each other at once: their tasks are ordered by the data they
 * share (StarPU's implicit dependencies), not by waits. Give a sequence
 * to one thread at a time. */
typedef struct hyla_sequence hyla_sequence;
HYLA_API hyla_sequence *hyla_sequence_create(void);
/* Waits for the sequence's tasks (only those: no global wait), then for the
 * data hyla registered for its calls (R, tau, d, e: in your memory on
 * return), and returns the sequence's info. That data is in your memory
 * already for tasks that write the matrix after a call (a CPU task of the
 * call brings it home first). The sequence can take more calls after. */
HYLA_API int hyla_sequence_wait(hyla_sequence *seq);
/* Frees a sequence that was waited for (or never used). */
HYLA_API void hyla_sequence_destroy(hyla_sequence *seq);

/* The asynchronous calls submit a routine's tasks on the matrix a and
 * return: 0 once they are submitted, -i for a bad argument i, or
 * HYLA_ERR_*. The outputs outside the matrix (R, tau, d, e) are the
 * caller's memory, theirs once the sequence is waited for. opts as in
 * hyla.h (NULL: defaults), less nb: the matrix's panel width is the block
 * size. If a call returns an error, some of its tasks may have been
 * submitted: wait for the sequence all the same. */

/* Modified Gram-Schmidt QR of a (m >= n; Q over it), R into the n-by-n r
 * (ldr >= n), as hyla_dmgs. A column that depends on the earlier ones
 * sets info to its 1-based index (at the wait, for one found on a GPU). */
HYLA_API int hyla_dmgs_async(hyla_matrix *a, double *r, int64_t ldr, const hyla_options *opts,
                             hyla_sequence *seq);
HYLA_API int hyla_smgs_async(hyla_matrix *a, float *r, int64_t ldr, const hyla_options *opts,
                             hyla_sequence *seq);

/* Classical Gram-Schmidt QR of a, as hyla_dcgs (at most 256 columns a
 * panel for HYLA_CGS_VECTOR) and hyla_dmgs_async. */
HYLA_API int hyla_dcgs_async(hyla_matrix *a, double *r, int64_t ldr, const hyla_options *opts,
                             hyla_sequence *seq);
HYLA_API int hyla_scgs_async(hyla_matrix *a, float *r, int64_t ldr, const hyla_options *opts,
                             hyla_sequence *seq);

/* Householder QR of the m-by-n matrix a, any shape (LAPACK dgeqrf's output
 * over it), tau min(m, n) scalars; then, for m >= n, on the same matrix
 * and tau, its Q (m-by-n, dorgqr with k = n) over it: the second may
 * follow the first at once (the panels write tau on the host). For m < n
 * the graph factors the panels wholly left of column m and updates the
 * others, and when nb does not divide m a CPU task ends it with LAPACK's
 * dgeqrf on the others' last m mod nb rows. */
HYLA_API int hyla_dgeqrf_async(hyla_matrix *a, double *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_sgeqrf_async(hyla_matrix *a, float *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_dorgqr_async(hyla_matrix *a, const double *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_sorgqr_async(hyla_matrix *a, const float *tau, const hyla_options *opts,
                               hyla_sequence *seq);

/* Hessenberg reduction of the n-by-n matrix a (ilo = 1, ihi = n; for other
 * ranges use hyla_dgehrd), tau n-1 scalars; then its Q explicitly over a
 * (dorghr with ilo = 1, ihi = n), from tau: the second may follow the
 * first at once (its first task, on the CPU, moves the reflectors one
 * column right and waits for the reduction's tau to be in your memory). */
HYLA_API int hyla_dgehrd_async(hyla_matrix *a, double *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_sgehrd_async(hyla_matrix *a, float *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_dorghr_async(hyla_matrix *a, const double *tau, const hyla_options *opts,
                               hyla_sequence *seq);
HYLA_API int hyla_sorghr_async(hyla_matrix *a, const float *tau, const hyla_options *opts,
                               hyla_sequence *seq);

/* Symmetric tridiagonal reduction of the n-by-n matrix a, the triangle
 * uplo ('L' or 'U'), d (n), e (n-1) and tau (n-1). 'U' reduces J A J's
 * lower triangle (J the reversal): a first CPU task reverses the matrix in
 * place, a last one reverses it back with d, e and tau (the matrix comes
 * home from a GPU for each). */
HYLA_API int hyla_dsytrd_async(char uplo, hyla_matrix *a, double *d, double *e, double *tau,
                               const hyla_options *opts, hyla_sequence *seq);
HYLA_API int hyla_ssytrd_async(char uplo, hyla_matrix *a, float *d, float *e, float *tau,
                               const hyla_options *opts, hyla_sequence *seq);

/* Bidiagonal reduction of the m-by-n matrix a (upper bidiagonal for
 * m >= n, lower for m < n); d (k = min(m, n)), e (k-1), tauq and taup (k).
 * m < n reduces A^T in an n-by-m copy that the sequence owns (hyla_malloc'ed
 * and registered here, so with a GPU sent there here, as hyla_matrix_create
 * does; freed by the wait): CPU tasks transpose a into it and back. */
HYLA_API int hyla_dgebrd_async(hyla_matrix *a, double *d, double *e, double *tauq, double *taup,
                               const hyla_options *opts, hyla_sequence *seq);
HYLA_API int hyla_sgebrd_async(hyla_matrix *a, float *d, float *e, float *tauq, float *taup,
                               const hyla_options *opts, hyla_sequence *seq);

/* The symmetric eigensolver (hyla_dsyevd) on the n-by-n a, uplo's triangle
 * given: the eigenvalues into w (n, ascending), with jobz 'V' the
 * eigenvectors over a. One graph: a CPU task puts the matrix within
 * LAPACK's range, as dsyevd (and with 'V' in its lower triangle), the
 * tridiagonal reduction, a copy of the reflectors into an n-by-(n-1)
 * matrix the sequence owns (jobz 'V'; freed by the wait; panels of orgqr's
 * width, the block reflectors' in Q Z), T's eigenproblem by divide and
 * conquer (tasks on the cores, the merges' products on the GPU where the
 * models say), then Q Z on a's panels. */
HYLA_API int hyla_dsyevd_async(char jobz, char uplo, hyla_matrix *a, double *w,
                               const hyla_options *opts, hyla_sequence *seq);
HYLA_API int hyla_ssyevd_async(char jobz, char uplo, hyla_matrix *a, float *w,
                               const hyla_options *opts, hyla_sequence *seq);

/* The SVD (hyla_dgesdd) of the m-by-n a, any shape, a destroyed: the
 * min(m, n) singular values into s (descending); jobz 'S' also the first
 * min(m, n) columns of U into u (m-by-min(m, n)) and rows of V^T into vt
 * (min(m, n)-by-n); jobz 'N': u and vt unused. One graph: the bidiagonal
 * reduction, B's SVD by divide and conquer, the back-transformations (m < n:
 * all of it on A^T, a copy the sequence owns, then U and V^T transposed
 * into vt and u). Unlike the synchronous call it neither looks for NaN nor
 * scales a matrix of extreme range (a's values are not there when it
 * returns). Returns -i for a bad argument i (6: opts, 7: seq). */
HYLA_API int hyla_dgesdd_async(char jobz, hyla_matrix *a, double *s, hyla_matrix *u,
                               hyla_matrix *vt, const hyla_options *opts, hyla_sequence *seq);
HYLA_API int hyla_sgesdd_async(char jobz, hyla_matrix *a, float *s, hyla_matrix *u,
                               hyla_matrix *vt, const hyla_options *opts, hyla_sequence *seq);

#ifdef __cplusplus
}
#endif
#endif
