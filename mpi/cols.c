/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* A matrix in column panels dealt block-cyclically over the ranks
 * (include/hyla_mpi.h) and its Householder QR as a StarPU-MPI task graph.
 * Every rank registers every panel (its own with its memory), owner by
 * rank, and submits every task: starpu_mpi_task_insert runs each on the
 * rank that owns the panel it writes (owner computes) and sends it what it
 * reads. geqrf, step k: the panel factored on its rank (LAPACK's geqrf and
 * its T), its reflectors (rows from k nb) copied into a handle of their
 * own there, then each later panel updated on its own rank, StarPU-MPI
 * sending the reflectors and T to each rank that needs them, once; orgqr:
 * Q formed from the last panel (LAPACK's dorgqr's order), each panel's
 * reflectors copied and T made on its rank, the block reflector applied to
 * the later panels on theirs, then the panel's own columns. After a step
 * the copies that other ranks received are dropped
 * (starpu_mpi_cache_flush): a rank holds its own panels and the step's
 * reflectors, not the whole matrix. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hyla_mpi.h"
#include "mpi_internal.h"

struct hyla_cols {
	MPI_Comm comm;
	int rank, size;
	size_t elsize;
	int64_t m, n, nb, nt;
	starpu_data_handle_t *panels; /* panel j on rank j mod size, registered on every rank */
};

static int owner(const hyla_cols *a, int64_t j)
{
	return (int)(j % a->size);
}

static int64_t panel_cols(const hyla_cols *a, int64_t j)
{
	return a->n - j * a->nb < a->nb ? a->n - j * a->nb : a->nb;
}

int64_t hyla_cols_local(int64_t n, int64_t nb, int size, int rank)
{
	if (n < 0 || nb < 1 || size < 1 || rank < 0 || rank >= size)
		return -1;
	int64_t cols = 0;
	for (int64_t j = rank; j * nb < n; j += size)
		cols += n - j * nb < nb ? n - j * nb : nb;
	return cols;
}

hyla_cols *hyla_cols_create(MPI_Comm comm, void *local, size_t elsize, int64_t m, int64_t n,
                            int64_t nb, int64_t ld)
{
	if (!hyla__mpi_started()) {
		hyla__mpi_complain(__func__, 0, "hyla_mpi_init has not been called");
		return NULL;
	}
	int size, rank;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	int64_t nloc = hyla_cols_local(n, nb, size, rank);
	const char *bad = elsize != 8 && elsize != 4       ? "elsize must be 8 (double) or 4 (float)"
	                  : m < 1 || n < 1 || nb < 1         ? "m, n and nb must be >= 1"
	                  : m > INT_MAX || n > INT_MAX       ? "m and n must be below 2^31"
	                  : ld < m || ld > INT_MAX           ? "ld must be >= m and below 2^31"
	                  : nloc > 0 && !local               ? "local is NULL"
	                  : starpu_cpu_worker_get_count() < 1 ? "no CPU worker (the tasks run on cores)"
	                                                     : NULL;
	int64_t nt = n > 0 && nb > 0 ? (n + nb - 1) / nb : 0;
	hyla_cols *a = bad ? NULL : calloc(1, sizeof *a);
	starpu_data_handle_t *panels = a ? malloc(sizeof *panels * (size_t)nt) : NULL;
	if (!bad && !panels)
		bad = "no memory";
	/* The ranks agree on the shape, and that each can go on. */
	int64_t mine[4] = {bad ? -1 : m, n, nb, (int64_t)elsize}, lo[4], hi[4];
	MPI_Allreduce(mine, lo, 4, MPI_INT64_T, MPI_MIN, comm);
	MPI_Allreduce(mine, hi, 4, MPI_INT64_T, MPI_MAX, comm);
	if (!bad && memcmp(lo, hi, sizeof lo))
		bad = lo[0] < 0 ? "bad arguments on another rank" : "the ranks' m, n, nb or elsize differ";
	if (bad) {
		hyla__mpi_complain(__func__, 0, bad);
		free(panels);
		free(a);
		return NULL;
	}
	*a = (hyla_cols){.comm = comm, .rank = rank, .size = size, .elsize = elsize, .m = m, .n = n,
	                 .nb = nb, .nt = nt, .panels = panels};
	for (int64_t j = 0; j < nt; j++) {
		int mine_j = owner(a, j) == rank;
		char *home = mine_j ? (char *)local + (size_t)(j / size * nb) * (size_t)ld * elsize : NULL;
		starpu_matrix_data_register(&a->panels[j], mine_j ? STARPU_MAIN_RAM : -1, (uintptr_t)home,
		                            (uint32_t)(mine_j ? ld : m), (uint32_t)m,
		                            (uint32_t)panel_cols(a, j), elsize);
		starpu_mpi_data_register_comm(a->panels[j], hyla__mpi_tag(), owner(a, j), comm);
	}
	return a;
}

