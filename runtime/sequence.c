/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Requests (hyla_async.h): what one asynchronous call leaves to wait for. */
#include <stdlib.h>
#include <sys/mman.h>
#include "runtime.h"

hyla_sequence *hyla_sequence_create(void)
{
	hyla_sequence *seq = calloc(1, sizeof *seq);
	if (!seq)
		HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence");
	return seq;
}

/* Frees the lists (what they point to is already released). */
static void free_lists(hyla_sequence *seq)
{
	for (int i = 0; i < seq->nfinishes; i++)
		free(seq->finishes[i].arg);
	free(seq->fences), free(seq->owned), free(seq->finishes), free(seq->copies);
}

void hyla_sequence_destroy(hyla_sequence *seq)
{
	if (seq)
		free_lists(seq);
	free(seq);
}

/* Room for one more element of size bytes in the list *list of *count
 * (capacity *room): 0, or -1 with nothing changed. */
static int grow(void *list, int count, int *room, size_t size)
{
	if (count < *room)
		return 0;
	int more = *room ? 2 * *room : 16;
	void *bigger = realloc(*(void **)list, size * (size_t)more);
	if (!bigger)
		return -1;
	*(void **)list = bigger;
	*room = more;
	return 0;
}

int hyla__sequence_own(hyla_sequence *seq, starpu_data_handle_t handle)
{
	if (grow(&seq->owned, seq->nowned, &seq->owned_room, sizeof *seq->owned)) {
		starpu_data_unregister_submit(handle);
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's handles");
	}
	seq->owned[seq->nowned++] = handle;
	return HYLA_SUCCESS;
}

int hyla__sequence_finish(hyla_sequence *seq, int (*fn)(void *arg), void *arg)
{
	if (grow(&seq->finishes, seq->nfinishes, &seq->finishes_room, sizeof *seq->finishes)) {
		free(arg);
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's list");
	}
	seq->finishes[seq->nfinishes++] = (struct hyla_finish){fn, arg};
	return HYLA_SUCCESS;
}

/* A finish with nothing to look at: the wait frees its argument. */
static int nothing(void *arg)
{
	(void)arg;
	return 0;
}

/* Blocks of at least this many bytes are mapped with their pages made at
 * once, here, while the call's first tasks run (the divide and conquer's
 * merges allocate at submission): written first by the merges' tasks, their
 * page faults made a run's first assembly tasks 2.7 times slower than a
 * later run's (eigh 2000 with vectors, 2 cores) and the tasks' times,
 * which the models learn, depend on what the process ran before. */
#define MAPPED_FROM (256u << 10)

struct mapping {
	void *at;
	size_t length;
};

static int unmap(void *arg)
{
	const struct mapping *m = arg;
	munmap(m->at, m->length);
	return 0;
}

void *hyla__sequence_malloc(hyla_sequence *seq, size_t bytes)
{
	if (bytes < MAPPED_FROM) {
		void *p = malloc(bytes ? bytes : 1);
		return p && hyla__sequence_finish(seq, nothing, p) == HYLA_SUCCESS ? p : NULL;
	}
	struct mapping *m = malloc(sizeof *m);
	void *at = m ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
	             : MAP_FAILED;
	if (at == MAP_FAILED) {
		free(m);
		return NULL;
	}
	*m = (struct mapping){at, bytes};
	if (hyla__sequence_finish(seq, unmap, m) != HYLA_SUCCESS) { /* it freed m */
		munmap(at, bytes);
		return NULL;
	}
	return at;
}

struct pinned {
	void *at;
	size_t bytes;
};

static int unpin(void *arg)
{
	const struct pinned *m = arg;
	starpu_free_flags(m->at, m->bytes, STARPU_MALLOC_PINNED);
	return 0;
}

void *hyla__sequence_pinned(hyla_sequence *seq, size_t bytes)
{
	struct pinned *m = malloc(sizeof *m);
	void *at = NULL;
	if (!m || starpu_malloc_flags(&at, bytes, STARPU_MALLOC_PINNED) != 0) {
		free(m);
		return NULL;
	}
	*m = (struct pinned){at, bytes};
	if (hyla__sequence_finish(seq, unpin, m) != HYLA_SUCCESS) { /* it freed m */
		starpu_free_flags(at, bytes, STARPU_MALLOC_PINNED);
		return NULL;
	}
	return at;
}

