/* Insert functions of hyla's codelets, typed by runtime/precision.h.
 * Each submits one task; handles are matrix tiles unless noted. */
#ifndef HYLA_CODELETS_H
#define HYLA_CODELETS_H

#include <starpu.h>
#include "precision.h"

/* MGS on columns [c0, c1) of the m-by-w panel a (RW): each column is
 * normalised and projected out of every later column of the panel; writes
 * R(c0:c1, c0:w) into the panel's diagonal tile r (RW) and the Gram matrix
 * Q1^T Q1 of the columns into g(c0:c1, c0:c1) (W, lower triangle).
 * scratch: from hyla__mgs_register_scratch (STARPU_SCRATCH). */
int TYPED(hyla__insert_mgs_panel)(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t g, starpu_data_handle_t scratch,
                                  int64_t c0, int64_t c1, int priority);

/* The panel's scratch vector; unregister it when the tasks are submitted. */
starpu_data_handle_t TYPED(hyla__mgs_register_scratch)(void);

/* Applies the projections of columns [c0, c1) of the factored panel q (R),
 * with its Gram matrix g (R), to the m-by-wp panel a (RW):
 * R(c0:c1, :) = (I + L)^{-1} Q1^T A, L = strict_lower(g); A -= Q1 R(c0:c1, :),
 * where R(c0:c1, :) are rows of the tile r (RW). */
int TYPED(hyla__insert_mgs_update)(starpu_data_handle_t q, starpu_data_handle_t g,
                                   starpu_data_handle_t a, starpu_data_handle_t r,
                                   int64_t c0, int64_t c1, int priority);

#endif
