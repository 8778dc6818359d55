/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The asynchronous calls return before their tasks run, the caller's tasks
 * before and after them are ordered by StarPU's dependencies, and errors
 * come back through the sequence. The application starts StarPU itself.
 *
 * A "gate" task of the caller's, submitted first on the matrix, blocks until
 * the main thread opens it after the hyla call returned: a call that waited
 * for its tasks inside (or for all tasks) would never return; the gate gives
 * up after 30 s and the test fails instead of hanging. Then a task of the
 * caller's that reads the result (||I - Q^T Q||, or H's subdiagonal) is
 * submitted before anything is waited for. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common.h"
#include "hyla_async.h"
#include "spectra.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

static int gate_open, gate_timed_out;

static void gate_cpu(void *buffers[], void *arg)
{
	(void)buffers, (void)arg;
	for (int i = 0; i < 30000 && !__atomic_load_n(&gate_open, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	gate_timed_out = !__atomic_load_n(&gate_open, __ATOMIC_ACQUIRE);
}

static struct starpu_codelet gate_cl = {
	.cpu_funcs = {gate_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "caller_gate",
};

/* The caller's reader: the matrix's panels (R), views of one m-by-n matrix
 * in host memory, so panel 0's pointer and leading dimension give it all. */
struct reader {
	int64_t m, n;
	int orth;     /* ||I - Q^T Q||, else the sum of |a_ij| */
	double *copy; /* when set, the matrix is copied there (leading dimension m) */
	double value;
};

static double sum_abs(int64_t m, int64_t n, const double *a, int64_t ld)
{
	double s = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			s += fabs(a[i + j * ld]);
	return s;
}

static void reader_cpu(void *buffers[], void *arg)
{
	struct reader *r = arg;
	const double *a = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	int64_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
	r->value = r->orth ? orthogonality(r->m, r->n, a, ld) : sum_abs(r->m, r->n, a, ld);
	if (r->copy)
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)r->m, (lapack_int)r->n, a,
		               (lapack_int)ld, r->copy, (lapack_int)r->m);
}

static struct starpu_codelet reader_cl = {
	.cpu_funcs = {reader_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "caller_reader",
};

static int insert_on_all(struct starpu_codelet *cl, hyla_matrix *m, enum starpu_data_access_mode mode,
                         void *arg)
{
	int64_t np = hyla_matrix_panels(m);
	struct starpu_data_descr *d = malloc(sizeof *d * (size_t)np);
	for (int64_t k = 0; k < np; k++)
		d[k] = (struct starpu_data_descr){hyla_matrix_panel(m, k), mode};
	int ret = starpu_task_insert(cl, STARPU_DATA_MODE_ARRAY, d, (int)np, STARPU_CL_ARGS_NFREE, arg,
	                             0, 0);
	free(d);
	return ret;
}

/* One asynchronous call behind a closed gate; returns the call's code. */
static int behind_gate(int (*call)(void *), void *ctx, hyla_matrix *m)
{
	__atomic_store_n(&gate_open, 0, __ATOMIC_RELEASE);
	gate_timed_out = 0;
	if (insert_on_all(&gate_cl, m, STARPU_RW, NULL))
		return -1;
	int ret = call(ctx);
	__atomic_store_n(&gate_open, 1, __ATOMIC_RELEASE);
	return ret;
}

/* A Gram-Schmidt QR: MGS when mgs, else CGS's variant. */
struct gs_call {
	hyla_matrix *a;
	double *r;
	int64_t n;
	int mgs;
	hyla_cgs_variant variant;
	hyla_sequence *seq;
};

static int gs_call(void *ctx)
{
	struct gs_call *c = ctx;
	hyla_options o = {.cgs_variant = c->variant};
	return c->mgs ? hyla_dmgs_async(c->a, c->r, c->n, NULL, c->seq)
	              : hyla_dcgs_async(c->a, c->r, c->n, &o, c->seq);
}

struct gehrd_call {
	hyla_matrix *a;
	double *tau;
	hyla_sequence *seq;
};

static int gehrd_call(void *ctx)
{
	struct gehrd_call *c = ctx;
	return hyla_dgehrd_async(c->a, c->tau, NULL, c->seq);
}

static int report(const char *what, int ok, const char *fmt, double v1, double v2)
{
	printf("%-34s ", what);
	printf(fmt, v1, v2);
	printf(" gate=%s %s\n", gate_timed_out ? "timed out (the call waited)" : "opened after return",
	       ok && !gate_timed_out ? "pass" : "FAILED");
	return ok && !gate_timed_out;
}

static int test_gs(const char *name, int mgs, hyla_cgs_variant variant, int zero_column)
{
	const int64_t m = 300, n = 160, nb = 48;
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *r = malloc(sizeof *r * n * n);
	random_matrix(m, n, a0, m, 11);
	if (zero_column)
		memset(a0 + 100 * m, 0, sizeof *a0 * m); /* column 101 (1-based) */
	memcpy(a, a0, sizeof *a * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	hyla_sequence *seq = hyla_sequence_create();
	struct gs_call call = {A, r, n, mgs, variant, seq};
	struct reader orth = {.m = m, .n = n, .orth = 1};
	int ret = behind_gate(gs_call, &call, A);
	if (ret == 0 && !zero_column)
		ret = insert_on_all(&reader_cl, A, STARPU_R, &orth);
	int info = hyla_sequence_wait(seq);
	starpu_task_wait_for_all(); /* the caller's own tasks */
	hyla_matrix_destroy(A);
	int ok;
	if (zero_column) {
		ok = report(name, ret == 0 && info == 101, "info=%.0f (want %.0f)", info, 101);
	} else {
		double resid = qr_residual(m, n, a0, m, a, m, r, n);
		ok = ret == 0 && info == 0 && orth.value < 1e-12 && resid < 1e-14;
		ok = report(name, ok, "orth=%.2e resid=%.2e", orth.value, resid);
	}
	hyla_sequence_destroy(seq);
	free(a0), free(a), free(r);
	return ok;
}

static int test_gehrd(void)
{
	const int64_t n = 200, nb = 32;
	double *a0 = malloc(sizeof *a0 * n * n), *a = malloc(sizeof *a * n * n);
	double *tau = malloc(sizeof *tau * n), resid, orth;
	random_matrix(n, n, a0, n, 12);
	memcpy(a, a0, sizeof *a * n * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), n, n, n, nb);
	hyla_sequence *seq = hyla_sequence_create();
	struct gehrd_call call = {A, tau, seq};
	struct reader sum = {.m = n, .n = n};
	int ret = behind_gate(gehrd_call, &call, A);
	if (ret == 0)
		ret = insert_on_all(&reader_cl, A, STARPU_R, &sum);
	int info = hyla_sequence_wait(seq);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(A);
	int checked = hessenberg_residuals(n, a0, n, a, n, tau, NULL, &resid, &orth);
	double eps = 0x1p-53;
	/* The reader saw the reduced matrix, not the input. */
	int after = sum.value == sum_abs(n, n, a, n) && sum.value != sum_abs(n, n, a0, n);
	int ok = ret == 0 && info == 0 && checked == 0 && resid < 30 * eps && orth < 30 * eps && after;
	ok = report(after ? "gehrd async, caller's reader after" : "gehrd async, reader saw the input",
	            ok, "resid=%.1f eps orth=%.1f eps", resid / eps, orth / eps);
	hyla_sequence_destroy(seq);
	free(a0), free(a), free(tau);
	return ok;
}

/* hyla_dgeqrf_async then hyla_dorgqr_async on the same matrix and tau,
 * submitted back to back behind the gate, then one wait each. */
struct qr_call {
	hyla_matrix *a;
	double *tau;
	hyla_sequence *factor, *form;
};

static int qr_call(void *ctx)
{
	struct qr_call *c = ctx;
	int ret = hyla_dgeqrf_async(c->a, c->tau, NULL, c->factor);
	return ret ? ret : hyla_dorgqr_async(c->a, c->tau, NULL, c->form);
}

static int test_householder(void)
{
	const int64_t m = 300, n = 180, nb = 40;
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *r = calloc((size_t)(n * n), sizeof *r), *tau = malloc(sizeof *tau * n);
	random_matrix(m, n, a0, m, 13);
	memcpy(a, a0, sizeof *a * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	struct qr_call call = {A, tau, hyla_sequence_create(), hyla_sequence_create()};
	int ret = behind_gate(qr_call, &call, A);
	int info = hyla_sequence_wait(call.factor);
	info |= hyla_sequence_wait(call.form);
	hyla_matrix_destroy(A);
	double *ref = malloc(sizeof *ref * m * n), *tref = malloc(sizeof *tref * n);
	memcpy(ref, a0, sizeof *ref * m * n);
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)m, (int)n, ref, (int)m, tref);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j; i++)
			r[i + j * n] = ref[i + j * m];
	/* The second call overwrote R: check hyla's Q with LAPACK's R (the same
	 * reflectors up to rounding), small only if both calls ran in order. */
	double resid = qr_residual(m, n, a0, m, a, m, r, n), orth = orthogonality(m, n, a, m);
	int ok = report("geqrf + orgqr async, back to back", ret == 0 && info == 0 && resid < 1e-13 &&
	                orth < 1e-13, "resid=%.2e orth=%.2e", resid, orth);
	hyla_sequence_destroy(call.factor);
	hyla_sequence_destroy(call.form);
	free(a0), free(a), free(r), free(tau), free(ref), free(tref);
	return ok;
}

