/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Matrix descriptors: a column-major matrix registered as a grid of tiles. */
#include <stdlib.h>
#include <pthread.h>
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <cuda_runtime.h>
#endif

int hyla__desc_register(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                        int64_t mb, int64_t nb, size_t elsize)
{
	*d = (hyla_desc){.ptr = ptr, .m = m, .n = n, .ld = ld, .mb = mb, .nb = nb,
	                 .mt = (m + mb - 1) / mb, .nt = (n + nb - 1) / nb, .elsize = elsize};
	d->tiles = malloc(sizeof *d->tiles * (size_t)(d->mt * d->nt));
	if (!d->tiles)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld tile handles",
		                  (long long)(d->mt * d->nt));
	for (int64_t j = 0; j < d->nt; j++)
		for (int64_t i = 0; i < d->mt; i++) {
			int64_t rows = hyla__tile_rows(d, i), cols = hyla__tile_cols(d, j);
			uintptr_t home = 0;
			int node = -1;
			uint32_t tile_ld = (uint32_t)rows;
			if (ptr) {
				home = (uintptr_t)(d->ptr + (size_t)(i * mb + j * nb * ld) * elsize);
				node = STARPU_MAIN_RAM;
				tile_ld = (uint32_t)ld;
			}
			starpu_matrix_data_register(&d->tiles[i + j * d->mt], node, home, tile_ld,
			                            (uint32_t)rows, (uint32_t)cols, elsize);
		}
	return HYLA_SUCCESS;
}

/* Column panels of width nb (the last one narrower). */
static void column_panels(void *parent_interface, void *child_interface, struct starpu_data_filter *f,
                          unsigned id, unsigned nchildren)
{
	(void)nchildren;
	struct starpu_matrix_interface *parent = parent_interface, *child = child_interface;
	uint32_t nb = (uint32_t)f->filter_arg, first = id * nb;
	*child = *parent;
	child->ny = parent->ny - first < nb ? parent->ny - first : nb;
	child->allocsize = (size_t)child->nx * child->ny * child->elemsize;
	if (parent->dev_handle) {
		size_t offset = (size_t)first * parent->ld * parent->elemsize;
		if (parent->ptr)
			child->ptr = parent->ptr + offset;
		child->offset = parent->offset + offset;
	}
}

/* Each view tagged with the node where its block is one matrix
 * (hyla__task_home reads it), or untagged (node -1). */
static void tag_views(const hyla_desc *d, const struct hyla_block *b, int node)
{
	for (int64_t j = b->first; j < b->end; j++)
		starpu_data_set_user_data(d->tiles[j], (void *)(intptr_t)(node + 1));
}

/* Each block's parent cut into its column panels of d->nb, views of its memory. */
static void partition_views(hyla_desc *d)
{
	for (int i = 0; i < d->nblocks; i++) {
		struct hyla_block *b = &d->blocks[i];
		struct starpu_data_filter panels = {.filter_func = column_panels,
		                                    .nchildren = (unsigned)(b->end - b->first),
		                                    .filter_arg = (unsigned)d->nb};
		starpu_data_partition(b->parent, &panels);
		for (int64_t j = b->first; j < b->end; j++)
			d->tiles[j] = starpu_data_get_sub_data(b->parent, 1, (unsigned)(j - b->first));
		tag_views(d, b, b->node);
	}
}

const struct hyla_block *hyla__desc_block(const hyla_desc *d, int64_t j)
{
	int i = 0;
	while (i + 1 < d->nblocks && d->blocks[i].end <= j)
		i++;
	return &d->blocks[i];
}

#ifdef HYLA_WITH_CUDA
/* Rows r0.. of panel j of d (rows r0 = j * skip on) to its copy at dev on
 * the GPU node, on a stream of its own: tasks already running on the GPU go
 * on meanwhile. */
