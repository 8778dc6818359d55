/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* test_lapack_dropin's checks in one precision: included once per precision
 * with real_t, EPS, L(x) (lapack.h's LAPACK_dx or LAPACK_sx: the routine
 * that the program links, the drop-in's), R(x) (the system LAPACK's, by
 * dlsym) and T(x) (x_d or x_s) defined. Every routine on the same input
 * through both: the results must agree to rounding (same reflector
 * conventions), the workspace queries exactly, and bad arguments must
 * reach xerbla as the system LAPACK reports them. */

/* A random m-by-n matrix in [-1, 1], the draw-th of its kind. */
static real_t *T(random_matrix)(int m, int n, unsigned draw)
{
	real_t *a = malloc(sizeof *a * (size_t)m * (size_t)n);
	for (size_t i = 0; a && i < (size_t)m * (size_t)n; i++) {
		draw = draw * 1103515245u + 12345u;
		a[i] = (real_t)((draw >> 8) & 0xffff) / 32768 - 1;
	}
	return a;
}

static real_t *T(copy)(const real_t *a, size_t count)
{
	real_t *c = malloc(sizeof *c * (count ? count : 1));
	if (c && count)
		memcpy(c, a, sizeof *c * count);
	return c;
}

/* ||x - ref||_F / ||ref||_F within 100 n eps (the forward difference of two
 * backward stable reductions: 33 n eps for one Hessenberg form here, most
 * under 3; a wrong reflector gives O(1)). The sums are of entries divided by
 * ref's largest, so that huge and tiny matrices neither overflow nor
 * underflow them. */
static void T(compare)(const char *what, size_t count, const real_t *x, const real_t *ref, int n)
{
	double big = 0, sum = 0, norm = 0;
	for (size_t i = 0; i < count; i++)
		big = fmax(big, fabs((double)ref[i]));
	big = big > 0 ? big : 1;
	for (size_t i = 0; i < count; i++) {
		double d = (double)x[i] / big - (double)ref[i] / big, r = (double)ref[i] / big;
		sum += d * d, norm += r * r;
	}
	double units = sqrt(sum) / ((norm > 0 ? sqrt(norm) : 1) * (n > 1 ? n : 1) * EPS);
	check(units <= 100, "%s: %.3g n eps from the system LAPACK's", what, units);
}

/* dgeqrf, then dorgqr of k reflectors into m-by-n (n <= m). */
static void T(qr)(int m, int n, int k, unsigned draw)
{
	int mn = m < n ? m : n, lwork = 64 * (m + n), info, ld = m;
	real_t *a = T(random_matrix)(m, n, draw), *b = T(copy)(a, (size_t)m * n);
	real_t *tau = malloc(sizeof *tau * (size_t)(mn + 1)), *tref = malloc(sizeof *tau * (size_t)(mn + 1));
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	L(geqrf)(&m, &n, a, &ld, tau, work, &lwork, &info);
	check(info == 0, "geqrf %dx%d: info %d", m, n, info);
	R(geqrf)(&m, &n, b, &ld, tref, work, &lwork, &info);
	T(compare)("geqrf: R and the reflectors", (size_t)m * n, a, b, m);
	T(compare)("geqrf: tau", (size_t)mn, tau, tref, m);
	if (k <= mn && n <= m) {
		real_t *q = T(copy)(b, (size_t)m * n);
		L(orgqr)(&m, &n, &k, q, &ld, tref, work, &lwork, &info);
		check(info == 0, "orgqr %dx%d k %d: info %d", m, n, k, info);
		R(orgqr)(&m, &n, &k, b, &ld, tref, work, &lwork, &info);
		T(compare)("orgqr: Q", (size_t)m * n, q, b, m);
		free(q);
	}
	free(a), free(b), free(tau), free(tref), free(work);
}

