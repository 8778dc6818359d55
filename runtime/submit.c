/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The one way hyla submits a task: a codelet, its data, one argument
 * structure of the codelet's own. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

int hyla__submitted(int ret, const char *codelet)
{
	if (ret == 0)
		return HYLA_SUCCESS;
	return hyla__error(codelet, HYLA_ERR_SUBMIT, "task submission failed (%s)",
	                   ret == -ENODEV ? "no worker can run it" : strerror(-ret));
}

int hyla__submit(const struct hyla_task *t)
{
	if (t->cl->dyn_nodes == hyla__main_ram_nodes && t->ndata > HYLA_HOST_BODY_BUFFERS)
		return HYLA_ERROR(HYLA_ERR_SUBMIT, "a %s task of more than %d buffers", t->cl->name,
		                  HYLA_HOST_BODY_BUFFERS);
	void *arg = NULL;
	if (t->arg_size) {
		arg = malloc(t->arg_size);
		if (!arg)
			return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", t->cl->name);
		memcpy(arg, t->arg, t->arg_size);
	}
	/* A task for all the cores holds their token too (runtime/spmd.c). */
	unsigned ctx = starpu_sched_ctx_get_context();
	int cores = t->all_cores == HYLA_CORES_BESIDE_GPU ? hyla__cores_worker_any(ctx)
	            : t->all_cores                       ? hyla__cores_worker(ctx)
	                                                 : -1;
	int ndata = t->ndata + (cores >= 0);
	struct starpu_data_descr *data = cores >= 0 ? malloc(sizeof *data * (size_t)ndata) : NULL;
	if (cores >= 0 && !data) {
		free(arg);
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", t->cl->name);
	}
	if (data) {
		memcpy(data, t->data, sizeof *data * (size_t)t->ndata);
		data[t->ndata] = (struct starpu_data_descr){hyla__cores_token(), STARPU_RW | STARPU_COMMUTE};
	}
	/* The task owns arg (STARPU_CL_ARGS): destroying it frees arg. */
	struct starpu_task *task = starpu_task_build(
		t->cl, STARPU_CALLBACK, hyla__task_done, STARPU_DATA_MODE_ARRAY, data ? data : t->data, ndata,
		STARPU_CL_ARGS, arg, t->arg_size, STARPU_PRIORITY, t->priority, STARPU_FLOPS, t->flops, 0);
	free(data);
	if (!task) {
		free(arg);
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", t->cl->name);
	}
	if (t->where)
		task->where = (int32_t)t->where;
	if (cores >= 0)
		task->execute_on_a_specific_worker = 1, task->workerid = (unsigned)cores;
	/* The models' check reads the footprint at the task's end, when its
	 * handles may be gone: StarPU keeps it once worked out, so work it out
	 * now; and it counts the tasks whose end it has yet to see. */
	int checked = hyla__model_checking();
	if (checked && t->cl->model)
		starpu_task_footprint(t->cl->model, task, NULL, 0);
	if (checked)
		hyla__model_check_expect(1);
	int ret = starpu_task_submit(task);
	if (ret) {
		task->destroy = 0;
		starpu_task_destroy(task);
		if (checked)
			hyla__model_check_expect(-1);
	}
	return hyla__submitted(ret, t->cl->name);
}

int hyla__submit_on_panels(struct hyla_task t, const starpu_data_handle_t *panels, int npanels,
                           enum starpu_data_access_mode mode_first,
                           enum starpu_data_access_mode mode_rest)
{
	int count = t.ndata + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", t.cl->name);
	for (int i = 0; i < t.ndata; i++)
		descr[i] = t.data[i];
	for (int p = 0; p < npanels; p++)
		descr[t.ndata + p] = (struct starpu_data_descr){panels[p], p ? mode_rest : mode_first};
	t.data = descr, t.ndata = count;
	int ret = hyla__submit(&t);
	free(descr);
	return ret;
}
