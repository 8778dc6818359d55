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
 * line on stderr). Calls hyla_init. */
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
HYLA_API int64_t hyla_matrix_panels(const hyla_matrix *a);
/* Panel k: columns k*nb .. min((k+1)*nb, n)-1, a StarPU matrix handle. */
HYLA_API starpu_data_handle_t hyla_matrix_panel(const hyla_matrix *a, int64_t k);

/* The outcome of one asynchronous call. info: LAPACK's convention, set by
 * the tasks themselves (a numerical failure: later tasks of the call skip
 * their work) or at the end (hyla_request_wait). */
typedef struct hyla_request hyla_request;
HYLA_API hyla_request *hyla_request_create(void);
/* Waits for the call's tasks (only those), then for the data hyla
 * registered for it (R, tau, d, e: in your memory on return), and returns
 * info. That data is in your memory already for tasks that write the
 * matrix after the call (a CPU task of the call brings it home first). */
HYLA_API int hyla_request_wait(hyla_request *req);
/* Frees a request that was waited for (or never used). */
HYLA_API void hyla_request_destroy(hyla_request *req);

/* Modified Gram-Schmidt QR of the matrix a (m >= n; Q over it), R into the
 * n-by-n r (ldr >= n, in your memory on hyla_request_wait): as hyla_dmgs
 * with the matrix's panel width as nb. A column that vanishes sets info to
 * its 1-based index; the call's later tasks then do nothing. Returns 0 once
 * the tasks are submitted, or -i for a bad argument i, or HYLA_ERR_*. */
HYLA_API int hyla_dmgs_async(hyla_matrix *a, double *r, int64_t ldr, hyla_mgs_form form,
                             hyla_request *req);
HYLA_API int hyla_smgs_async(hyla_matrix *a, float *r, int64_t ldr, hyla_mgs_form form,
                             hyla_request *req);

/* Classical Gram-Schmidt QR of the matrix a (m >= n; Q over it), R into
 * the n-by-n r (ldr >= n, in your memory on hyla_request_wait): as
 * hyla_dcgs with the matrix's panel width as nb (at most 256 for
 * HYLA_CGS_VECTOR). A column that vanishes sets info to its 1-based index;
 * the call's later tasks then do nothing. Returns 0 once the tasks are
 * submitted, or -i for a bad argument i, or HYLA_ERR_*. */
HYLA_API int hyla_dcgs_async(hyla_matrix *a, double *r, int64_t ldr, hyla_cgs_variant variant,
                             hyla_request *req);
HYLA_API int hyla_scgs_async(hyla_matrix *a, float *r, int64_t ldr, hyla_cgs_variant variant,
                             hyla_request *req);

/* Householder QR of the m-by-n matrix a, any shape (LAPACK dgeqrf's output
 * over it), tau (min(m, n) scalars) in your memory on hyla_request_wait;
 * then, for m >= n, on the same matrix and tau, its Q (m-by-n, dorgqr with
 * k = n) over it: the second may follow the first at once (its tasks wait
 * for the factorisation through the matrix; the panels write tau on the
 * host). As hyla_dgeqrf_ex / hyla_dorgqr_ex with the matrix's panel width
 * as nb; for m < n the graph factors the panels wholly left of column m
 * and updates the others, and when nb does not divide m a CPU task ends
 * it with LAPACK's dgeqrf on the others' last m mod nb rows. */
HYLA_API int hyla_dgeqrf_async(hyla_matrix *a, double *tau, hyla_request *req);
HYLA_API int hyla_sgeqrf_async(hyla_matrix *a, float *tau, hyla_request *req);
HYLA_API int hyla_dorgqr_async(hyla_matrix *a, const double *tau, hyla_request *req);
HYLA_API int hyla_sorgqr_async(hyla_matrix *a, const float *tau, hyla_request *req);

/* If an asynchronous call returns an error, some of its tasks may have been
 * submitted: wait for its request all the same. */

/* Hessenberg reduction of the n-by-n matrix a (ilo = 1, ihi = n; for other
 * ranges use hyla_dgehrd), tau (n-1 scalars) in your memory on
 * hyla_request_wait: as hyla_dgehrd_ex with the matrix's panel width as nb.
 * Returns 0 once the tasks are submitted, or -i for a bad argument i, or
 * HYLA_ERR_*. */
HYLA_API int hyla_dgehrd_async(hyla_matrix *a, double *tau, hyla_gehrd_panel panel,
                               hyla_request *req);
HYLA_API int hyla_sgehrd_async(hyla_matrix *a, float *tau, hyla_gehrd_panel panel,
                               hyla_request *req);