/* dgehrd of the rows and columns ilo..ihi, then dorghr. */
static void T(hessenberg)(int n, int ilo, int ihi, unsigned draw)
{
	int lwork = 64 * n + 4096, info;
	real_t *a = T(random_matrix)(n, n, draw), *b = T(copy)(a, (size_t)n * n);
	real_t *tau = calloc((size_t)n, sizeof *tau), *tref = calloc((size_t)n, sizeof *tau);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	/* Rows ilo.. and columns ..ihi outside the block zero, as dgebal leaves them. */
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++)
			if ((j < ilo - 1 && i > j) || (i > ihi - 1 && i > j))
				a[i + (size_t)j * n] = b[i + (size_t)j * n] = 0;
	L(gehrd)(&n, &ilo, &ihi, a, &n, tau, work, &lwork, &info);
	check(info == 0, "gehrd %d (%d..%d): info %d", n, ilo, ihi, info);
	R(gehrd)(&n, &ilo, &ihi, b, &n, tref, work, &lwork, &info);
	T(compare)("gehrd: H and the reflectors", (size_t)n * n, a, b, n);
	T(compare)("gehrd: tau", (size_t)(n > 1 ? n - 1 : 0), tau, tref, n);
	memcpy(a, b, sizeof *a * (size_t)n * n); /* the same reflectors for both */
	L(orghr)(&n, &ilo, &ihi, a, &n, tref, work, &lwork, &info);
	check(info == 0, "orghr %d (%d..%d): info %d", n, ilo, ihi, info);
	R(orghr)(&n, &ilo, &ihi, b, &n, tref, work, &lwork, &info);
	T(compare)("orghr: Q", (size_t)n * n, a, b, n);
	free(a), free(b), free(tau), free(tref), free(work);
}

/* dsytrd of a symmetric matrix's uplo triangle. */
static void T(tridiagonal)(char uplo, int n, unsigned draw)
{
	int lwork = 64 * n, info;
	real_t *a = T(random_matrix)(n, n, draw);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < j; i++)
			a[j + (size_t)i * n] = a[i + (size_t)j * n];
	real_t *b = T(copy)(a, (size_t)n * n), *work = malloc(sizeof *work * (size_t)lwork);
	real_t *out = malloc(sizeof *out * 3 * (size_t)n), *ref = malloc(sizeof *ref * 3 * (size_t)n);
	L(sytrd)(&uplo, &n, a, &n, out, out + n, out + 2 * n, work, &lwork, &info);
	check(info == 0, "sytrd %c %d: info %d", uplo, n, info);
	R(sytrd)(&uplo, &n, b, &n, ref, ref + n, ref + 2 * n, work, &lwork, &info, 1);
	T(compare)("sytrd: the reflectors and the other triangle", (size_t)n * n, a, b, n);
	T(compare)("sytrd: d and e", (size_t)(2 * n - 1), out, ref, n);
	T(compare)("sytrd: tau", (size_t)(n - 1), out + 2 * n, ref + 2 * n, n);
	free(a), free(b), free(work), free(out), free(ref);
}

/* dgebrd of an m-by-n matrix (lower bidiagonal for m < n). */
static void T(bidiagonal)(int m, int n, unsigned draw)
{
	int mn = m < n ? m : n, lwork = 64 * (m + n), info;
	real_t *a = T(random_matrix)(m, n, draw), *b = T(copy)(a, (size_t)m * n);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	real_t *out = malloc(sizeof *out * 4 * (size_t)mn), *ref = malloc(sizeof *ref * 4 * (size_t)mn);
	L(gebrd)(&m, &n, a, &m, out, out + mn, out + 2 * mn, out + 3 * mn, work, &lwork, &info);
	check(info == 0, "gebrd %dx%d: info %d", m, n, info);
	R(gebrd)(&m, &n, b, &m, ref, ref + mn, ref + 2 * mn, ref + 3 * mn, work, &lwork, &info);
	T(compare)("gebrd: the reflectors", (size_t)m * n, a, b, m > n ? m : n);
	T(compare)("gebrd: d and e", (size_t)(2 * mn - 1), out, ref, m > n ? m : n);
	T(compare)("gebrd: tauq and taup", (size_t)(2 * mn), out + 2 * mn, ref + 2 * mn, m > n ? m : n);
	free(a), free(b), free(work), free(out), free(ref);
}
/* max |A x_j - w_j x_j| / (n |A| eps) over the columns of the n-by-k x
 * (ldx) with A the m-by-n a, w_j the values (n = m: eigenpairs) or, with
 * y (m-by-k, ldy), |A x_j - w_j y_j| (singular triplets, x_j V's column);
 * at most 100 for a backward stable solver's vectors. */