starpu_data_handle_t hyla__host_vector(void *at, size_t len, size_t elsize)
{
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)at, (uint32_t)len, elsize);
	return h;
}

int hyla__sequence_vector(hyla_sequence *seq, hyla_desc *d, void *x, int64_t len, int64_t nb,
                         size_t elsize)
{
	*d = (hyla_desc){0};
	if (len == 0)
		return HYLA_SUCCESS;
	int ret = hyla__desc_register(d, x, len, 1, len, nb, 1, elsize);
	return ret == HYLA_SUCCESS ? hyla__sequence_own_tiles(seq, d) : ret;
}

int hyla__sequence_own_tiles(hyla_sequence *seq, const hyla_desc *d)
{
	int ret = HYLA_SUCCESS;
	for (int64_t t = 0; t < d->mt * d->nt; t++) {
		if (ret == HYLA_SUCCESS)
			ret = hyla__sequence_own(seq, d->tiles[t]);
		else
			starpu_data_unregister_submit(d->tiles[t]);
	}
	return ret;
}

static void free_copy_memory(void *ptr, size_t bytes, int scratch)
{
	if (scratch)
		free(ptr);
	else
		hyla_free(ptr, bytes);
}

int hyla__sequence_matrix(hyla_sequence *seq, int64_t m, int64_t n, int64_t nb, size_t elsize,
                          int scratch, const hyla_desc **copy)
{
	size_t bytes = (size_t)(m * n) * elsize;
	hyla_desc *d = calloc(1, sizeof *d);
	void *ptr = d ? scratch ? malloc(bytes) : hyla_malloc(bytes) : NULL;
	if (!ptr || grow(&seq->copies, seq->ncopies, &seq->copies_room, sizeof *seq->copies)) {
		free(d);
		if (ptr)
			free_copy_memory(ptr, bytes, scratch);
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %lld-by-%lld copy", (long long)m,
		                  (long long)n);
	}
	int ret = scratch ? hyla__desc_register_output(d, ptr, m, n, m, nb, elsize)
	                  : hyla__desc_register_views(d, ptr, m, n, m, nb, elsize);
	if (ret != HYLA_SUCCESS) {
		free(d);
		free_copy_memory(ptr, bytes, scratch);
		return ret;
	}
	d->scratch = scratch;
	seq->copies[seq->ncopies++] = d;
	*copy = d;
	return HYLA_SUCCESS;
}

/* Unregisters and frees a copy, once its tasks are done. */
static void release_copy(hyla_desc *c)
{
	void *ptr = c->ptr;
	size_t bytes = (size_t)(c->m * c->n) * c->elsize;
	int scratch = c->scratch;
	hyla__desc_unregister(c);
	free_copy_memory(ptr, bytes, scratch);
	free(c);
}

/* A task that runs nowhere: it only waits for earlier accesses. */
static struct starpu_codelet fence_cl = {
	.where = STARPU_NOWHERE,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "hyla_fence",
};

/* A task that runs nowhere but ends only once StarPU has fetched its
 * handles into main memory (specific nodes): no worker runs it, so it needs
 * no core (STARPU_NCPU=0 has none). */
static struct starpu_codelet home_cl = {
	.where = STARPU_NOWHERE,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.specific_nodes = 1,
	.dyn_nodes = hyla__main_ram_nodes,
	.name = "hyla_home",
};

/* The sequence's handles (R) home, into the caller's memory; then token (W). */
static int submit_home(const hyla_sequence *seq, starpu_data_handle_t token)
{
	if (seq->nowned + 1 > HYLA_HOST_BODY_BUFFERS)
		return HYLA_ERROR(HYLA_ERR_SUBMIT, "a sequence of more than %d handles",
		                  HYLA_HOST_BODY_BUFFERS - 1);
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(seq->nowned + 1));
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's home task");
	for (int i = 0; i < seq->nowned; i++)
		descr[i] = (struct starpu_data_descr){seq->owned[i], STARPU_R};
	descr[seq->nowned] = (struct starpu_data_descr){token, STARPU_W};
	int ret = starpu_task_insert(&home_cl, STARPU_DATA_MODE_ARRAY, descr, seq->nowned + 1, 0);
	free(descr);
	return hyla__submitted(ret, home_cl.name);
}

