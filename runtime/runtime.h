/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Internal runtime layer: StarPU start-up, matrix descriptors, errors. */
#ifndef HYLA_RUNTIME_H
#define HYLA_RUNTIME_H

#include <limits.h>
#include <starpu.h>
#include <stdint.h>
#include "hyla.h"
#include "hyla_async.h"

/* Starts hyla (and StarPU) on first use for the synchronous routines; the
 * matching hyla_finalize runs at exit. Returns 0 or HYLA_ERR_STARPU. */
int hyla__ensure_init(void);
/* HYLA_SUCCESS while hyla_init is in effect, else HYLA_ERR_NOINIT (a line
 * on stderr). */
int hyla__running(void);
/* HYLA_SUCCESS, or HYLA_ERR_ENV with a line on stderr if a StarPU setting
 * in the environment would make starpu_init abort or mislead. */
int hyla__check_environment(void);

/* Whether ctx is a scheduling context hyla's tasks can go to: 0 (the
 * calling thread's), or one the application made, with workers. */
int hyla__context_valid(unsigned ctx);
/* A call's tasks go to o->sched_ctx (unless 0) from the calling thread,
 * and hyla_ncuda/hyla_ncpus count its workers, until hyla__context_leave
 * with enter's result puts back the thread's outer context. */
unsigned hyla__context_enter(const hyla_options *o);
void hyla__context_leave(const hyla_options *o, unsigned outer);