static double T(pair_residual)(int m, int n, int k, const real_t *a, const real_t *w,
                               const real_t *x, int ldx, const real_t *y, int ldy)
{
	double norm = 0, worst = 0;
	for (size_t i = 0; i < (size_t)m * n; i++)
		norm = fmax(norm, fabs((double)a[i]));
	for (int j = 0; j < k; j++)
		for (int i = 0; i < m; i++) {
			double r = -(double)w[j] * (y ? y[i + (size_t)j * ldy] : x[i + (size_t)j * ldx]);
			for (int l = 0; l < n; l++)
				r += (double)a[i + (size_t)l * m] * x[l + (size_t)j * ldx];
			worst = fmax(worst, fabs(r));
		}
	return worst / ((double)n * (norm > 0 ? norm : 1) * EPS);
}

/* dsyevd of a symmetric matrix's uplo triangle: the eigenvalues as the
 * system LAPACK's, each eigenpair's residual small. */
static void T(eigen)(char jobz, char uplo, int n, unsigned draw)
{
	int lwork = 1 + 6 * n + 2 * n * n, liwork = 3 + 5 * n, info;
	real_t *a = T(random_matrix)(n, n, draw);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < j; i++)
			a[j + (size_t)i * n] = a[i + (size_t)j * n];
	real_t *b = T(copy)(a, (size_t)n * n), *c = T(copy)(a, (size_t)n * n);
	real_t *work = malloc(sizeof *work * (size_t)lwork), *w = malloc(sizeof *w * 2 * (size_t)n);
	int *iwork = malloc(sizeof *iwork * (size_t)liwork);
	L(syevd)(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, &info);
	check(info == 0, "syevd %c %c %d: info %d", jobz, uplo, n, info);
	R(syevd)(&jobz, &uplo, &n, b, &n, w + n, work, &lwork, iwork, &liwork, &info, 1, 1);
	T(compare)("syevd: the eigenvalues", (size_t)n, w, w + n, n);
	if (jobz == 'V') {
		double r = T(pair_residual)(n, n, n, c, w, a, n, NULL, 0);
		check(r <= 100, "syevd %c %d: eigenpair residual %.1f n |A| eps", uplo, n, r);
	}
	free(a), free(b), free(c), free(work), free(w), free(iwork);
}

/* dgesdd: the singular values as the system LAPACK's, with jobz S each
 * triplet's residual small (A v_j = s_j u_j). */
static void T(singular)(char jobz, int m, int n, unsigned draw)
{
	int k = m < n ? m : n, big = m > n ? m : n;
	int lwork = 4 * k * k + 7 * k + big, info;
	real_t *a = T(random_matrix)(m, n, draw), *b = T(copy)(a, (size_t)m * n);
	real_t *c = T(copy)(a, (size_t)m * n), *work = malloc(sizeof *work * (size_t)lwork);
	real_t *s = malloc(sizeof *s * 2 * (size_t)k), *u = malloc(sizeof *u * (size_t)m * k);
	real_t *vt = malloc(sizeof *vt * (size_t)k * n), *v = malloc(sizeof *v * (size_t)n * k);
	int *iwork = malloc(sizeof *iwork * 8 * (size_t)k);
	L(gesdd)(&jobz, &m, &n, a, &m, s, u, &m, vt, &k, work, &lwork, iwork, &info);
	check(info == 0, "gesdd %c %dx%d: info %d", jobz, m, n, info);
	R(gesdd)("N", &m, &n, b, &m, s + k, NULL, &m, NULL, &k, work, &lwork, iwork, &info, 1);
	T(compare)("gesdd: the singular values", (size_t)k, s, s + k, big);
	if (jobz == 'S') {
		for (int j = 0; j < k; j++)
			for (int l = 0; l < n; l++)
				v[l + (size_t)j * n] = vt[j + (size_t)l * k];
		double r = T(pair_residual)(m, n, k, c, s, v, n, u, m);
		check(r <= 100, "gesdd %dx%d: singular triplet residual %.1f n |A| eps", m, n, r);
	}
	free(a), free(b), free(c), free(work), free(s), free(u), free(vt), free(v), free(iwork);
}


