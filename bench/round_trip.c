/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* round_trip: StarPU's cost of one task, the floor under every hyla task:
 * a chain of tasks that each read and write one small vector (each waits for
 * the one before), on a core and on a GPU, in microseconds a task; and the
 * same tasks submitted at once, independent (the throughput). Compares StarPU
 * builds (blocking or polling drivers: docs/models.md). Plain StarPU, no
 * hyla. Usage: round_trip [TASKS]  (default 2000) */
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>

static void nothing(void *buffers[], void *arg)
{
	(void)buffers, (void)arg;
}

static struct starpu_codelet touch_cl = {
	.cpu_funcs = {nothing},
#ifdef STARPU_USE_CUDA
	.cuda_funcs = {nothing},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "round_trip",
};

/* Microseconds a task: tasks on workers of one type, chained through one
 * vector (chained) or each on its own (independent). */
static double per_task_us(enum starpu_worker_archtype type, int tasks, int chained,
                          starpu_data_handle_t *v)
{
	int worker = starpu_worker_get_by_type(type, 0);
	double start = starpu_timing_now();
	for (int t = 0; t < tasks; t++) {
		struct starpu_task *task = starpu_task_create();
		task->cl = &touch_cl;
		task->handles[0] = v[chained ? 0 : t];
		task->execute_on_a_specific_worker = 1;
		task->workerid = (unsigned)worker;
		if (starpu_task_submit(task) != 0) {
			fprintf(stderr, "round_trip: task submission failed\n");
			exit(1);
		}
	}
	starpu_task_wait_for_all();
	return (starpu_timing_now() - start) / tasks;
}

int main(int argc, char **argv)
{
	int tasks = argc > 1 ? atoi(argv[1]) : 2000;
	if (tasks < 1 || tasks > 1000000) {
		fprintf(stderr, "usage: round_trip [TASKS] (1 to 1000000)\n");
		return 2;
	}
	if (starpu_init(NULL) != 0) {
		fprintf(stderr, "round_trip: starpu_init failed\n");
		return 1;
	}
	double *x = calloc((size_t)tasks * 16, sizeof *x);
	starpu_data_handle_t *v = malloc(sizeof *v * (size_t)tasks);
	if (!x || !v) {
		fprintf(stderr, "round_trip: out of memory\n");
		return 1;
	}
	for (int t = 0; t < tasks; t++)
		starpu_vector_data_register(&v[t], STARPU_MAIN_RAM, (uintptr_t)(x + 16 * t), 16, sizeof *x);
	printf("%-6s %12s %14s\n", "worker", "chained us", "independent us");
	enum starpu_worker_archtype types[] = {STARPU_CPU_WORKER, STARPU_CUDA_WORKER};
	const char *names[] = {"core", "gpu"};
	for (int k = 0; k < 2; k++) {
		if (starpu_worker_get_count_by_type(types[k]) < 1)
			continue;
		per_task_us(types[k], tasks / 10 + 1, 1, v); /* warm-up: the vectors where the worker reads them */
		per_task_us(types[k], tasks, 0, v);
		printf("%-6s %12.1f %14.1f\n", names[k], per_task_us(types[k], tasks, 1, v),
		       per_task_us(types[k], tasks, 0, v));
	}
	for (int t = 0; t < tasks; t++)
		starpu_data_unregister(v[t]);
	free(v);
	free(x);
	starpu_shutdown();
	return 0;
}