void hyla_cols_destroy(hyla_cols *a)
{
	if (!a)
		return;
	for (int64_t j = 0; j < a->nt; j++)
		starpu_data_unregister(a->panels[j]);
	free(a->panels);
	free(a);
}

/* Per panel: its tau (a vector over the caller's tau on the panel's rank,
 * StarPU's memory elsewhere) and its T (StarPU's memory). */
struct factors {
	starpu_data_handle_t *tau, *t;
};

static int factors_make(const hyla_cols *a, const void *tau, struct factors *f)
{
	f->tau = calloc((size_t)a->nt, sizeof *f->tau);
	f->t = calloc((size_t)a->nt, sizeof *f->t);
	int ok = f->tau && f->t, all; /* every rank registers, or none */
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, a->comm);
	if (!all)
		return hyla__mpi_complain("hyla_cols", HYLA_ERR_NOMEM, "no memory on a rank");
	for (int64_t j = 0; j < a->nt; j++) {
		int64_t w = panel_cols(a, j);
		int mine = owner(a, j) == a->rank;
		starpu_vector_data_register(&f->tau[j], mine ? STARPU_MAIN_RAM : -1,
		                            mine ? (uintptr_t)((const char *)tau + (size_t)(j * a->nb) * a->elsize)
		                                 : 0,
		                            (uint32_t)w, a->elsize);
		starpu_mpi_data_register_comm(f->tau[j], hyla__mpi_tag(), owner(a, j), a->comm);
		starpu_matrix_data_register(&f->t[j], -1, 0, (uint32_t)w, (uint32_t)w, (uint32_t)w,
		                            a->elsize);
		starpu_mpi_data_register_comm(f->t[j], hyla__mpi_tag(), owner(a, j), a->comm);
	}
	return 0;
}

/* Waits for the graph, the caller's panels and tau up to date on their
 * ranks, then the handles go. */
static void factors_release(const hyla_cols *a, struct factors *f)
{
	starpu_task_wait_for_all();
	starpu_mpi_wait_for_all(a->comm);
	for (int64_t j = 0; j < a->nt; j++) {
		if (f->tau && f->tau[j])
			starpu_data_unregister(f->tau[j]);
		if (f->t && f->t[j])
			starpu_data_unregister(f->t[j]);
		if (owner(a, j) == a->rank) { /* the panel's value home */
			starpu_data_acquire(a->panels[j], STARPU_R);
			starpu_data_release(a->panels[j]);
		}
	}
	free(f->tau);
	free(f->t);
}

/* Arguments checked on every rank alike (the others would wait for its
 * tasks): a, and tau on each rank. */
static int args_ok(const char *func, const hyla_cols *a, const void *tau)
{
	if (!a)
		return hyla__mpi_complain(func, -1, "a is NULL");
	int mine = tau ? 0 : -2, worst;
	MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MIN, a->comm);
	if (worst)
		return hyla__mpi_complain(func, worst, "tau is NULL on a rank");
	if (a->m < a->n)
		return hyla__mpi_complain(func, -1, "the matrix has fewer rows than columns");
	return 0;
}

/* A task on a's ranks: cl on h0, h1 (and h2) in cl's modes, with c0 (and
 * for the update trans) as values. */
static int insert(const hyla_cols *a, struct starpu_codelet *cl, int64_t c0, int trans, int prio,
                  starpu_data_handle_t h0, starpu_data_handle_t h1, starpu_data_handle_t h2)
{
	int row = (int)c0;
	if (cl->nbuffers == 2)
		return starpu_mpi_task_insert(a->comm, cl, cl->modes[0], h0, cl->modes[1], h1, STARPU_VALUE,
		                              &row, sizeof row, STARPU_PRIORITY, prio, 0);
	if (cl == &hyla__mpi_qr_update_cl)
		return starpu_mpi_task_insert(a->comm, cl, cl->modes[0], h0, cl->modes[1], h1, cl->modes[2],
		                              h2, STARPU_VALUE, &row, sizeof row, STARPU_VALUE, &trans,
		                              sizeof trans, STARPU_PRIORITY, prio, 0);
	return starpu_mpi_task_insert(a->comm, cl, cl->modes[0], h0, cl->modes[1], h1, cl->modes[2], h2,
	                              STARPU_VALUE, &row, sizeof row, STARPU_PRIORITY, prio, 0);
}

/* Panel k's reflectors (its rows from k nb) copied into a handle of their
 * own on its rank, what the other ranks receive (not R's rows above). */
static starpu_data_handle_t reflectors(const hyla_cols *a, int64_t k, int *ret)
{
	starpu_data_handle_t v;
	int64_t c0 = k * a->nb, rows = a->m - c0, w = panel_cols(a, k);
	starpu_matrix_data_register(&v, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)w, a->elsize);
	starpu_mpi_data_register_comm(v, hyla__mpi_tag(), owner(a, k), a->comm);
	if (!*ret)
		*ret = insert(a, &hyla__mpi_qr_copy_v_cl, c0, 0, STARPU_MAX_PRIO, a->panels[k], v, NULL);
	return v;
}