/* Workspace queries: the drop-in answers as the system LAPACK does. */
static void T(queries)(void)
{
	int m = 300, n = 200, k = 150, ilo = 2, ihi = 190, q = -1, info1, info2;
	real_t a[1], t[1], w1 = 0, w2 = 0;
#define SAME(what) check(w1 == w2 && info1 == 0 && info2 == 0, \
	                 "%s query: %g (info %d), the system LAPACK's %g (info %d)", what, \
	                 (double)w1, info1, (double)w2, info2)
	L(geqrf)(&m, &n, a, &m, t, &w1, &q, &info1);
	R(geqrf)(&m, &n, a, &m, t, &w2, &q, &info2);
	SAME("geqrf");
	L(orgqr)(&m, &n, &k, a, &m, t, &w1, &q, &info1);
	R(orgqr)(&m, &n, &k, a, &m, t, &w2, &q, &info2);
	SAME("orgqr");
	L(gehrd)(&n, &ilo, &ihi, a, &n, t, &w1, &q, &info1);
	R(gehrd)(&n, &ilo, &ihi, a, &n, t, &w2, &q, &info2);
	SAME("gehrd");
	L(orghr)(&n, &ilo, &ihi, a, &n, t, &w1, &q, &info1);
	R(orghr)(&n, &ilo, &ihi, a, &n, t, &w2, &q, &info2);
	SAME("orghr");
	L(sytrd)("U", &n, a, &n, t, t, t, &w1, &q, &info1);
	R(sytrd)("U", &n, a, &n, t, t, t, &w2, &q, &info2, 1);
	SAME("sytrd");
	L(gebrd)(&m, &n, a, &m, t, t, t, t, &w1, &q, &info1);
	R(gebrd)(&m, &n, a, &m, t, t, t, t, &w2, &q, &info2);
	SAME("gebrd");
	int iw1 = 0, iw2 = 0;
	L(syevd)("V", "L", &n, a, &n, t, &w1, &q, &iw1, &q, &info1);
	R(syevd)("V", "L", &n, a, &n, t, &w2, &q, &iw2, &q, &info2, 1, 1);
	SAME("syevd");
	check(iw1 == iw2, "syevd query: liwork %d, the system LAPACK's %d", iw1, iw2);
	L(gesdd)("S", &m, &n, a, &m, t, a, &m, a, &n, &w1, &q, &iw1, &info1);
	R(gesdd)("S", &m, &n, a, &m, t, a, &m, a, &n, &w2, &q, &iw2, &info2, 1);
	SAME("gesdd");
#undef SAME
}

