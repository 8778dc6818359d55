/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// xLARFG's rescaling, as the GPU's reflectors take it: where beta lies below
// larfg_tiny (the smallest normal number over eps), 1 / (alpha - beta) may
// overflow (a column of subnormal entries), so x and alpha are scaled up by
// larfg_up(largest), the power of two that brings the larger of |alpha| and
// max |x| near one, and beta is scaled back.
#ifndef HYLA_CUDA_RESCALE_CUH
#define HYLA_CUDA_RESCALE_CUH

#include <cfloat>

template <typename T>
__device__ __forceinline__ T larfg_tiny()
{
	return sizeof(T) == sizeof(double) ? T(DBL_MIN / DBL_EPSILON) : T(FLT_MIN / FLT_EPSILON);
}

template <typename T>
__device__ __forceinline__ T larfg_up(T largest)
{
	constexpr int most = sizeof(T) == sizeof(double) ? 1021 : 125; // 2^most is normal
	return scalbn(T(1), -max(ilogb(largest), -most));
}

#endif
