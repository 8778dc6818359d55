/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* A tall-skinny matrix in row blocks over the ranks (include/hyla_mpi.h)
 * and its QR by CholeskyQR2, as a StarPU-MPI task graph: each rank cuts its
 * rows into blocks for its cores; every rank registers every block (its
 * own with its memory), owner by rank, so that starpu_mpi_task_insert runs
 * each task on the rank that owns what it writes and sends what it reads.
 * A pass: each block's Gram matrix (on its rank), summed on its rank, the
 * ranks' sums added on rank 0, the Cholesky factor there, then each block
 * solved on its rank against the factor (StarPU-MPI sends it to each rank
 * once). A status travels with the factor: a failed factorisation leaves
 * the blocks untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <starpu_mpi.h>
#include "hyla_mpi.h"
#include "mpi_internal.h"

struct hyla_rows {
	MPI_Comm comm;
	int rank, size;
	size_t elsize;
	int64_t n;
	int nblocks;                  /* over all ranks */
	starpu_data_handle_t *blocks; /* registered on every rank */
	int *owner;
};

/* Rows of block b of a rank's count blocks over its mloc rows. */
static int64_t block_rows(int64_t mloc, int count, int b)
{
	return mloc / count + (b < mloc % count);
}

/* A rank's blocks: one a core, each of at least 2n rows where it has them. */
static int blocks_for(int64_t mloc, int64_t n)
{
	int64_t most = mloc / (2 * n > 1 ? 2 * n : 1), cores = hyla_ncpus() > 0 ? hyla_ncpus() : 1;
	if (mloc == 0)
		return 0;
	return (int)(most < 1 ? 1 : most < cores ? most : cores);
}

hyla_rows *hyla_rows_create(MPI_Comm comm, void *local, size_t elsize, int64_t mloc, int64_t n,
                            int64_t ld)
{
	if (!hyla__mpi_started()) {
		hyla__mpi_complain(__func__, 0, "hyla_mpi_init has not been called");
		return NULL;
	}
	const char *bad = elsize != 8 && elsize != 4 ? "elsize must be 8 (double) or 4 (float)"
	                  : mloc < 0 || n < 1         ? "mloc must be >= 0 and n >= 1"
	                  : ld < (mloc > 1 ? mloc : 1) ? "ld must be >= max(1, mloc)"
	                  : mloc > 0 && !local        ? "local is NULL"
	                                              : NULL;
	/* The ranks agree on n and elsize, and learn each other's rows. */
	int64_t mine[4] = {bad ? -1 : mloc, n, (int64_t)elsize, bad ? 0 : blocks_for(mloc, n)};
	hyla_rows *a = calloc(1, sizeof *a);
	int size, rank;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	int64_t *all = malloc(sizeof *all * 4 * (size_t)size);
	if (all)
		MPI_Allgather(mine, 4, MPI_INT64_T, all, 4, MPI_INT64_T, comm);
	for (int r = 0; all && r < size && !bad; r++)
		if (all[4 * r] < 0 || all[4 * r + 1] != n || all[4 * r + 2] != (int64_t)elsize)
			bad = "the ranks' n, elsize or arguments differ";
	if (!a || !all || bad) {
		hyla__mpi_complain(__func__, 0, bad ? bad : "no memory");
		free(all);
		free(a);
		return NULL;
	}
	*a = (hyla_rows){.comm = comm, .rank = rank, .size = size, .elsize = elsize, .n = n};
	int *counts = malloc(sizeof *counts * (size_t)size);
	for (int r = 0; counts && r < size; r++)
		a->nblocks += counts[r] = (int)all[4 * r + 3];
	a->blocks = malloc(sizeof *a->blocks * (size_t)(a->nblocks + 1));
	a->owner = malloc(sizeof *a->owner * (size_t)(a->nblocks + 1));
	if (!counts || !a->blocks || !a->owner) {
		hyla__mpi_complain(__func__, 0, "no memory");
		free(counts), free(all), free(a->blocks), free(a->owner), free(a);
		return NULL;
	}
	int k = 0;
	for (int r = 0; r < size; r++) {
		int64_t row = 0;
		for (int b = 0; b < counts[r]; b++, k++) {
			int64_t rows = block_rows(all[4 * r], counts[r], b);
			int mine_b = r == rank;
			starpu_matrix_data_register(&a->blocks[k], mine_b ? STARPU_MAIN_RAM : -1,
			                            mine_b ? (uintptr_t)((char *)local + (size_t)row * elsize) : 0,
			                            (uint32_t)(mine_b ? ld : rows), (uint32_t)rows, (uint32_t)n,
			                            elsize);
			starpu_mpi_data_register_comm(a->blocks[k], hyla__mpi_tag(), r, comm);
			a->owner[k] = r;
			row += rows;
		}
	}
	free(counts);
	free(all);
	return a;
}

