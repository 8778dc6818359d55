/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Householder QR panel's CUDA paths alone, against LAPACK's dgeqrf and
 * dlarft on the host: the column loop (hyla__cuda_geqr2, then
 * hyla__cuda_larft) and the panel as the geqrf codelets call it
 * (hyla__cuda_geqrf_panel: CholeskyQR2 and Householder reconstruction where
 * that is accurate, else the column loop). Judged: the identities
 * (||A - QR|| / ||A|| and ||I - Q^T Q|| within 10 m eps) and R, tau, the
 * reflectors and T, relative differences within 1e3 sqrt(m) eps, for panels
 * that the cooperative kernel takes (several widths, one block's rows to all
 * multiprocessors, single precision; pairs of nearly equal columns, entries
 * near 1e155 and 1e-200, whose norms the kernel takes at a second barrier),
 * one too tall for it (cuBLAS per column), columns graded over six orders
 * of magnitude, a zero column, a subnormal block (in the kernel and too
 * tall for it); and which path the panel took where it is certain (random
 * panels of both precisions and graded double ones, up to 128 wide and
 * taller than wide: CholeskyQR2; huge, tiny, rank-deficient and subnormal
 * ones: the column loop). Also prints the GPU
 * times. Exit 0 pass, 1 fail, 77 no GPU (skipped). */
#include <cblas.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "kernels.h"

/* ||x - y||_F / ||y||_F over n entries (scaled by the largest entry, for
 * huge and tiny panels). */
static double rel_diff(size_t n, const double *x, const double *y)
{
	double big = 0, d = 0, s = 0;
	for (size_t i = 0; i < n; i++)
		big = fmax(big, fmax(fabs(x[i]), fabs(y[i])));
	if (big == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		double dx = (x[i] - y[i]) / big, yy = y[i] / big;
		d += dx * dx;
		s += yy * yy;
	}
	return s > 0 ? sqrt(d / s) : sqrt(d);
}

static void device_check(cudaError_t err, const char *what)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "test_geqr2_gpu: %s: %s\n", what, cudaGetErrorString(err));
		exit(1);
	}
}

/* The panel on the GPU in prec; a (m-by-w) becomes the factor, tau and t
 * (w-by-w) the scalars and T, all in double. whole: by
 * hyla__cuda_geqrf_panel (*reconstructed: whether by CholeskyQR2), secs[0]
 * its GPU time; else the column loop and T, secs[0] and secs[1]. */
static void gpu_panel(char prec, int m, int w, double *a, double *tau, double *t,
                      cublasHandle_t h, cudaStream_t s, int whole, int *reconstructed,
                      double secs[2])
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double), n = (size_t)m * w;
	void *host = malloc(el * n), *da, *dtau, *dt, *dw;
	float *f = host;
	if (prec == 's')
		to_float(m, w, a, m, f);
	else
		memcpy(host, a, el * n);
	device_check(cudaMalloc(&da, el * n), "cudaMalloc");
	device_check(cudaMalloc(&dtau, el * (size_t)w), "cudaMalloc");
	device_check(cudaMalloc(&dt, el * (size_t)w * w), "cudaMalloc");
	device_check(cudaMalloc(&dw, el * HYLA_GEQR2_SCRATCH_ELEMS), "cudaMalloc");
	device_check(cudaMemcpy(da, host, el * n, cudaMemcpyHostToDevice), "upload");
	cudaEvent_t e[3];
	for (int i = 0; i < 3; i++)
		cudaEventCreate(&e[i]);
	cudaEventRecord(e[0], s);
	if (whole)
		*reconstructed = prec == 's'
		                     ? hyla__cuda_geqrf_panel_s(m, w, da, m, dtau, dt, w, dw, h, s)
		                     : hyla__cuda_geqrf_panel_d(m, w, da, m, dtau, dt, w, dw, h, s);
	else if (prec == 's')
		hyla__cuda_geqr2_s(m, w, da, m, dtau, dw, h, s);
	else
		hyla__cuda_geqr2_d(m, w, da, m, dtau, dw, h, s);
	cudaEventRecord(e[1], s);
	if (!whole && prec == 's')
		hyla__cuda_larft_s(m, w, da, m, dtau, dt, w, h, s);
	else if (!whole)
		hyla__cuda_larft_d(m, w, da, m, dtau, dt, w, h, s);
	cudaEventRecord(e[2], s);
	device_check(cudaStreamSynchronize(s), "the panel");
	for (int i = 0; i < 2; i++) {
		float ms;
		cudaEventElapsedTime(&ms, e[i], e[i + 1]);
		secs[i] = ms / 1e3;
	}
	for (int i = 0; i < 3; i++)
		cudaEventDestroy(e[i]);
	float *ftau = malloc(el * (size_t)w), *ft = malloc(el * (size_t)w * w);
	device_check(cudaMemcpy(host, da, el * n, cudaMemcpyDeviceToHost), "download");
	device_check(cudaMemcpy(ftau, dtau, el * (size_t)w, cudaMemcpyDeviceToHost), "download");
	device_check(cudaMemcpy(ft, dt, el * (size_t)w * w, cudaMemcpyDeviceToHost), "download");
	if (prec == 's') {
		to_double(m, w, f, a, m);
		to_double(w, 1, ftau, tau, w);
		to_double(w, w, ft, t, w);
	} else {
		memcpy(a, host, el * n);
		memcpy(tau, ftau, el * (size_t)w);
		memcpy(t, ft, el * (size_t)w * w);
	}
	cudaFree(da), cudaFree(dtau), cudaFree(dt), cudaFree(dw);
	free(host), free(ftau), free(ft);
}

