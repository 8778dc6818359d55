/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric tridiagonal eigenproblem by divide and conquer (Cuppen, "A
 * divide and conquer method for the symmetric tridiagonal eigenproblem",
 * 1981; Gu and Eisenstat, "A divide-and-conquer algorithm for the
 * symmetric tridiagonal eigenproblem", 1995) as a task graph: T torn into
 * blocks of panels, each block's eigensystem a task on a core (LAPACK's
 * dstedc), then the merges up a binary tree. A merge is a plan on a core
 * (its deflation), its secular equation's roots in shares on the cores,
 * U in panels on the cores, and the merged eigenvectors diag(Q1, Q2) U as
 * matrix products, one per panel, on the GPU where the models say: the
 * O(n^2) work spread over the cores (with a GPU the roots and U there
 * too), the O(n^3) on the GPU. The values
 * alone need no eigenvectors: each node keeps the first and last rows of
 * its own, all a merge reads (codelets/secular.c). Typed source: see
 * runtime/precision.h. */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* A block of one panel, or of at most eight panels and LEAF_MAX rows, is a
 * leaf (narrow panels, as tests ask for, make deep trees). The values alone
 * take panels of at most LEAF_VALUES: a leaf's dstedc costs L^3, its merges
 * K^2 (H200, eigh 8000: leaves of 500 rows took 0.25 s of the cores' time).
 * A merge's roots go to at most MAX_SHARES tasks of at least SHARE_ROOTS
 * each. */
#define LEAF_MAX 512
#define LEAF_VALUES 128
#define SHARE_ROOTS 256
#define MAX_SHARES 32

struct dc {
	starpu_data_handle_t tri;
	const hyla_desc *z; /* the top's eigenvectors, or NULL: the values alone */
	int64_t w;          /* the panels' width below the top */
	hyla_sequence *seq;
};

/* A submitted node: its state and (not the top's) its eigenvectors. */
struct node {
	hyla_desc state, z;
};

static void node_release(struct node *nd)
{
	hyla__desc_unregister_submit(&nd->state);
	hyla__desc_unregister_submit(&nd->z);
}

/* The merge of kids (from row s) into state and z (NULL: none): its plan,
 * the shares of its roots, U in state's panels and the products. */
static int merge(const struct dc *dc, int64_t s, const struct node kids[2], const hyla_desc *state,
                 const hyla_desc *z)
{
	/* With a GPU all the roots at once there (codelets/cuda/secular.cu). */
	int gpu = hyla_ncuda() > 0;
	int64_t K = state->n, shares = gpu ? 1 : (K + SHARE_ROOTS - 1) / SHARE_ROOTS;
	shares = shares < MAX_SHARES ? shares : MAX_SHARES;
	size_t plan_bytes = TYPED(hyla__dc_plan_bytes)(K);
	size_t share_len = TYPED(hyla__dc_share_len)(K, (K + shares - 1) / shares);
	size_t bytes = plan_bytes + sizeof(real_t) * share_len * (size_t)shares;
	char *mem = hyla__sequence_malloc(dc->seq, bytes);
	/* With a GPU, U is made there: no host memory for it. */
	real_t *umem = z && mem && !gpu ? hyla__sequence_malloc(dc->seq, sizeof(real_t) * (size_t)(K * K))
	                                : NULL;
	if (!mem || (z && !gpu && !umem))
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a merge of the eigensolver (%lld)",
		                  (long long)K);
	starpu_data_handle_t plan = hyla__host_vector(mem, plan_bytes, 1), share[MAX_SHARES] = {0};
	hyla_desc u = {0};
	int ret = TYPED(hyla__insert_dc_plan)(dc->tri, s, &kids[0].state, &kids[1].state, plan, dc->seq);
	for (int c = 0; c < shares && ret == HYLA_SUCCESS; c++) {
		share[c] = hyla__host_vector(mem + plan_bytes + sizeof(real_t) * share_len * (size_t)c,
		                       share_len, sizeof(real_t));
		ret = TYPED(hyla__insert_dc_roots)(plan, share[c], s, c, (int)shares, gpu, dc->seq);
	}
	if (ret == HYLA_SUCCESS && z)
		ret = hyla__desc_register(&u, umem, K, K, K, K, state->nb, sizeof(real_t));
	for (int64_t p = 0; p < state->nt && ret == HYLA_SUCCESS; p++)
		ret = TYPED(hyla__insert_dc_assemble)(plan, share, (int)shares, p * state->nb,
		                                      state->tiles[p], z ? u.tiles[p] : NULL, gpu, dc->seq);
	/* U's panels hold whole panels of z (the top's are narrower). */
	for (int64_t p = 0, per = state->nb / (z ? z->nb : 1); z && p < u.nt && ret == HYLA_SUCCESS; p++)
		ret = TYPED(hyla__insert_dc_gemm)(u.tiles[p], &kids[0].z, &kids[1].z, z->tiles + p * per,
		                                  (int)(p < u.nt - 1 ? per : z->nt - p * per), dc->seq);
	hyla__workspace_release(plan);
	for (int c = 0; c < shares; c++)
		hyla__workspace_release(share[c]);
	hyla__desc_unregister_submit(&u);
	return ret;
}

/* Submits the node of rows [s, e) into *nd (the top: into dc->z). */
static int submit_node(const struct dc *dc, int64_t s, int64_t e, int top, struct node *nd)
{
	int64_t K = e - s, panels = (K + dc->w - 1) / dc->w;
	int64_t pw = top && dc->z && dc->w % dc->z->nb ? dc->z->nb : dc->w;
	if (!dc->z && hyla_ncuda() > 0) /* the values alone: a merge's state in one GPU task */
		pw = K;
	*nd = (struct node){0};
	int ret = hyla__desc_register(&nd->state, NULL, 3, K, 3, 3, pw, sizeof(real_t));
	if (ret == HYLA_SUCCESS && dc->z && !top)
		ret = hyla__desc_register(&nd->z, NULL, K, K, K, K, pw, sizeof(real_t));
	const hyla_desc *z = top ? dc->z : dc->z ? &nd->z : NULL;
	if (ret != HYLA_SUCCESS)
		return ret;
	if (panels == 1 || (panels <= 8 && K <= (dc->z ? LEAF_MAX : LEAF_VALUES)))
		return TYPED(hyla__insert_dc_leaf)(dc->tri, s, &nd->state, z, dc->seq);
	struct node kids[2] = {0};
	int64_t m = s + panels / 2 * dc->w;
	ret = submit_node(dc, s, m, 0, &kids[0]);
	if (ret == HYLA_SUCCESS)
		ret = submit_node(dc, m, e, 0, &kids[1]);
	if (ret == HYLA_SUCCESS)
		ret = merge(dc, s, kids, &nd->state, z);
	node_release(&kids[0]), node_release(&kids[1]);
	return ret;
}

int TYPED(hyla__stedc_submit)(const hyla_desc *d, const hyla_desc *e, starpu_data_handle_t scale,
                              const hyla_desc *z, int64_t w, hyla_sequence *seq)
{
	if (!z && w > LEAF_VALUES)
		w = LEAF_VALUES;
	struct dc dc = {hyla__workspace_vector(2 * d->m, sizeof(real_t)), z, w, seq};
	struct node top = {0};
	int ret = TYPED(hyla__insert_dc_scale)(d, e, dc.tri);
	if (ret == HYLA_SUCCESS)
		ret = submit_node(&dc, 0, d->m, 1, &top);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_dc_finish)(dc.tri, &top.state, scale, d, seq);
	node_release(&top);
	hyla__workspace_release(dc.tri);
	return ret;
}
