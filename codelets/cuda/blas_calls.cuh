/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// cuBLAS's GEMV for both precisions, failing loudly (the panels' calls).
#ifndef HYLA_CUDA_BLAS_CALLS_CUH
#define HYLA_CUDA_BLAS_CALLS_CUH

#include <cublas_v2.h>
#include "launch.h"

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx, double beta, double *y,
                 int incy = 1)
{
	if (cublasDgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, incy) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dgemv of a reduction's panel");
}

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, float alpha, const float *a,
                 int lda, const float *x, int incx, float beta, float *y, int incy = 1)
{
	if (cublasSgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, incy) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS sgemv of a reduction's panel");
}

#endif