/* The reductions' calls and outputs: tau is gehrd's, sytrd's or gebrd's
 * tauq; h, the caller's task that copies H between gehrd and orghr. */
struct reduction {
	hyla_matrix *a;
	char uplo;
	double *d, *e, *tau, *taup;
	struct reader *h;
	hyla_sequence *seq, *orghr;
};

/* hyla_dgehrd_async, the caller's copy of H, hyla_dorghr_async: back to
 * back, nothing waited for in between. The panel on the GPU where there is
 * one: tau is then written there, and orghr must still find it. */
static int orghr_call(void *ctx)
{
	struct reduction *c = ctx;
	hyla_gehrd_panel panel = hyla_ncuda() > 0 ? HYLA_PANEL_GPU : HYLA_PANEL_AUTO;
	int ret = hyla_dgehrd_async(c->a, c->tau, &(hyla_options){.gehrd_panel = panel}, c->seq);
	if (ret == 0)
		ret = insert_on_all(&reader_cl, c->a, STARPU_R, c->h);
	return ret ? ret : hyla_dorghr_async(c->a, c->tau, NULL, c->orghr);
}

static int test_orghr(void)
{
	const int64_t n = 203, nb = 32;
	double *a0 = malloc(sizeof *a0 * n * n), *a = malloc(sizeof *a * n * n);
	double *h = malloc(sizeof *h * n * n), *tau = malloc(sizeof *tau * n), resid, orth;
	random_matrix(n, n, a0, n, 14);
	memcpy(a, a0, sizeof *a * n * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), n, n, n, nb);
	struct reader copy = {.m = n, .n = n, .copy = h};
	struct reduction call = {.a = A, .tau = tau, .h = &copy, .seq = hyla_sequence_create(),
	                         .orghr = hyla_sequence_create()};
	int ret = behind_gate(orghr_call, &call, A);
	int info = hyla_sequence_wait(call.orghr); /* the later call first: either order works */
	info |= hyla_sequence_wait(call.seq);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(A);
	/* Q (a) from hyla's dorghr with H as the caller's task saw it. */
	int checked = hessenberg_residuals(n, a0, n, h, n, tau, a, &resid, &orth);
	double eps = 0x1p-53;
	int ok = ret == 0 && info == 0 && checked == 0 && resid < 30 * eps && orth < 30 * eps;
	ok = report("gehrd + orghr async, back to back", ok, "resid=%.1f eps orth=%.1f eps",
	            resid / eps, orth / eps);
	hyla_sequence_destroy(call.seq);
	hyla_sequence_destroy(call.orghr);
	free(a0), free(a), free(h), free(tau);
	return ok;
}

