/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla over StarPU-MPI (libhyla_mpi, built where StarPU has its MPI layer):
 * matrices distributed over the ranks of an MPI communicator (row blocks
 * for tall-skinny ones, column panels block-cyclic for others), each rank
 * computing on what it owns, StarPU-MPI moving the data the task graph
 * needs between ranks. Every call here is collective: each rank of the
 * communicator makes it, in the same order. */
#ifndef HYLA_MPI_H
#define HYLA_MPI_H

#include <mpi.h>
#include "hyla.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hyla_init, then StarPU-MPI on comm, once in a process (until
 * hyla_mpi_finalize). MPI must be initialised already, with at least
 * MPI_THREAD_SERIALIZED (StarPU-MPI's thread makes the MPI calls; it is
 * left unbound, STARPU_MPI_NOBIND=1, unless the environment sets that);
 * hyla's StarPU-MPI tags are 2^40 and up. Returns 0, hyla_init's errors, or
 * HYLA_ERR_STARPU (with a line on stderr). */
HYLA_API int hyla_mpi_init(MPI_Comm comm);
/* Undo hyla_mpi_init (StarPU-MPI, then hyla_finalize); MPI stays up. */
HYLA_API void hyla_mpi_finalize(void);

/* A tall-skinny m-by-n matrix in row blocks over the ranks: rank r holds
 * rows [sum of the earlier ranks' mloc, + its own mloc) as a column-major
 * mloc-by-n array of leading dimension ld >= max(1, mloc) of elsize bytes
 * (8: double, 4: float) a value, which stays the application's and is
 * worked on in place. Every rank gives the same n and elsize; mloc may
 * differ between ranks and be 0. NULL on bad arguments or no memory (a
 * line on stderr). */
typedef struct hyla_rows hyla_rows;
HYLA_API hyla_rows *hyla_rows_create(MPI_Comm comm, void *local, size_t elsize, int64_t mloc,
                                     int64_t n, int64_t ld);
/* Waits for the matrix's tasks; the local rows are the caller's again. */
HYLA_API void hyla_rows_destroy(hyla_rows *a);

/* A = QR with m >= n: Q (m-by-n, orthonormal columns) overwrites A, each
 * rank's rows in its own array, and every rank gets the n-by-n upper
 * triangular R (r, leading dimension ldr >= n, the matrix's precision).
 * CholeskyQR2 (Fukaya, Nakatsukasa, Yanagisawa and Yamamoto, 2014): per
 * pass the Gram matrix's n-by-n parts summed across the ranks, its
 * Cholesky factor on rank 0 and sent to the others, the rows solved on
 * their own ranks; two passes make Q orthonormal to rounding for
 * condition numbers up to about eps^-1/2 (1e8 in double). Returns 0; j > 0
 * where the first pass's Cholesky factorisation failed at column j (A is
 * rank deficient or too ill-conditioned: A is unchanged); n + j where the
 * second pass's did (A holds the first pass's Q); -i for argument i. */
HYLA_API int hyla_rows_qr(hyla_rows *a, void *r, int64_t ldr);

/* An m-by-n matrix (m, n, ld < 2^31) in column panels of nb columns (the last
 * one narrower) dealt block-cyclically over the ranks: panel j on rank
 * j mod P. Each rank holds its panels one after another, in order, in a
 * column-major m-by-nloc array of leading dimension ld >= m (nloc from
 * hyla_cols_local; NULL where it is 0) of elsize bytes a value (8: double,
 * 4: float), which stays the application's and is worked on in place.
 * Every rank gives the same m, n, nb and elsize; each needs a CPU worker
 * (the tasks run on cores). NULL on every rank on bad arguments or no
 * memory on any (a line on stderr). */
typedef struct hyla_cols hyla_cols;
HYLA_API hyla_cols *hyla_cols_create(MPI_Comm comm, void *local, size_t elsize, int64_t m,
                                     int64_t n, int64_t nb, int64_t ld);
/* The columns rank holds of an n-column matrix in panels of nb over size
 * ranks; -1 on bad arguments. */
HYLA_API int64_t hyla_cols_local(int64_t n, int64_t nb, int size, int rank);
/* Waits for the matrix's tasks; the local panels are the caller's again. */
HYLA_API void hyla_cols_destroy(hyla_cols *a);
/* Householder QR of A (m >= n), LAPACK dgeqrf's output in each rank's
 * panels (R on and above the diagonal, the reflectors below it) and its
 * tau (n values) on every rank; each panel factored on its own rank,
 * each later panel updated on its own (owner computes), StarPU-MPI sending
 * the panel's reflectors and T to the ranks that need them. Returns 0, or
 * -i for argument i. */
HYLA_API int hyla_cols_geqrf(hyla_cols *a, void *tau);
/* Q's n columns (LAPACK dorgqr's contract, k = n) over the reflectors that
 * hyla_cols_geqrf left in a, with its tau (every rank's copy). */
HYLA_API int hyla_cols_orgqr(hyla_cols *a, const void *tau);
/* The whole matrix on rank root, in whole (leading dimension ldw >= m;
 * other ranks may pass NULL): only when the application asks, never inside
 * the algorithms. */
HYLA_API int hyla_cols_gather(hyla_cols *a, int root, void *whole, int64_t ldw);

#ifdef __cplusplus
}
#endif

#endif
