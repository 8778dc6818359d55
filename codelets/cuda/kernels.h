/* hyla's own CUDA kernels, callable from C; all run on the given stream. */
#ifndef HYLA_CUDA_KERNELS_H
#define HYLA_CUDA_KERNELS_H

#include <cuda_runtime.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MGS column step: with dots = (v^T v, v^T a_1, ..., v^T a_{nr-1}) for the
 * column v and the nr-1 columns after it, sets r = sqrt(dots[0]),
 * v /= r (m elements), rrow[0] = r and rrow[k*ldr] = dots[k] / r. */
void hyla__cuda_mgs_normalise_d(int64_t m, int64_t nr, double *v, double *rrow, int64_t ldr,
                                const double *dots, cudaStream_t stream);
void hyla__cuda_mgs_normalise_s(int64_t m, int64_t nr, float *v, float *rrow, int64_t ldr,
                                const float *dots, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
