/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Inside libhyla_mpi: what the distributed matrices share (mpi/comm.c)
 * and their QRs' codelets (mpi/codelets.c, mpi/cuda.c), for matrices of
 * doubles or floats (the buffers' element size says which), on the cores
 * and, for the Level-3 ones, on GPUs. */
#ifndef HYLA_MPI_INTERNAL_H
#define HYLA_MPI_INTERNAL_H

#include <starpu_mpi.h>

/* The next StarPU-MPI tag (collective calls take the same on every rank);
 * whether hyla_mpi_init has run; "hyla: func: what" on stderr, code back. */
starpu_mpi_tag_t hyla__mpi_tag(void);
int hyla__mpi_started(void);
int hyla__mpi_complain(const char *func, int code, const char *what);

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

/* The Householder QR over column panels (mpi/cols.c); each takes a row
 * c0 (an int, STARPU_VALUE), and the update also trans (an int).
 * qr_panel:  the panel (RW) from row c0 factored, its tau (W, a vector of
 *            its width) and T (W, upper, zero below), LAPACK's geqrt.
 * qr_copy_v: the panel's (R) rows from c0 (its reflectors) into V (W), the
 *            only part of it that other ranks need, explicit (unit diagonal,
 *            zeros above).
 * qr_t:      T (W) of the reflectors in V (R) with tau (R) (dlarft).
 * qr_update: the panel (RW) from row c0 times (I - V T V^T), transposed
 *            where trans (dlarfb), V (R) as qr_copy_v makes it, T (R).
 * qr_form:   the reflector panel (RW) becomes Q's columns (I - V T V^T) E,
 *            E the identity's columns from c0, zero above row c0; T (R). */
extern struct starpu_codelet hyla__mpi_qr_panel_cl;
extern struct starpu_codelet hyla__mpi_qr_copy_v_cl;
extern struct starpu_codelet hyla__mpi_qr_t_cl;
extern struct starpu_codelet hyla__mpi_qr_update_cl;
extern struct starpu_codelet hyla__mpi_qr_form_cl;

#ifdef HYLA_WITH_CUDA
/* The CUDA bodies of gram, solve and qr_update (mpi/cuda.c). */
void hyla__mpi_gram_cuda(void *buffers[], void *arg);
void hyla__mpi_solve_cuda(void *buffers[], void *arg);
void hyla__mpi_qr_update_cuda(void *buffers[], void *arg);
#endif

#endif
