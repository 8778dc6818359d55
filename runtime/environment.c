/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* StarPU's settings in the environment, checked before StarPU starts:
 * StarPU 1.3 aborts the process on a malformed number or a models folder it
 * cannot make, and runs an unknown scheduler's name as its default. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime.h"

/* The settings StarPU reads as whole numbers >= 0 (starpu_get_env_number). */
static const char *const numbers[] = {
	"STARPU_NCPU", "STARPU_NCPUS", "STARPU_NCUDA", "STARPU_NOPENCL", "STARPU_NWORKER_PER_CUDA",
	"STARPU_CALIBRATE", "STARPU_PREFETCH", "STARPU_SINGLE_COMBINED_WORKER",
	"STARPU_MIN_WORKERSIZE", "STARPU_MAX_WORKERSIZE", "STARPU_LIMIT_CUDA_MEM",
	"STARPU_LIMIT_CPU_MEM", "STARPU_WORKER_STATS", "STARPU_BUS_STATS", "STARPU_PROFILING",
	NULL};

/* StarPU 1.3.10's scheduling policies (STARPU_SCHED=help lists them). */
static const char *const schedulers[] = {
	"eager", "prio", "random", "lws", "ws", "dm", "dmda", "dmdap", "dmdar", "dmdas", "dmdasd",
	"pheft", "peager", "heteroprio", "graph_test", "modular-eager", "modular-eager-prefetching",
	"modular-eager-prio", "modular-gemm", "modular-prio", "modular-prio-prefetching",
	"modular-random", "modular-random-prio", "modular-random-prefetching",
	"modular-random-prio-prefetching", "modular-prandom", "modular-prandom-prio", "modular-ws",
	"modular-heft", "modular-heft-prio", "modular-heft2", "modular-heteroprio",
	"modular-heteroprio-heft", "modular-pheft", "help", NULL};

static int whole_number(const char *text)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	return *text && !*end && errno == 0 && v >= 0 && v <= INT_MAX;
}

/* Whether the folder path can be made (mkdir -p, as StarPU does first) and
 * written to: a file made there and removed again. */
static int can_make_folder(const char *path)
{
	char p[PATH_MAX];
	if (!*path || strlen(path) + 16 >= sizeof p)
		return 0;
	strcpy(p, path);
	for (char *c = p + 1;; c++)
		if (*c == '/' || !*c) {
			char end = *c;
			*c = 0;
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				return 0;
			if (!(*c = end))
				break;
		}
	strcat(p, "/.hyla-XXXXXX");
	int fd = mkstemp(p);
	if (fd < 0)
		return 0;
	close(fd);
	unlink(p);
	return 1;
}

int hyla__check_environment(void)
{
	for (int i = 0; numbers[i]; i++) {
		const char *v = getenv(numbers[i]);
		if (v && !whole_number(v))
			return hyla__error("hyla_init", HYLA_ERR_ENV,
			                   "%s = '%s' must be a whole number >= 0", numbers[i], v);
	}
	const char *sched = getenv("STARPU_SCHED");
	if (sched && *sched && STARPU_MAJOR_VERSION == 1 && STARPU_MINOR_VERSION == 3) {
		int known = 0;
		for (int i = 0; schedulers[i] && !known; i++)
			known = !strcmp(sched, schedulers[i]);
		if (!known)
			return hyla__error("hyla_init", HYLA_ERR_ENV,
			                   "STARPU_SCHED = '%s' is not a StarPU %d.%d scheduler "
			                   "(STARPU_SCHED=help lists them)",
			                   sched, STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION);
	}
	const char *folders[] = {"STARPU_HOME", "STARPU_PERF_MODEL_DIR"};
	for (int i = 0; i < 2; i++) {
		const char *v = getenv(folders[i]);
		if (v && !can_make_folder(v))
			return hyla__error("hyla_init", HYLA_ERR_ENV,
			                   "%s = '%s' is not a folder StarPU can make and write to",
			                   folders[i], v);
	}
	return HYLA_SUCCESS;
}