static int sytrd_call(void *ctx)
{
	struct reduction *c = ctx;
	return hyla_dsytrd_async(c->uplo, c->a, c->d, c->e, c->tau, NULL, c->seq);
}

/* Whether the strict triangle that uplo leaves out is as in a0 (n-by-n). */
static int other_triangle_kept(char uplo, int64_t n, const double *a0, const double *a)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			if ((uplo == 'U' ? i > j : i < j) && a[i + j * n] != a0[i + j * n])
				return 0;
	return 1;
}

/* The triangle uplo ('U': reduced as the lower one of J A J, reversed in
 * place by tasks); the other one must stay as it was. */
static int test_sytrd(char uplo)
{
	const int64_t n = 203, nb = 32;
	double *a0 = malloc(sizeof *a0 * n * n), *a = malloc(sizeof *a * n * n);
	double *d = malloc(sizeof *d * 3 * n), resid = NAN, orth = NAN;
	random_matrix(n, n, a0, n, 15);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < j; i++)
			a0[i + j * n] = a0[j + i * n];
	memcpy(a, a0, sizeof *a * n * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), n, n, n, nb);
	struct reduction call = {.a = A, .uplo = uplo, .d = d, .e = d + n, .tau = d + 2 * n,
	                         .seq = hyla_sequence_create()};
	int ret = behind_gate(sytrd_call, &call, A);
	int info = hyla_sequence_wait(call.seq);
	hyla_matrix_destroy(A);
	int checked = tridiagonal_residuals(n, uplo, a0, n, a, d, d + n, d + 2 * n, &resid, &orth);
	double eps = 0x1p-53;
	int kept = other_triangle_kept(uplo, n, a0, a);
	int ok = ret == 0 && info == 0 && checked == 0 && resid < 30 * eps && orth < 30 * eps && kept;
	char name[40];
	snprintf(name, sizeof name, "sytrd async %c%s", uplo, kept ? "" : ", other triangle changed");
	ok = report(name, ok, "resid=%.1f eps orth=%.1f eps", resid / eps, orth / eps);
	hyla_sequence_destroy(call.seq);
	free(a0), free(a), free(d);
	return ok;
}

