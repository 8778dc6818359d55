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
#include <string.h>
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
 * squares (the reflector's), a scalar of the caller's, the counters of its
 * pieces taken (team_piece; two columns' worth), then vectors from S_DOTS
 * on. */
enum { S_SQ, S_AMAX, S_RESCALED, S_SCALAR, S_TAKEN, S_DOTS = 8 };

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
	if (rank == 0) {
		arg->memory = malloc(sizeof(real_t) * (size_t)(lead + (int64_t)size * t->stride));
		if (arg->memory) /* the slots: their counters start at 0 */
			memset((real_t *)arg->memory + lead, 0, sizeof(real_t) * (size_t)(size * t->stride));
	}
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

/* A column's work in pieces, k a core: a core takes its own first (core
 * q's are q k .. q k + k - 1), then what is left of the others' (a core
 * come late: on a shared or virtual machine a different one in each
 * column, the others waiting at the next barrier). Each piece is written
 * where it alone writes, so the results do not depend on who took it.
 * team_pieces once a column, every core, a barrier after the last
 * column's pieces; then team_piece until it gives -1. Column i counts in
 * the counters of its parity; each core clears its own of the next
 * column's, which no core can be using. */
struct team_pieces {
	const struct team *t;
	int64_t column;
	int k, looked; /* cores looked at, from this one on */
};

/* Pieces a core for rows rows: with few rows the pieces' own costs
 * outweigh what they spare, and on 2 cores there was nothing to take.
 * The tridiagonal panel's SYMV (codelets/sytrd_spmd.c), 16 cores of a
 * virtual machine: a core waited 1.0-1.6 s at the barrier after the SYMVs
 * of tridiag_reduce 8000 (6.4-6.9 s in all), with 4 pieces a core 0.5 s
 * (5.1 s); order 4000 0.81-0.87 s, 0.73 s; 2000 0.11-0.12 s with 1, 0.14-
 * 0.15 with 2 or 4. 2 cores, 4000: 2.33-2.42 s with 1, 2.47-2.65 with 4. */
enum { TEAM_PIECES = 4, TEAM_PIECES_FROM_CORES = 8, TEAM_PIECES_FROM_ROWS = 3000 };

static inline int team_pieces_per_core(const struct team *t, int64_t rows)
{
	return t->size >= TEAM_PIECES_FROM_CORES && rows >= TEAM_PIECES_FROM_ROWS ? TEAM_PIECES : 1;
}

static inline unsigned *team_taken(const struct team *t, int core, int64_t column)
{
	return (unsigned *)(team_slot(t, core) + S_TAKEN + column % 2);
}

static inline struct team_pieces team_pieces(const struct team *t, int64_t column, int k)
{
	__atomic_store_n(team_taken(t, t->rank, column + 1), 0, __ATOMIC_RELAXED);
	return (struct team_pieces){t, column, k, 0};
}

static inline int team_piece(struct team_pieces *p)
{
	for (; p->looked < p->t->size; p->looked++) {
		int core = (p->t->rank + p->looked) % p->t->size;
		unsigned j = __atomic_fetch_add(team_taken(p->t, core, p->column), 1, __ATOMIC_RELAXED);
		if (j < (unsigned)p->k)
			return core * p->k + (int)j;
	}
	return -1;
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
 * (every core sees the same totals, so all of them take that pass). A beta
 * below the safe minimum over epsilon is computed, as xLARFG's, on x and
 * alpha scaled up by its inverse (at most 20 times; each core scales its
 * part of x in place): 1 / (alpha - beta) would overflow. */
static inline void team_reflector(const struct team *t, real_t *x, int64_t lo, int64_t hi,
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
		real_t b = -copysign(hypot(alpha, unit * sqrt(sq)), alpha);
		int scaled = 0;
		for (; fabs(b) < tiny && scaled < 20; scaled++) {
			for (int64_t r = lo; r < hi; r++)
				x[r * inc] /= tiny;
			alpha /= tiny, unit /= tiny;
			b = -copysign(hypot(alpha, unit * sqrt(sq)), alpha);
		}
		*tau = (b - alpha) / b;
		*scale = 1 / (alpha - b);
		for (int k = 0; k < scaled; k++)
			b *= tiny;
		*beta = b;
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
