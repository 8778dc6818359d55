/* hyla's own CUDA kernels, callable from C; all run on the given stream. */
#ifndef HYLA_CUDA_KERNELS_H
#define HYLA_CUDA_KERNELS_H

#include <cuda_runtime.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Widest sub-panel hyla__cuda_mgs_columns handles, and its scratch size. */
#define HYLA_MGS_IB 32
#define HYLA_MGS_MAX_BLOCKS 128
#define HYLA_MGS_SCRATCH_ELEMS (HYLA_MGS_MAX_BLOCKS * HYLA_MGS_IB + 2)

/* Modified Gram-Schmidt on columns [j0, j1) of the m-row a (j1 - j0 <=
 * HYLA_MGS_IB), each projected out of the later ones up to j1; writes
 * R(j, j:j1) into r. One kernel launch per column; the column sums are
 * reduced in a fixed order, so results do not vary from run to run.
 * scratch: HYLA_MGS_SCRATCH_ELEMS elements of device memory. */
void hyla__cuda_mgs_columns_d(int m, int j0, int j1, double *a, int64_t lda, double *r,
                              int64_t ldr, double *scratch, cudaStream_t stream);
void hyla__cuda_mgs_columns_s(int m, int j0, int j1, float *a, int64_t lda, float *r,
                              int64_t ldr, float *scratch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
