/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed QR's codelets (mpi/codelets.c), for matrices of doubles
 * or floats (the buffers' element size says which); on the cores. */
#ifndef HYLA_MPI_CODELETS_H
#define HYLA_MPI_CODELETS_H

#include <starpu.h>

/* gram: block (R), G (W, n-by-n) = block^T block, upper triangle. */
extern struct starpu_codelet hyla__mpi_gram_cl;
/* add: S (RW) += G (R), upper triangles. */
extern struct starpu_codelet hyla__mpi_add_cl;
/* chol_first: G (RW) becomes its upper Cholesky factor R, zero below;
 * status (W, int): 0, or LAPACK's info where it failed. chol: the same
 * after a status (R) that, if not 0, it passes on without factoring. */
extern struct starpu_codelet hyla__mpi_chol_first_cl;
extern struct starpu_codelet hyla__mpi_chol_cl;
/* solve: block (RW) = block R^-1, R (R) from chol, status (R): nothing if
 * the status is not 0. */
extern struct starpu_codelet hyla__mpi_solve_cl;
/* rmul: R1 (RW) = R2 (R) R1 where the status (R) is 0. */
extern struct starpu_codelet hyla__mpi_rmul_cl;

#endif
