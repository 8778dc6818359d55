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
	if (req) {
		free(req->owned);
		if (req->finish)
			free(req->finish_arg);
	}
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

int hyla__request_vector(hyla_request *req, hyla_desc *d, void *x, int64_t len, int64_t nb,
                         size_t elsize)
{
	*d = (hyla_desc){0};
	if (len == 0)
		return HYLA_SUCCESS;
	int ret = hyla__desc_register(d, x, len, 1, len, nb, 1, elsize);
	if (ret != HYLA_SUCCESS)
		return ret;
	for (int64_t t = 0; t < d->mt; t++) {
		if (ret == HYLA_SUCCESS)
			ret = hyla__request_own(req, d->tiles[t]);
		else
			starpu_data_unregister_submit(d->tiles[t]);
	}
	return ret;
}

int hyla__request_matrix(hyla_request *req, int64_t m, int64_t n, int64_t nb, size_t elsize)
{
	size_t bytes = (size_t)(m * n) * elsize;
	void *ptr = hyla_malloc(bytes);
	if (!ptr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %lld-by-%lld copy", (long long)m,
		                  (long long)n);
	int ret = hyla__desc_register_views(&req->copy, ptr, m, n, m, nb, elsize);
	if (ret != HYLA_SUCCESS)
		hyla_free(ptr, bytes);
	return ret;
}

/* Unregisters and frees the request's copy, once its tasks are done. */
static void release_copy(hyla_request *req)
{
	hyla_desc *c = &req->copy;
	if (!c->tiles)
		return;
	void *ptr = c->ptr;
	size_t bytes = (size_t)(c->m * c->n) * c->elsize;
	hyla__desc_unregister(c);
	hyla_free(ptr, bytes);
}

/* A task that runs nowhere: it only waits for earlier accesses. */
static struct starpu_codelet fence_cl = {
	.where = STARPU_NOWHERE,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "hyla_fence",
};

/* A CPU task that does nothing: StarPU first brings its handles home. */
static void home_cpu(void *buffers[], void *arg)
{
	(void)buffers, (void)arg;
}

static struct starpu_codelet home_cl = {
	.cpu_funcs = {home_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "hyla_home",
};

/* The request's handles (R) home, into the caller's memory; then token (W). */
static int submit_home(const hyla_request *req, starpu_data_handle_t token)
{
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(req->nowned + 1));
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's home task");
	for (int i = 0; i < req->nowned; i++)
		descr[i] = (struct starpu_data_descr){req->owned[i], STARPU_R};
	descr[req->nowned] = (struct starpu_data_descr){token, STARPU_W};
	int ret = starpu_task_insert(&home_cl, STARPU_DATA_MODE_ARRAY, descr, req->nowned + 1, 0);
	free(descr);
	return hyla__submitted(ret, home_cl.name);
}

int hyla__request_fence(hyla_request *req, const hyla_desc *a, const hyla_desc *b)
{
	int count = (int)(a->nt + (b ? b->nt : 0));
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 1));
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's fence");
	for (int i = 0; i < count; i++)
		descr[i] = (struct starpu_data_descr){i < a->nt ? a->tiles[i] : b->tiles[i - a->nt],
		                                      STARPU_R};
	/* The request's handles home first (the fence follows them through the
	 * token): a later writer of the matrix finds them in the caller's memory. */
	starpu_data_handle_t token = NULL;
	int ret = HYLA_SUCCESS;
	if (req->nowned > 0) {
		starpu_void_data_register(&token);
		descr[count++] = (struct starpu_data_descr){token, STARPU_R};
		ret = submit_home(req, token);
	}
	struct starpu_task *task = NULL;
	if (ret == HYLA_SUCCESS &&
	    !(task = starpu_task_build(&fence_cl, STARPU_DATA_MODE_ARRAY, descr, count, 0)))
		ret = HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a request's fence");
	free(descr);
	if (task) {
		task->detach = 0;
		if (starpu_task_submit(task) == 0) {
			req->fence = task;
		} else {
			starpu_task_destroy(task);
			ret = HYLA_ERROR(HYLA_ERR_SUBMIT, "StarPU refused a request's fence");
		}
	}
	if (token)
		starpu_data_unregister_submit(token);
	return ret;
}

int hyla__gate(const hyla_desc *a)
{
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)a->nt);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a gate");
	for (int64_t t = 0; t < a->nt; t++)
		descr[t] = (struct starpu_data_descr){a->tiles[t], STARPU_RW};
	int ret = starpu_task_insert(&fence_cl, STARPU_DATA_MODE_ARRAY, descr, (int)a->nt, 0);
	free(descr);
	return hyla__submitted(ret, "hyla_gate");
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

void hyla__request_finish(hyla_request *req, int (*fn)(void *arg), void *arg)
{
	req->finish = fn;
	req->finish_arg = arg;
}

int hyla_request_wait(hyla_request *req)
{
	if (req->fence && hyla__running() != HYLA_SUCCESS)
		return HYLA_ERR_NOINIT;
	if (req->fence && starpu_task_wait(req->fence) != 0 && req->info == 0)
		req->info = HYLA_ERR_SUBMIT;
	req->fence = NULL;
	for (int i = 0; i < req->nowned; i++)
		starpu_data_unregister(req->owned[i]);
	req->nowned = 0;
	release_copy(req);
	/* A GPU task does not report what it found (it would need a host sync):
	 * the finish looks at the results, and the earliest column wins. */
	int found = req->finish ? req->finish(req->finish_arg) : 0;
	req->finish = NULL;
	if (found > 0 && req->info >= 0 && (req->info == 0 || found < req->info))
		req->info = found;
	return req->info;
}

int hyla__finish_sync(struct hyla_request *req, hyla_desc *a, int submitted)
{
	int info = hyla_request_wait(req);
	free(req->owned);
	hyla__desc_unregister(a);
	return submitted != HYLA_SUCCESS ? submitted : info;
}
