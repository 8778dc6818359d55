/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Symmetric test matrices and the eigensolver's checks (examples/spectra.c). */
#ifndef HYLA_EXAMPLES_SPECTRA_H
#define HYLA_EXAMPLES_SPECTRA_H

#include <stdint.h>

struct driver_options;

/* The kinds of symmetric_matrix, by name; NULL at the end. */
extern const char *const spectrum_kinds[];
/* A symmetric n-by-n a (leading dimension n) of kind (spectrum_kinds):
 *   random     entries uniform in [-1, 1), the lower triangle mirrored;
 *   graded     random's scaled as D A D, D = diag(10^(-6 i / n));
 *   clustered  Q diag(w) Q^T, w: n - 3 values 1e-9 apart up to 1, then
 *              2, 3, 4 (Q a random orthogonal matrix);
 *   known      Q diag(1, 2, ..., n) Q^T.
 *   repeated   Q diag(1, 1, 1, 2, 2, 2, ...) Q^T (n/3 values, three times).
 *   gapped     random's diagonal, and of its entries within 6 of it at even
 *              distances those below 0.15 in size (about one in seven): a
 *              sparse band whose bulge chase meets reflectors that are the
 *              identity.
 *   underflow  random's two diagonal blocks, the second scaled by 1e-309
 *              (subnormal in double; zero in single): reflectors of columns
 *              whose norm underflows.
 * clustered, known and repeated write their spectrum into known (n,
 * ascending; NULL: not wanted). Returns 0, or -1 for an unknown kind or no
 * memory. */
int symmetric_matrix(const char *kind, int64_t n, double *a, int seed, double *known);
/* Whether symmetric_matrix writes kind's spectrum (clustered, known, repeated). */
int spectrum_known(const char *kind);
/* ||A - V diag(w) V^T||_F / ||A||_F (A = 0: the numerator) and ||I - V^T V||_F of the n-by-n V
 * (leading dimension ldv) into resid and orth; -1 for no memory. */
int eigen_residuals(int64_t n, const double *a, const double *w, const double *v, int64_t ldv,
                    double *resid, double *orth);
/* max_i |w_i - ref_i|: the eigenvalues (both ascending); NaN if one is. */
double eigenvalue_error(int64_t n, const double *w, const double *ref);
/* LAPACK's dsyevd eigenvalues of the symmetric a (lower triangle) into w;
 * 0 or LAPACK's info. */
int lapack_eigenvalues(int64_t n, const double *a, double *w);
/* The kinds of general_matrix; NULL at the end. */
extern const char *const singular_kinds[];
/* An m-by-n a (leading dimension m) of kind (singular_kinds):
 *   random     entries uniform in [-1, 1);
 *   graded     random's scaled as D A, D = diag(10^(-6 i / m));
 *   geometric  U diag(s) V^T, s from 1 down to 1e-12 geometrically (U, V
 *              random orthogonal), its min(m, n) values into known
 *              (descending; NULL: not wanted);
 *   repeated   the same with s 1, 2, ..., each three times, over two thirds
 *              of min(m, n), then zeros (every deflation of the divide and
 *              conquer);
 *   gapped     random's diagonal, and of its entries 2, 4 and 6 above it
 *              those below 0.15: a sparse upper band, whose bulge chase
 *              meets reflectors that are the identity;
 *   underflow  random's two diagonal blocks (rows and columns halved), the
 *              second scaled by 1e-309 (subnormal in double; zero in
 *              single): reflectors of columns and rows whose norm underflows.
 * Returns 0, or -1 for an unknown kind or no memory. */
int general_matrix(const char *kind, int64_t m, int64_t n, double *a, int seed, double *known);
/* For A = U diag(s) V^T with U m-by-k (ldu) and V^T k-by-n (ldvt), k =
 * min(m, n): ||A - U S V^T||_F / ||A||_F (A = 0: the numerator),
 * ||I - U^T U||_F and ||I - V^T V||_F; -1 for no memory. */
int svd_residuals(int64_t m, int64_t n, const double *a, const double *s, const double *u,
                  int64_t ldu, const double *vt, int64_t ldvt, double *resid, double *orth_u,
                  double *orth_v);
/* LAPACK's dgesdd singular values of the m-by-n a into s; 0 or LAPACK's
 * info. */
int lapack_singular_values(int64_t m, int64_t n, const double *a, double *s);
/* Seconds of LAPACK's dgesdd (or sgesdd) with jobz on a copy of a, all
 * host cores; NAN on failure. */
double lapack_gesdd_seconds(int64_t m, int64_t n, const double *a, char prec, char jobz);

/* A driver's input made symmetric (n-by-n, leading dimension n):
 * triangle ('L' or 'U', or 0) mirrored onto the other, else --input checked
 * (dies with the worst pair when |a(i,j) - a(j,i)| > 100 n eps max|a|) and
 * mirrored from uplo's triangle, the one the routine reads, so the checks
 * judge the matrix it saw; a random matrix: its lower triangle mirrored. */
void symmetric_input(const char *prog, const struct driver_options *o, int64_t n, double *a,
                     char triangle, char uplo);
/* A triangle option's value ('L' or 'U'), or a one-line error naming opt
 * (exit 2). */
char triangle_option(const char *prog, const char *opt, const char *arg);
/* Seconds of LAPACK's dsyevd (or ssyevd) with jobz on a copy of a (lower
 * triangle), all host cores; NAN on failure. */
double lapack_syevd_seconds(int64_t n, const double *a, char prec, char jobz);

#endif
