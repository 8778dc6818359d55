/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The bulge chases' task and small kernels (codelets/bulge.c,
 * codelets/gb2bd.c): their submission, Householder reflectors and their application to blocks at most 2b by 2b,
 * as plain loops the compiler vectorises (OpenBLAS's calls of this size
 * cost more than their work and take a lock each, which serialised the
 * cores: 4000 at b 32 0.70 s on 2 cores against 0.23 s with loops). The
 * callers build them with -fopenmp-simd and inline them into their sweeps.
 * Typed: include after runtime/precision.h. */
#ifndef HYLA_CHASE_H
#define HYLA_CHASE_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "spmd_team.h"

struct chase_args {
	struct hyla_team_arg team; /* first: zeroed at submission */
	int n, b, nb, dtiles;      /* d's tiles (of nb) follow the band, then e's */
};

/* A chase: cl on the band (RW), writing d's and e's tiles (W), as a
 * parallel task on all the cores, beside a GPU too. */
static inline int submit_chase(struct starpu_codelet *cl, starpu_data_handle_t band,
                               const hyla_desc *d, const hyla_desc *e, int64_t b)
{
	int nd = (int)(d->mt * d->nt), ne = (int)(e->mt * e->nt), count = 1 + nd + ne;
	struct starpu_data_descr *data = malloc(sizeof *data * (size_t)count);
	if (!data)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a band chase task");
	data[0] = (struct starpu_data_descr){band, STARPU_RW};
	for (int i = 0; i < nd; i++)
		data[1 + i] = (struct starpu_data_descr){d->tiles[i], STARPU_W};
	for (int i = 0; i < ne; i++)
		data[1 + nd + i] = (struct starpu_data_descr){e->tiles[i], STARPU_W};
	struct chase_args arg = {.n = (int)d->m, .b = (int)b, .nb = (int)d->mb, .dtiles = nd};
	int ret = hyla__submit(&(struct hyla_task){.cl = cl, .data = data, .ndata = count,
	                                           .arg = &arg, .arg_size = sizeof arg,
	                                           .priority = hyla__parallel_prio(STARPU_MAX_PRIO),
	                                           .all_cores = HYLA_CORES_BESIDE_GPU});
	free(data);
	return ret;
}

/* The 2-norm of x[0:len], scaled: no overflow or underflow in the squares. */
static inline real_t norm2(int len, const real_t *x)
{
	real_t scale = 0, sq = 0;
	for (int i = 0; i < len; i++)
		scale = fmax(scale, fabs(x[i]));
	if (scale == 0)
		return 0;
#pragma omp simd reduction(+ : sq)
	for (int i = 0; i < len; i++)
		sq += (x[i] / scale) * (x[i] / scale);
	return scale * sqrt(sq);
}

/* LAPACK's xLARFG on (alpha, x[0:m-1]): x becomes v's tail, alpha beta;
 * returns tau (0: nothing to annihilate). A beta below the safe minimum
 * over epsilon is computed on x and alpha scaled up (at most 20 times), as
 * xLARFG does: 1 / (alpha - beta) would overflow. */
static inline real_t reflector(int m, real_t *alpha, real_t *x)
{
	real_t norm = norm2(m - 1, x);
	if (norm == 0)
		return 0;
	const real_t safmin = sizeof(real_t) == sizeof(double) ? DBL_MIN / DBL_EPSILON
	                                                       : FLT_MIN / FLT_EPSILON;
	real_t a = *alpha, beta = -copysign(hypot(a, norm), a);
	int scaled = 0;
	for (; fabs(beta) < safmin && scaled < 20; scaled++) {
		for (int i = 0; i < m - 1; i++)
			x[i] /= safmin;
		a /= safmin, beta /= safmin;
	}
	if (scaled)
		norm = norm2(m - 1, x), beta = -copysign(hypot(a, norm), a);
	real_t tau = (beta - a) / beta, f = 1 / (a - beta);
	for (int i = 0; i < m - 1; i++)
		x[i] *= f;
	for (int k = 0; k < scaled; k++)
		beta *= safmin;
	*alpha = beta;
	return tau;
}

/* The p-by-m block at blk: blk <- blk (I - tau v v^T) (w: p scratch). */
static inline void from_right(real_t *blk, int64_t ld, int p, int m, const real_t *v,
                              real_t tau, real_t *w)
{
	for (int i = 0; i < p; i++)
		w[i] = 0;
	for (int c = 0; c < m; c++)
		for (int i = 0; i < p; i++)
			w[i] += blk[i + c * ld] * v[c];
	for (int c = 0; c < m; c++)
		for (int i = 0; i < p; i++)
			blk[i + c * ld] -= w[i] * (tau * v[c]);
}

/* Columns [1, m) of the p-by-m block: (I - tau v v^T) blk. */
static inline void from_left(real_t *blk, int64_t ld, int p, int m, const real_t *v, real_t tau)
{
	for (int c = 1; c < m; c++) {
		real_t *col = blk + c * ld, s = 0;
#pragma omp simd reduction(+ : s)
		for (int i = 0; i < p; i++)
			s += v[i] * col[i];
		s *= tau;
		for (int i = 0; i < p; i++)
			col[i] -= s * v[i];
	}
}

#endif