void hyla_rows_destroy(hyla_rows *a)
{
	if (!a)
		return;
	for (int k = 0; k < a->nblocks; k++)
		starpu_data_unregister(a->blocks[k]);
	free(a->blocks);
	free(a->owner);
	free(a);
}

/* An n-by-n matrix (or a status) owned by rank owner: with zeroed memory
 * there (memory not NULL), or none (StarPU's where it is written). */
static starpu_data_handle_t owned(const hyla_rows *a, int owner, void **memory, int status)
{
	starpu_data_handle_t h;
	size_t bytes = status ? sizeof(int) : (size_t)(a->n * a->n) * a->elsize;
	void *here = memory && a->rank == owner ? calloc(1, bytes) : NULL;
	if (memory && a->rank == owner && !here)
		return NULL;
	if (memory)
		*memory = here;
	uintptr_t ptr = (uintptr_t)here;
	int home = here ? STARPU_MAIN_RAM : -1;
	if (status)
		starpu_variable_data_register(&h, home, ptr, sizeof(int));
	else
		starpu_matrix_data_register(&h, home, ptr, (uint32_t)a->n, (uint32_t)a->n, (uint32_t)a->n,
		                            a->elsize);
	starpu_mpi_data_register_comm(h, hyla__mpi_tag(), owner, a->comm);
	return h;
}

/* The handles a pass makes and their memory. */
struct pass {
	starpu_data_handle_t *gram; /* a block's Gram matrix, each */
	starpu_data_handle_t *sum;  /* a rank's sum, each */
	starpu_data_handle_t factor, status;
	void **memory; /* the sums', the factor's, the status's */
};

/* One pass of CholeskyQR: the factor R (on rank 0) and A R^-1 in place;
 * skipped where after (the previous pass's status) is not 0. */
static int submit_pass(const hyla_rows *a, struct pass *p, starpu_data_handle_t after)
{
	int ret = 0, n = a->nblocks, size = a->size;
	for (int k = 0; k < n && !ret; k++) {
		p->gram[k] = owned(a, a->owner[k], NULL, 0);
		ret = !p->gram[k] || starpu_mpi_task_insert(a->comm, &hyla__mpi_gram_cl, STARPU_R,
		                                            a->blocks[k], STARPU_W, p->gram[k], 0);
	}
	for (int r = 0; r < size && !ret; r++)
		ret = !(p->sum[r] = owned(a, r, &p->memory[r], 0));
	for (int k = 0; k < n && !ret; k++)
		ret = starpu_mpi_task_insert(a->comm, &hyla__mpi_add_cl, STARPU_RW, p->sum[a->owner[k]],
		                             STARPU_R, p->gram[k], 0);
	ret = ret || !(p->factor = owned(a, 0, &p->memory[size], 0)) ||
	      !(p->status = owned(a, 0, &p->memory[size + 1], 1));
	for (int r = 0; r < size && !ret; r++)
		ret = starpu_mpi_task_insert(a->comm, &hyla__mpi_add_cl, STARPU_RW, p->factor, STARPU_R,
		                             p->sum[r], 0);
	if (!ret && after)
		ret = starpu_mpi_task_insert(a->comm, &hyla__mpi_chol_cl, STARPU_RW, p->factor, STARPU_W,
		                             p->status, STARPU_R, after, 0);
	else if (!ret)
		ret = starpu_mpi_task_insert(a->comm, &hyla__mpi_chol_first_cl, STARPU_RW, p->factor,
		                             STARPU_W, p->status, 0);
	for (int k = 0; k < n && !ret; k++)
		ret = starpu_mpi_task_insert(a->comm, &hyla__mpi_solve_cl, STARPU_RW, a->blocks[k],
		                             STARPU_R, p->factor, STARPU_R, p->status, 0);
	return ret ? hyla__mpi_complain("hyla_rows_qr", HYLA_ERR_SUBMIT, "a task could not be submitted") : 0;
}

