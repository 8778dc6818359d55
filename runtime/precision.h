/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Maps the element type of a typed source (compiled once with HYLA_PREC_D,
 * once with HYLA_PREC_S) to its names: real_t, TYPED(x) -> x_d / x_s,
 * PUBLIC(x) -> hyla_dx / hyla_sx, TASK(x) -> hyla_task_dx / hyla_task_sx
 * and WORKSPACE(x) -> hyla_workspace_dx (in calls: public functions are
 * defined under their own names for each precision), BLAS(x) -> cblas_dx, CUBLAS(x) -> cublasDx,
 * LAPACK(x) -> dx_ (Fortran LAPACK). */
#ifndef HYLA_PRECISION_H
#define HYLA_PRECISION_H

#if defined(HYLA_PREC_D)
typedef double real_t;
#define TYPED(x) x##_d
#define PUBLIC(x) hyla_d##x
#define TASK(x) hyla_task_d##x
#define WORKSPACE(x) hyla_workspace_d##x
#define BLAS(x) cblas_d##x
#define CUBLAS(x) cublasD##x
#define LAPACK(x) d##x##_
#define LAPACKE(x) LAPACKE_d##x
#define PREC_CHAR 'd'
#define PREC_NAME "d"
#elif defined(HYLA_PREC_S)
typedef float real_t;
#define TYPED(x) x##_s
#define PUBLIC(x) hyla_s##x
#define TASK(x) hyla_task_s##x
#define WORKSPACE(x) hyla_workspace_s##x
#define BLAS(x) cblas_s##x
#define CUBLAS(x) cublasS##x
#define LAPACK(x) s##x##_
#define LAPACKE(x) LAPACKE_s##x
#define PREC_CHAR 's'
#define PREC_NAME "s"
#else
#error "compile typed sources with HYLA_PREC_D or HYLA_PREC_S"
#endif

#endif