static int copy_below(const hyla_desc *d, unsigned node, char *dev, int64_t ldd, int64_t j,
                      int64_t skip)
{
	int64_t r0 = skip * j < d->m ? skip * j : d->m, cols = hyla__tile_cols(d, j);
	const char *host = d->ptr + (size_t)(j * d->nb * d->ld) * d->elsize;
	int device, ok;
	cudaStream_t stream;
	cudaGetDevice(&device);
	cudaSetDevice(starpu_memory_node_get_devid(node));
	ok = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess;
	if (ok) {
		ok = r0 == d->m ||
		     (cudaMemcpy2DAsync(dev + (size_t)r0 * d->elsize, (size_t)ldd * d->elsize,
		                        host + (size_t)r0 * d->elsize, (size_t)d->ld * d->elsize,
		                        (size_t)(d->m - r0) * d->elsize, (size_t)cols,
		                        cudaMemcpyHostToDevice, stream) == cudaSuccess &&
		      cudaStreamSynchronize(stream) == cudaSuccess);
		cudaStreamDestroy(stream);
	}
	cudaSetDevice(device);
	return ok ? HYLA_SUCCESS
	          : HYLA_ERROR(HYLA_ERR_NODEV, "copying the reflectors to the GPU failed");
}

/* handle's copy on the GPU node, acquired there for writing (StarPU makes
 * room without a transfer, the host's copy then invalid), filled with rows
 * j * skip.. of the panels j in [first, end) of d. A failed copy leaves the
 * GPU's copy, the valid one, part garbage: the call fails. */
static int send_below(const hyla_desc *d, starpu_data_handle_t handle, unsigned node,
                      int64_t first, int64_t end, int64_t skip)
{
	if (starpu_data_acquire_on_node(handle, (int)node, STARPU_W))
		return HYLA_ERROR(HYLA_ERR_NOMEM, "the %lld-by-%lld matrix does not fit in GPU memory",
		                  (long long)d->m, (long long)d->n);
	const struct starpu_matrix_interface *dev = starpu_data_get_interface_on_node(handle, node);
	int ret = HYLA_SUCCESS;
	for (int64_t j = first; j < end && ret == HYLA_SUCCESS; j++)
		ret = copy_below(d, node, (char *)dev->ptr + (size_t)((j - first) * d->nb * (int64_t)dev->ld) *
		                                                   d->elsize,
		                 (int64_t)dev->ld, j, skip);
	starpu_data_release_on_node(handle, (int)node);
	return ret;
}
#endif

enum { WHOLE = -1, STREAMED = -2, OUTPUT = -3 }; /* register_views' skip */
enum { SENT_BY_PANEL_BYTES = 64 << 20 };            /* reflectors sent by panel from this size */
/* Spread over as many GPUs as hold this much of the matrix each: with less,
 * the steps' own costs outweigh the work shared (H200s: geqrf 8000, 0.5 GB,
 * 0.069 s on two against 0.056 s on one; 16000, 2 GB, 0.198 s on two
 * against 0.223 s; 12000, 1.2 GB, 0.30 s on four). */
enum { SPREAD_PER_GPU_BYTES = 768 << 20 };

static int64_t block_cols(const hyla_desc *d, const struct hyla_block *b)
{
	return (b->end * d->nb < d->n ? b->end * d->nb : d->n) - b->first * d->nb;
}

static size_t block_bytes(const hyla_desc *d, const struct hyla_block *b)
{
	return (size_t)(d->m * block_cols(d, b)) * d->elsize;
}

/* The block's room on its GPU node, hyla's (b->room): the panels inherit
 * it, invalid there. 0 where it cannot be had (StarPU keeps buffers of
 * earlier data there that only its own allocations reclaim). */
static int own_room(const hyla_desc *d, struct hyla_block *b)
{
	if ((b->room = starpu_malloc_on_node((unsigned)b->node, block_bytes(d, b))))
		starpu_matrix_ptr_register(b->parent, (unsigned)b->node, b->room, b->room, 0,
		                           (uint32_t)d->m);
	return b->room != 0;
}

/* Room, not data, on the block's GPU node for STREAMED and OUTPUT; where
 * hyla's cannot be had, StarPU's own allocation: the whole copy, or for an
 * output the parent acquired there for writing (no transfer). */
