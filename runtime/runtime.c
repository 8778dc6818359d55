/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* StarPU start-up and shutdown, pinned memory, machine summary, errors. */
#include <cblas.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#endif

/* One start, reference counted: a thread that calls hyla_init (or a routine
 * that starts hyla on first use) while another starts StarPU waits for it,
 * and the count says "started" only once StarPU is up. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int init_count; /* hyla_init calls not yet matched by hyla_finalize */
static int owns_starpu;       /* hyla started StarPU, so hyla shuts it down */
static int blas_threads;      /* OpenBLAS's thread count before hyla_init */
static int warned_blas;       /* an application's multi-threaded OpenBLAS, told once */

/* The first start, under init_lock. */
static int start(void)
{
	owns_starpu = !starpu_is_initialized();
	if (owns_starpu) {
		int ret = hyla__check_environment();
		if (ret != HYLA_SUCCESS)
			return ret;
		/* The models predict a size measured this often by its own mean (a
		 * patch of hyla's StarPU; docs/models.md), and count a fit valid
		 * from this many samples: twice, which one calibration round gives.
		 * StarPU reads it in starpu_init only: the process's environment
		 * is put back after. */
		int minimum_set = !getenv("STARPU_CALIBRATE_MINIMUM");
		if (minimum_set)
			setenv("STARPU_CALIBRATE_MINIMUM", "2", 0);
		/* Parallel tasks (pheft, peager) get one combined worker of all the
		 * cores unless STARPU_SINGLE_COMBINED_WORKER says otherwise: among
		 * StarPU's default groups of 2, 4, 8 cores, peager gave the
		 * Hessenberg panel to a small group's master (2.2x slower at 4000 on
		 * 16 cores). */
		struct starpu_conf conf;
		starpu_conf_init(&conf);
		if (!getenv("STARPU_SINGLE_COMBINED_WORKER"))
			conf.single_combined_worker = 1;
		ret = starpu_init(&conf);
		if (minimum_set)
			unsetenv("STARPU_CALIBRATE_MINIMUM");
		if (ret != 0)
			return HYLA_ERROR(HYLA_ERR_STARPU, "starpu_init failed (%s)", strerror(-ret));
#ifdef HYLA_WITH_CUDA
		/* A caller that started StarPU itself calls starpu_cublas_init. */
		starpu_cublas_init();
#endif
	}
	/* CPU workers each run one task at a time: BLAS inside a task must not
	 * spawn threads of its own, or the cores are oversubscribed. OpenBLAS's
	 * count is the process's: hyla sets it only for a StarPU of its own
	 * (and puts it back at the end), and tells an application that started
	 * StarPU with more, once. */
	blas_threads = openblas_get_num_threads();
	if (owns_starpu)
		openblas_set_num_threads(1);
	else if (blas_threads > 1 && starpu_cpu_worker_get_count() > 0 && !warned_blas++)
		fprintf(stderr, "hyla: warning: OpenBLAS runs %d threads in each CPU task, so StarPU's "
		        "CPU workers oversubscribe the cores: call openblas_set_num_threads(1) before "
		        "starpu_init\n", blas_threads);
#ifdef HYLA_WITH_CUDA
	hyla__side_streams_create();
#endif
	hyla__cores_start(owns_starpu);
	hyla__devices_update(0);
	hyla__model_check_start();
	return HYLA_SUCCESS;
}

int hyla_init(void)
{
	pthread_mutex_lock(&init_lock);
	int ret = atomic_load(&init_count) > 0 ? HYLA_SUCCESS : start();
	if (ret == HYLA_SUCCESS)
		atomic_fetch_add(&init_count, 1);
	pthread_mutex_unlock(&init_lock);
	return ret;
}

void hyla_finalize(void)
{
	pthread_mutex_lock(&init_lock);
	if (atomic_load(&init_count) == 0 || atomic_fetch_sub(&init_count, 1) > 1) {
		pthread_mutex_unlock(&init_lock);
		return;
	}
	hyla__matrices_release();
	hyla__model_check_write();
	if (starpu_is_initialized())
		hyla__cores_stop();
#ifdef HYLA_WITH_CUDA
	if (starpu_is_initialized())
		hyla__side_streams_destroy();
#endif
	if (owns_starpu) {
#ifdef HYLA_WITH_CUDA
		starpu_cublas_shutdown();
#endif
		starpu_shutdown();
		owns_starpu = 0;
		openblas_set_num_threads(blas_threads);
	}
	pthread_mutex_unlock(&init_lock);
}

static void finalize_at_exit(void)
{
	hyla_finalize();
}

int hyla__ensure_init(void)
{
	static int registered; /* under init_lock */
	if (atomic_load(&init_count) > 0)
		return HYLA_SUCCESS;
	pthread_mutex_lock(&init_lock);
	int ret = HYLA_SUCCESS;
	if (atomic_load(&init_count) == 0 && (ret = start()) == HYLA_SUCCESS) {
		atomic_store(&init_count, 1);
		if (!registered)
			registered = !atexit(finalize_at_exit);
	}
	pthread_mutex_unlock(&init_lock);
	return ret;
}

int hyla__running(void)
{
	if (atomic_load(&init_count) > 0)
		return HYLA_SUCCESS;
	return HYLA_ERROR(HYLA_ERR_NOINIT, "hyla is not running (used after hyla_finalize)");
}

