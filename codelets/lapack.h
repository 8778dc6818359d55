/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The LAPACK routines hyla's CPU codelets call that LAPACKE does not expose
 * (Fortran interface; OpenBLAS ships them). */
#ifndef HYLA_LAPACK_H
#define HYLA_LAPACK_H

void dlahr2_(const int *n, const int *k, const int *nb, double *a, const int *lda, double *tau,
             double *t, const int *ldt, double *y, const int *ldy);
void slahr2_(const int *n, const int *k, const int *nb, float *a, const int *lda, float *tau,
             float *t, const int *ldt, float *y, const int *ldy);
void dgehd2_(const int *n, const int *ilo, const int *ihi, double *a, const int *lda, double *tau,
             double *work, int *info);
void sgehd2_(const int *n, const int *ilo, const int *ihi, float *a, const int *lda, float *tau,
             float *work, int *info);
void dlatrd_(const char *uplo, const int *n, const int *nb, double *a, const int *lda, double *e,
             double *tau, double *w, const int *ldw);
void slatrd_(const char *uplo, const int *n, const int *nb, float *a, const int *lda, float *e,
             float *tau, float *w, const int *ldw);
void dlabrd_(const int *m, const int *n, const int *nb, double *a, const int *lda, double *d,
             double *e, double *tauq, double *taup, double *x, const int *ldx, double *y,
             const int *ldy);
void slabrd_(const int *m, const int *n, const int *nb, float *a, const int *lda, float *d,
             float *e, float *tauq, float *taup, float *x, const int *ldx, float *y,
             const int *ldy);
void dlaed4_(const int *n, const int *i, const double *d, const double *z, double *delta,
             const double *rho, double *dlam, int *info);
void slaed4_(const int *n, const int *i, const float *d, const float *z, float *delta,
             const float *rho, float *dlam, int *info);
void dlasd4_(const int *n, const int *i, const double *d, const double *z, double *delta,
             const double *rho, double *sigma, double *work, int *info);
void slasd4_(const int *n, const int *i, const float *d, const float *z, float *delta,
             const float *rho, float *sigma, float *work, int *info);
void dlasdq_(const char *uplo, const int *sqre, const int *n, const int *ncvt, const int *nru,
             const int *ncc, double *d, double *e, double *vt, const int *ldvt, double *u,
             const int *ldu, double *c, const int *ldc, double *work, int *info);
void slasdq_(const char *uplo, const int *sqre, const int *n, const int *ncvt, const int *nru,
             const int *ncc, float *d, float *e, float *vt, const int *ldvt, float *u,
             const int *ldu, float *c, const int *ldc, float *work, int *info);

#endif