struct syevd_call {
	hyla_matrix *a;
	char jobz, uplo;
	double *w;
	struct reader *after;
	hyla_sequence *seq;
};

/* hyla_dsyevd_async, then the caller's reader of the eigenvectors. */
static int syevd_call(void *ctx)
{
	struct syevd_call *c = ctx;
	int ret = hyla_dsyevd_async(c->jobz, c->uplo, c->a, c->w, NULL, c->seq);
	return ret ? ret : insert_on_all(&reader_cl, c->a, STARPU_R, c->after);
}

/* The eigenvalues against LAPACK's (30 n eps ||A||_2); with vectors, the
 * residual and the orthogonality the caller's task saw, at most 30 n eps. */
static int test_syevd(char jobz, char uplo)
{
	const int64_t n = 203, nb = 32;
	double *a0 = malloc(sizeof *a0 * n * n), *a = malloc(sizeof *a * n * n);
	double *w = malloc(sizeof *w * 2 * n), *ref = w + n, resid = 0, orth = 0;
	symmetric_matrix("random", n, a0, 16, NULL);
	memcpy(a, a0, sizeof *a * n * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), n, n, n, nb);
	struct reader after = {.m = n, .n = n, .orth = 1};
	struct syevd_call call = {A, jobz, uplo, w, &after, hyla_sequence_create()};
	int ret = behind_gate(syevd_call, &call, A);
	int info = hyla_sequence_wait(call.seq);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(A);
	double eps = 0x1p-53, err = NAN;
	int ok = ret == 0 && info == 0 && lapack_eigenvalues(n, a0, ref) == 0;
	if (ok)
		err = eigenvalue_error(n, w, ref) / (30 * n * eps * fmax(fabs(ref[0]), fabs(ref[n - 1])));
	ok = ok && err <= 1;
	if (jobz == 'V') {
		ok = ok && eigen_residuals(n, a0, w, a, n, &resid, &orth) == 0;
		resid /= n * eps, orth = after.value / (n * eps);
		ok = ok && resid <= 30 && orth <= 30;
	}
	char name[40];
	snprintf(name, sizeof name, "syevd async %c %c", jobz, uplo);
	ok = report(name, ok, "values/tol=%.2g resid=%.1f", err, resid);
	hyla_sequence_destroy(call.seq);
	free(a0), free(a), free(w);
	return ok;
}