int hyla__sequence_fence(hyla_sequence *seq, const hyla_desc *a, const hyla_desc *b)
{
	int count = (int)(a->nt + (b ? b->nt : 0));
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 1));
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's fence");
	for (int i = 0; i < count; i++)
		descr[i] = (struct starpu_data_descr){i < a->nt ? a->tiles[i] : b->tiles[i - a->nt],
		                                      STARPU_R};
	/* The sequence's handles home first (the fence follows them through the
	 * token): a later writer of the matrix finds them in the caller's memory. */
	starpu_data_handle_t token = NULL;
	int ret = HYLA_SUCCESS;
	if (seq->nowned > 0) {
		starpu_void_data_register(&token);
		descr[count++] = (struct starpu_data_descr){token, STARPU_R};
		ret = submit_home(seq, token);
	}
	struct starpu_task *task = NULL;
	if (ret == HYLA_SUCCESS &&
	    !(task = starpu_task_build(&fence_cl, STARPU_DATA_MODE_ARRAY, descr, count, 0)))
		ret = HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's fence");
	free(descr);
	if (task) {
		task->detach = 0;
		if (grow(&seq->fences, seq->nfences, &seq->fences_room, sizeof *seq->fences)) {
			starpu_task_destroy(task);
			ret = HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a sequence's fence");
		} else if (starpu_task_submit(task) == 0) {
			seq->fences[seq->nfences++] = task;
		} else {
			starpu_task_destroy(task);
			ret = HYLA_ERROR(HYLA_ERR_SUBMIT, "StarPU refused a sequence's fence");
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

void hyla__sequence_fail(hyla_sequence *seq, int info)
{
	if (!seq)
		return;
	/* The smallest failing index wins; 0 means none yet. */
	int seen = __atomic_load_n(&seq->info, __ATOMIC_RELAXED);
	while ((seen == 0 || info < seen) &&
	       !__atomic_compare_exchange_n(&seq->info, &seen, info, 0, __ATOMIC_RELAXED,
	                                    __ATOMIC_RELAXED))
		;
}

int hyla__sequence_check(const hyla_sequence *seq, int arg)
{
	if (!seq)
		return HYLA_ERROR(-arg, "seq is NULL");
	return hyla__sequence_failed(seq) ? HYLA_ERR_SEQUENCE : HYLA_SUCCESS;
}

int hyla__sequence_submitted(hyla_sequence *seq, int ret)
{
	int none = 0;
	if (ret != HYLA_SUCCESS)
		__atomic_compare_exchange_n(&seq->info, &none, ret, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return ret;
}

int hyla__sequence_failed(const hyla_sequence *seq)
{
	return seq && __atomic_load_n(&seq->info, __ATOMIC_RELAXED) != 0;
}

int hyla_sequence_wait(hyla_sequence *seq)
{
	if (!seq)
		return HYLA_ERROR(-1, "seq is NULL");
	if (seq->nfences + seq->nowned + seq->ncopies > 0 && hyla__running() != HYLA_SUCCESS)
		return HYLA_ERR_NOINIT;
	for (int i = 0; i < seq->nfences; i++)
		if (starpu_task_wait(seq->fences[i]) != 0 && seq->info == 0)
			seq->info = HYLA_ERR_SUBMIT;
	seq->nfences = 0;
	for (int i = 0; i < seq->nowned; i++)
		starpu_data_unregister(seq->owned[i]);
	seq->nowned = 0;
	for (int i = 0; i < seq->ncopies; i++)
		release_copy(seq->copies[i]);
	seq->ncopies = 0;
	/* A GPU task does not report what it found (it would need a host sync):
	 * each call's finish looks at its results and finds its earliest
	 * dependent column, wherever it was found. The first call in the
	 * sequence that has one gives info (the later ones may have skipped
	 * their work); a runtime error stays. */
	int first = 0;
	for (int i = 0; i < seq->nfinishes; i++) {
		int found = seq->finishes[i].fn(seq->finishes[i].arg);
		free(seq->finishes[i].arg);
		if (found > 0 && first == 0)
			first = found;
	}
	seq->nfinishes = 0;
	if (first > 0 && seq->info >= 0)
		seq->info = first;
	return seq->info;
}

int hyla__finish_sync(hyla_sequence *seq, hyla_desc *a, int submitted)
{
	int info = hyla_sequence_wait(seq);
	free_lists(seq);
	hyla__desc_unregister(a);
	return submitted != HYLA_SUCCESS ? submitted : info;
}
