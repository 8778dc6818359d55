// CUDA kernel of the Q formation (codelets/orgqr.c).
#include "kernels.h"
#include "launch.h"

template <typename T>
__global__ void identity_minus(int w, const T *x, int ldx, T *top, int lda)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
	if (i < w)
		top[i + (int64_t)j * lda] = T(i == j) - x[i + (int64_t)j * ldx];
}

template <typename T>
static void run(int w, const T *x, int ldx, T *top, int lda, cudaStream_t stream)
{
	identity_minus<T><<<dim3((w + 127) / 128, w), 128, 0, stream>>>(w, x, ldx, top, lda);
	hyla_check_launch("identity_minus");
}

extern "C" void hyla__cuda_identity_minus_d(int w, const double *x, int ldx, double *top, int lda,
                                            cudaStream_t stream)
{
	run(w, x, ldx, top, lda, stream);
}

extern "C" void hyla__cuda_identity_minus_s(int w, const float *x, int ldx, float *top, int lda,
                                            cudaStream_t stream)
{
	run(w, x, ldx, top, lda, stream);
}
