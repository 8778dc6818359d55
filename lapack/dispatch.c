/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Where each call goes: hyla, or the system LAPACK. Settings, read once:
 *   HYLA_LAPACK_MIN_N    the crossover: calls whose size is below it go to
 *                        the system LAPACK (default 512; 0: hyla for all);
 *   HYLA_LAPACK_NB       hyla's block size (default 0: hyla's own);
 *   HYLA_LAPACK_VERBOSE  set (not 0): at exit, each routine's counts on stderr.
 * hyla starts at the first call it takes (hyla_init) and stops at exit; if
 * it cannot start, or a setting is invalid, the system LAPACK does all the
 * work (one line on stderr). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <starpu.h>
#include "dropin.h"

enum { IDLE, RUNNING, OFF }; /* hyla not started yet, started, not to be used */
static atomic_int state = IDLE;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static int64_t min_n = 512;
static hyla_options options;
/* Set while this thread is inside hyla: hyla's own LAPACK calls. */
static _Thread_local int inside;
/* Per routine: calls to hyla, to the system LAPACK, and made by hyla's own
 * code or StarPU's workers (also the system LAPACK's). */
static atomic_long to_hyla[2 * ROUTINES], to_system[2 * ROUTINES], nested[2 * ROUTINES];

/* A whole number >= 0 from variable name, or -1 if it is not one. */
static int64_t setting(const char *name, int64_t fallback)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return fallback;
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (*end || errno || x < 0 || x > INT32_MAX) {
		fprintf(stderr, "hyla_lapack: %s = '%s' must be a whole number in [0, 2^31): the "
		        "system LAPACK does all the work\n", name, v);
		return -1;
	}
	return x;
}

/* At exit, with HYLA_LAPACK_VERBOSE. */
static void report(void)
{
	for (int id = 0; id < 2 * ROUTINES; id++)
		if (to_hyla[id] || to_system[id] || nested[id])
			fprintf(stderr, "hyla_lapack: %s %ld to hyla, %ld to the system LAPACK, %ld "
			        "from hyla or StarPU tasks\n", dropin_name(id), atomic_load(&to_hyla[id]),
			        atomic_load(&to_system[id]), atomic_load(&nested[id]));
}

static void read_settings(void)
{
	const char *verbose = getenv("HYLA_LAPACK_VERBOSE");
	if (verbose && *verbose && strcmp(verbose, "0"))
		atexit(report);
	min_n = setting("HYLA_LAPACK_MIN_N", 512);
	options.nb = setting("HYLA_LAPACK_NB", 0);
	if (min_n < 0 || options.nb < 0)
		atomic_store(&state, OFF);
}

/* At exit: calls from here on go to the system LAPACK; hyla stops. */
static void stop(void)
{
	if (atomic_exchange(&state, OFF) == RUNNING)
		hyla_finalize();
}

/* In a child of fork, StarPU's threads are gone: hyla is not used, nor
 * stopped. */
static void forked(void)
{
	atomic_store(&state, OFF);
}

/* Starts hyla from a thread that is not a StarPU worker; returns the new
 * state. While another thread starts it, answers IDLE (the system LAPACK
 * meanwhile) rather than wait: that thread may wait for StarPU's workers,
 * this one may be one. */
static int start(void)
{
	if (pthread_mutex_trylock(&start_lock))
		return IDLE;
	/* StarPU 1.3's worker key is made inside starpu_init, after
	 * starpu_is_initialized turns true, and deleted inside starpu_shutdown:
	 * asked while another thread starts StarPU, it reads a key that is not
	 * StarPU's. Idle with StarPU running is the application's StarPU, up
	 * (hyla's own start happens under start_lock). */
	if (atomic_load(&state) == IDLE && !(starpu_is_initialized() && starpu_worker_get_id() >= 0)) {
		int ret = hyla_init();
		if (ret == HYLA_SUCCESS) {
			atexit(stop);
			pthread_atfork(NULL, NULL, forked);
			atomic_store(&state, RUNNING);
		} else {
			fprintf(stderr, "hyla_lapack: hyla could not start (%s): the system LAPACK does "
			        "all the work\n", hyla_strerror(ret));
			atomic_store(&state, OFF);
		}
	}
	pthread_mutex_unlock(&start_lock);
	return atomic_load(&state);
}

int dropin_route(int id, int valid, int64_t size)
{
	pthread_once(&settings_once, read_settings);
	/* Empty calls (LAPACK's quick returns) stay LAPACK's. */
	int wanted = valid && size >= min_n && size >= 1, s = atomic_load(&state);
	if (wanted && !inside && s == IDLE)
		s = start();
	/* StarPU's worker key exists while hyla runs (hyla_init holds StarPU). */
	if (inside || (s == RUNNING && starpu_worker_get_id() >= 0)) {
		atomic_fetch_add(&nested[id], 1);
		return 0;
	}
	if (!wanted || s != RUNNING) {
		atomic_fetch_add(&to_system[id], 1);
		return 0;
	}
	atomic_fetch_add(&to_hyla[id], 1);
	inside = 1;
	return 1;
}

int dropin_done(int id, int ret)
{
	inside = 0;
	if (ret == HYLA_ERR_TOO_LARGE) { /* the system's call, then */
		atomic_fetch_sub(&to_hyla[id], 1);
		atomic_fetch_add(&to_system[id], 1);
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, "hyla_lapack: %s: hyla failed (%s) with the matrix partly "
		        "transformed: aborting\n", dropin_name(id), hyla_strerror(ret));
		abort();
	}
	return 0;
}

const hyla_options *dropin_options(void)
{
	return &options;
}