/* Q of that reduction, explicitly, over a (LAPACK dorghr's contract with
 * ilo = 1, ihi = n), from tau (n-1 scalars, read until hyla_request_wait):
 * as hyla_dorghr with the matrix's panel width as nb. May follow
 * hyla_dgehrd_async on the same matrix and tau at once (its first task, on
 * the CPU, moves the reflectors one column right and waits for the
 * reduction's tau to be in your memory). Returns 0 once the tasks are
 * submitted, or -i for a bad argument i, or HYLA_ERR_*. */
HYLA_API int hyla_dorghr_async(hyla_matrix *a, const double *tau, hyla_request *req);
HYLA_API int hyla_sorghr_async(hyla_matrix *a, const float *tau, hyla_request *req);

/* Symmetric tridiagonal reduction of the n-by-n matrix a, the triangle
 * uplo ('L' or 'U'), d (n), e (n-1) and tau (n-1) in your memory on
 * hyla_request_wait: as hyla_dsytrd with the matrix's panel width as nb.
 * 'U' reduces J A J's lower triangle (J the reversal): a first CPU task
 * reverses the matrix in place, a last one reverses it back with d, e and
 * tau (the matrix comes home from a GPU for each). Returns 0 once the
 * tasks are submitted, or -i for a bad argument i, or HYLA_ERR_*. */
HYLA_API int hyla_dsytrd_async(char uplo, hyla_matrix *a, double *d, double *e, double *tau,
                               hyla_request *req);
HYLA_API int hyla_ssytrd_async(char uplo, hyla_matrix *a, float *d, float *e, float *tau,
                               hyla_request *req);

/* Bidiagonal reduction of the m-by-n matrix a (upper bidiagonal for
 * m >= n, lower for m < n); d (k = min(m, n)), e (k-1), tauq and taup (k)
 * in your memory on hyla_request_wait: as hyla_dgebrd with the matrix's
 * panel width as nb. m < n reduces A^T in an n-by-m copy that the request
 * owns (hyla_malloc'ed and registered here, so with a GPU sent there here,
 * as hyla_matrix_create does; freed by the wait): CPU tasks transpose a
 * into it and back. Returns 0 once the tasks are submitted, or -i for a
 * bad argument i, or HYLA_ERR_*. */
HYLA_API int hyla_dgebrd_async(hyla_matrix *a, double *d, double *e, double *tauq, double *taup,
                               hyla_request *req);
HYLA_API int hyla_sgebrd_async(hyla_matrix *a, float *d, float *e, float *tauq, float *taup,
                               hyla_request *req);

/* The descriptor level: each call above, synchronous, on the matrix a (its
 * arguments less req): the asynchronous call and its request's wait (only
 * that call's tasks). Returns what the call returned if it failed, else the
 * wait's info; HYLA_ERR_NOMEM if no request could be made. The outputs
 * outside the matrix (R, tau, d, e) are in your memory on return; the matrix
 * stays in its handle until you acquire it or hyla_matrix_destroy. */
HYLA_API int hyla_dmgs_matrix(hyla_matrix *a, double *r, int64_t ldr, hyla_mgs_form form);
HYLA_API int hyla_smgs_matrix(hyla_matrix *a, float *r, int64_t ldr, hyla_mgs_form form);
HYLA_API int hyla_dcgs_matrix(hyla_matrix *a, double *r, int64_t ldr, hyla_cgs_variant variant);
HYLA_API int hyla_scgs_matrix(hyla_matrix *a, float *r, int64_t ldr, hyla_cgs_variant variant);
HYLA_API int hyla_dgeqrf_matrix(hyla_matrix *a, double *tau);
HYLA_API int hyla_sgeqrf_matrix(hyla_matrix *a, float *tau);
HYLA_API int hyla_dorgqr_matrix(hyla_matrix *a, const double *tau);
HYLA_API int hyla_sorgqr_matrix(hyla_matrix *a, const float *tau);
HYLA_API int hyla_dgehrd_matrix(hyla_matrix *a, double *tau, hyla_gehrd_panel panel);
HYLA_API int hyla_sgehrd_matrix(hyla_matrix *a, float *tau, hyla_gehrd_panel panel);
HYLA_API int hyla_dorghr_matrix(hyla_matrix *a, const double *tau);
HYLA_API int hyla_sorghr_matrix(hyla_matrix *a, const float *tau);
HYLA_API int hyla_dsytrd_matrix(char uplo, hyla_matrix *a, double *d, double *e, double *tau);
HYLA_API int hyla_ssytrd_matrix(char uplo, hyla_matrix *a, float *d, float *e, float *tau);
HYLA_API int hyla_dgebrd_matrix(hyla_matrix *a, double *d, double *e, double *tauq, double *taup);
HYLA_API int hyla_sgebrd_matrix(hyla_matrix *a, float *d, float *e, float *tauq, float *taup);

#ifdef __cplusplus
}
#endif
#endif