struct gesdd_call {
	hyla_matrix *a, *u, *vt;
	char jobz;
	double *s;
	struct reader *after;
	hyla_sequence *seq;
};

/* hyla_dgesdd_async, then the caller's reader of U. */
static int gesdd_call(void *ctx)
{
	struct gesdd_call *c = ctx;
	int ret = hyla_dgesdd_async(c->jobz, c->a, c->s, c->u, c->vt, NULL, c->seq);
	return ret || c->jobz != 'S' ? ret : insert_on_all(&reader_cl, c->u, STARPU_R, c->after);
}

/* The singular values against LAPACK's (30 max(m, n) eps ||A||_2); with
 * 'S', the residual, U's orthogonality as the caller's task saw it and V's,
 * at most 30 max(m, n) eps. */
static int test_gesdd(int64_t m, int64_t n, char jobz)
{
	const int64_t nb = 32, k = m < n ? m : n, big = m < n ? n : m;
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *s = malloc(sizeof *s * 2 * k), *ref = s + k, resid = 0, orth_u = 0, orth_v = 0;
	double *u = malloc(sizeof *u * m * k), *vt = malloc(sizeof *vt * k * n);
	general_matrix("geometric", m, n, a0, 17, NULL);
	memcpy(a, a0, sizeof *a * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	hyla_matrix *U = hyla_matrix_create(u, sizeof(double), m, k, m, nb);
	hyla_matrix *VT = hyla_matrix_create(vt, sizeof(double), k, n, k, nb);
	struct reader after = {.m = m, .n = k, .orth = 1};
	struct gesdd_call call = {A, U, VT, jobz, s, &after, hyla_sequence_create()};
	int ret = behind_gate(gesdd_call, &call, A);
	int info = hyla_sequence_wait(call.seq);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(A), hyla_matrix_destroy(U), hyla_matrix_destroy(VT);
	double eps = 0x1p-53, err = 0;
	int ok = ret == 0 && info == 0 && lapack_singular_values(m, n, a0, ref) == 0;
	if (ok)
		err = eigenvalue_error(k, s, ref) / (30 * big * eps * ref[0]);
	ok = ok && err <= 1; /* false for NaN */
	if (jobz == 'S') {
		ok = ok && svd_residuals(m, n, a0, s, u, m, vt, k, &resid, &orth_u, &orth_v) == 0;
		resid /= big * eps, orth_u = after.value / (big * eps), orth_v /= big * eps;
		ok = ok && resid <= 30 && orth_u <= 30 && orth_v <= 30;
	}
	char name[48];
	snprintf(name, sizeof name, "gesdd async %c %lldx%lld", jobz, (long long)m, (long long)n);
	ok = report(name, ok, "values/tol=%.2g resid=%.1f", err, resid);
	if (jobz == 'S')
		printf("%34s orth_u=%.1f orth_v=%.1f (max(m,n) eps)\n", "", orth_u, orth_v);
	hyla_sequence_destroy(call.seq);
	free(a0), free(a), free(s), free(u), free(vt);
	return ok;
}

static int gebrd_call(void *ctx)
{
	struct reduction *c = ctx;
	return hyla_dgebrd_async(c->a, c->d, c->e, c->tau, c->taup, NULL, c->seq);
}

/* Tall, or wide (m < n: reduced as A^T, a copy the sequence owns). */
static int test_gebrd(int64_t m, int64_t n)
{
	const int64_t nb = 40, k = m < n ? m : n;
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *d = malloc(sizeof *d * 4 * k), resid = NAN, orth = NAN;
	random_matrix(m, n, a0, m, 16);
	memcpy(a, a0, sizeof *a * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	struct reduction call = {.a = A, .d = d, .e = d + k, .tau = d + 2 * k, .taup = d + 3 * k,
	                         .seq = hyla_sequence_create()};
	int ret = behind_gate(gebrd_call, &call, A);
	int info = hyla_sequence_wait(call.seq);
	hyla_matrix_destroy(A);
	int checked = bidiagonal_residuals(m, n, a0, m, a, d, d + k, d + 2 * k, d + 3 * k, &resid,
	                                   &orth);
	double eps = 0x1p-53;
	int ok = ret == 0 && info == 0 && checked == 0 && resid < 30 * eps && orth < 30 * eps;
	char name[40];
	snprintf(name, sizeof name, "gebrd async %lldx%lld", (long long)m, (long long)n);
	ok = report(name, ok, "resid=%.1f eps orth=%.1f eps", resid / eps, orth / eps);
	hyla_sequence_destroy(call.seq);
	free(a0), free(a), free(d);
	return ok;
}

static int geqrf_call(void *ctx)
{
	struct qr_call *c = ctx;
	return hyla_dgeqrf_async(c->a, c->tau, NULL, c->factor);
}

/* A wide QR on the caller's panels: those left of column m, then the
 * others (m not a multiple of nb: LAPACK on their rows below). Checked
 * with LAPACK's m-by-m Q of hyla's reflectors and tau, and R. */
static int test_geqrf_wide(int64_t m, int64_t n, int64_t nb)
{
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *q = malloc(sizeof *q * m * m), *r = calloc((size_t)(m * n), sizeof *r);
	double *tau = malloc(sizeof *tau * m);
	random_matrix(m, n, a0, m, 17);
	memcpy(a, a0, sizeof *a * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	struct qr_call call = {.a = A, .tau = tau, .factor = hyla_sequence_create()};
	int ret = behind_gate(geqrf_call, &call, A);
	int info = hyla_sequence_wait(call.factor);
	hyla_matrix_destroy(A);
	memcpy(q, a, sizeof *q * m * m);
	int formed = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)m, (int)m, (int)m, q, (int)m, tau);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j && i < m; i++)
			r[i + j * m] = a[i + j * m];
	memcpy(a, a0, sizeof *a * m * n); /* a becomes A - Q R */
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)m, -1, q, (int)m, r,
	            (int)m, 1, a, (int)m);
	double resid = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, a, (int)m) /
	               LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, a0, (int)m);
	double orth = orthogonality(m, m, q, m);
	char name[40];
	snprintf(name, sizeof name, "geqrf async %lldx%lld nb=%lld", (long long)m, (long long)n,
	         (long long)nb);
	int ok = report(name, ret == 0 && info == 0 && formed == 0 && resid < 1e-14 && orth < 1e-13,
	                "resid=%.2e orth=%.2e", resid, orth);
	hyla_sequence_destroy(call.factor);
	free(a0), free(a), free(q), free(r), free(tau);
	return ok;
}

