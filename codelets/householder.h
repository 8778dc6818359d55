/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What the Householder QR's codelets (geqrf.c, orgqr.c) share: their
 * arguments, and for the panel codelets (buffer 0 the panel) the models'
 * size and where they run. */
#ifndef HYLA_CODELETS_HOUSEHOLDER_H
#define HYLA_CODELETS_HOUSEHOLDER_H

#include "runtime.h"

/* A Householder panel or its T on the GPU is launch-bound: 2-3 ms (T 0.4-1 ms)
 * at every size on the H100, where a core takes 2.3 ms at (m - c0) x w^2 =
 * 1.2e7 and 40 ms at 1e8. Left to regression models fitted to such flat data,
 * dmda gave qr_householder 8000's panels to the GPU on one machine (0.61 s)
 * and to the cores on others (1.5-1.9 s). */
#define HYLA_CORE_MAX_QR_PANEL 16777216u

/* The arguments of every Householder codelet (cl_arg). */
struct householder_args {
	int c0;       /* the first row of the panel's reflectors (the tail's first row) */
	int trans;    /* larfb: apply the block reflector transposed */
	int has_prev; /* orgqr step: the previous panel's T to form too */
	int no_form;  /* orgqr step: the apply (and that T) alone */
	int count;    /* geqrf head: the panels of reflectors */
};

static inline const struct householder_args *hyla__householder_args(const void *cl_arg)
{
	return cl_arg;
}

/* The panel's rows from c0 on. */
static inline size_t hyla__panel_rows(struct starpu_task *task)
{
	size_t c0 = (size_t)hyla__householder_args(task->cl_arg)->c0;
	return starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, 0)) - c0;
}

/* The size base of a panel's models: those rows times its width squared. */
static inline size_t hyla__panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	size_t w = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
	return hyla__panel_rows(task) * w * w;
}

/* can_execute: CUDA workers only when the rows from c0 are at least the
 * panel's columns (the GPU panel's case), where it lives; cores the panels
 * a GPU cannot take and, when one can, those up to HYLA_CORE_MAX_QR_PANEL. */
static inline int hyla__tall_panel_on_views_node(unsigned worker, struct starpu_task *task,
                                                 unsigned impl)
{
	int tall = hyla__panel_rows(task) >= starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
	if (hyla__is_cuda_worker(worker))
		return tall && hyla__on_views_node(worker, task, impl);
	return !tall || !hyla__leave_to_gpu(task, impl, HYLA_CORE_MAX_QR_PANEL);
}

#endif