static int make_room(const hyla_desc *d, struct hyla_block *b, int64_t skip)
{
	if (own_room(d, b))
		return HYLA_SUCCESS;
	int failed = skip == STREAMED ? starpu_data_fetch_on_node(b->parent, (unsigned)b->node, 0)
	                              : starpu_data_acquire_on_node(b->parent, b->node, STARPU_W);
	if (!failed && skip == OUTPUT)
		starpu_data_release_on_node(b->parent, b->node);
	return failed ? HYLA_ERROR(HYLA_ERR_NOMEM, "the %lld-by-%lld matrix does not fit in GPU memory",
	                           (long long)d->m, (long long)d->n)
	              : HYLA_SUCCESS;
}

/* The block's parent registered and, on a GPU, sent or given room there as
 * skip says (register_views). */
static int place_block(hyla_desc *d, struct hyla_block *b, int64_t skip)
{
	int64_t c0 = b->first * d->nb;
	starpu_matrix_data_register(&b->parent, STARPU_MAIN_RAM,
	                            (uintptr_t)(d->ptr + (size_t)(c0 * d->ld) * d->elsize),
	                            (uint32_t)d->ld, (uint32_t)d->m, (uint32_t)block_cols(d, b), d->elsize);
	unsigned node = (unsigned)b->node;
	if (node == STARPU_MAIN_RAM || d->out_of_core)
		return HYLA_SUCCESS;
	if (skip == WHOLE)
		return starpu_data_fetch_on_node(b->parent, node, 0)
		           ? HYLA_ERROR(HYLA_ERR_NOMEM, "the %lld-by-%lld matrix does not fit in GPU memory",
		                        (long long)d->m, (long long)d->n)
		           : HYLA_SUCCESS;
	if (skip == STREAMED || skip == OUTPUT)
		return make_room(d, b, skip);
#ifdef HYLA_WITH_CUDA
	/* Reflectors of a small matrix all at once: sent by panel, each send's
	 * own costs outweigh the overlap (H100, orgqr 2000 in four pairs: 4.6-4.7
	 * ms whole, 4.6-5.8 ms by panel). */
	if (!(d->send_skip && own_room(d, b)))
		return send_below(d, b->parent, node, b->first, b->end, skip);
#endif
	return HYLA_SUCCESS;
}

/* Out of core: a matrix of more than three quarters of a GPU's memory as
 * StarPU counts it, less its chunk (STARPU_LIMIT_CUDA_MEM lowers it; with
 * ngpus > 1 its share of each) in column blocks of at most a quarter of it
 * (*widest panels; wider where HYLA_MAX_BLOCKS would not cover it, up to a
 * third), with no room of hyla's: StarPU brings the panels to the GPU as
 * tasks need them and evicts others; the algorithms keep two blocks (CGS
 * two panels) at work at most (see geqrf's, orgqr's and cgs's). Panels
 * wider than an eighth of the memory are refused: the CUDA worker's
 * pipeline holds the data of several tasks (a task's inputs are kept while
 * its others arrive), and with such panels they waited on each other for
 * ever (H200, 3000-by-512 panels under 48 MB). Blocks of an eighth were
 * slower (qr_householder 16000 under 1 GB 2.7 s against 1.1 s). Only for
 * algorithms that take their matrix in column blocks (blocks_ok); the
 * others' matrix refused in a line. StarPU takes GPU buffers of up to 4 MB
 * from chunks of 32 MB, which hyla's room must leave free: a matrix whole
 * (with the matrices its call holds beside it) takes at most three
 * quarters of the memory less a chunk, else the first task needing a small
 * buffer waits for ever (H200: hr_reduce 1500, 18 MB, under 40 MB;
 * qr_householder 2400, 46 MB, under 64 MB); below a chunk nothing is taken
 * (a 130-by-100 QR, nb 8, under 16 MB). */
enum { SUBALLOC_CHUNK_BYTES = 32 << 20 };
static const double MB = 1.0 / (1 << 20);

static starpu_ssize_t gpu_room(int node)
{
	return node == STARPU_MAIN_RAM ? 0 : starpu_memory_get_total((unsigned)node);
}