/* Print "hyla: <func>: <message>" on stderr and return code. */
int hyla__error(const char *func, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define HYLA_ERROR(code, ...) hyla__error(__func__, (code), __VA_ARGS__)

/* A column-major m-by-n matrix (leading dimension ld) registered with StarPU
 * as a grid of mb-by-nb tiles, each its own handle (the last row and column
 * of tiles may be smaller). mb = m gives column panels. A NULL ptr registers
 * tiles without host memory: workspace that StarPU allocates where used. */
/* Column panels that are views: of one parent handle, or spread over the
 * GPUs (hyla__desc_register_streamed), of one parent per column block. */
#define HYLA_MAX_BLOCKS 64
struct hyla_block {
	starpu_data_handle_t parent; /* panels [first, end) are views of it */
	int node;                    /* their GPU (where they are one matrix unless out of core),
	                                or the host */
	uintptr_t room;              /* their room on the GPU if hyla made it, or 0 */
	int64_t first, end;
};
typedef struct hyla_desc {
	char *ptr;
	int64_t m, n, ld, mb, nb, mt, nt;
	size_t elsize;
	starpu_data_handle_t *tiles; /* mt*nt, tile (i, j) at i + j*mt */
	struct hyla_block blocks[HYLA_MAX_BLOCKS]; /* set when the tiles are views */
	int nblocks;
	int borrowed;                /* blocks[0].parent is the application's: given back, not
	                                unregistered */
	int scratch;                 /* its contents never go home (nor come from there) */
	int out_of_core;             /* blocks without room: panels come to the GPU as tasks need
	                                them, StarPU evicting others (register_views) */
	int64_t send_skip;           /* reflectors: panel j's rows from send_skip * j on wait for
	                                hyla__desc_send_panel (0: none wait) */
} hyla_desc;

int hyla__desc_register(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                        int64_t mb, int64_t nb, size_t elsize);
/* An application's m-by-n matrix (leading dimension ld) page-locked for a
 * synchronous call where a GPU takes part (runtime/pin.c), inside the
 * call's context (hyla__context_enter) and before the matrix is registered; hyla__unpin(what it returned) once it is unregistered. NULL:
 * nothing was locked (no GPU, small, already page-locked, refused). */
void *hyla__pin(void *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize);
void hyla__unpin(void *pinned);
/* The m-by-n matrix as column panels of width nb that are views of one
 * registered parent: panels that live on one device are contiguous there, as
 * in the parent. With a CUDA worker present the parent is first copied to its
 * GPU, so that one task may treat consecutive panels as one matrix; a
 * matrix of more than three quarters of what the GPU's memory leaves
 * beside StarPU's 32 MB chunk is refused
 * (HYLA_ERR_TOO_LARGE, a line on stderr), as by every registration here
 * but the out-of-core ones (hyla__desc_register_streamed). */
int hyla__desc_register_views(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                              int64_t nb, size_t elsize);
/* The same for a matrix the tasks write before they read: room on the GPU,
 * nothing sent there (the host's contents are not read). */
int hyla__desc_register_output(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                               int64_t nb, size_t elsize);
/* How a matrix registered in column panels may lie over the GPUs
 * (hyla__desc_register_streamed). */
enum hyla_layout { HYLA_LAYOUT_WHOLE, HYLA_LAYOUT_SPREAD, HYLA_LAYOUT_BLOCKS };
/* The same for Q's formation (dorgqr) over reflectors in panel j's rows from
 * j nb on: only those go to the GPU (R above them, which Q overwrites
 * unread, stays behind: half of a square matrix's bus traffic); the tasks
 * must write the rows above before they read them. For a large matrix panel
 * j goes there when hyla__desc_send_panel(d, j) is called, before any task
 * on it is submitted (the calling thread copies while the tasks submitted
 * before run); a small one goes whole now, hyla__desc_send_panel then a
 * no-op. layout: see hyla__desc_register_streamed (out of core, whole
 * panels come to the GPU as tasks need them). */
int hyla__desc_register_reflectors(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                                   int64_t nb, size_t elsize, enum hyla_layout layout);
int hyla__desc_send_panel(const hyla_desc *d, int64_t j);
/* The same for a graph whose first tasks need only the first panels (the
 * Householder QR's, CGS's): each parent's room on its GPU is made without a
 * copy (its block's room), and the panels are prefetched into it one by
 * one, the first first. layout HYLA_LAYOUT_SPREAD (the algorithm takes
 * column blocks): on a host with several GPUs, a matrix of 1.5 GB or more
 * in column blocks over as many of the context's GPUs as hold 768 MB of it
 * each (hyla__column_blocks), each block's panels one matrix on its own
 * GPU, where the tasks that write them run (hyla__task_home); SPREAD and
 * BLOCKS: a matrix too large for its GPUs out of core (d->out_of_core:
 * blocks with no room, runtime/desc.c), BLOCKS on the context's first GPU.
 * WHOLE: one block, and a matrix of more than three quarters of what its
 * GPU's memory leaves beside StarPU's chunk refused, as by every
 * registration here. */
int hyla__desc_register_streamed(hyla_desc *d, void *ptr, int64_t m, int64_t n, int64_t ld,
                                 int64_t nb, size_t elsize, enum hyla_layout layout);
/* HYLA_ERR_TOO_LARGE (with the line the registration would print) where an
 * m-by-n matrix registered whole (hyla__desc_register_views) would be
 * refused in the calling context with `beside` elements of other matrices
 * whole on the GPU beside it, else HYLA_SUCCESS: for calls that change
 * their matrix before they register it, or hold several at once. */
int hyla__fits_whole(int64_t m, int64_t n, int64_t beside, size_t elsize);
/* The same for an m-by-n matrix in panels nb wide that StarPU brings to the
 * GPU and evicts as tasks need them (out of core where the matrix exceeds
 * three quarters of the memory less StarPU's chunk): HYLA_ERR_TOO_LARGE
 * where a panel is more than 1/parts of the memory (what the algorithm's
 * tasks hold at once could not be had), runtime/desc.c's rules. */
int hyla__fits_panels(int64_t m, int64_t n, int64_t nb, size_t elsize, int parts);
/* The block that holds panel j of a descriptor of views. */
const struct hyla_block *hyla__desc_block(const hyla_desc *d, int64_t j);
/* nt >= 1 panels in column blocks over gpus GPUs, block-cyclic: block b is
 * panels [first[b], first[b + 1]), on GPU b mod gpus; about
 * HYLA_BLOCKS_PER_GPU blocks a GPU, more where blocks must be at most
 * widest panels wide (widest > 0: out of core), at most HYLA_MAX_BLOCKS in
 * all (wider then); of equal widths but the last, so that each GPU keeps a
 * share of the trailing matrix as a factorisation moves right. Returns the
 * number of blocks. */
#define HYLA_BLOCKS_PER_GPU 4
int hyla__column_blocks(int64_t nt, int gpus, int64_t widest, int64_t first[HYLA_MAX_BLOCKS + 1]);
/* The memory node where such views are contiguous for the scheduling
 * context ctx (runtime/devices.c): its first GPU's, or the host's; codelets
 * that rely on it run on no other GPU. hyla__devices_update(ctx) works it
 * out and returns it (at the start, as each call enters its context, as a
 * matrix is registered). */
int hyla__views_node(unsigned ctx);
int hyla__devices_update(unsigned ctx);
/* The context's GPUs' memory nodes (*nodes, as many as returned), the
 * first the views node; set by hyla__devices_update. */
int hyla__gpu_nodes(unsigned ctx, const int **nodes);
/* The node where a task's views live (one matrix there unless out of
 * core): that of the first view it writes, else of the first it reads
 * (each view carries its block's node), else the context's views node. */
int hyla__task_home(struct starpu_task *task);
/* Codelets whose work is host code alone (the reductions' tails, the band
 * finish, the mirrors, orghr's shift) run it on the cores; where StarPU has
 * no cores (STARPU_NCPU=0; hyla__context_valid refuses other contexts
 * without one) on a GPU's worker thread, with their data
 * in main memory (StarPU's specific nodes): HYLA_HOST_BODY(f) in the
 * codelet. Their tasks take at most HYLA_HOST_BODY_BUFFERS buffers. */
#define HYLA_HOST_BODY_BUFFERS 65536
extern int hyla__main_ram_nodes[HYLA_HOST_BODY_BUFFERS];
int hyla__on_cores_else_gpu(unsigned worker, struct starpu_task *task, unsigned impl);
#define HYLA_HOST_BODY(f)                                                                        \
	.cpu_funcs = {f}, .cuda_funcs = {f}, .specific_nodes = 1,                                    \
	.dyn_nodes = hyla__main_ram_nodes, .can_execute = hyla__on_cores_else_gpu
/* The application's registered matrix handle as column-panel views of
 * width nb (d->parent, borrowed): no copy where it is valid (with a GPU it
 * is fetched there whole first, a no-op if it is there already); StarPU's
 * partition waits for the handle's earlier tasks. Releasing d
 * waits for the panels' tasks and gives the handle back whole. */
int hyla__desc_wrap(hyla_desc *d, starpu_data_handle_t handle, int64_t nb);

/* For codelets over consecutive views (runtime/views.c): the columns of
 * the panels buffers[first..] if they follow each other in memory with one
 * leading dimension (one matrix), else 0; a can_execute that keeps such
 * codelets on the node where that holds (and tasks too big for one core
 * off the cores when a GPU is there); the columns of a task's handles
 * from first on; a footprint that is the size itself (the task's model's
 * size base), for models whose cost the size alone decides. */
int hyla__contiguous_cols(void *buffers[], int first, size_t elsize);
/* The same for the panels buffers[first..end). */
int hyla__contiguous_range(void *buffers[], int first, int end, size_t elsize);
/* The panels buffers[*b..end) a run at a time (a matrix out of core has
 * panels apart on the GPU): the columns of the longest run from *b that is
 * one matrix, *b moved past it; 0 once *b reaches end. */
int hyla__next_run(void *buffers[], int *b, int end, size_t elsize);
/* Whether a worker (or combined worker) is a GPU; and for a CPU body of a
 * parallel codelet (STARPU_SPMD) whose columns are independent, the
 * columns [*first, *first + return) of cols this core takes (all of them
 * outside a combined worker). */
int hyla__is_cuda_worker(unsigned worker);
#ifdef HYLA_WITH_CUDA
#include <cublas_v2.h>
/* The calling CUDA worker's second stream (runtime/side_stream.c), made to
 * wait for the work queued so far on the worker's stream, and its cuBLAS
 * handle; hyla__side_join makes the worker's stream wait for the side's work
 * queued so far (at least once, after the last of it, before the codelet
 * returns). */
cudaStream_t hyla__side_fork(cublasHandle_t *blas);
void hyla__side_join(void);
void hyla__side_streams_create(void);
void hyla__side_streams_destroy(void);
#endif
/* Parallel tasks on the cores (runtime/spmd.c). A rank's share of cols
 * columns: their count, and the first in *first. */
int hyla__spmd_cols(int cols, int *first);
/* Core k's first column (k of size; cols for k = size) where the lower
 * triangle of cols columns is split into size parts of equal area. */
int64_t hyla__triangle_share(int64_t cols, int k, int size);
/* A barrier for the cores of a combined worker running one parallel task
 * (zeroed before the task runs, e.g. in its cl_arg): they spin a little,
 * then sleep, until all size of them have arrived. */
struct hyla_spmd_barrier {
	unsigned arrived, generation, sleepers;
};
void hyla__spmd_barrier(struct hyla_spmd_barrier *b, int size);
/* At start (making a combined worker of all the cores if hyla started
 * StarPU) and stop; a context's workers counted (hyla__devices_update). */
void hyla__cores_start(int owns_starpu);
void hyla__cores_stop(void);
void hyla__cores_update(unsigned ctx, int cores, int node);
/* The combined worker of all ctx's cores where its matrices live in main
 * memory (no GPU), or -1; the same wherever they live (_any); the token its
 * tasks hold (hyla__submit adds it last); a task's buffers without the token. */
int hyla__cores_worker(unsigned ctx);
int hyla__cores_worker_any(unsigned ctx);
/* Whether the calling context's parallel tasks may reach a combined worker
 * (its cores', or a parallel scheduler's): not for hyla's one made beside a
 * GPU, which only work for the cores alone asks for (the chase) takes. */
int hyla__combined_workers_reached(void);
starpu_data_handle_t hyla__cores_token(void);
int hyla__task_buffers(struct starpu_task *task);
/* Such codelets' max_parallelism: every core of a combined worker with a
 * StarPU that carries patches/starpu-1.3.10-parallel-tasks.patch, else one
 * (CMakeLists.txt decides). */
#ifdef HYLA_PARALLEL_TASKS
#define HYLA_MAX_PARALLELISM INT_MAX
#else
#define HYLA_MAX_PARALLELISM 1
#endif
int hyla__on_views_node(unsigned worker, struct starpu_task *task, unsigned impl);
/* Tasks too big for a core when a GPU can take them (runtime/views.c says
 * why): whether a core should leave the task to a GPU (one is there, the
 * codelet has a CUDA body the task may use, and its model's size base
 * passes bound); a can_execute that keeps tasks beyond HYLA_CORE_MAX_WORK
 * (Level-3 codelets: the size base is about half the flops, 1e10 is seconds
 * on a core) off the cores; and one for the reductions' fused panels, whose
 * body on a core pulls the trailing matrix home and streams it once per
 * column (size base: rows x columns x width; 1e8 is about 0.1 s there). */
#define HYLA_CORE_MAX_WORK 10000000000u
#define HYLA_CORE_MAX_PANEL 100000000u
/* Trailing updates (the reductions', Householder QR's dlarfb; size base:
 * rows x columns x width, a quarter to a sixth of the flops): beyond 1e8 a
 * core takes 10 ms or more where the GPU holding the views takes 0.1 ms, and
 * every core dmda may weigh costs it an estimate per panel of the task
 * (hr_reduce 8000 with 2048-wide updates: 0.836 s, 0.799 s without). */
#define HYLA_CORE_MAX_UPDATE 100000000u
int hyla__leave_to_gpu(struct starpu_task *task, unsigned impl, size_t bound);
int hyla__fits_worker(unsigned worker, struct starpu_task *task, unsigned impl);
int hyla__panel_on_views_node(unsigned worker, struct starpu_task *task, unsigned impl);
/* The same for a panel (buffer own) that a GPU takes only up to gpu_max
 * columns wide and with later panels after it (its kernels need trailing
 * columns: the last panel stays on the cores). */
int hyla__panel_within_width(unsigned worker, struct starpu_task *task, unsigned impl, int own,
                             size_t gpu_max);
int hyla__update_on_views_node(unsigned worker, struct starpu_task *task, unsigned impl);
/* Tasks that stream the whole trailing matrix (the two-stage reductions'
 * steps, their band's gather): on the GPU that holds the views where one
 * does, else on the cores. */
int hyla__on_views_else_cores(unsigned worker, struct starpu_task *task, unsigned impl);
size_t hyla__cols_from(struct starpu_task *task, unsigned first);
uint32_t hyla__size_footprint(struct starpu_task *task);

/* Every hyla task (runtime/submit.c): the codelet cl on data (ndata
 * handles and modes), one argument structure of the codelet's own (arg,
 * arg_size bytes; 0: none) that the task takes a copy of (StarPU's
 * STARPU_CL_ARGS: the bodies and the models' functions read it as cl_arg),
 * hyla's callback, the priority, the flops (0: none) and where it may run
 * (0: wherever the codelet can). Returns 0 or HYLA_ERR_*. */
struct hyla_task {
	struct starpu_codelet *cl;
	const struct starpu_data_descr *data;
	int ndata;
	const void *arg;
	size_t arg_size;
	int priority;
	double flops;
	uint32_t where;
	int all_cores; /* a parallel task: all the cores where there is no GPU (runtime/spmd.c);
	                * HYLA_CORES_BESIDE_GPU: beside a GPU too (work only cores can do) */
};
#define HYLA_CORES_BESIDE_GPU 2
int hyla__submit(const struct hyla_task *t);
/* The same with the npanels panels after t's data, the first with
 * mode_first, the others with mode_rest. */
int hyla__submit_on_panels(struct hyla_task t, const starpu_data_handle_t *panels, int npanels,
                           enum starpu_data_access_mode mode_first,
                           enum starpu_data_access_mode mode_rest);

/* Unregister every tile once its tasks are done (data goes back home). */
void hyla__desc_unregister(hyla_desc *d);
/* The same, but returns at once: StarPU unregisters when the tasks end
 * (tiles only; views are unpartitioned, which waits). */
void hyla__desc_unregister_submit(hyla_desc *d);

/* Workspace that StarPU allocates where the tasks using it run: a
 * rows-by-cols matrix (leading dimension rows) or a vector of len
 * elements of elsize bytes. hyla__workspace_release gives it back once
 * the tasks submitted on it are done (NULL: nothing). */
starpu_data_handle_t hyla__workspace(int64_t rows, int64_t cols, size_t elsize);
starpu_data_handle_t hyla__workspace_vector(int64_t len, size_t elsize);
void hyla__workspace_release(starpu_data_handle_t handle);

static inline starpu_data_handle_t hyla__tile(const hyla_desc *d, int64_t i, int64_t j)
{
	return d->tiles[i + j * d->mt];
}
static inline int64_t hyla__tile_rows(const hyla_desc *d, int64_t i)
{
	return i < d->mt - 1 ? d->mb : d->m - i * d->mb;
}
static inline int64_t hyla__tile_cols(const hyla_desc *d, int64_t j)
{
	return j < d->nt - 1 ? d->nb : d->n - j * d->nb;
}

/* Waits until the tasks submitted so far that write handle are done (no
 * transfer; those reading it may still run). */
void hyla__wait_tasks(starpu_data_handle_t handle);

/* Starts copying the count handles to the GPU of the calling context (none
 * without one), in that order, behind the transfers the tasks ask for: data
 * a task will read, sent while the tasks before it run. For handles hyla has
 * just registered: a prefetch does not wait for tasks already submitted on
 * the handle (an application's), so it would copy data about to change. */
void hyla__prefetch(const starpu_data_handle_t *handles, int64_t count);
/* Copies tile (i, j) of d home once the tasks submitted on it so far are
 * done, so that results go back while later tasks still run (asynchronous);
 * not for an application's own handle (d->borrowed), which stays where
 * hyla's tasks leave it. */
void hyla__write_back(const hyla_desc *d, int64_t i, int64_t j);

/* Reports progress (done of total, see hyla_set_progress) once the tasks
 * submitted so far on handle are done; nothing when no one listens. */
void hyla__progress_mark(starpu_data_handle_t handle, int64_t done, int64_t total);

/* Every hyla task's callback: records it while a trace is on (trace.c). */
void hyla__task_done(void *arg);
/* The models' check (model_check.c, HYLA_MODELS_CHECK). */
int hyla__model_checking(void);
int hyla__model_check_start(void);
/* A task submitted (+1) or refused (-1) while checking; hyla__model_check_task
 * counts its end, and hyla__model_check_write waits for every end: StarPU
 * runs a task's callback after releasing its data, so after the caller's
 * wait may have returned. */
void hyla__model_check_expect(int tasks);
void hyla__model_check_task(struct starpu_task *task);
void hyla__model_check_write(void);

/* Unregisters the matrices not yet destroyed (hyla_finalize, before StarPU
 * stops): their data comes home, a wrapped handle is given back. */
void hyla__matrices_release(void);

/* The descriptor behind an application's matrix (hyla_async.h): a's into *desc: -arg if a is NULL or not of elsize-byte
 * elements, HYLA_ERR_NOINIT after hyla_finalize. */
int hyla__matrix_desc(const hyla_matrix *a, size_t elsize, int arg, const hyla_desc **desc);

/* A sequence of asynchronous calls (hyla_async.h). */
struct hyla_sequence {
	int info;                    /* LAPACK's convention; tasks set it (hyla__sequence_fail) */
	struct starpu_task **fences; /* each after its call's last accesses */
	int nfences, fences_room;
	starpu_data_handle_t *owned; /* registered for the calls, unregistered by the wait */
	int nowned, owned_room;
	struct hyla_finish *finishes; /* run by the wait once the data is home */
	int nfinishes, finishes_room;
	hyla_desc **copies;          /* the calls' temporary matrices */
	int ncopies, copies_room;
};
/* The sequence unregisters handle when waited for (on failure: at once). */
int hyla__sequence_own(hyla_sequence *seq, starpu_data_handle_t handle);
/* The sequence owns every tile of d (on failure the rest are unregistered
 * at once); the caller frees d->tiles. */
int hyla__sequence_own_tiles(hyla_sequence *seq, const hyla_desc *d);
/* Registers the vector x (len elements of elsize bytes) as d, tiles of nb
 * that the sequence owns (none for len = 0); the caller frees d->tiles. */
int hyla__sequence_vector(hyla_sequence *seq, hyla_desc *d, void *x, int64_t len, int64_t nb,
                          size_t elsize);
/* Allocates an m-by-n matrix (leading dimension m) in hyla_malloc's memory
 * and registers it as panel views of width nb (hyla__desc_register_views)
 * into *copy: the sequence's, which the wait unregisters and frees. With
 * scratch, workspace its tasks write before they read: malloc's memory, room
 * on the GPU without a copy, and nothing brought home at the end. */
int hyla__sequence_matrix(hyla_sequence *seq, int64_t m, int64_t n, int64_t nb, size_t elsize,
                          int scratch, const hyla_desc **copy);
/* Submits a task the wait waits for, after every access to the tiles of a
 * and b (NULL: none) and after a CPU task that brings the sequence's own
 * handles home (so a task that writes the matrix after the fence finds them
 * in the caller's memory). */
int hyla__sequence_fence(hyla_sequence *seq, const hyla_desc *a, const hyla_desc *b);
/* A task that runs nowhere and writes a's tiles: what follows waits for
 * every earlier access to a, an earlier call's fence included (so the
 * outputs of that call, its tau, are home by then). */
int hyla__gate(const hyla_desc *a);
/* The end of a synchronous call on the stack sequence seq: waits for it,
 * then unregisters a, frees seq's lists; submitted (the submission's code)
 * if it failed, else the sequence's info. */
int hyla__finish_sync(hyla_sequence *seq, hyla_desc *a, int submitted);
/* From a task: the call failed at index info (> 0); the smallest one stays
 * (nothing without a sequence). */
void hyla__sequence_fail(hyla_sequence *seq, int info);
/* An asynchronous call's check of its sequence (argument arg): -arg if
 * NULL, HYLA_ERR_SEQUENCE if it failed before (the call submits nothing). */
int hyla__sequence_check(const hyla_sequence *seq, int arg);
/* The end of an asynchronous call's submission: a failure (ret) becomes
 * the sequence's info unless one is there already; returns ret. */
int hyla__sequence_submitted(hyla_sequence *seq, int ret);
/* Whether a task of the call should skip its work (seq may be NULL). */
int hyla__sequence_failed(const hyla_sequence *seq);
/* The wait runs fn(arg) once the call's data is home and frees arg (malloc'ed;
 * hyla_sequence_destroy frees it too if it never ran): fn returns the
 * call's info > 0 or 0. On failure (no memory) arg is freed. */
struct hyla_finish {
	int (*fn)(void *arg);
	void *arg;
};
int hyla__sequence_finish(hyla_sequence *seq, int (*fn)(void *arg), void *arg);
/* bytes of host memory the wait frees (memory a call's tasks alone use:
 * StarPU would pin what it allocates, one buffer after another, with a GPU
 * present; from 256 KiB on, its pages made at once), or NULL. */
void *hyla__sequence_malloc(hyla_sequence *seq, size_t bytes);
/* bytes of pinned host memory (page-locked where a GPU is) the wait frees:
 * host memory a call's GPU tasks copy to and from, or NULL. */
void *hyla__sequence_pinned(hyla_sequence *seq, size_t bytes);
/* A vector handle on len elements of elsize bytes at host memory at. */
starpu_data_handle_t hyla__host_vector(void *at, size_t len, size_t elsize);

/* Checks that an insert function's starpu_task_insert succeeded. */
int hyla__submitted(int ret, const char *codelet);
/* Whether the calling thread's context runs parallel tasks on all its cores
 * (hyla__cores_worker). */
int hyla__parallel_tasks(void);
/* The priority a parallel (STARPU_SPMD) task gets: below STARPU_MAX_PRIO when
 * it may reach combined workers (hyla__combined_workers_reached). pheft puts
 * STARPU_MAX_PRIO tasks at the front of each core's queue, so two parallel
 * tasks could reach the cores of a combined worker in opposite orders, each
 * core waiting at the other task's barrier (seen: test_geqrf under pheft
 * hung). The look-ahead update loses its precedence there. */
int hyla__parallel_prio(int priority);

#endif