/* Bad arguments: xerbla hears LAPACK's name and number, info is minus it. */
static void T(argument_errors)(void)
{
	const char *name = EPS > 1e-10 ? "S" : "D";
	int m = 10, n = 8, k = 4, one = 1, neg = -1, zero = 0, big = 9, lw = 1000, info;
	real_t a[100], t[10], w[1000];
	char routine[16];
#define BAD(routine_name, number, call) \
	do { \
		snprintf(routine, sizeof routine, "%s%s", name, routine_name); \
		forget_xerbla(); \
		call; \
		xerbla_heard(routine, number, info); \
	} while (0)
	BAD("GEQRF", 1, L(geqrf)(&neg, &n, a, &m, t, w, &lw, &info));
	BAD("GEQRF", 4, L(geqrf)(&m, &n, a, &n, t, w, &lw, &info));
	BAD("GEQRF", 7, L(geqrf)(&m, &n, a, &m, t, w, &one, &info));
	BAD("ORGQR", 2, L(orgqr)(&n, &m, &k, a, &m, t, w, &lw, &info));
	BAD("ORGQR", 3, L(orgqr)(&m, &n, &big, a, &m, t, w, &lw, &info));
	BAD("ORGQR", 8, L(orgqr)(&m, &n, &k, a, &m, t, w, &k, &info));
	BAD("GEHRD", 2, L(gehrd)(&n, &zero, &n, a, &n, t, w, &lw, &info));
	BAD("GEHRD", 3, L(gehrd)(&n, &one, &big, a, &n, t, w, &lw, &info));
	BAD("GEHRD", 8, L(gehrd)(&n, &one, &n, a, &n, t, w, &one, &info));
	BAD("ORGHR", 5, L(orghr)(&n, &one, &n, a, &one, t, w, &lw, &info));
	BAD("ORGHR", 8, L(orghr)(&n, &one, &n, a, &n, t, w, &one, &info));
	BAD("SYTRD", 1, L(sytrd)("X", &n, a, &n, t, t, t, w, &lw, &info));
	BAD("SYTRD", 2, L(sytrd)("L", &neg, a, &n, t, t, t, w, &lw, &info));
	BAD("SYTRD", 9, L(sytrd)("U", &n, a, &n, t, t, t, w, &zero, &info));
	BAD("GEBRD", 2, L(gebrd)(&m, &neg, a, &m, t, t, t, t, w, &lw, &info));
	BAD("GEBRD", 10, L(gebrd)(&m, &n, a, &m, t, t, t, t, w, &n, &info));
	int iw[100], liw = 100;
	BAD("SYEVD", 1, L(syevd)("X", "L", &n, a, &n, t, w, &lw, iw, &liw, &info));
	BAD("SYEVD", 2, L(syevd)("N", "X", &n, a, &n, t, w, &lw, iw, &liw, &info));
	BAD("SYEVD", 5, L(syevd)("V", "U", &n, a, &one, t, w, &lw, iw, &liw, &info));
	BAD("SYEVD", 8, L(syevd)("V", "L", &n, a, &n, t, w, &big, iw, &liw, &info));
	BAD("SYEVD", 10, L(syevd)("V", "L", &n, a, &n, t, w, &lw, iw, &one, &info));
	BAD("GESDD", 1, L(gesdd)("X", &m, &n, a, &m, t, a, &m, a, &n, w, &lw, iw, &info));
	BAD("GESDD", 3, L(gesdd)("N", &m, &neg, a, &m, t, a, &m, a, &n, w, &lw, iw, &info));
	BAD("GESDD", 8, L(gesdd)("S", &m, &n, a, &m, t, a, &n, a, &n, w, &lw, iw, &info));
	BAD("GESDD", 10, L(gesdd)("A", &m, &n, a, &m, t, a, &m, a, &k, w, &lw, iw, &info));
	BAD("GESDD", 12, L(gesdd)("S", &m, &n, a, &m, t, a, &m, a, &n, w, &big, iw, &info));
	/* dgesdd's minimum is its path's (10-by-8, jobz S: 3 n + 3 n^2 + 4 n) */
	int path_min = 3 * n + 3 * n * n + 4 * n, below = path_min - 1;
	BAD("GESDD", 12, L(gesdd)("S", &m, &n, a, &m, t, a, &m, a, &n, w, &below, iw, &info));
	real_t u[80], vt[64];
	for (int i = 0; i < m * n; i++)
		a[i] = (real_t)((i * 37) % 11) - 5;
	L(gesdd)("S", &m, &n, a, &m, t, u, &m, vt, &n, w, &path_min, iw, &info);
	check(info == 0, "gesdd with its path's minimum lwork %d: info %d", path_min, info);
#undef BAD
}

/* A hard input (enum hard_kind), the draw-th of its kind: entries 2^HARD_EXP
 * or 2^-HARD_EXP times a random matrix's (their squares overflow or
 * underflow: LAPACK's least-squares testers scale by 1 / (safe minimum /
 * eps^2)), of rank min(m, n) / 2 so scaled, zero columns beside a column
 * 2^40 times larger, zero, or block diagonal with its second block
 * subnormal (2^-SUBNORMAL_EXP times: the reflectors there are of columns
 * whose norm's inverse overflows; xLARFG rescales them). */