/* Three quarters of the memory less StarPU's chunk: the most a matrix (and
 * what its call holds beside it) may take whole. */
static double whole_room(starpu_ssize_t room)
{
	return 0.75 * (double)(room - SUBALLOC_CHUNK_BYTES);
}

/* The rules every matrix taken in panels out of core keeps, column blocks
 * of views or separate panels (MGS's): room for StarPU's chunk, panels of
 * at most 1/parts of the GPU's memory (a 3000-by-1700 MGS in panels of
 * 256 columns, 6 MB, under 32 MB waited for ever). */
static int room_for_panels(const hyla_desc *d, starpu_ssize_t room, int parts)
{
	double panel = (double)d->m * (double)d->nb * (double)d->elsize;
	double bytes = (double)d->m * (double)d->n * (double)d->elsize;
	if (room > 0 && room < SUBALLOC_CHUNK_BYTES)
		return HYLA_ERROR(HYLA_ERR_TOO_LARGE, "the GPU's %.0f MB (STARPU_LIMIT_CUDA_MEM) are less "
		                  "than the 32 MB StarPU takes small buffers from", (double)room * MB);
	if (room > 0 && bytes > whole_room(room) && panel > (double)room / parts)
		return HYLA_ERROR(HYLA_ERR_TOO_LARGE, "out of core the %lld-by-%lld matrix's panels (%.0f MB) "
		                  "must be at most 1/%d of the GPU's %.0f MB: a smaller block size",
		                  (long long)d->m, (long long)d->n, panel * MB, parts, (double)room * MB);
	return HYLA_SUCCESS;
}

static int room_on_gpus(hyla_desc *d, int node, int ngpus, int blocks_ok, double beside,
                        int64_t *widest)
{
	starpu_ssize_t room = gpu_room(node);
	double bytes = (double)d->m * (double)d->n * (double)d->elsize;
	double panel = (double)d->m * (double)d->nb * (double)d->elsize, share = bytes / ngpus;
	if (room > 0 && room < SUBALLOC_CHUNK_BYTES)
		return room_for_panels(d, room, 8);
	if (room <= 0 || share + beside <= whole_room(room))
		return HYLA_SUCCESS;
	if (!blocks_ok)
		return HYLA_ERROR(HYLA_ERR_TOO_LARGE, "the %lld-by-%lld matrix (%.0f MB%s) is more than "
		                  "three quarters of the %.0f MB the GPU's %.0f MB leave beside StarPU's "
		                  "32 MB chunk, and this call needs it whole there", (long long)d->m,
		                  (long long)d->n, (bytes + beside) * MB, beside > 0 ? " with its others" : "",
		                  (double)(room - SUBALLOC_CHUNK_BYTES) * MB, (double)room * MB);
	int64_t most = (int64_t)((double)room / 4 / panel), blocks = HYLA_MAX_BLOCKS / ngpus * ngpus;
	int64_t need = (d->nt + blocks - 1) / blocks;
	if (panel > (double)room / 8)
		return room_for_panels(d, room, 8);
	*widest = most > need ? most : need;
	if ((double)*widest * panel > (double)room / 3)
		return HYLA_ERROR(HYLA_ERR_TOO_LARGE, "the %lld-by-%lld matrix (%.0f MB) is too large for the "
		                  "%d GPU(s)' %.0f MB each, even out of core", (long long)d->m,
		                  (long long)d->n, bytes * MB, ngpus, (double)room * MB);
	d->out_of_core = 1;
	return HYLA_SUCCESS;
}

int hyla__fits_panels(int64_t m, int64_t n, int64_t nb, size_t elsize, int parts)
{
	hyla_desc d = {.m = m, .n = n, .nb = nb, .elsize = elsize};
	return room_for_panels(&d, gpu_room(hyla__devices_update(starpu_sched_ctx_get_context())),
	                       parts);
}

