/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What the cores of a parallel panel (a combined worker: runtime/spmd.c)
 * share in the two-sided reductions' panels (codelets/sytrd_spmd.c,
 * codelets/gebrd_spmd.c): a memory of common slots and one slot per core,
 * sums over cores taken in core order (the same result on every core and
 * every run), and Householder reflectors (LAPACK's xLARFG) from the cores'
 * parts of a vector. Typed: include after runtime/precision.h. */
#ifndef HYLA_SPMD_TEAM_H
#define HYLA_SPMD_TEAM_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "runtime.h"

/* The task's shared part (in its cl_arg, zeroed at submission): the
 * barrier, and the memory core 0 allocates. */
struct hyla_team_arg {
	struct hyla_spmd_barrier barrier;
	void *memory;
};

struct team {
	int rank, size, stride;
	struct hyla_team_arg *arg;
	real_t *common, *slots;
};

/* Common slots: the entry a reflector starts from, then free space. */
enum { C_ALPHA, C_FREE = 8 };
/* A core's slot: its part's sum of squares, largest entry, rescaled sum of
 * squares (the reflector's), a scalar of the caller's, then vectors from
 * S_DOTS on. */
enum { S_SQ, S_AMAX, S_RESCALED, S_SCALAR, S_DOTS = 8 };

static inline void team_wait(const struct team *t)
{
	hyla__spmd_barrier(&t->arg->barrier, t->size);
}

/* Joins the team with common slots of C_FREE + common elements and core
 * slots of S_DOTS + dots. 0 where core 0 found no memory: every core
 * leaves (core 0 then does the work alone). */
static inline int team_join(struct team *t, struct hyla_team_arg *arg, int rank, int size, int64_t common,
                     int dots)
{
	t->rank = rank, t->size = size, t->arg = arg;
	t->stride = (S_DOTS + dots + 7) / 8 * 8; /* cache lines apart */
	int64_t lead = (C_FREE + common + 7) / 8 * 8;
	if (rank == 0)
		arg->memory = malloc(sizeof(real_t) * (size_t)(lead + (int64_t)size * t->stride));
	team_wait(t);
	t->common = arg->memory;
	t->slots = t->common ? t->common + lead : NULL;
	return t->common != NULL;
}

/* Every core has finished with the memory: core 0 frees it. */
static inline void team_leave(const struct team *t)
{
	team_wait(t);
	if (t->rank == 0)
		free(t->arg->memory);
}

static inline real_t *team_slot(const struct team *t, int core)
{
	return t->slots + (int64_t)core * t->stride;
}

/* sum[k] = the cores' values at offset + k of their slots, k < count. */
static inline void team_sums(const struct team *t, int offset, int count, real_t *sum)
{
	for (int k = 0; k < count; k++)
		sum[k] = 0;
	for (int q = 0; q < t->size; q++)
		for (int k = 0; k < count; k++)
			sum[k] += team_slot(t, q)[offset + k];
}

/* This core's part of the vector x (entries lo..hi-1, stride inc) into
 * its slot: the sum of squares and the largest magnitude. */
static inline void team_part_norm(const struct team *t, const real_t *x, int64_t lo, int64_t hi, int64_t inc)
{
	real_t sq = 0, amax = 0;
	for (int64_t r = lo; r < hi; r++) {
		real_t v = x[r * inc];
		sq += v * v;
		amax = fmax(amax, fabs(v));
	}
	team_slot(t, t->rank)[S_SQ] = sq;
	team_slot(t, t->rank)[S_AMAX] = amax;
}

/* After team_part_norm and a wait, with alpha in common[C_ALPHA]: beta,
 * tau and the scale of x's entries (1 / (alpha - beta)), as xLARFG; the
 * norm of x / amax where the sum of squares overflowed or underflowed
 * (every core sees the same totals, so all of them take that pass). */
static inline void team_reflector(const struct team *t, const real_t *x, int64_t lo, int64_t hi,
                           int64_t inc, real_t *beta, real_t *tau, real_t *scale)
{
	const real_t tiny = sizeof(real_t) == sizeof(double) ? DBL_MIN / DBL_EPSILON : FLT_MIN / FLT_EPSILON;
	real_t sq = 0, amax = 0, alpha = t->common[C_ALPHA], unit = 1;
	for (int q = 0; q < t->size; q++) {
		sq += team_slot(t, q)[S_SQ];
		amax = fmax(amax, team_slot(t, q)[S_AMAX]);
	}
	if (amax > 0 && (!isfinite(sq) || sq < tiny)) {
		real_t part = 0;
		for (int64_t r = lo; r < hi; r++)
			part += (x[r * inc] / amax) * (x[r * inc] / amax);
		team_slot(t, t->rank)[S_RESCALED] = part;
		team_wait(t);
		sq = 0;
		for (int q = 0; q < t->size; q++)
			sq += team_slot(t, q)[S_RESCALED];
		unit = amax;
	}
	*beta = alpha, *tau = 0, *scale = 1;
	if (amax > 0) {
		*beta = -copysign(hypot(alpha, unit * sqrt(sq)), alpha);
		*tau = (*beta - alpha) / *beta;
		*scale = 1 / (alpha - *beta);
	}
}

/* The part [lo, hi) of [first, end) that core rank of size takes. */
static inline void team_share(int64_t first, int64_t end, int rank, int size, int64_t *lo, int64_t *hi)
{
	*lo = first + (end - first) * rank / size;
	*hi = first + (end - first) * (rank + 1) / size;
}

static inline int64_t later(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

#endif