/* The identities of the panel's QR from its factor a (m-by-w) and tau:
 * ||A0 - Q R||_F / ||A0||_F and ||I - Q^T Q||_F, Q from LAPACK's dorgqr. */
static void identities(int m, int w, const double *a0, const double *a, const double *tau,
                       double *resid, double *orth)
{
	size_t n = (size_t)m * w;
	double *q = malloc(sizeof *q * n), *r = calloc((size_t)w * w, sizeof *r);
	double *qr = malloc(sizeof *qr * n), *g = malloc(sizeof *g * (size_t)w * w);
	memcpy(q, a, sizeof *q * n);
	LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, w, w, q, m, tau);
	for (int j = 0; j < w; j++)
		for (int i = 0; i <= j; i++)
			r[i + (size_t)j * w] = a[i + (size_t)j * m];
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, w, w, 1, q, m, r, w, 0, qr, m);
	*resid = rel_diff(n, qr, a0);
	cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, w, w, m, 1, q, m, q, m, 0, g, w);
	double d = 0;
	for (int j = 0; j < w; j++)
		for (int i = 0; i < w; i++)
			d += (g[i + (size_t)j * w] - (i == j)) * (g[i + (size_t)j * w] - (i == j));
	*orth = sqrt(d);
	free(q), free(r), free(qr), free(g);
}

/* kind: 'r' random, 'n' nearly equal pairs of columns (1e-6 apart: the
 * next column's norm cancels, so the kernel must take it at its second
 * barrier; too ill-conditioned to compare with LAPACK's factors, it is
 * judged by the identities alone), 'h' huge, 't' tiny, 'g' column j times
 * 10^(-6 j / w), 'z' a zero column in the middle, 'u' block diagonal with
 * its second block subnormal (the reflectors there rescaled, as xLARFG's).
 * whole: as gpu_panel. */