int hyla__fits_whole(int64_t m, int64_t n, int64_t beside, size_t elsize)
{
	int64_t widest = 0;
	hyla_desc d = {.m = m, .n = n, .nb = n > 0 ? n : 1, .nt = 1, .elsize = elsize};
	return room_on_gpus(&d, hyla__devices_update(starpu_sched_ctx_get_context()), 1, 0,
	                    (double)beside * (double)elsize, &widest);
}

/* skip WHOLE: the whole parent to the GPU; STREAMED: room there, the panels
 * prefetched after; OUTPUT: room there alone (its tasks write before they
 * read); else only rows from skip * j on in panel j: for a large matrix
 * with hyla's room, each panel when hyla__desc_send_panel says, else all of
 * them now. layout: hyla__desc_register_streamed's. */
static int register_views(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld, int64_t nb,
                          size_t elsize, int64_t skip, enum hyla_layout layout)
{
	*d = (hyla_desc){.ptr = ptr, .m = m, .n = n, .ld = ld, .mb = m, .nb = nb, .mt = 1,
	                 .nt = (n + nb - 1) / nb, .elsize = elsize};
	d->tiles = malloc(sizeof *d->tiles * (size_t)d->nt);
	if (!d->tiles)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld handles", (long long)d->nt);
	unsigned ctx = starpu_sched_ctx_get_context();
	int node = hyla__devices_update(ctx);
	const int *gpus;
	int ngpus = hyla__gpu_nodes(ctx, &gpus);
	int64_t first[HYLA_MAX_BLOCKS + 1] = {0, d->nt}, widest = 0;
	size_t bytes = (size_t)(m * n) * elsize, share = bytes / SPREAD_PER_GPU_BYTES;
	if (layout != HYLA_LAYOUT_SPREAD || ngpus < 1)
		ngpus = 1;
	else if ((size_t)ngpus > share)
		ngpus = share > 1 ? (int)share : 1;
	int ret = room_on_gpus(d, node, ngpus, layout != HYLA_LAYOUT_WHOLE, 0, &widest);
	if (ret != HYLA_SUCCESS) {
		free(d->tiles);
		*d = (hyla_desc){0};
		return ret;
	}
	d->nblocks = ngpus > 1 || widest ? hyla__column_blocks(d->nt, ngpus, widest, first) : 1;
	if (skip >= 0 && !widest && (double)bytes >= SENT_BY_PANEL_BYTES)
		d->send_skip = skip;
	int placed = 0;
	for (; placed < d->nblocks && ret == HYLA_SUCCESS; placed++) {
		d->blocks[placed] = (struct hyla_block){.node = d->nblocks > 1 ? gpus[placed % ngpus] : node,
		                                        .first = first[placed], .end = first[placed + 1]};
		ret = place_block(d, &d->blocks[placed], skip);
	}
	if (ret != HYLA_SUCCESS) { /* the host's copy as it was: a partial one on a GPU stays there */
		for (int i = 0; i < placed; i++) {
			starpu_data_unregister_no_coherency(d->blocks[i].parent);
			if (d->blocks[i].room)
				starpu_free_on_node((unsigned)d->blocks[i].node, d->blocks[i].room,
				                    block_bytes(d, &d->blocks[i]));
		}
		free(d->tiles);
		*d = (hyla_desc){0};
		return ret;
	}
	partition_views(d);
	for (int64_t j = 0; skip == STREAMED && j < d->nt; j++) {
		const struct hyla_block *b = hyla__desc_block(d, j);
		if (b->room)
			starpu_data_prefetch_on_node(d->tiles[j], (unsigned)b->node, 1);
	}
	return HYLA_SUCCESS;
}

int hyla__desc_register_views(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                              int64_t nb, size_t elsize)
{
	return register_views(d, ptr, m, n, ld, nb, elsize, WHOLE, HYLA_LAYOUT_WHOLE);
}

int hyla__desc_register_streamed(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                                 int64_t nb, size_t elsize, enum hyla_layout layout)
{
	return register_views(d, ptr, m, n, ld, nb, elsize, STREAMED, layout);
}

