/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks the algorithms share. */
#include "algorithms.h"
#include "runtime.h"

/* Each argument's check includes the limit of 32-bit BLAS and StarPU 1.3
 * indices, so the first wrong argument in LAPACK's order is the one named. */
#define LIMIT " (32-bit BLAS and StarPU 1.3 indices)"

int hyla__check_hessenberg_args(int64_t n, int64_t ilo, int64_t ihi, const void *a, int64_t lda,
                                const void *tau, int need_tau)
{
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-1, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (ilo < 1 || ilo > (n > 1 ? n : 1))
		return HYLA_ERROR(-2, "ilo = %lld must be in [1, max(1, n)]", (long long)ilo);
	if (ihi < (ilo < n ? ilo : n) || ihi > n)
		return HYLA_ERROR(-3, "ihi = %lld must be in [min(ilo, n), n]", (long long)ihi);
	if (!a && n > 0)
		return HYLA_ERROR(-4, "a is NULL");
	if (lda < (n > 1 ? n : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-5, "lda = %lld must be in [max(1, n), 2^31)" LIMIT, (long long)lda);
	if (!tau && need_tau)
		return HYLA_ERROR(-6, "tau is NULL");
	return HYLA_SUCCESS;
}

int hyla__check_gs_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *r,
                        int64_t ldr)
{
	if (m < 0 || m > INT32_MAX)
		return HYLA_ERROR(-1, "m = %lld must be in [0, 2^31)" LIMIT, (long long)m);
	if (n < 0 || n > m)
		return HYLA_ERROR(-2, "n = %lld must be in [0, m = %lld]", (long long)n, (long long)m);
	if (!a && m > 0)
		return HYLA_ERROR(-3, "a is NULL");
	if (lda < (m > 1 ? m : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-4, "lda = %lld must be in [max(1, m), 2^31)" LIMIT, (long long)lda);
	if (!r && n > 0)
		return HYLA_ERROR(-5, "r is NULL");
	if (ldr < (n > 1 ? n : 1) || ldr > INT32_MAX)
		return HYLA_ERROR(-6, "ldr = %lld must be in [max(1, n), 2^31)" LIMIT, (long long)ldr);
	return HYLA_SUCCESS;
}

int hyla__check_gs_async_args(const hyla_desc *A, const void *r, int64_t ldr)
{
	if (A->n > A->m)
		return HYLA_ERROR(-1, "a is %lld-by-%lld: a QR by Gram-Schmidt needs m >= n",
		                  (long long)A->m, (long long)A->n);
	if (!r && A->n > 0)
		return HYLA_ERROR(-2, "r is NULL");
	if (ldr < (A->n > 1 ? A->n : 1) || ldr > INT32_MAX)
		return HYLA_ERROR(-3, "ldr = %lld must be in [max(1, n), 2^31)" LIMIT, (long long)ldr);
	return HYLA_SUCCESS;
}

int hyla__check_geqrf_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *tau)
{
	if (m < 0 || m > INT32_MAX)
		return HYLA_ERROR(-1, "m = %lld must be in [0, 2^31)" LIMIT, (long long)m);
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-2, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (!a && m > 0 && n > 0)
		return HYLA_ERROR(-3, "a is NULL");
	if (lda < (m > 1 ? m : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-4, "lda = %lld must be in [max(1, m), 2^31)" LIMIT, (long long)lda);
	if (!tau && m > 0 && n > 0)
		return HYLA_ERROR(-5, "tau is NULL");
	return HYLA_SUCCESS;
}

int hyla__check_orgqr_args(int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                           const void *tau)
{
	if (m < 0 || m > INT32_MAX)
		return HYLA_ERROR(-1, "m = %lld must be in [0, 2^31)" LIMIT, (long long)m);
	if (n < 0 || n > m)
		return HYLA_ERROR(-2, "n = %lld must be in [0, m = %lld]", (long long)n, (long long)m);
	if (k < 0 || k > n)
		return HYLA_ERROR(-3, "k = %lld must be in [0, n = %lld]", (long long)k, (long long)n);
	if (!a && n > 0)
		return HYLA_ERROR(-4, "a is NULL");
	if (lda < (m > 1 ? m : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-5, "lda = %lld must be in [max(1, m), 2^31)" LIMIT, (long long)lda);
	if (!tau && k > 0)
		return HYLA_ERROR(-6, "tau is NULL");
	return HYLA_SUCCESS;
}

int hyla__check_sytrd_args(char uplo, int64_t n, const void *a, int64_t lda, const void *d,
                           const void *e, const void *tau)
{
	if (uplo != 'U' && uplo != 'L' && uplo != 'u' && uplo != 'l')
		return HYLA_ERROR(-1, "uplo = '%c' must be 'U' or 'L'", uplo);
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-2, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (!a && n > 0)
		return HYLA_ERROR(-3, "a is NULL");
	if (lda < (n > 1 ? n : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-4, "lda = %lld must be in [max(1, n), 2^31)" LIMIT, (long long)lda);
	if (!d && n > 0)
		return HYLA_ERROR(-5, "d is NULL");
	if (!e && n > 1)
		return HYLA_ERROR(-6, "e is NULL");
	if (!tau && n > 1)
		return HYLA_ERROR(-7, "tau is NULL");
	return HYLA_SUCCESS;
}

int hyla__check_syevd_args(char jobz, char uplo, int64_t n, const void *a, int64_t lda,
                           const void *w)
{
	if (jobz != 'N' && jobz != 'V' && jobz != 'n' && jobz != 'v')
		return HYLA_ERROR(-1, "jobz = '%c' must be 'N' or 'V'", jobz);
	if (uplo != 'U' && uplo != 'L' && uplo != 'u' && uplo != 'l')
		return HYLA_ERROR(-2, "uplo = '%c' must be 'U' or 'L'", uplo);
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-3, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (!a && n > 0)
		return HYLA_ERROR(-4, "a is NULL");
	if (lda < (n > 1 ? n : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-5, "lda = %lld must be in [max(1, n), 2^31)" LIMIT, (long long)lda);
	if (!w && n > 0)
		return HYLA_ERROR(-6, "w is NULL");
	return HYLA_SUCCESS;
}

int hyla__check_gesdd_args(char jobz, int64_t m, int64_t n, const void *a, int64_t lda,
                           const void *s, const void *u, int64_t ldu, const void *vt,
                           int64_t ldvt)
{
	char j = jobz >= 'a' && jobz <= 'z' ? (char)(jobz - 'a' + 'A') : jobz;
	int64_t mn = m < n ? m : n;
	if (j != 'N' && j != 'S' && j != 'A' && j != 'O')
		return HYLA_ERROR(-1, "jobz = '%c' must be 'N', 'S', 'A' or 'O'", jobz);
	if (m < 0 || m > INT32_MAX)
		return HYLA_ERROR(-2, "m = %lld must be in [0, 2^31)" LIMIT, (long long)m);
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-3, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (!a && mn > 0)
		return HYLA_ERROR(-4, "a is NULL");
	if (lda < (m > 1 ? m : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-5, "lda = %lld must be in [max(1, m), 2^31)" LIMIT, (long long)lda);
	if (!s && mn > 0)
		return HYLA_ERROR(-6, "s is NULL");
	int want_u = j == 'S' || j == 'A' || (j == 'O' && m < n);
	int want_vt = j == 'S' || j == 'A' || (j == 'O' && m >= n);
	if (want_u && !u && mn > 0)
		return HYLA_ERROR(-7, "u is NULL");
	if (ldu < 1 || ldu > INT32_MAX || (want_u && ldu < m))
		return HYLA_ERROR(-8, "ldu = %lld must be at least %lld", (long long)ldu,
		                  (long long)(want_u && m > 1 ? m : 1));
	if (want_vt && !vt && mn > 0)
		return HYLA_ERROR(-9, "vt is NULL");
	int64_t rows = j == 'A' || (j == 'O' && m >= n) ? n : j == 'S' ? mn : 1;
	if (ldvt < 1 || ldvt > INT32_MAX || ldvt < rows)
		return HYLA_ERROR(-10, "ldvt = %lld must be at least %lld", (long long)ldvt,
		                  (long long)(rows > 1 ? rows : 1));
	return HYLA_SUCCESS;
}

int hyla__check_gebrd_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *d,
                           const void *e, const void *tauq, const void *taup)
{
	int64_t k = m < n ? m : n;
	if (m < 0 || m > INT32_MAX)
		return HYLA_ERROR(-1, "m = %lld must be in [0, 2^31)" LIMIT, (long long)m);
	if (n < 0 || n > INT32_MAX)
		return HYLA_ERROR(-2, "n = %lld must be in [0, 2^31)" LIMIT, (long long)n);
	if (!a && k > 0)
		return HYLA_ERROR(-3, "a is NULL");
	if (lda < (m > 1 ? m : 1) || lda > INT32_MAX)
		return HYLA_ERROR(-4, "lda = %lld must be in [max(1, m), 2^31)" LIMIT, (long long)lda);
	if (!d && k > 0)
		return HYLA_ERROR(-5, "d is NULL");
	if (!e && k > 1)
		return HYLA_ERROR(-6, "e is NULL");
	if (!tauq && k > 0)
		return HYLA_ERROR(-7, "tauq is NULL");
	if (!taup && k > 0)
		return HYLA_ERROR(-8, "taup is NULL");
	return HYLA_SUCCESS;
}