static int check_panel(char prec, int m, int w, char kind, int whole, cublasHandle_t h,
                       cudaStream_t s)
{
	size_t n = (size_t)m * w;
	double *a0 = malloc(sizeof *a0 * n), *a = malloc(sizeof *a * n), *ref = malloc(sizeof *ref * n);
	double *tau = malloc(sizeof *tau * w), *tref = malloc(sizeof *tref * w);
	double *t = malloc(sizeof *t * w * w), *tt = malloc(sizeof *tt * w * w);
	random_matrix(m, w, a0, m, 5);
	for (int j = 1; kind == 'n' && j < w; j += 2) /* column j: column j - 1 plus 1e-6 of it */
		for (int i = 0; i < m; i++)
			a0[i + (size_t)j * m] = a0[i + (size_t)(j - 1) * m] + 1e-6 * a0[i + (size_t)j * m];
	for (size_t i = 0; (kind == 'h' || kind == 't') && i < n; i++)
		a0[i] *= kind == 'h' ? 1e155 : 1e-200;
	for (int j = 0; kind == 'u' && j < w; j++) /* block diagonal, the second block subnormal */
		for (int i = 0; i < m; i++) {
			double *x = &a0[i + (size_t)j * m];
			if (i >= m / 2 || j >= w / 2)
				*x = i >= m / 2 && j >= w / 2 ? ldexp(*x, prec == 's' ? -135 : -1035) : 0;
		}
	for (int j = 0; kind == 'g' && j < w; j++)
		cblas_dscal(m, pow(10, -6.0 * j / w), a0 + (size_t)j * m, 1);
	if (kind == 'z')
		memset(a0 + (size_t)(w / 2) * m, 0, sizeof *a0 * (size_t)m);
	if (prec == 's') /* the reference from the same single-precision input */
		round_to_float(m, w, a0, m);
	memcpy(a, a0, sizeof *a * n);
	memcpy(ref, a0, sizeof *ref * n);
	double secs[2] = {0, 0};
	int rec = -1;
	gpu_panel(prec, m, w, a, tau, t, h, s, whole, &rec, secs); /* a warm-up: the timing is the second */
	memcpy(a, a0, sizeof *a * n);
	gpu_panel(prec, m, w, a, tau, t, h, s, whole, &rec, secs);
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, w, ref, m, tref);
	/* T of hyla's own reflectors by LAPACK. */
	LAPACKE_dlarft(LAPACK_COL_MAJOR, 'F', 'C', m, w, a, m, tau, tt, w);
	for (int j = 0; j < w; j++)
		for (int i = j + 1; i < w; i++)
			tt[i + (size_t)j * w] = 0;
	double *r = calloc(n, sizeof *r), *rr = calloc(n, sizeof *rr), *v = calloc(n, sizeof *v),
	       *vr = calloc(n, sizeof *vr);
	for (int j = 0; j < w; j++)
		for (int i = 0; i < m; i++) {
			double *to = i <= j ? r : v, *to_ref = i <= j ? rr : vr;
			to[i + (size_t)j * m] = a[i + (size_t)j * m];
			to_ref[i + (size_t)j * m] = ref[i + (size_t)j * m];
		}
	double eps = prec == 's' ? 0x1p-24 : 0x1p-53, tol = 1e3 * sqrt((double)m) * eps;
	double dr = rel_diff(n, r, rr), dv = rel_diff(n, v, vr), dtau = rel_diff((size_t)w, tau, tref);
	double dt = rel_diff((size_t)w * w, t, tt);
	double resid, orth;
	identities(m, w, a0, a, tau, &resid, &orth);
	/* Kerr, Campbell and Richards's bounds, ||A - QR|| <= m eps ||A|| and ||I - Q^T Q|| <= m eps,
	 * with a margin of 10 (a 128 x 128 panel's Q is 1e-14 from orthogonal:
	 * 0.7 m eps); a reflector from a cancelled norm is 1e-4 off. */
	const double bound = 10 * m * eps;
	int ok = resid <= bound && orth <= bound &&
	         (kind == 'n' || (dr <= tol && dv <= tol && dtau <= tol && dt <= tol));
	/* The path where it is certain. */
	const char *path = !whole ? "column loop" : rec ? "CholeskyQR2" : "fallback";
	if (whole && w <= HYLA_CHOLQR_MAX_W && m > w && (kind == 'r' || (kind == 'g' && prec == 'd')))
		ok &= rec == 1;
	if (whole && (kind == 'h' || kind == 't' || kind == 'z' || kind == 'u'))
		ok &= rec == 0;
	char times[64];
	if (whole)
		snprintf(times, sizeof times, "panel with T %.2f us/column", secs[0] * 1e6 / w);
	else
		snprintf(times, sizeof times, "column loop %.2f us/column, T %.3f ms", secs[0] * 1e6 / w,
		         secs[1] * 1e3);
	printf("geqr2 GPU %c%c %6d x %3d %-11s: resid %.1e, orth %.1e (tol %.1e); against LAPACK R "
	       "%.1e, V %.1e, tau %.1e, T %.1e (tol %.1e%s) %s; %s\n", prec, kind, m, w, path, resid,
	       orth, bound, dr, dv, dtau, dt, tol, kind == 'n' ? ", not judged" : "",
	       ok ? "pass" : "FAILED", times);
	free(a0), free(a), free(ref), free(tau), free(tref), free(t), free(tt);
	free(r), free(rr), free(v), free(vr);
	return ok;
}

int main(int argc, char **argv)
{
	(void)argv;
	int count = 0;
	if (argc > 1 || cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
		printf("test_geqr2_gpu: no GPU (skipped)\n");
		return 77;
	}
	cublasHandle_t h;
	cudaStream_t s;
	cudaStreamCreate(&s);
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		return 1;
	cublasSetStream(h, s);
	static const struct { char prec; int m, w; char kind; } cases[] = {
		{'d', 8000, 128, 'r'}, {'d', 8000, 64, 'r'}, {'d', 3000, 256, 'r'}, {'d', 130, 128, 'r'},
		{'d', 128, 128, 'r'},  {'d', 1000, 96, 'r'}, {'d', 16384, 128, 'r'}, {'d', 40000, 128, 'r'},
		{'s', 5000, 128, 'r'}, {'s', 300, 33, 'r'},  {'d', 3000, 128, 'n'},  {'s', 2000, 64, 'n'},
		{'d', 2000, 64, 'h'},  {'d', 2000, 64, 't'},  {'d', 8000, 128, 'g'},  {'s', 3000, 128, 'g'},
		{'d', 4000, 128, 'z'}, {'s', 1000, 64, 'z'},  {'d', 2000, 64, 'u'},  {'s', 1000, 64, 'u'},
		{'d', 40000, 128, 'u'},
	};
	int ok = 1;
	for (int whole = 0; whole < 2; whole++)
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
			ok &= check_panel(cases[c].prec, cases[c].m, cases[c].w, cases[c].kind, whole, h, s);
	cublasDestroy(h);
	cudaStreamDestroy(s);
	return !ok;
}