int hyla__desc_register_output(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                               int64_t nb, size_t elsize)
{
	return register_views(d, ptr, m, n, ld, nb, elsize, OUTPUT, HYLA_LAYOUT_WHOLE);
}

int hyla__desc_register_reflectors(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                                   int64_t nb, size_t elsize, enum hyla_layout layout)
{
	return register_views(d, ptr, m, n, ld, nb, elsize, nb, layout);
}

int hyla__desc_send_panel(const hyla_desc *d, int64_t j)
{
#ifdef HYLA_WITH_CUDA
	const struct hyla_block *b = hyla__desc_block(d, j);
	if (d->send_skip && b->room)
		return send_below(d, d->tiles[j], (unsigned)b->node, j, j + 1, d->send_skip);
#endif
	(void)d, (void)j;
	return HYLA_SUCCESS;
}

int hyla__desc_wrap(hyla_desc *d, starpu_data_handle_t handle, int64_t nb)
{
	int64_t m = starpu_matrix_get_nx(handle), n = starpu_matrix_get_ny(handle);
	char *host = (char *)starpu_matrix_get_local_ptr(handle); /* 0 if none there yet */
	*d = (hyla_desc){.ptr = host, .m = m, .n = n,
	                 .ld = host ? starpu_matrix_get_local_ld(handle) : m, .mb = m, .nb = nb < n ? nb : n,
	                 .mt = 1, .elsize = starpu_matrix_get_elemsize(handle), .nblocks = 1,
	                 .borrowed = 1};
	d->nt = (n + d->nb - 1) / d->nb;
	if (!(d->tiles = malloc(sizeof *d->tiles * (size_t)d->nt)))
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld handles", (long long)d->nt);
	/* On the GPU whole (a no-op where it is valid there already), so that
	 * panels next to each other are one matrix there too: acquired there,
	 * after the application's tasks on it (a prefetch would not wait). */
	int node = hyla__devices_update(starpu_sched_ctx_get_context());
	d->blocks[0] = (struct hyla_block){.parent = handle, .node = node, .end = d->nt};
	if (node != STARPU_MAIN_RAM) {
		if (starpu_data_acquire_on_node(handle, node, STARPU_R)) {
			free(d->tiles);
			*d = (hyla_desc){0};
			return HYLA_ERROR(HYLA_ERR_NOMEM, "the %lld-by-%lld matrix does not fit in GPU "
			                  "memory", (long long)m, (long long)n);
		}
		starpu_data_release_on_node(handle, node);
	}
	partition_views(d);
	return HYLA_SUCCESS;
}

/* Where block b gathers its panels once their tasks are done (a borrowed
 * handle's, or a scratch matrix's, whose contents go nowhere): its GPU or
 * the host, whichever has the more of them valid (the fewer bytes cross
 * the bus). */
static unsigned gathering_node(const hyla_desc *d, const struct hyla_block *b)
{
	unsigned gpu = (unsigned)b->node;
	int64_t missing_gpu = 0, missing_host = 0;
	for (int64_t j = b->first; j < b->end; j++) {
		starpu_data_acquire_on_node(d->tiles[j], STARPU_ACQUIRE_NO_NODE, STARPU_R);
		starpu_data_release_on_node(d->tiles[j], STARPU_ACQUIRE_NO_NODE);
		int64_t cols = hyla__tile_cols(d, j);
		missing_gpu += starpu_data_is_on_node(d->tiles[j], gpu) ? 0 : cols;
		missing_host += starpu_data_is_on_node(d->tiles[j], STARPU_MAIN_RAM) ? 0 : cols;
	}
	return missing_gpu < missing_host ? gpu : STARPU_MAIN_RAM;
}