#define HARD_EXP (EPS > 1e-10 ? 78 : 915)
#define SUBNORMAL_EXP (EPS > 1e-10 ? 135 : 1035)
static real_t *T(hard_matrix)(int m, int n, int kind, unsigned draw)
{
	real_t *a = T(random_matrix)(m, n, draw);
	if (kind == HUGE_LOW_RANK || kind == TINY_LOW_RANK) {
		int r = (m < n ? m : n) / 2;
		real_t *b = T(random_matrix)(m, r, draw + 1), *c = T(random_matrix)(r, n, draw + 2);
		for (int j = 0; j < n; j++)
			for (int i = 0; i < m; i++) {
				double x = 0;
				for (int k = 0; k < r; k++)
					x += (double)b[i + (size_t)k * m] * c[k + (size_t)j * r];
				a[i + (size_t)j * m] = (real_t)x;
			}
		free(b), free(c);
	}
	int e = kind == HUGE_SCALE || kind == HUGE_LOW_RANK ? HARD_EXP
	        : kind == TINY_SCALE || kind == TINY_LOW_RANK ? -HARD_EXP : 0;
	for (size_t i = 0; i < (size_t)m * n; i++)
		a[i] = kind == ZERO ? 0 : (real_t)ldexp(a[i], e);
	for (int j = 0; kind == SUBNORMAL_BLOCK && j < n; j++)
		for (int i = 0; i < m; i++) {
			real_t *x = &a[i + (size_t)j * m];
			if (i >= m / 2 || j >= n / 2)
				*x = i >= m / 2 && j >= n / 2 ? (real_t)ldexp(*x, -SUBNORMAL_EXP) : 0;
		}
	for (int j = 0; kind == ZERO_COLUMNS && j < n; j++)
		for (int i = 0; i < m; i++)
			a[i + (size_t)j * m] = j % 3 == 1 ? 0 : j == 0 ? (real_t)ldexp(a[i], 40) : a[i + (size_t)j * m];
	return a;
}

/* The singular values of the m-by-n a (the system LAPACK's gesvd). */
static real_t *T(singular_values)(int m, int n, const real_t *a)
{
	int mn = m < n ? m : n, one = 1, lwork = 5 * (m + n) + 64, info;
	real_t *c = T(copy)(a, (size_t)m * n), *s = calloc((size_t)mn + 1, sizeof *s);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	R(gesvd)("N", "N", &m, &n, c, &m, s, NULL, &one, NULL, &one, work, &lwork, &info, 1, 1);
	check(info == 0, "gesvd %dx%d: info %d", m, n, info);
	free(c), free(work);
	return s;
}

/* The reduced form f (m-by-n) has a's singular values within 100 max(m, n)
 * eps ||a||_2 (orthogonal transformations keep them, and backward stable
 * ones within that); a NaN, an overflow or a lost direction does not. */
static void T(same_singular_values)(const char *what, int m, int n, const real_t *f, const real_t *a)
{
	int mn = m < n ? m : n;
	real_t *s = T(singular_values)(m, n, f), *ref = T(singular_values)(m, n, a);
	double worst = 0;
	for (int i = 0; i < mn; i++) {
		double d = fabs((double)s[i] - (double)ref[i]);
		worst = d > worst || isnan(d) ? d : worst;
	}
	double units = mn && ref[0] > 0 ? worst / ((double)ref[0] * (m > n ? m : n) * EPS) : worst;
	check(units <= 100, "%s: singular values %.3g max(m, n) eps ||A||_2 from A's", what, units);
	free(s), free(ref);
}

/* The m-by-n matrix with d on the diagonal and e on the diagonal offset
 * (1 above, -1 below; 0: e ignored), zero elsewhere. */
static real_t *T(banded)(int m, int n, const real_t *d, const real_t *e, int offset)
{
	int mn = m < n ? m : n;
	real_t *b = calloc((size_t)m * n, sizeof *b);
	for (int i = 0; i < mn; i++) {
		b[i + (size_t)i * m] = d[i];
		if (offset > 0 && i + 1 < n)
			b[i + (size_t)(i + 1) * m] = e[i];
		if (offset < 0 && i + 1 < m)
			b[i + 1 + (size_t)i * m] = e[i];
	}
	return b;
}

/* Each routine on a hard input: info 0 and A's singular values, and where
 * A's reflectors are unique (full rank: not the low-rank kinds) the system
 * LAPACK's result. */
