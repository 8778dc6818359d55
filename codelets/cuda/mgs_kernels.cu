// CUDA kernels of the MGS panel.
#include "kernels.h"

template <typename T>
__global__ void mgs_normalise(int64_t m, int64_t nr, T *v, T *rrow, int64_t ldr, const T *dots)
{
	const T r = sqrt(dots[0]);
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m || i < nr; i += stride) {
		if (i < m)
			v[i] /= r;
		if (i < nr)
			rrow[i * ldr] = i == 0 ? r : dots[i] / r;
	}
}

template <typename T>
static void launch_normalise(int64_t m, int64_t nr, T *v, T *rrow, int64_t ldr, const T *dots,
                             cudaStream_t stream)
{
	const int threads = 256;
	int64_t work = m > nr ? m : nr;
	int blocks = (int)((work + threads - 1) / threads);
	if (blocks > 1024)
		blocks = 1024;
	mgs_normalise<T><<<blocks, threads, 0, stream>>>(m, nr, v, rrow, ldr, dots);
}

extern "C" void hyla__cuda_mgs_normalise_d(int64_t m, int64_t nr, double *v, double *rrow,
                                           int64_t ldr, const double *dots, cudaStream_t stream)
{
	launch_normalise(m, nr, v, rrow, ldr, dots, stream);
}

extern "C" void hyla__cuda_mgs_normalise_s(int64_t m, int64_t nr, float *v, float *rrow,
                                           int64_t ldr, const float *dots, cudaStream_t stream)
{
	launch_normalise(m, nr, v, rrow, ldr, dots, stream);
}
