/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* cuSOLVER on the GPU as the peer of hyla's drivers (QR: geqrf + orgqr;
 * sytrd; gebrd; syevd; gesvd, its SVD for m >= n), timed on data already on the GPU after one warm-up run.
 * Built with CUDA. */
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "result.h"

#define CHECK(call)                                                                                \
	do {                                                                                           \
		if ((call) != 0) {                                                                         \
			fprintf(stderr, "cuSOLVER peer: %s failed\n", #call);                                  \
			goto out;                                                                              \
		}                                                                                          \
	} while (0)

/* One factorisation's device operands: the matrix, four vectors (tau or d,
 * e, tau / tauq, taup), the SVD's U (m-by-n) and V^T (n-by-n), the
 * workspace and info. */
struct operands {
	cusolverDnHandle_t h;
	int m, n, lwork;
	char prec, uplo;
	void *a, *v[4], *u, *vt, *work;
	int *info;
};

#define FILL(u) ((u) == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER)
#define JOBZ(peer) ((peer) == CUSOLVER_SYEVD_VECTORS ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR)

/* The workspace the peer needs, in elements, or -1. */
static int workspace(enum cusolver_peer peer, const struct operands *o)
{
	int lq = 0, lo = 0, d = o->prec == 'd';
	cusolverDnHandle_t h = o->h;
	void *a = o->a, **v = (void **)o->v;
	switch (peer) {
	case CUSOLVER_QR:
		CHECK(d ? cusolverDnDgeqrf_bufferSize(h, o->m, o->n, a, o->m, &lq)
		        : cusolverDnSgeqrf_bufferSize(h, o->m, o->n, a, o->m, &lq));
		CHECK(d ? cusolverDnDorgqr_bufferSize(h, o->m, o->n, o->n, a, o->m, v[0], &lo)
		        : cusolverDnSorgqr_bufferSize(h, o->m, o->n, o->n, a, o->m, v[0], &lo));
		break;
	case CUSOLVER_SYTRD:
		CHECK(d ? cusolverDnDsytrd_bufferSize(h, FILL(o->uplo), o->n, a, o->n, v[0], v[1], v[2], &lq)
		        : cusolverDnSsytrd_bufferSize(h, FILL(o->uplo), o->n, a, o->n, v[0], v[1], v[2], &lq));
		break;
	case CUSOLVER_GEBRD:
		CHECK(d ? cusolverDnDgebrd_bufferSize(h, o->m, o->n, &lq)
		        : cusolverDnSgebrd_bufferSize(h, o->m, o->n, &lq));
		break;
	case CUSOLVER_SYEVD:
	case CUSOLVER_SYEVD_VECTORS:
		CHECK(d ? cusolverDnDsyevd_bufferSize(h, JOBZ(peer), FILL(o->uplo), o->n, a, o->n, v[0], &lq)
		        : cusolverDnSsyevd_bufferSize(h, JOBZ(peer), FILL(o->uplo), o->n, a, o->n, v[0], &lq));
		break;
	case CUSOLVER_GESVD:
	case CUSOLVER_GESVD_VECTORS:
		CHECK(d ? cusolverDnDgesvd_bufferSize(h, o->m, o->n, &lq)
		        : cusolverDnSgesvd_bufferSize(h, o->m, o->n, &lq));
		break;
	}
	return lq > lo ? lq : lo;
out:
	return -1;
}

/* The peer's factorisation; seconds or -1. */
static double timed(enum cusolver_peer peer, const struct operands *o)
{
	int d = o->prec == 'd', m = o->m, n = o->n, lw = o->lwork;
	cusolverDnHandle_t h = o->h;
	void *a = o->a, **v = (void **)o->v, *w = o->work;
	CHECK(cudaDeviceSynchronize());
	double t = now_seconds();
	switch (peer) {
	case CUSOLVER_QR:
		CHECK(d ? cusolverDnDgeqrf(h, m, n, a, m, v[0], w, lw, o->info)
		        : cusolverDnSgeqrf(h, m, n, a, m, v[0], w, lw, o->info));
		CHECK(d ? cusolverDnDorgqr(h, m, n, n, a, m, v[0], w, lw, o->info)
		        : cusolverDnSorgqr(h, m, n, n, a, m, v[0], w, lw, o->info));
		break;
	case CUSOLVER_SYTRD:
		CHECK(d ? cusolverDnDsytrd(h, FILL(o->uplo), n, a, n, v[0], v[1], v[2], w, lw, o->info)
		        : cusolverDnSsytrd(h, FILL(o->uplo), n, a, n, v[0], v[1], v[2], w, lw, o->info));
		break;
	case CUSOLVER_GEBRD:
		CHECK(d ? cusolverDnDgebrd(h, m, n, a, m, v[0], v[1], v[2], v[3], w, lw, o->info)
		        : cusolverDnSgebrd(h, m, n, a, m, v[0], v[1], v[2], v[3], w, lw, o->info));
		break;
	case CUSOLVER_SYEVD:
	case CUSOLVER_SYEVD_VECTORS:
		CHECK(d ? cusolverDnDsyevd(h, JOBZ(peer), FILL(o->uplo), n, a, n, v[0], w, lw, o->info)
		        : cusolverDnSsyevd(h, JOBZ(peer), FILL(o->uplo), n, a, n, v[0], w, lw, o->info));
		break;
	case CUSOLVER_GESVD:
	case CUSOLVER_GESVD_VECTORS: {
		signed char job = peer == CUSOLVER_GESVD_VECTORS ? 'S' : 'N';
		CHECK(d ? cusolverDnDgesvd(h, job, job, m, n, a, m, v[0], o->u, m, o->vt, n, w, lw, v[1],
		                           o->info)
		        : cusolverDnSgesvd(h, job, job, m, n, a, m, v[0], o->u, m, o->vt, n, w, lw, v[1],
		                           o->info));
		break;
	}
	}
	CHECK(cudaDeviceSynchronize());
	return now_seconds() - t;
out:
	return -1;
}

double cusolver_seconds(enum cusolver_peer peer, int64_t m, int64_t n, const double *a,
                        int64_t lda, char prec, char uplo)
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	void *host = working_copy(m, n, a, lda, prec);
	struct operands o = {.m = (int)m, .n = (int)n, .prec = prec, .uplo = uplo};
	double best = -1;
	host_blas_begin();
	CHECK(!host);
	CHECK(cusolverDnCreate(&o.h));
	CHECK(cudaMalloc(&o.a, el * (size_t)(m * n)));
	for (int i = 0; i < 4; i++)
		CHECK(cudaMalloc(&o.v[i], el * (size_t)n));
	if (peer == CUSOLVER_GESVD_VECTORS) {
		CHECK(cudaMalloc(&o.u, el * (size_t)(m * n)));
		CHECK(cudaMalloc(&o.vt, el * (size_t)(n * n)));
	}
	CHECK(cudaMalloc((void **)&o.info, sizeof *o.info));
	CHECK((o.lwork = workspace(peer, &o)) < 0);
	CHECK(cudaMalloc(&o.work, el * (size_t)(o.lwork > 0 ? o.lwork : 1)));
	for (int run = 0; run < 2; run++) {
		CHECK(cudaMemcpy(o.a, host, el * (size_t)(m * n), cudaMemcpyHostToDevice));
		best = timed(peer, &o);
		CHECK(best < 0);
	}
out:
	cudaFree(o.a), cudaFree(o.work), cudaFree(o.info), cudaFree(o.u), cudaFree(o.vt);
	for (int i = 0; i < 4; i++)
		cudaFree(o.v[i]);
	if (o.h)
		cusolverDnDestroy(o.h);
	free(host);
	host_blas_end();
	return best;
}

int report_cusolver(const char *prog, enum cusolver_peer peer, int64_t m, int64_t n,
                    const double *a, int64_t lda, char prec, char uplo, double best)
{
	static const char *names[] = {"cusolver_geqrf_orgqr", "cusolver_sytrd", "cusolver_gebrd",
	                              "cusolver_syevd", "cusolver_syevd", "cusolver_gesvd",
	                              "cusolver_gesvd"};
	double t = cusolver_seconds(peer, m, n, a, lda, prec, uplo);
	if (t < 0) {
		fprintf(stderr, "%s: error: %s failed\n", prog, names[peer]);
		return 1;
	}
	result_num(names[peer], "%.4f", t, " s");
	result_num("vs_cusolver", "%.2f", t / best, "x");
	return 0;
}