static void T(hard)(int kind, unsigned draw)
{
	static const char *names[] = {"huge", "tiny", "huge low-rank", "tiny low-rank",
	                              "zero columns", "zero", "subnormal block"};
	int unique = kind != HUGE_LOW_RANK && kind != TINY_LOW_RANK, info;
	char what[96];
	for (int wide = 0; wide < 2; wide++) {
		int m = wide ? 70 : 120, n = wide ? 110 : 80, mn = m < n ? m : n, lwork = 64 * (m + n);
		real_t *a = T(hard_matrix)(m, n, kind, draw), *b = T(copy)(a, (size_t)m * n);
		real_t *ref = T(copy)(a, (size_t)m * n), *work = malloc(sizeof *work * (size_t)lwork);
		real_t *out = malloc(sizeof *out * 4 * (size_t)mn), *rout = malloc(sizeof *out * 4 * (size_t)mn);
		snprintf(what, sizeof what, "geqrf %dx%d, %s", m, n, names[kind]);
		L(geqrf)(&m, &n, b, &m, out, work, &lwork, &info);
		check(info == 0, "%s: info %d", what, info);
		real_t *r = calloc((size_t)m * n, sizeof *r);
		for (int j = 0; j < n; j++)
			for (int i = 0; i <= j && i < m; i++)
				r[i + (size_t)j * m] = b[i + (size_t)j * m];
		T(same_singular_values)(what, m, n, r, a);
		if (unique) {
			R(geqrf)(&m, &n, ref, &m, rout, work, &lwork, &info);
			T(compare)(what, (size_t)m * n, b, ref, m);
		}
		free(r);
		memcpy(b, a, sizeof *b * (size_t)m * n), memcpy(ref, a, sizeof *b * (size_t)m * n);
		snprintf(what, sizeof what, "gebrd %dx%d, %s", m, n, names[kind]);
		L(gebrd)(&m, &n, b, &m, out, out + mn, out + 2 * mn, out + 3 * mn, work, &lwork, &info);
		check(info == 0, "%s: info %d", what, info);
		real_t *bd = T(banded)(m, n, out, out + mn, wide ? -1 : 1);
		T(same_singular_values)(what, m, n, bd, a);
		if (unique) {
			R(gebrd)(&m, &n, ref, &m, rout, rout + mn, rout + 2 * mn, rout + 3 * mn, work, &lwork,
			         &info);
			T(compare)(what, (size_t)(2 * mn - 1), out, rout, m > n ? m : n);
		}
		free(bd), free(a), free(b), free(ref), free(work), free(out), free(rout);
	}
	int n = 100, one = 1, lwork = 64 * n;
	real_t *a = T(hard_matrix)(n, n, kind, draw + 3), *b = T(copy)(a, (size_t)n * n);
	real_t *tau = malloc(sizeof *tau * 3 * (size_t)n), *work = malloc(sizeof *work * (size_t)lwork);
	snprintf(what, sizeof what, "gehrd %d, %s", n, names[kind]);
	L(gehrd)(&n, &one, &n, b, &n, tau, work, &lwork, &info);
	check(info == 0, "%s: info %d", what, info);
	for (int j = 0; j < n; j++)
		for (int i = j + 2; i < n; i++)
			b[i + (size_t)j * n] = 0;
	T(same_singular_values)(what, n, n, b, a);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < j; i++)
			a[i + (size_t)j * n] = a[j + (size_t)i * n];
	memcpy(b, a, sizeof *b * (size_t)n * n);
	snprintf(what, sizeof what, "sytrd %d, %s", n, names[kind]);
	L(sytrd)("L", &n, b, &n, tau, tau + n, tau + 2 * n, work, &lwork, &info);
	check(info == 0, "%s: info %d", what, info);
	real_t *t = T(banded)(n, n, tau, tau + n, 1);
	for (int i = 0; i + 1 < n; i++)
		t[i + 1 + (size_t)i * n] = tau[n + i];
	T(same_singular_values)(what, n, n, t, a);
	free(t), free(a), free(b), free(tau), free(work);
}

static void T(all)(void)
{
	T(queries)();
	T(argument_errors)();
	T(qr)(130, 100, 70, 1);
	T(qr)(90, 140, 0, 2);   /* wide: geqrf only */
	T(qr)(100, 100, 100, 3);
	T(hessenberg)(100, 1, 100, 4);
	T(hessenberg)(100, 4, 90, 5);
	T(tridiagonal)('L', 100, 6);
	T(tridiagonal)('U', 97, 7);
	T(bidiagonal)(130, 100, 8);
	T(bidiagonal)(90, 140, 9);
	T(eigen)('V', 'L', 100, 10);
	T(eigen)('N', 'U', 97, 11);
	T(singular)('S', 130, 100, 12);
	T(singular)('S', 90, 140, 13);
	T(singular)('N', 100, 100, 14);
	for (int kind = 0; kind < HARD_KINDS; kind++)
		T(hard)(kind, 20 + kind);
}