/* One sequence across calls on two matrices: geqrf and orgqr on A, MGS on
 * B, one wait; then a sequence that fails (MGS on a matrix whose column
 * 31 is zero) refuses the calls after it, which leave their matrix as it
 * was. */
static int test_sequence(void)
{
	const int64_t m = 300, n = 180, nb = 40;
	double *a0 = malloc(sizeof *a0 * m * n), *a = malloc(sizeof *a * m * n);
	double *b = malloc(sizeof *b * m * n), *r = calloc((size_t)(n * n), sizeof *r);
	double *rb = calloc((size_t)(n * n), sizeof *rb), *tau = malloc(sizeof *tau * n);
	random_matrix(m, n, a0, m, 17);
	memcpy(a, a0, sizeof *a * m * n);
	memcpy(b, a0, sizeof *b * m * n);
	hyla_matrix *A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	hyla_matrix *B = hyla_matrix_create(b, sizeof(double), m, n, m, nb);
	hyla_sequence *seq = hyla_sequence_create();
	int info = hyla_dgeqrf_async(A, tau, NULL, seq);
	info |= hyla_dmgs_async(B, rb, n, NULL, seq);
	info |= hyla_dorgqr_async(A, tau, NULL, seq);
	info |= hyla_sequence_wait(seq);
	hyla_matrix_destroy(A);
	hyla_matrix_destroy(B);
	double resid = qr_residual(m, n, a0, m, b, m, rb, n), orth = orthogonality(m, n, a, m);
	int ok = info == 0 && resid < 1e-14 && orth < 1e-13 && orthogonality(m, n, b, m) < 1e-13;
	printf("%-34s resid=%.2e orth=%.2e %s\n", "geqrf, mgs, orgqr in one sequence", resid, orth,
	       ok ? "pass" : "FAILED");

	for (int64_t i = 0; i < m; i++)
		b[i + 30 * m] = 0;
	memcpy(a, a0, sizeof *a * m * n);
	A = hyla_matrix_create(a, sizeof(double), m, n, m, nb);
	B = hyla_matrix_create(b, sizeof(double), m, n, m, nb);
	int first = hyla_dmgs_async(B, rb, n, NULL, seq);
	int found = hyla_sequence_wait(seq);
	int later = hyla_dgeqrf_async(A, tau, NULL, seq);
	int kept = hyla_sequence_wait(seq);
	hyla_matrix_destroy(A);
	hyla_matrix_destroy(B);
	hyla_sequence_destroy(seq);
	int untouched = memcmp(a, a0, sizeof *a * m * n) == 0;
	int ok2 = first == 0 && found == 31 && later == HYLA_ERR_SEQUENCE && kept == 31 && untouched;
	printf("%-34s info=%d later=%d (%s) %s\n", "a failed sequence refuses more", found, later,
	       untouched ? "matrix untouched" : "matrix changed", ok2 ? "pass" : "FAILED");
	free(a0), free(a), free(b), free(r), free(rb), free(tau);
	return ok && ok2;
}

