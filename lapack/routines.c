/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* LAPACK's Fortran entry points (LP64: every argument by reference, the
 * hidden length of a character argument last). A call whose arguments pass
 * LAPACK's own checks, workspace queries aside, and whose size reaches the
 * crossover goes to hyla: the system LAPACK answers a workspace query with
 * the caller's work and lwork first, so that WORK(1) holds the optimal
 * lwork as after LAPACK's call (hyla needs no workspace of the caller).
 * Everything else goes to the system LAPACK, which reports a bad argument
 * (xerbla) exactly as LAPACK does. Typed source: see runtime/precision.h. */
#include <stddef.h>
#include "dropin.h"
#include "precision.h"

#define ID(r) DROPIN_ID(r, PREC_CHAR)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
static const int query = -1;

typedef void geqrf_fn(const int *m, const int *n, real_t *a, const int *lda, real_t *tau,
                      real_t *work, const int *lwork, int *info);
#ifdef HYLA_PREC_D
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info)
#else
void sgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
             const int *lwork, int *info)
#endif
{
	geqrf_fn *lapack = (geqrf_fn *)dropin_system(ID(GEQRF));
	/* lwork >= max(1, n) always (LAPACK 3.11 takes 1 for m = 0) */
	int valid = *m >= 0 && *n >= 0 && *lda >= MAX(1, *m) && *lwork >= MAX(1, *n);
	if (dropin_route(ID(GEQRF), valid, MIN(*m, *n))) {
		lapack(m, n, a, lda, tau, work, &query, info);
		if (!dropin_done(ID(GEQRF), PUBLIC(geqrf)(*m, *n, a, *lda, tau, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(m, n, a, lda, tau, work, lwork, info);
}

typedef void orgqr_fn(const int *m, const int *n, const int *k, real_t *a, const int *lda,
                      const real_t *tau, real_t *work, const int *lwork, int *info);
#ifdef HYLA_PREC_D
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info)
#else
void sorgqr_(const int *m, const int *n, const int *k, float *a, const int *lda, const float *tau,
             float *work, const int *lwork, int *info)
#endif
{
	orgqr_fn *lapack = (orgqr_fn *)dropin_system(ID(ORGQR));
	int valid = *m >= 0 && *n >= 0 && *n <= *m && *k >= 0 && *k <= *n &&
	            *lda >= MAX(1, *m) && *lwork >= MAX(1, *n);
	if (dropin_route(ID(ORGQR), valid, *k)) {
		lapack(m, n, k, a, lda, tau, work, &query, info);
		if (!dropin_done(ID(ORGQR), PUBLIC(orgqr)(*m, *n, *k, a, *lda, tau, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(m, n, k, a, lda, tau, work, lwork, info);
}

/* dgehrd's and dorghr's checks but lwork's */
static int hessenberg_valid(const int *n, const int *ilo, const int *ihi, const int *lda)
{
	return *n >= 0 && *ilo >= 1 && *ilo <= MAX(1, *n) && *ihi >= MIN(*ilo, *n) && *ihi <= *n &&
	       *lda >= MAX(1, *n);
}

typedef void gehrd_fn(const int *n, const int *ilo, const int *ihi, real_t *a, const int *lda,
                      real_t *tau, real_t *work, const int *lwork, int *info);
#ifdef HYLA_PREC_D
void dgehrd_(const int *n, const int *ilo, const int *ihi, double *a, const int *lda, double *tau,
             double *work, const int *lwork, int *info)
#else
void sgehrd_(const int *n, const int *ilo, const int *ihi, float *a, const int *lda, float *tau,
             float *work, const int *lwork, int *info)
#endif
{
	gehrd_fn *lapack = (gehrd_fn *)dropin_system(ID(GEHRD));
	int valid = hessenberg_valid(n, ilo, ihi, lda) && *lwork >= MAX(1, *n);
	if (dropin_route(ID(GEHRD), valid, *ihi - *ilo + 1)) {
		lapack(n, ilo, ihi, a, lda, tau, work, &query, info);
		if (!dropin_done(ID(GEHRD), PUBLIC(gehrd)(*n, *ilo, *ihi, a, *lda, tau, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(n, ilo, ihi, a, lda, tau, work, lwork, info);
}

typedef void orghr_fn(const int *n, const int *ilo, const int *ihi, real_t *a, const int *lda,
                      const real_t *tau, real_t *work, const int *lwork, int *info);
#ifdef HYLA_PREC_D
void dorghr_(const int *n, const int *ilo, const int *ihi, double *a, const int *lda,
             const double *tau, double *work, const int *lwork, int *info)
#else
void sorghr_(const int *n, const int *ilo, const int *ihi, float *a, const int *lda,
             const float *tau, float *work, const int *lwork, int *info)
#endif
{
	orghr_fn *lapack = (orghr_fn *)dropin_system(ID(ORGHR));
	int valid = hessenberg_valid(n, ilo, ihi, lda) && *lwork >= MAX(1, *ihi - *ilo);
	if (dropin_route(ID(ORGHR), valid, *ihi - *ilo)) {
		lapack(n, ilo, ihi, a, lda, tau, work, &query, info);
		if (!dropin_done(ID(ORGHR), PUBLIC(orghr)(*n, *ilo, *ihi, a, *lda, tau, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(n, ilo, ihi, a, lda, tau, work, lwork, info);
}

typedef void sytrd_fn(const char *uplo, const int *n, real_t *a, const int *lda, real_t *d,
                      real_t *e, real_t *tau, real_t *work, const int *lwork, int *info,
                      size_t uplo_len);
#ifdef HYLA_PREC_D
void dsytrd_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e,
             double *tau, double *work, const int *lwork, int *info, size_t uplo_len)
#else
void ssytrd_(const char *uplo, const int *n, float *a, const int *lda, float *d, float *e,
             float *tau, float *work, const int *lwork, int *info, size_t uplo_len)
#endif
{
	sytrd_fn *lapack = (sytrd_fn *)dropin_system(ID(SYTRD));
	char u = *uplo;
	int valid = (u == 'U' || u == 'u' || u == 'L' || u == 'l') && *n >= 0 &&
	            *lda >= MAX(1, *n) && *lwork >= 1;
	if (dropin_route(ID(SYTRD), valid, *n)) {
		lapack(uplo, n, a, lda, d, e, tau, work, &query, info, uplo_len);
		if (!dropin_done(ID(SYTRD), PUBLIC(sytrd)(u, *n, a, *lda, d, e, tau, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(uplo, n, a, lda, d, e, tau, work, lwork, info, uplo_len);
}

typedef void gebrd_fn(const int *m, const int *n, real_t *a, const int *lda, real_t *d,
                      real_t *e, real_t *tauq, real_t *taup, real_t *work, const int *lwork,
                      int *info);
#ifdef HYLA_PREC_D
void dgebrd_(const int *m, const int *n, double *a, const int *lda, double *d, double *e,
             double *tauq, double *taup, double *work, const int *lwork, int *info)
#else
void sgebrd_(const int *m, const int *n, float *a, const int *lda, float *d, float *e, float *tauq,
             float *taup, float *work, const int *lwork, int *info)
#endif
{
	gebrd_fn *lapack = (gebrd_fn *)dropin_system(ID(GEBRD));
	int valid = *m >= 0 && *n >= 0 && *lda >= MAX(1, *m) && *lwork >= MAX(1, MAX(*m, *n));
	if (dropin_route(ID(GEBRD), valid, MIN(*m, *n))) {
		lapack(m, n, a, lda, d, e, tauq, taup, work, &query, info);
		if (!dropin_done(ID(GEBRD), PUBLIC(gebrd)(*m, *n, a, *lda, d, e, tauq, taup, dropin_options()))) {
			*info = 0;
			return;
		}
	}
	lapack(m, n, a, lda, d, e, tauq, taup, work, lwork, info);
}

static int is(char c, char upper)
{
	return c == upper || c == upper - 'A' + 'a';
}

typedef void syevd_fn(const char *jobz, const char *uplo, const int *n, real_t *a, const int *lda,
                      real_t *w, real_t *work, const int *lwork, int *iwork, const int *liwork,
                      int *info, size_t jobz_len, size_t uplo_len);
#ifdef HYLA_PREC_D
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
             double *w, double *work, const int *lwork, int *iwork, const int *liwork, int *info,
             size_t jobz_len, size_t uplo_len)
#else
void ssyevd_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda, float *w,
             float *work, const int *lwork, int *iwork, const int *liwork, int *info,
             size_t jobz_len, size_t uplo_len)
#endif
{
	syevd_fn *lapack = (syevd_fn *)dropin_system(ID(SYEVD));
	int v = is(*jobz, 'V');
	int64_t nn = *n;
	/* dsyevd's minimum workspaces (n <= 1: 1) */
	int64_t lwmin = nn <= 1 ? 1 : v ? 1 + 6 * nn + 2 * nn * nn : 2 * nn + 1;
	int64_t liwmin = nn <= 1 || !v ? 1 : 3 + 5 * nn;
	int valid = (v || is(*jobz, 'N')) && (is(*uplo, 'U') || is(*uplo, 'L')) && nn >= 0 &&
	            *lda >= MAX(1, nn) && *lwork >= lwmin && *liwork >= liwmin;
	if (dropin_route(ID(SYEVD), valid, nn)) {
		lapack(jobz, uplo, n, a, lda, w, work, &query, iwork, &query, info, jobz_len, uplo_len);
		int ret = PUBLIC(syevd)(*jobz, *uplo, nn, a, *lda, w, dropin_options());
		if (!dropin_done(ID(SYEVD), ret)) {
			*info = ret;
			return;
		}
	}
	lapack(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info, jobz_len, uplo_len);
}

/* dgesdd's minimum lwork, by its path as LAPACK 3.11's code has it (the
 * documented bound is the largest of them). */
static int64_t gesdd_min_lwork(char jobz, int64_t m, int64_t n)
{
	int64_t mn = MIN(m, n), mx = MAX(m, n);
	if (mn == 0)
		return 1;
	int64_t bdspac = jobz == 'N' ? 7 * mn : 3 * mn * mn + 4 * mn;
	if (mx >= (int64_t)((double)mn * 11 / 6)) /* mx much larger than mn */
		return jobz == 'N' ? bdspac + mn
		     : jobz == 'O' ? bdspac + 2 * mn * mn + 3 * mn
		     : jobz == 'S' ? bdspac + mn * mn + 3 * mn
		                   : mn * mn + MAX(3 * mn + bdspac, mn + mx);
	return 3 * mn + MAX(mx, jobz == 'O' ? mn * mn + bdspac : bdspac);
}

typedef void gesdd_fn(const char *jobz, const int *m, const int *n, real_t *a, const int *lda,
                      real_t *s, real_t *u, const int *ldu, real_t *vt, const int *ldvt,
                      real_t *work, const int *lwork, int *iwork, int *info, size_t jobz_len);
#ifdef HYLA_PREC_D
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work,
             const int *lwork, int *iwork, int *info, size_t jobz_len)
#else
void sgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s,
             float *u, const int *ldu, float *vt, const int *ldvt, float *work, const int *lwork,
             int *iwork, int *info, size_t jobz_len)
#endif
{
	gesdd_fn *lapack = (gesdd_fn *)dropin_system(ID(GESDD));
	char j = is(*jobz, 'N') ? 'N' : is(*jobz, 'S') ? 'S' : is(*jobz, 'A') ? 'A'
	       : is(*jobz, 'O') ? 'O' : 0;
	int64_t mn = MIN(*m, *n);
	int want_u = j == 'S' || j == 'A' || (j == 'O' && *m < *n);
	int64_t vt_rows = j == 'A' || (j == 'O' && *m >= *n) ? *n : j == 'S' ? mn : 1;
	int valid = j && *m >= 0 && *n >= 0 && *lda >= MAX(1, *m) && *ldu >= 1 &&
	            (!want_u || *ldu >= *m) && *ldvt >= MAX(1, vt_rows) &&
	            *lwork >= gesdd_min_lwork(j, *m, *n);
	if (dropin_route(ID(GESDD), valid, mn)) {
		lapack(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, &query, iwork, info, jobz_len);
		int ret = PUBLIC(gesdd)(j, *m, *n, a, *lda, s, u, *ldu, vt, *ldvt, dropin_options());
		if (!dropin_done(ID(GESDD), ret == -4 ? 0 : ret)) { /* -4: NaN in A, LAPACK's answer too */
			*info = ret;
			return;
		}
	}
	lapack(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info, jobz_len);
}
