/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Matrices an application shares with hyla (hyla_async.h). */
#include <pthread.h>
#include <stdlib.h>
#include "runtime.h"

/* The matrices not yet destroyed, so that hyla_finalize can give their
 * handles back to StarPU before it shuts down (a matrix destroyed later is
 * then only freed). */
struct hyla_matrix {
	hyla_desc desc;
	struct hyla_matrix *prev, *next;
	int released;
};
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static hyla_matrix *live;

static hyla_matrix *keep(hyla_matrix *a)
{
	pthread_mutex_lock(&live_lock);
	*a = (hyla_matrix){.desc = a->desc, .next = live};
	if (live)
		live->prev = a;
	live = a;
	pthread_mutex_unlock(&live_lock);
	return a;
}

void hyla__matrices_release(void)
{
	pthread_mutex_lock(&live_lock);
	for (hyla_matrix *a = live; a; a = a->next)
		if (!a->released) {
			if (starpu_is_initialized()) /* else StarPU took its handles down */
				hyla__desc_unregister(&a->desc);
			a->released = 1;
		}
	pthread_mutex_unlock(&live_lock);
}

hyla_matrix *hyla_matrix_create(void *ptr, size_t elsize, int64_t m, int64_t n, int64_t ld,
                                int64_t nb)
{
	if (!ptr || (elsize != sizeof(double) && elsize != sizeof(float)) || m < 1 || n < 1 ||
	    ld < m || nb < 1 || m > INT32_MAX || n > INT32_MAX || ld > INT32_MAX) {
		HYLA_ERROR(-1, "bad matrix: ptr %p, elsize %zu, m %lld, n %lld, ld %lld, nb %lld "
		           "(want ptr, elsize 4 or 8, 1 <= m <= ld < 2^31, 1 <= n < 2^31, nb >= 1)",
		           ptr, elsize, (long long)m, (long long)n, (long long)ld, (long long)nb);
		return NULL;
	}
	hyla_matrix *a = malloc(sizeof *a);
	if (!a) {
		HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a matrix");
		return NULL;
	}
	if (hyla__ensure_init() != HYLA_SUCCESS ||
	    hyla__desc_register_views(&a->desc, ptr, m, n, ld, nb < n ? nb : n, elsize) != HYLA_SUCCESS) {
		free(a);
		return NULL;
	}
	return keep(a);
}

hyla_matrix *hyla_matrix_wrap(starpu_data_handle_t handle, int64_t nb)
{
	if (!handle || starpu_data_get_interface_id(handle) != STARPU_MATRIX_INTERFACE_ID || nb < 1) {
		HYLA_ERROR(-1, "want a StarPU matrix handle and nb >= 1 (nb %lld)", (long long)nb);
		return NULL;
	}
	size_t elsize = starpu_matrix_get_elemsize(handle);
	int64_t m = starpu_matrix_get_nx(handle), n = starpu_matrix_get_ny(handle);
	if ((elsize != sizeof(double) && elsize != sizeof(float)) || m < 1 || n < 1) {
		HYLA_ERROR(-1, "bad matrix: elsize %zu, %lld-by-%lld (want elsize 4 or 8, m, n >= 1)",
		           elsize, (long long)m, (long long)n);
		return NULL;
	}
	hyla_matrix *a = malloc(sizeof *a);
	if (!a) {
		HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a matrix");
		return NULL;
	}
	if (hyla__ensure_init() != HYLA_SUCCESS || hyla__desc_wrap(&a->desc, handle, nb) != HYLA_SUCCESS) {
		free(a);
		return NULL;
	}
	return keep(a);
}

void hyla_matrix_destroy(hyla_matrix *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&live_lock);
	if (a->prev)
		a->prev->next = a->next;
	else
		live = a->next;
	if (a->next)
		a->next->prev = a->prev;
	int released = a->released;
	pthread_mutex_unlock(&live_lock);
	if (released)
		free(a->desc.tiles);
	else
		hyla__desc_unregister(&a->desc);
	free(a);
}

int64_t hyla_matrix_panels(const hyla_matrix *a)
{
	return a && !a->released ? a->desc.nt : 0;
}

starpu_data_handle_t hyla_matrix_panel(const hyla_matrix *a, int64_t k)
{
	return k >= 0 && k < hyla_matrix_panels(a) ? a->desc.tiles[k] : NULL;
}

int hyla__matrix_desc(const hyla_matrix *a, size_t elsize, int arg, const hyla_desc **desc)
{
	*desc = NULL;
	if (a && a->released)
		return HYLA_ERROR(HYLA_ERR_NOINIT, "the matrix was released by hyla_finalize");
	if (!a || a->desc.elsize != elsize)
		return HYLA_ERROR(-arg, "the matrix is NULL or not of %zu-byte elements", elsize);
	int ret = hyla__running();
	if (ret == HYLA_SUCCESS)
		*desc = &a->desc;
	return ret;
}
