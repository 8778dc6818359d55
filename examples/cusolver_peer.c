/* cuSOLVER's QR (dgeqrf + dorgqr) on the GPU as the peer of hyla's QRs,
 * timed on data already on the GPU after one warm-up run. Built with CUDA. */
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define CHECK(call)                                                                                \
	do {                                                                                           \
		if ((call) != 0) {                                                                         \
			fprintf(stderr, "cuSOLVER peer: %s failed\n", #call);                                  \
			goto out;                                                                              \
		}                                                                                          \
	} while (0)

/* geqrf + orgqr of the m-by-n a (in prec) already on the GPU; seconds or -1. */
static double timed_qr(cusolverDnHandle_t h, int m, int n, void *da, void *dtau, void *work,
                       int lwork, int *dinfo, char prec)
{
	double t = -1;
	CHECK(cudaDeviceSynchronize());
	t = now_seconds();
	if (prec == 's') {
		CHECK(cusolverDnSgeqrf(h, m, n, da, m, dtau, work, lwork, dinfo));
		CHECK(cusolverDnSorgqr(h, m, n, n, da, m, dtau, work, lwork, dinfo));
	} else {
		CHECK(cusolverDnDgeqrf(h, m, n, da, m, dtau, work, lwork, dinfo));
		CHECK(cusolverDnDorgqr(h, m, n, n, da, m, dtau, work, lwork, dinfo));
	}
	CHECK(cudaDeviceSynchronize());
	return now_seconds() - t;
out:
	return -1;
}

double cusolver_qr_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec)
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	void *host = working_copy(m, n, a, lda, prec), *da = NULL, *dtau = NULL, *work = NULL;
	int *dinfo = NULL, lq = 0, lo = 0;
	cusolverDnHandle_t h = NULL;
	double best = -1;
	host_blas_begin();
	CHECK(!host);
	CHECK(cusolverDnCreate(&h));
	CHECK(cudaMalloc(&da, el * (size_t)(m * n)));
	CHECK(cudaMalloc(&dtau, el * (size_t)n));
	CHECK(cudaMalloc((void **)&dinfo, sizeof *dinfo));
	if (prec == 's') {
		CHECK(cusolverDnSgeqrf_bufferSize(h, (int)m, (int)n, da, (int)m, &lq));
		CHECK(cusolverDnSorgqr_bufferSize(h, (int)m, (int)n, (int)n, da, (int)m, dtau, &lo));
	} else {
		CHECK(cusolverDnDgeqrf_bufferSize(h, (int)m, (int)n, da, (int)m, &lq));
		CHECK(cusolverDnDorgqr_bufferSize(h, (int)m, (int)n, (int)n, da, (int)m, dtau, &lo));
	}
	int lwork = lq > lo ? lq : lo;
	CHECK(cudaMalloc(&work, el * (size_t)lwork));
	for (int run = 0; run < 2; run++) {
		CHECK(cudaMemcpy(da, host, el * (size_t)(m * n), cudaMemcpyHostToDevice));
		best = timed_qr(h, (int)m, (int)n, da, dtau, work, lwork, dinfo, prec);
		CHECK(best < 0);
	}
out:
	cudaFree(da), cudaFree(dtau), cudaFree(work), cudaFree(dinfo);
	if (h)
		cusolverDnDestroy(h);
	free(host);
	host_blas_end();
	return best;
}
