/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Parallel tasks (STARPU_SPMD) on the cores. A reduction's panel is its
 * critical path on cores alone (its GEMVs stream the whole trailing matrix,
 * and nothing else can run beside it), so there it runs on a combined
 * worker of all the context's cores whatever the scheduler: dmda and the
 * other non-parallel policies never use combined workers themselves. Work
 * only cores can do (the eigenvalues' bulge chase) takes the same worker
 * beside a GPU, and a context of all the cores and no GPU on a host with
 * one runs its panels there as on cores alone. Such a task names that
 * worker (StarPU then queues one alias on each core), and holds one token
 * in commute mode: two of them queued at once could reach
 * the cores in opposite orders and each wait for the other's cores. The
 * cores meet at barriers that spin briefly, then sleep. */
#include <linux/futex.h>
#include <math.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "runtime.h"

/* Combined worker id + 1 (0: none): where the matrices live in main memory,
 * and whatever they live (for work only cores can do). */
static int cores_worker[STARPU_NMAX_SCHED_CTXS], cores_any[STARPU_NMAX_SCHED_CTXS];
static int made_beside_gpu; /* hyla made that worker with CUDA workers present */
static starpu_data_handle_t cores_token;

/* The combined worker of exactly ctx's cores, or -1. */
static int find_cores_worker(unsigned ctx, int cores)
{
	unsigned basic = starpu_worker_get_count();
	for (unsigned id = basic; id < basic + starpu_combined_worker_get_count(); id++) {
		int size, *members, inside = 0;
		if (starpu_combined_worker_get_description((int)id, &size, &members) != 0 || size != cores)
			continue;
		for (int i = 0; i < size; i++)
			inside += ctx == 0 || starpu_sched_ctx_contains_worker(members[i], ctx);
		if (inside == size)
			return (int)id;
	}
	return -1;
}

void hyla__cores_start(int owns_starpu)
{
	if (HYLA_MAX_PARALLELISM == 1)
		return;
	int ids[STARPU_NMAXWORKERS], n = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids,
	                                                                STARPU_NMAXWORKERS);
	/* Only while no task runs: StarPU's workers read these fields. */
	if (owns_starpu && n > 1 && find_cores_worker(0, n) < 0) {
		starpu_combined_worker_assign_workerid(n, ids);
		made_beside_gpu = starpu_cuda_worker_get_count() > 0;
	}
	starpu_void_data_register(&cores_token);
}

int hyla__combined_workers_reached(void)
{
	return (int)starpu_combined_worker_get_count() > made_beside_gpu ||
	       hyla__cores_worker(starpu_sched_ctx_get_context()) >= 0;
}

void hyla__cores_stop(void)
{
	if (cores_token)
		starpu_data_unregister(cores_token);
	cores_token = NULL;
	made_beside_gpu = 0;
	for (int c = 0; c < STARPU_NMAX_SCHED_CTXS; c++) {
		__atomic_store_n(&cores_worker[c], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&cores_any[c], 0, __ATOMIC_RELAXED);
	}
}

void hyla__cores_update(unsigned ctx, int cores, int node)
{
	int id = cores > 1 && cores_token ? find_cores_worker(ctx, cores) : -1;
	__atomic_store_n(&cores_worker[ctx], node == STARPU_MAIN_RAM ? id + 1 : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cores_any[ctx], id + 1, __ATOMIC_RELAXED);
}

int hyla__cores_worker(unsigned ctx)
{
	return __atomic_load_n(&cores_worker[ctx < STARPU_NMAX_SCHED_CTXS ? ctx : 0], __ATOMIC_RELAXED) - 1;
}

int hyla__cores_worker_any(unsigned ctx)
{
	ctx = ctx < STARPU_NMAX_SCHED_CTXS ? ctx : 0;
	return __atomic_load_n(&cores_any[ctx], __ATOMIC_RELAXED) - 1;
}

starpu_data_handle_t hyla__cores_token(void)
{
	return cores_token;
}

int hyla__task_buffers(struct starpu_task *task)
{
	int n = (int)STARPU_TASK_GET_NBUFFERS(task);
	return n > 0 && cores_token && STARPU_TASK_GET_HANDLE(task, n - 1) == cores_token ? n - 1 : n;
}

int hyla__spmd_cols(int cols, int *first)
{
	int64_t size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size) { /* a parallel job StarPU gave no combined worker: rank 0 does it all */
		*first = cols;
		return 0;
	}
	*first = (int)(cols * rank / size);
	return (int)(cols * (rank + 1) / size) - *first;
}

int64_t hyla__triangle_share(int64_t cols, int k, int size)
{
	return k >= size ? cols : (int64_t)((double)cols * (1 - sqrt(1 - (double)k / size)));
}

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A core waits this long spinning (a column's phase takes microseconds),
 * then sleeps until the last one wakes it: one core descheduled on a busy
 * machine leaves the others' cores to whoever needs them. Yielding the core
 * between the spin and the sleep (as OpenBLAS's threads do) was tried: with
 * 8 busy processes on 16 cores, tridiag_reduce 1500 took 1.12 s against
 * 0.47 s (the scheduler runs the competitor a whole slice after a yield). */
#define SPIN_NS 50000

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void hyla__spmd_barrier(struct hyla_spmd_barrier *b, int size)
{
	unsigned generation = __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == (unsigned)size) {
		__atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->generation, generation + 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
			syscall(SYS_futex, &b->generation, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		return;
	}
	int64_t until = now_ns() + SPIN_NS;
	for (unsigned spins = 1; __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE) == generation; spins++) {
		if (spins % 64 || now_ns() < until) {
			relax();
			continue;
		}
		__atomic_add_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&b->generation, __ATOMIC_SEQ_CST) == generation)
			syscall(SYS_futex, &b->generation, FUTEX_WAIT_PRIVATE, generation, NULL, NULL, 0);
		__atomic_sub_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
		return;
	}
}
