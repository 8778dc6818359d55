/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The second stage of the two-stage tridiagonal reduction, eigenvalues only:
 * a symmetric band of half-bandwidth b (lower) to tridiagonal form by bulge
 * chasing (Haidar, Ltaief and Dongarra 2011). Sweep j takes column j's b - 1
 * entries below the subdiagonal out with one reflector (step 0, applied to
 * both sides of the diagonal block below it); the fill that makes in the
 * block below, and the block's first column, are chased down the band
 * (step k: the previous reflector from the right on the k-th block below,
 * a new reflector from that block's first column applied from the left,
 * then to both sides of the next diagonal block). The rest of the fill is
 * the next sweep's: sweep j's step k may start once sweep j - 1 has done its
 * step k + 1. As a parallel task the cores take the sweeps in turn, each
 * waiting on the previous sweep's count of steps done; every entry sees the
 * same operations in the same order however many cores run, so the chase
 * gives the same bits. The band: entry (r, c), c <= r <= c + 2b, at
 * band[r + 2b c] (the b rows past the band hold the fill). Typed source:
 * see runtime/precision.h. */
#include <math.h>
#include <sched.h>
#include <string.h>
#include "codelets.h"
#include "chase.h"
#include "spmd_team.h"

#define AT(r, c) band[(int64_t)(r) + (int64_t)(c) * ld]
enum { DONE = 1 << 30 };

/* The m-by-m symmetric block at (j0, j0) (lower) <- H D H, H = I - tau v v^T:
 * w = tau D v - (tau^2 / 2)(v^T D v) v, D -= v w^T + w v^T. */
static void both_sides(real_t *band, int64_t ld, int j0, int m, const real_t *v, real_t tau,
                       real_t *w)
{
	if (tau == 0)
		return;
	for (int i = 0; i < m; i++)
		w[i] = 0;
	for (int c = 0; c < m; c++) {
		const real_t *col = &AT(j0, j0 + c);
		real_t vc = v[c], below = 0;
#pragma omp simd reduction(+ : below)
		for (int r = c + 1; r < m; r++)
			w[r] += col[r] * vc, below += col[r] * v[r];
		w[c] += col[c] * vc + below;
	}
	real_t dot = 0;
#pragma omp simd reduction(+ : dot)
	for (int i = 0; i < m; i++)
		w[i] *= tau, dot += w[i] * v[i];
	real_t alpha = -(real_t)0.5 * tau * dot;
	for (int i = 0; i < m; i++)
		w[i] += alpha * v[i];
	for (int c = 0; c < m; c++) {
		real_t *col = &AT(j0, j0 + c), vc = v[c], wc = w[c];
		for (int r = c; r < m; r++)
			col[r] -= v[r] * wc + w[r] * vc;
	}
}

/* Sweep j; prog[j - 1] and prog[j] count steps done (DONE at the end).
 * Its loops are short (at most b): built for AVX2 too where GCC can pick
 * at run time (1.35x on one core at 4000, b 32), its helpers inlined; the
 * sums' order is fixed by the code path taken on the machine, not by the
 * number of cores. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((flatten, target_clones("arch=x86-64-v3", "default")))
#endif
static void sweep(real_t *band, int64_t ld, int n, int b, int j, int *prog, real_t *v, real_t *v2,
                  real_t *w)
{
	const int *before = j > 0 ? &prog[j - 1] : NULL;
#define WAIT_FOR(k)                                                                            \
	while (before && __atomic_load_n(before, __ATOMIC_ACQUIRE) < (k) + 2)                      \
	sched_yield()
	WAIT_FOR(0);
	int m = n - 1 - j < b ? n - 1 - j : b;
	real_t tau = reflector(m, &AT(j + 1, j), &AT(j + 2, j));
	v[0] = 1;
	for (int i = 1; i < m; i++)
		v[i] = AT(j + 1 + i, j), AT(j + 1 + i, j) = 0;
	both_sides(band, ld, j + 1, m, v, tau, w);
	__atomic_store_n(&prog[j], 1, __ATOMIC_RELEASE);
	for (int r0 = j + 1, k = 1;; k++) {
		int i1 = r0 + m, p = n - i1 < b ? n - i1 : b;
		if (p <= 0)
			break;
		WAIT_FOR(k);
		/* A step whose reflector is the identity goes on: the earlier
		 * sweeps' fill below still needs chasing. */
		real_t *blk = &AT(i1, r0); /* p-by-m, leading dimension ld */
		if (tau != 0)
			from_right(blk, ld, p, m, v, tau, w);
		real_t tau2 = reflector(p, &blk[0], &blk[1]);
		v2[0] = 1;
		for (int i = 1; i < p; i++)
			v2[i] = blk[i], blk[i] = 0;
		if (tau2 != 0)
			from_left(blk, ld, p, m, v2, tau2);
		both_sides(band, ld, i1, p, v2, tau2, w);
		real_t *swap = v;
		v = v2, v2 = swap, tau = tau2, r0 = i1, m = p;
		__atomic_store_n(&prog[j], k + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&prog[j], DONE, __ATOMIC_RELEASE);
#undef WAIT_FOR
}

/* Buffers: the band (RW), d's tiles (W), e's tiles (W), of nb each. */
static void chase_cpu(void *buffers[], void *cl_arg)
{
	struct chase_args *arg = cl_arg;
	int n = arg->n, b = arg->b, size = starpu_combined_worker_get_size(),
	    rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	real_t *band = (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	int nb = arg->nb, dt = arg->dtiles;
	int64_t ld = 2 * (int64_t)b;
	/* The counters (ints) in the team's common memory, zeroed by core 0;
	 * each core's three vectors of b + 1 in its slot. */
	int64_t words = ((int64_t)n * (int64_t)sizeof(int) + sizeof(real_t) - 1) / sizeof(real_t);
	struct team t;
	if (!team_join(&t, &arg->team, rank, size, words, 3 * (b + 1)))
		STARPU_ABORT_MSG("band chase: no memory for the sweeps' counters");
	int *prog = (int *)(t.common + C_FREE);
	if (rank == 0)
		memset(prog, 0, sizeof(int) * (size_t)n);
	team_wait(&t);
	real_t *v = team_slot(&t, rank) + S_DOTS, *v2 = v + b + 1, *w = v2 + b + 1;
	for (int j = rank; j < n - 1; j += size)
		sweep(band, ld, n, b, j, prog, v, v2, w);
	team_wait(&t);
	if (rank == 0)
		for (int i = 0; i < n; i++) {
			((real_t *)STARPU_VECTOR_GET_PTR(buffers[1 + i / nb]))[i % nb] = AT(i, i);
			if (i + 1 < n)
				((real_t *)STARPU_VECTOR_GET_PTR(buffers[1 + dt + i / nb]))[i % nb] = AT(i + 1, i);
		}
	team_leave(&t);
}

static struct starpu_codelet chase_cl = {
	.cpu_funcs = {chase_cpu},
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "band_chase_" PREC_NAME,
};

size_t TYPED(hyla__band_chase_len)(int64_t n, int64_t b)
{
	return (size_t)((2 * b + 1) * n);
}

int TYPED(hyla__insert_band_chase)(starpu_data_handle_t band, const hyla_desc *d,
                                   const hyla_desc *e, int64_t b)
{
	return submit_chase(&chase_cl, band, d, e, b);
}