/* After a step: the copies other ranks received dropped, v let go once its
 * tasks are done. */
static void step_done(const hyla_cols *a, starpu_data_handle_t v, starpu_data_handle_t t)
{
	starpu_mpi_cache_flush(a->comm, v);
	starpu_mpi_cache_flush(a->comm, t);
	starpu_data_unregister_submit(v);
}

int hyla_cols_geqrf(hyla_cols *a, void *tau)
{
	int ret = args_ok(__func__, a, tau);
	if (ret)
		return ret;
	struct factors f = {0};
	ret = factors_make(a, tau, &f);
	for (int64_t k = 0; k < a->nt && !ret; k++) {
		int64_t c0 = k * a->nb;
		ret = insert(a, &hyla__mpi_qr_panel_cl, c0, 0, STARPU_MAX_PRIO, a->panels[k], f.tau[k],
		             f.t[k]);
		starpu_data_handle_t v = reflectors(a, k, &ret);
		for (int64_t j = k + 1; j < a->nt && !ret; j++) /* the next panel first: look-ahead */
			ret = insert(a, &hyla__mpi_qr_update_cl, c0, 1,
			             j == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO, a->panels[j], v, f.t[k]);
		step_done(a, v, f.t[k]);
	}
	/* tau on every rank. */
	for (int64_t k = 0; k < a->nt && !ret; k++) {
		starpu_mpi_get_data_on_all_nodes_detached(a->comm, f.tau[k]);
		if (owner(a, k) != a->rank) {
			starpu_data_acquire(f.tau[k], STARPU_R);
			memcpy((char *)tau + (size_t)(k * a->nb) * a->elsize,
			       (void *)starpu_data_get_local_ptr(f.tau[k]),
			       (size_t)panel_cols(a, k) * a->elsize);
			starpu_data_release(f.tau[k]);
		}
	}
	factors_release(a, &f);
	return ret ? hyla__mpi_complain(__func__, HYLA_ERR_SUBMIT, "a task could not be submitted") : 0;
}

int hyla_cols_orgqr(hyla_cols *a, const void *tau)
{
	int ret = args_ok(__func__, a, tau);
	if (ret)
		return ret;
	struct factors f = {0};
	ret = factors_make(a, tau, &f);
	for (int64_t i = a->nt - 1; i >= 0 && !ret; i--) {
		int64_t c0 = i * a->nb;
		starpu_data_handle_t v = reflectors(a, i, &ret);
		if (!ret)
			ret = insert(a, &hyla__mpi_qr_t_cl, 0, 0, STARPU_MAX_PRIO, v, f.tau[i], f.t[i]);
		for (int64_t j = i + 1; j < a->nt && !ret; j++)
			ret = insert(a, &hyla__mpi_qr_update_cl, c0, 0, STARPU_DEFAULT_PRIO, a->panels[j], v,
			             f.t[i]);
		if (!ret)
			ret = insert(a, &hyla__mpi_qr_form_cl, c0, 0, STARPU_MAX_PRIO, a->panels[i], f.t[i], NULL);
		step_done(a, v, f.t[i]);
	}
	factors_release(a, &f);
	return ret ? hyla__mpi_complain(__func__, HYLA_ERR_SUBMIT, "a task could not be submitted") : 0;
}

int hyla_cols_gather(hyla_cols *a, int root, void *whole, int64_t ldw)
{
	if (!a)
		return hyla__mpi_complain(__func__, -1, "a is NULL");
	int mine = root < 0 || root >= a->size ? -2 : a->rank == root && !whole ? -3
	           : a->rank == root && ldw < a->m                                ? -4
	                                                                          : 0;
	int worst;
	MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MIN, a->comm);
	if (worst)
		return hyla__mpi_complain(__func__, worst, "bad root, whole or ldw on a rank");
	for (int64_t j = 0; j < a->nt; j++) {
		starpu_mpi_get_data_on_node(a->comm, a->panels[j], root);
		if (a->rank == root) {
			starpu_data_acquire(a->panels[j], STARPU_R);
			const char *p = (const char *)starpu_data_get_local_ptr(a->panels[j]);
			size_t ld = starpu_matrix_get_local_ld(a->panels[j]);
			for (int64_t c = 0; c < panel_cols(a, j); c++)
				memcpy((char *)whole + (size_t)((j * a->nb + c) * ldw) * a->elsize,
				       p + (size_t)c * ld * a->elsize, (size_t)a->m * a->elsize);
			starpu_data_release(a->panels[j]);
		}
		starpu_mpi_cache_flush(a->comm, a->panels[j]);
	}
	return 0;
}
