/* Requests (hyla_async.h): what one asynchronous call leaves to wait for. */
#include <stdlib.h>
#include "runtime.h"

hyla_request *hyla_request_create(void)
{
	hyla_request *req = calloc(1, sizeof *req);
	if (!req)
		HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request");
	return req;
}

void hyla_request_destroy(hyla_request *req)
{
	if (req)
		free(req->owned);
	free(req);
}

int hyla__request_own(hyla_request *req, starpu_data_handle_t handle)
{
	if (req->nowned == req->capacity) {
		int grown = req->capacity ? 2 * req->capacity : 16;
		starpu_data_handle_t *more = realloc(req->owned, sizeof *more * (size_t)grown);
		if (!more) {
			starpu_data_unregister_submit(handle);
			return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's handles");
		}
		req->owned = more;
		req->capacity = grown;
	}
	req->owned[req->nowned++] = handle;
	return HYLA_SUCCESS;
}

/* A task that runs nowhere: it only waits for earlier accesses. */
static struct starpu_codelet fence_cl = {
	.where = STARPU_NOWHERE,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "hyla_fence",
};

int hyla__request_fence(hyla_request *req, const starpu_data_handle_t *handles, int count)
{
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's fence");
	for (int i = 0; i < count; i++)
		descr[i] = (struct starpu_data_descr){handles[i], STARPU_R};
	struct starpu_task *task = starpu_task_build(&fence_cl, STARPU_DATA_MODE_ARRAY, descr, count, 0);
	free(descr);
	if (!task)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's fence");
	task->detach = 0;
	if (starpu_task_submit(task) != 0) {
		starpu_task_destroy(task);
		return HYLA_ERROR(HYLA_ERR_SUBMIT, "StarPU refused a request's fence");
	}
	req->fence = task;
	return HYLA_SUCCESS;
}

void hyla__request_fail(hyla_request *req, int info)
{
	if (!req)
		return;
	/* The smallest failing index wins; 0 means none yet. */
	int seen = __atomic_load_n(&req->info, __ATOMIC_RELAXED);
	while ((seen == 0 || info < seen) &&
	       !__atomic_compare_exchange_n(&req->info, &seen, info, 0, __ATOMIC_RELAXED,
	                                    __ATOMIC_RELAXED))
		;
}

int hyla__request_failed(const hyla_request *req)
{
	return req && __atomic_load_n(&req->info, __ATOMIC_RELAXED) != 0;
}

int64_t hyla__first_zero_pivot(int64_t n, const void *r, int64_t ldr, size_t elsize)
{
	for (int64_t j = 0; j < n; j++) {
		double d = elsize == sizeof(double) ? ((const double *)r)[j + j * ldr]
		                                    : ((const float *)r)[j + j * ldr];
		if (!(d > 0))
			return j + 1;
	}
	return 0;
}

int hyla_request_wait(hyla_request *req)
{
	if (req->fence && starpu_task_wait(req->fence) != 0 && req->info == 0)
		req->info = HYLA_ERR_SUBMIT;
	req->fence = NULL;
	for (int i = 0; i < req->nowned; i++)
		starpu_data_unregister(req->owned[i]);
	req->nowned = 0;
	/* A GPU task does not report a vanished column (it would need a host
	 * sync): the diagonal tells, and the earliest column wins. */
	int64_t zero = req->pivots && req->info >= 0
	                   ? hyla__first_zero_pivot(req->pivots_n, req->pivots, req->pivots_ld,
	                                            req->pivots_elsize)
	                   : 0;
	if (zero > 0 && (req->info == 0 || zero < req->info))
		req->info = (int)zero;
	req->pivots = NULL;
	return req->info;
}

int hyla__finish_sync(struct hyla_request *req, hyla_desc *a, int submitted)
{
	int info = hyla_request_wait(req);
	free(req->owned);
	hyla__desc_unregister(a);
	return submitted != HYLA_SUCCESS ? submitted : info;
}