static void release_pass(const hyla_rows *a, struct pass *p)
{
	for (int k = 0; k < a->nblocks; k++)
		if (p->gram[k])
			starpu_data_unregister(p->gram[k]);
	for (int r = 0; r < a->size; r++)
		if (p->sum[r])
			starpu_data_unregister(p->sum[r]);
	if (p->factor)
		starpu_data_unregister(p->factor);
	if (p->status)
		starpu_data_unregister(p->status);
	for (int r = 0; r < a->size + 2; r++)
		free(p->memory[r]);
}

/* handle's value on every rank (a copy there, waited for), into out. */
static void everywhere(const hyla_rows *a, starpu_data_handle_t handle, void *out, size_t bytes)
{
	starpu_mpi_get_data_on_all_nodes_detached(a->comm, handle);
	starpu_data_acquire(handle, STARPU_R);
	memcpy(out, (void *)starpu_data_get_local_ptr(handle), bytes);
	starpu_data_release(handle);
}

int hyla_rows_qr(hyla_rows *a, void *r, int64_t ldr)
{
	if (!a)
		return hyla__mpi_complain(__func__, -1, "a is NULL");
	/* Refused on every rank alike (the others would wait for its tasks). */
	int mine = !r ? -2 : ldr < a->n ? -3 : 0, worst;
	MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MIN, a->comm);
	if (worst)
		return hyla__mpi_complain(__func__, worst, "r is NULL or ldr < n on a rank");
	int64_t m = 0, n = a->n;
	for (int k = 0; k < a->nblocks; k++)
		m += starpu_matrix_get_nx(a->blocks[k]);
	if (m < n)
		return hyla__mpi_complain(__func__, -1, "the matrix has fewer rows than columns");
	struct pass p[2] = {{0}};
	int ret = 0, info[2] = {0};
	for (int i = 0; i < 2 && !ret; i++) {
		p[i].gram = calloc((size_t)a->nblocks, sizeof *p[i].gram);
		p[i].sum = calloc((size_t)a->size, sizeof *p[i].sum);
		p[i].memory = calloc((size_t)a->size + 2, sizeof *p[i].memory);
		ret = !p[i].gram || !p[i].sum || !p[i].memory
		          ? hyla__mpi_complain(__func__, HYLA_ERR_NOMEM, "no memory")
		          : submit_pass(a, &p[i], i ? p[0].status : NULL);
	}
	/* R = R2 R1 on rank 0 (unless a pass failed), then on every rank. */
	if (!ret && starpu_mpi_task_insert(a->comm, &hyla__mpi_rmul_cl, STARPU_RW, p[0].factor,
	                                   STARPU_R, p[1].factor, STARPU_R, p[1].status, 0))
		ret = hyla__mpi_complain(__func__, HYLA_ERR_SUBMIT, "a task could not be submitted");
	if (!ret) {
		size_t es = a->elsize;
		char *whole = malloc((size_t)(n * n) * es);
		everywhere(a, p[0].status, &info[0], sizeof(int));
		everywhere(a, p[1].status, &info[1], sizeof(int));
		if (!whole)
			ret = hyla__mpi_complain(__func__, HYLA_ERR_NOMEM, "no memory");
		else {
			everywhere(a, p[0].factor, whole, (size_t)(n * n) * es);
			for (int64_t j = 0; j < n; j++)
				memcpy((char *)r + (size_t)(j * ldr) * es, whole + (size_t)(j * n) * es,
				       (size_t)n * es);
			free(whole);
		}
	}
	starpu_mpi_wait_for_all(a->comm);
	for (int i = 0; i < 2; i++)
		if (p[i].gram && p[i].sum && p[i].memory)
			release_pass(a, &p[i]);
	for (int i = 0; i < 2; i++)
		free(p[i].gram), free(p[i].sum), free(p[i].memory);
	if (ret)
		return ret;
	/* The second pass's status carries the first's failure (its rows untouched). */
	return info[0] ? info[0] : info[1] ? (int)n + info[1] : 0;
}