int main(void)
{
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	if (hyla_init() != 0)
		return 1;
	int ok = test_gs("cgs2 async, caller's reader after", 0, HYLA_CGS2, 0) &
	         test_gs("cgs_vector async", 0, HYLA_CGS_VECTOR, 0) &
	         test_gs("mgs async", 1, HYLA_CGS2, 0) &
	         test_gs("cgs2 async, zero column 101", 0, HYLA_CGS2, 1) &
	         test_gs("cgs async, zero column 101", 0, HYLA_CGS, 1) &
	         test_gs("mgs async, zero column 101", 1, HYLA_CGS2, 1) & test_gehrd() &
	         test_householder() & test_orghr() & test_sytrd('L') & test_sytrd('U') &
	         test_syevd('V', 'L') & test_syevd('V', 'U') & test_syevd('N', 'U') &
	         test_gesdd(260, 170, 'S') & test_gesdd(150, 230, 'S') & test_gesdd(200, 200, 'N') &
	         test_gesdd(7, 3, 'S') & test_gesdd(3, 7, 'S') &
	         test_gebrd(300, 170) & test_gebrd(170, 300) & test_geqrf_wide(150, 400, 48) &
	         test_geqrf_wide(160, 400, 40) & test_geqrf_wide(30, 100, 40) & test_sequence();
	hyla_finalize();
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
