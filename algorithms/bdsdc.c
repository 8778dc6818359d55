/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The upper bidiagonal SVD by divide and conquer (Jessup and Sorensen,
 * 1994; Gu and Eisenstat, "A divide-and-conquer algorithm for the
 * bidiagonal SVD", 1995) as a task graph, the tridiagonal eigensolver's
 * shape (algorithms/stedc.c): B cut into blocks of panels, each block's SVD
 * a task on a core (LAPACK's dbdsdc), then the merges up a binary tree,
 * each taking out the row between its blocks: a plan (deflation), its
 * secular equation's roots in shares, M's singular vectors in panels on the
 * cores, and the merged vectors diag(U1, 1, U2) U_M and diag(V1, V2) V_M as
 * matrix products on the GPU where the models say. The values alone keep
 * V's first and last rows, all a merge reads (codelets/singular.c). Typed
 * source: see runtime/precision.h. */
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* The eigensolver's leaf and share rules (algorithms/stedc.c). */
#define LEAF_MAX 512
#define SHARE_ROOTS 256
#define MAX_SHARES 32

struct sd {
	starpu_data_handle_t bi;
	const hyla_desc *u, *v; /* the top's singular vectors, or NULL: the values alone */
	int u_rw;
	int64_t w; /* the panels' width */
	hyla_sequence *seq;
};

static void node_release(struct hyla_sd_node *nd)
{
	hyla__desc_unregister_submit(&nd->state);
	hyla__desc_unregister_submit(&nd->own_u);
	hyla__desc_unregister_submit(&nd->own_v);
	hyla__workspace_release(nd->null);
}

/* The merge of kids (the row between them from row s) into nd: its plan,
 * the shares of its roots, M's vectors in nd's panels and the products. */
static int merge(const struct sd *sd, int64_t s, int q, const struct hyla_sd_node kids[2],
                 const struct hyla_sd_node *nd)
{
	int64_t K = nd->state.n, M = K + q, shares = (K + SHARE_ROOTS - 1) / SHARE_ROOTS;
	shares = shares < MAX_SHARES ? shares : MAX_SHARES;
	size_t plan_bytes = TYPED(hyla__sd_plan_bytes)(K);
	size_t share_len = TYPED(hyla__dc_share_len)(K, (K + shares - 1) / shares);
	size_t bytes = plan_bytes + sizeof(real_t) * share_len * (size_t)shares;
	char *mem = hyla__sequence_malloc(sd->seq, bytes);
	int vec = sd->u != NULL;
	real_t *um = vec && mem ? hyla__sequence_malloc(sd->seq, sizeof(real_t) * (size_t)(K * K + M * K))
	                        : NULL;
	if (!mem || (vec && !um))
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a merge of the SVD (%lld)", (long long)K);
	starpu_data_handle_t plan = hyla__host_vector(mem, plan_bytes, 1), share[MAX_SHARES] = {0};
	hyla_desc U = {0}, V = {0};
	int ret = TYPED(hyla__insert_sd_plan)(sd->bi, s, q, &kids[0], &kids[1], plan, nd->null, sd->seq);
	for (int c = 0; c < shares && ret == HYLA_SUCCESS; c++) {
		share[c] = hyla__host_vector(mem + plan_bytes + sizeof(real_t) * share_len * (size_t)c,
		                       share_len, sizeof(real_t));
		ret = TYPED(hyla__insert_sd_roots)(plan, share[c], s, c, (int)shares, sd->seq);
	}
	if (ret == HYLA_SUCCESS && vec)
		ret = hyla__desc_register(&U, um, K, K, K, K, nd->state.nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS && vec)
		ret = hyla__desc_register(&V, um + K * K, M, K, M, M, nd->state.nb, sizeof(real_t));
	for (int64_t p = 0; p < nd->state.nt && ret == HYLA_SUCCESS; p++)
		ret = TYPED(hyla__insert_sd_assemble)(plan, share, (int)shares, p * nd->state.nb, nd->top,
		                                      nd->state.tiles[p], vec ? U.tiles[p] : NULL,
		                                      vec ? V.tiles[p] : NULL, sd->seq);
	for (int64_t p = 0; vec && p < U.nt && ret == HYLA_SUCCESS; p++)
		ret = TYPED(hyla__insert_sd_gemm)(U.tiles[p], V.tiles[p], q, &kids[0], &kids[1],
		                                  nd->u->tiles[p], nd->u_rw, nd->v->tiles[p], sd->seq);
	hyla__workspace_release(plan);
	for (int c = 0; c < shares; c++)
		hyla__workspace_release(share[c]);
	hyla__desc_unregister_submit(&U);
	hyla__desc_unregister_submit(&V);
	return ret;
}

/* Submits the node of rows [s, e) (columns to e + q) into *nd (the top:
 * into sd's u and v). */
static int submit_node(const struct sd *sd, int64_t s, int64_t e, int q, int top,
                       struct hyla_sd_node *nd)
{
	int64_t K = e - s, w = sd->w, panels = (K + w - 1) / w;
	int vec = sd->u != NULL;
	*nd = (struct hyla_sd_node){0};
	int ret = hyla__desc_register(&nd->state, NULL, 3, K, 3, 3, w, sizeof(real_t));
	if (ret == HYLA_SUCCESS && vec && !top)
		ret = hyla__desc_register(&nd->own_u, NULL, K, K, K, K, w, sizeof(real_t));
	if (ret == HYLA_SUCCESS && vec && !top)
		ret = hyla__desc_register(&nd->own_v, NULL, K + q, K, K + q, K + q, w, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	if (q)
		nd->null = hyla__workspace(vec ? K + 1 : 2, 1, sizeof(real_t));
	nd->u = !vec ? NULL : top ? sd->u : &nd->own_u;
	nd->v = !vec ? NULL : top ? sd->v : &nd->own_v;
	nd->top = top, nd->u_rw = top && sd->u_rw;
	if (K < 3 || panels == 1 || (panels <= 8 && K <= LEAF_MAX))
		return TYPED(hyla__insert_sd_leaf)(sd->bi, s, q, nd, sd->seq);
	/* The row between the blocks ends the first half of the panels. */
	int64_t r = s + panels / 2 * w - 1;
	r = r < s + 1 ? s + 1 : r > e - 2 ? e - 2 : r;
	struct hyla_sd_node kids[2];
	memset(kids, 0, sizeof kids);
	ret = submit_node(sd, s, r, 1, 0, &kids[0]);
	if (ret == HYLA_SUCCESS)
		ret = submit_node(sd, r + 1, e, q, 0, &kids[1]);
	if (ret == HYLA_SUCCESS)
		ret = merge(sd, s, q, kids, nd);
	node_release(&kids[0]), node_release(&kids[1]);
	return ret;
}

int TYPED(hyla__bdsdc_submit)(const hyla_desc *d, const hyla_desc *e, const hyla_desc *u, int u_rw,
                              const hyla_desc *v, int64_t w, hyla_sequence *seq)
{
	if (u && (u->nb != w || v->nb != w)) /* the merges pair their panels by index */
		return HYLA_ERROR(HYLA_ERR_SUBMIT, "the SVD's vectors are in panels of %lld and %lld, "
		                  "not %lld", (long long)u->nb, (long long)v->nb, (long long)w);
	struct sd sd = {hyla__workspace_vector(2 * d->m, sizeof(real_t)), u, v, u_rw, w, seq};
	struct hyla_sd_node top;
	memset(&top, 0, sizeof top);
	int ret = TYPED(hyla__insert_dc_scale)(d, e, sd.bi);
	if (ret == HYLA_SUCCESS)
		ret = submit_node(&sd, 0, d->m, 0, 1, &top);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_dc_finish)(sd.bi, &top.state, NULL, d, seq);
	node_release(&top);
	hyla__workspace_release(sd.bi);
	return ret;
}