static void desc_release(hyla_desc *d, void (*unregister)(starpu_data_handle_t))
{
	if (d->borrowed) {
		unsigned node = gathering_node(d, &d->blocks[0]);
		tag_views(d, &d->blocks[0], -1);
		starpu_data_unpartition(d->blocks[0].parent, node);
		free(d->tiles);
		*d = (hyla_desc){0};
		return;
	}
	if (d->nblocks) {
		for (int i = 0; i < d->nblocks; i++) {
			struct hyla_block *b = &d->blocks[i];
			tag_views(d, b, -1);
			starpu_data_unpartition(b->parent, d->scratch ? gathering_node(d, b) : STARPU_MAIN_RAM);
			if (d->scratch)
				starpu_data_unregister_no_coherency(b->parent);
			else
				starpu_data_unregister(b->parent);
			if (b->room)
				starpu_free_on_node((unsigned)b->node, b->room, block_bytes(d, b));
		}
		free(d->tiles);
		d->tiles = NULL;
		d->nblocks = 0;
		return;
	}
	if (!d->tiles)
		return;
	for (int64_t t = 0; t < d->mt * d->nt; t++)
		unregister(d->tiles[t]);
	free(d->tiles);
	d->tiles = NULL;
}

void hyla__desc_unregister(hyla_desc *d)
{
	desc_release(d, starpu_data_unregister);
}

void hyla__desc_unregister_submit(hyla_desc *d)
{
	desc_release(d, starpu_data_unregister_submit);
}

static void release_handle(void *handle)
{
	starpu_data_release(handle);
}

void hyla__prefetch(const starpu_data_handle_t *handles, int64_t count)
{
	int node = hyla__views_node(starpu_sched_ctx_get_context());
	for (int64_t k = 0; node != STARPU_MAIN_RAM && k < count; k++)
		starpu_data_prefetch_on_node(handles[k], (unsigned)node, 1);
}

void hyla__wait_tasks(starpu_data_handle_t handle)
{
	if (starpu_data_acquire_on_node(handle, STARPU_ACQUIRE_NO_NODE, STARPU_R) == 0)
		starpu_data_release_on_node(handle, STARPU_ACQUIRE_NO_NODE);
}

void hyla__write_back(const hyla_desc *d, int64_t i, int64_t j)
{
	if (d->borrowed)
		return;
	starpu_data_handle_t handle = hyla__tile(d, i, j);
	starpu_data_acquire_cb(handle, STARPU_R, release_handle, handle);
}

/* The listener; the lock is held while it runs, so that once
 * hyla_set_progress returns the previous one is not called any more. */
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static hyla_progress_fn progress_fn;
static void *progress_arg;

void hyla_set_progress(hyla_progress_fn fn, void *arg)
{
	pthread_mutex_lock(&progress_lock);
	progress_fn = fn;
	progress_arg = arg;
	pthread_mutex_unlock(&progress_lock);
}

struct progress_mark {
	starpu_data_handle_t handle;
	int64_t done, total;
};

static void progress_reached(void *arg)
{
	struct progress_mark *mark = arg;
	pthread_mutex_lock(&progress_lock);
	if (progress_fn)
		progress_fn(mark->done, mark->total, progress_arg);
	pthread_mutex_unlock(&progress_lock);
	starpu_data_release_on_node(mark->handle, STARPU_ACQUIRE_NO_NODE);
	free(mark);
}

void hyla__progress_mark(starpu_data_handle_t handle, int64_t done, int64_t total)
{
	pthread_mutex_lock(&progress_lock);
	int listening = progress_fn != NULL;
	pthread_mutex_unlock(&progress_lock);
	struct progress_mark *mark = listening ? malloc(sizeof *mark) : NULL;
	if (!mark)
		return;
	*mark = (struct progress_mark){handle, done, total};
	/* No node: wait for the tasks, move no data. */
	starpu_data_acquire_on_node_cb(handle, STARPU_ACQUIRE_NO_NODE, STARPU_R, progress_reached, mark);
}

starpu_data_handle_t hyla__workspace(int64_t rows, int64_t cols, size_t elsize)
{
	starpu_data_handle_t h;
	starpu_matrix_data_register(&h, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols, elsize);
	return h;
}

starpu_data_handle_t hyla__workspace_vector(int64_t len, size_t elsize)
{
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, -1, 0, (uint32_t)len, elsize);
	return h;
}

void hyla__workspace_release(starpu_data_handle_t handle)
{
	if (handle)
		starpu_data_unregister_submit(handle);
}
