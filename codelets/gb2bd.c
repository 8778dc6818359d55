/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The second stage of the two-stage bidiagonal reduction, singular values
 * only: an upper band of b superdiagonals to upper bidiagonal form by bulge
 * chasing (Ltaief, Luszczek and Dongarra 2013). Sweep j, step k, at row r
 * with the m rows [r, r + m) holding the fill (step 0: r = j, m = 1) and
 * the next block's p columns [r + m, r + m + p):
 *   a reflector from the right takes row r's entries past column r + m out
 *   (applied to rows r + 1 .. r + m + p - 1 of those columns: the fill and
 *   the diagonal block, whose lower triangle it fills);
 *   a reflector from the left takes the diagonal block's first column below
 *   its diagonal out (applied to the block's rows, out to the next block's
 *   q columns: the new fill);
 * then the next step at r + m, m = p. The rest of the fill is the next
 * sweep's: sweep j's step k touches the entry that sweep j - 1's step k + 2
 * starts from, so it waits for that step. As a parallel task the cores take
 * the sweeps in turn (the eigenvalues' chase, codelets/bulge.c, does the
 * same), beside a GPU too: the same bits on any number of cores. The band
 * (gathered by codelets/ge2gb.c): entry (i, c), c - 2b < i < c + b, at
 * band[2b - 1 + i + (3b - 1) c], so that any block of it is a matrix of
 * leading dimension 3b - 1. Typed source: see runtime/precision.h. */
#include <sched.h>
#include <string.h>
#include "codelets.h"
#include "chase.h"
#include "spmd_team.h"

#define AT(i, c) base[(int64_t)(i) + (int64_t)(c) * ld]
enum { DONE = 1 << 30 };


/* Sweep j; prog[j - 1] and prog[j] count steps done (DONE at the end). v,
 * v2: b + 1 each; w: 2b. Built for AVX2 too where GCC can pick at run time,
 * its kernels inlined (as the eigenvalues' sweep). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((flatten, target_clones("arch=x86-64-v3", "default")))
#endif
static void sweep(real_t *base, int64_t ld, int n, int b, int j, int *prog, real_t *v,
                  real_t *v2, real_t *w)
{
	const int *before = j > 0 ? &prog[j - 1] : NULL;
	int r = j, m = 1, p = n - 1 - j < b ? n - 1 - j : b;
	for (int k = 0; p > 0; k++) {
		while (before && __atomic_load_n(before, __ATOMIC_ACQUIRE) < k + 3)
			sched_yield();
		int c = r + m, q = n - c - p < b ? n - c - p : b; /* the block's columns [c, c + p) */
		for (int i = 0; i < p; i++)
			v[i] = AT(r, c + i);
		real_t tau = reflector(p, &v[0], &v[1]);
		AT(r, c) = v[0], v[0] = 1;
		for (int i = 1; i < p; i++)
			AT(r, c + i) = 0;
		if (tau != 0)
			from_right(&AT(r + 1, c), ld, m - 1 + p, p, v, tau, w);
		/* A step whose reflector is the identity goes on: the earlier
		 * sweeps' fill beyond it still needs chasing. */
		real_t tau2 = reflector(p, &AT(c, c), &AT(c + 1, c));
		v2[0] = 1;
		for (int i = 1; i < p; i++)
			v2[i] = AT(c + i, c), AT(c + i, c) = 0;
		if (tau2 != 0)
			from_left(&AT(c, c), ld, p, p + (q > 0 ? q : 0), v2, tau2);
		__atomic_store_n(&prog[j], k + 1, __ATOMIC_RELEASE);
		r = c, m = p, p = q;
	}
	__atomic_store_n(&prog[j], DONE, __ATOMIC_RELEASE);
}

/* Buffers: the band (RW), d's tiles (W), e's tiles (W). */
static void chase_cpu(void *buffers[], void *cl_arg)
{
	struct chase_args *arg = cl_arg;
	int n = arg->n, b = arg->b, nb = arg->nb, dt = arg->dtiles;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	int64_t ld = 3 * (int64_t)b - 1;
	real_t *base = (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]) + 2 * b - 1;
	/* The counters (ints) in the team's common memory, zeroed by core 0;
	 * each core's v, v2 and w in its slot. */
	int64_t words = ((int64_t)n * (int64_t)sizeof(int) + sizeof(real_t) - 1) / sizeof(real_t);
	struct team t;
	if (!team_join(&t, &arg->team, rank, size, words, 4 * b + 2))
		STARPU_ABORT_MSG("band chase: no memory for the sweeps' counters");
	int *prog = (int *)(t.common + C_FREE);
	if (rank == 0)
		memset(prog, 0, sizeof(int) * (size_t)n);
	team_wait(&t);
	real_t *v = team_slot(&t, rank) + S_DOTS, *v2 = v + b + 1, *w = v2 + b + 1;
	for (int j = rank; b > 1 && j < n - 1; j += size)
		sweep(base, ld, n, b, j, prog, v, v2, w);
	team_wait(&t);
	if (rank == 0)
		for (int i = 0; i < n; i++) {
			((real_t *)STARPU_VECTOR_GET_PTR(buffers[1 + i / nb]))[i % nb] = AT(i, i);
			if (i + 1 < n)
				((real_t *)STARPU_VECTOR_GET_PTR(buffers[1 + dt + i / nb]))[i % nb] = AT(i, i + 1);
		}
	team_leave(&t);
}

static struct starpu_codelet chase_cl = {
	.cpu_funcs = {chase_cpu},
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "gb2bd_chase_" PREC_NAME,
};

size_t TYPED(hyla__gb2bd_len)(int64_t n, int64_t b)
{
	return (size_t)(3 * b * n); /* 3b - 1 entries a column and a gap */
}

int TYPED(hyla__insert_gb2bd)(starpu_data_handle_t band, const hyla_desc *d, const hyla_desc *e,
                              int64_t b)
{
	return submit_chase(&chase_cl, band, d, e, b);
}
