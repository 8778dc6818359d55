/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed QRs' Level-3 codelets on a GPU (mpi/mpi_internal.h): cuBLAS
 * on the worker's stream, double or float by the buffers' element size, so
 * that a rank's updates run on its GPUs and ranks may share one. */
#include "mpi_internal.h" /* starpu.h first: starpu_cublas_v2.h needs its configuration */
#include <cuda_runtime.h>
#include <starpu_cublas_v2.h>

#define PTR(buf) ((void *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))
#define DOUBLE(buf) (STARPU_MATRIX_GET_ELEMSIZE(buf) == sizeof(double))

static void check(cublasStatus_t status)
{
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}

/* C (m-by-n) = alpha op(A) op(B) + beta C, op by ta and tb, k the inner size. */
static void gemm(int dbl, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                 double alpha, const void *a, int lda, const void *b, int ldb, double beta, void *c,
                 int ldc)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	if (dbl) {
		check(cublasDgemm(h, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc));
	} else {
		float fa = (float)alpha, fb = (float)beta;
		check(cublasSgemm(h, ta, tb, m, n, k, &fa, a, lda, b, ldb, &fb, c, ldc));
	}
}

/* qr_update: W = V^T C, W2 = T W (T^T W transposed), C -= V W2, on the
 * panel's rows from c0; V is explicit (qr_copy_v), T zero below. */
void hyla__mpi_qr_update_cuda(void *buffers[], void *arg)
{
	int c0, trans;
	starpu_codelet_unpack_args(arg, &c0, &trans);
	void *v = buffers[1], *t = buffers[2];
	int rows = ROWS(v), w = COLS(v), cols = COLS(buffers[0]), ldc = LD(buffers[0]);
	int dbl = DOUBLE(v);
	size_t es = dbl ? sizeof(double) : sizeof(float);
	char *c = (char *)PTR(buffers[0]) + (size_t)c0 * es, *work;
	cudaStream_t stream = starpu_cuda_get_local_stream();
	if (cudaMallocAsync((void **)&work, 2 * es * (size_t)w * (size_t)cols, stream) != cudaSuccess)
		STARPU_ABORT_MSG("hyla mpi_qr_update: no GPU memory for its workspace");
	char *work2 = work + es * (size_t)w * (size_t)cols;
	gemm(dbl, CUBLAS_OP_T, CUBLAS_OP_N, w, cols, rows, 1, PTR(v), LD(v), c, ldc, 0, work, w);
	gemm(dbl, trans ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, w, cols, w, 1, PTR(t), LD(t), work, w,
	     0, work2, w);
	gemm(dbl, CUBLAS_OP_N, CUBLAS_OP_N, rows, cols, w, -1, PTR(v), LD(v), work2, w, 1, c, ldc);
	cudaFreeAsync(work, stream);
}

/* gram: G = A^T A (upper triangle). */
void hyla__mpi_gram_cuda(void *buffers[], void *arg)
{
	(void)arg;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	int m = ROWS(buffers[0]), n = COLS(buffers[0]);
	if (DOUBLE(buffers[0])) {
		double one = 1, zero = 0;
		check(cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, m, &one, PTR(buffers[0]),
		                  LD(buffers[0]), &zero, PTR(buffers[1]), LD(buffers[1])));
	} else {
		float one = 1, zero = 0;
		check(cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, m, &one, PTR(buffers[0]),
		                  LD(buffers[0]), &zero, PTR(buffers[1]), LD(buffers[1])));
	}
}

/* solve: A = A R^-1 unless the status (read back from the GPU) says the
 * factorisation failed. */
void hyla__mpi_solve_cuda(void *buffers[], void *arg)
{
	(void)arg;
	cudaStream_t stream = starpu_cuda_get_local_stream();
	int status = 0;
	cudaMemcpyAsync(&status, (void *)STARPU_VARIABLE_GET_PTR(buffers[2]), sizeof status,
	                cudaMemcpyDeviceToHost, stream);
	cudaStreamSynchronize(stream);
	if (status)
		return;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	int m = ROWS(buffers[0]), n = COLS(buffers[0]);
	if (DOUBLE(buffers[0])) {
		double one = 1;
		check(cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
		                  CUBLAS_DIAG_NON_UNIT, m, n, &one, PTR(buffers[1]), LD(buffers[1]),
		                  PTR(buffers[0]), LD(buffers[0])));
	} else {
		float one = 1;
		check(cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
		                  CUBLAS_DIAG_NON_UNIT, m, n, &one, PTR(buffers[1]), LD(buffers[1]),
		                  PTR(buffers[0]), LD(buffers[0])));
	}
}