void *hyla_malloc(size_t bytes)
{
	void *ptr = NULL;
	if (hyla__ensure_init() != HYLA_SUCCESS || starpu_malloc(&ptr, bytes) != 0)
		return NULL;
	return ptr;
}

void hyla_free(void *ptr, size_t bytes)
{
	if (ptr)
		starpu_free_flags(ptr, bytes, STARPU_MALLOC_PINNED);
}

/* Workers of a type in the scheduling context ctx (StarPU's initial one:
 * all of them). */
static int count_workers(unsigned ctx, enum starpu_worker_archtype type)
{
	if (!starpu_is_initialized())
		return 0;
	if (ctx == STARPU_NMAX_SCHED_CTXS || ctx == 0)
		return starpu_worker_get_count_by_type(type);
	int count = 0;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++)
		count += starpu_worker_get_type((int)w) == type &&
		         starpu_sched_ctx_contains_worker((int)w, ctx);
	return count;
}

/* The calling thread's context (its key exists once StarPU started). */
static unsigned current_context(void)
{
	return starpu_is_initialized() ? starpu_sched_ctx_get_context() : 0;
}

int hyla_ncpus(void)
{
	return count_workers(current_context(), STARPU_CPU_WORKER);
}

int hyla_ncuda(void)
{
	return count_workers(current_context(), STARPU_CUDA_WORKER);
}

int hyla__context_valid(unsigned ctx)
{
	if (ctx == 0)
		return 1;
	/* Some of hyla's tasks (LAPACK on the host's data) need a core. */
	return ctx < STARPU_NMAX_SCHED_CTXS && starpu_is_initialized() &&
	       starpu_sched_ctx_get_sched_policy(ctx) && count_workers(ctx, STARPU_CPU_WORKER) > 0;
}

/* starpu_sched_ctx_set_context keeps a pointer: one per thread. */
static _Thread_local unsigned entered_ctx, outer_ctx;

unsigned hyla__context_enter(const hyla_options *o)
{
	unsigned outer = starpu_sched_ctx_get_context();
	if (o->sched_ctx != 0) {
		entered_ctx = o->sched_ctx;
		starpu_sched_ctx_set_context(&entered_ctx);
	}
	hyla__devices_update(starpu_sched_ctx_get_context());
	return outer;
}

void hyla__context_leave(const hyla_options *o, unsigned outer)
{
	if (o->sched_ctx == 0)
		return;
	outer_ctx = outer;
	starpu_sched_ctx_set_context(outer == STARPU_NMAX_SCHED_CTXS ? NULL : &outer_ctx);
}

void hyla_machine_summary(char *buf, size_t len)
{
	/* The policy StarPU runs (its default, lws, where STARPU_SCHED is unset). */
	const char *sched = getenv("STARPU_SCHED");
	struct starpu_sched_policy *policy =
		starpu_is_initialized() ? starpu_sched_ctx_get_sched_policy(0) /* the initial context */ : NULL;
	char sched_name[64];
	snprintf(sched_name, sizeof sched_name, "%s%s",
	         policy && policy->policy_name ? policy->policy_name : sched && *sched ? sched : "?",
	         sched && *sched ? "" : " (default)");
	char gpu[256] = "none";
#ifdef HYLA_WITH_CUDA
	int cuda = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
	if (cuda >= 0)
		snprintf(gpu, sizeof gpu, "%s", starpu_cuda_get_device_properties(cuda)->name);
#endif
	snprintf(buf, len,
	         "hyla %s | StarPU %d.%d.%d | %d CPU + %d CUDA workers | sched %s | BLAS %s | GPU %s",
	         HYLA_VERSION, STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION, STARPU_RELEASE_VERSION,
	         hyla_ncpus(), hyla_ncuda(), sched_name,
	         openblas_get_corename(), gpu);
}

const char *hyla_version(void)
{
	return HYLA_VERSION;
}

const char *hyla_strerror(int info)
{
	switch (info) {
	case HYLA_SUCCESS: return "success";
	case HYLA_ERR_STARPU: return "StarPU could not be initialised";
	case HYLA_ERR_NOMEM: return "out of memory";
	case HYLA_ERR_NODEV: return "no usable GPU";
	case HYLA_ERR_SUBMIT: return "StarPU refused a task";
	case HYLA_ERR_NOINIT: return "hyla is not running (used after hyla_finalize)";
	case HYLA_ERR_ENV: return "a StarPU setting in the environment is invalid";
	case HYLA_ERR_SEQUENCE: return "the sequence had failed before the call: nothing submitted";
	case HYLA_ERR_TOO_LARGE: return "the matrix is too large for the GPU's memory: refused, untouched";
	}
	if (info < 0 && info > HYLA_ERR_BASE)
		return "invalid argument";
	return info > 0 ? "numerical failure (see the routine's documentation)" : "unknown error";
}

int hyla__error(const char *func, int code, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "hyla: %s: ", func);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int hyla__parallel_tasks(void)
{
	return hyla__cores_worker(starpu_sched_ctx_get_context()) >= 0;
}

int hyla__parallel_prio(int priority)
{
	return priority >= STARPU_MAX_PRIO && hyla__combined_workers_reached() ? STARPU_MAX_PRIO - 1
	                                                                        : priority;
}
