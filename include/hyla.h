/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla: hybrid CPU+GPU dense linear algebra on StarPU. Public API. */
#ifndef HYLA_H
#define HYLA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HYLA_VERSION_MAJOR 0
#define HYLA_VERSION_MINOR 2
#define HYLA_VERSION_PATCH 0
#define HYLA_VERSION "0.2.0"

/* What libhyla exports: the declarations marked so (everything else is
 * built hidden). */
#if defined(__GNUC__)
#define HYLA_API __attribute__((visibility("default")))
#else
#define HYLA_API
#endif

/* Return codes. 0 is success; -i means argument i was invalid (LAPACK's
 * convention); i > 0 is a numerical condition documented per routine; the
 * library's own failures are below HYLA_ERR_BASE. */
#define HYLA_SUCCESS 0
#define HYLA_ERR_BASE (-100)
#define HYLA_ERR_STARPU (-101)   /* StarPU could not be initialised */
#define HYLA_ERR_NOMEM (-102)    /* an allocation failed */
#define HYLA_ERR_NODEV (-103)    /* a GPU was required but none is usable */
#define HYLA_ERR_SUBMIT (-104)   /* StarPU refused a task */
#define HYLA_ERR_NOINIT (-105)   /* hyla is not running (a matrix used after hyla_finalize) */
#define HYLA_ERR_ENV (-106)      /* a StarPU setting in the environment is invalid */
#define HYLA_ERR_SEQUENCE (-107) /* the sequence had failed before the call: nothing submitted */
#define HYLA_ERR_TOO_LARGE (-108) /* the matrix is more than this call can take on the GPU:
                                     refused, the matrix untouched */

/* A one-line description of a return code. */
HYLA_API const char *hyla_strerror(int info);
/* The library's version ("0.2.0"), which may differ from the HYLA_VERSION
 * a program was compiled with. */
HYLA_API const char *hyla_version(void);

/* Start StarPU (unless the caller already did) and the per-worker cuBLAS
 * handles, and hyla's second stream per CUDA worker. Reference counted and
 * thread-safe (one start; callers meanwhile wait); the synchronous routines
 * call it themselves on first use. Returns 0, HYLA_ERR_ENV (a StarPU
 * setting such as STARPU_NCPU, STARPU_SCHED or STARPU_HOME that would make
 * StarPU abort, with a line on stderr) or HYLA_ERR_STARPU. */
HYLA_API int hyla_init(void);
/* Undo hyla_init; StarPU is shut down only if hyla started it. */
HYLA_API void hyla_finalize(void);

/* Host memory that the GPU reaches by DMA (pinned when CUDA workers exist),
 * so transfers overlap computation. Calls hyla_init. Free with hyla_free. */
HYLA_API void *hyla_malloc(size_t bytes);
HYLA_API void hyla_free(void *ptr, size_t bytes);

/* One line: hyla and StarPU versions, workers, scheduler, BLAS core, GPU. */
HYLA_API void hyla_machine_summary(char *buf, size_t len);
/* Progress of long runs: fn(done, total, arg) is called from a StarPU thread
 * as the panels of a factorisation or reduction complete (not always in
 * order; at most total), one call at a time. NULL turns it off; once
 * hyla_set_progress returns, the previous fn is not called any more.
 * Process-wide. */
typedef void (*hyla_progress_fn)(int64_t done, int64_t total, void *arg);
HYLA_API void hyla_set_progress(hyla_progress_fn fn, void *arg);

/* The schedule, for pictures of it: between hyla_trace_start and
 * hyla_trace_stop every hyla task records the StarPU worker that ran it
 * (starpu_worker_get_name gives its name), its codelet, when it became
 * ready (its last dependency met: StarPU pushed it to the scheduler), its
 * start and its end, in seconds since the start of the trace.
 * hyla_trace_stop hands over the events (free them with free) and returns
 * their count. */
typedef struct {
	const char *codelet;
	int worker;
	double ready, start, end;
} hyla_trace_event;
HYLA_API void hyla_trace_start(void);
HYLA_API size_t hyla_trace_stop(hyla_trace_event **events);

/* Whether the performance models that algorithm ("mgs", "cgs", "cgs_vector":
 * hyla_dcgs with HYLA_CGS_VECTOR, "geqrf",
 * "sytrd", "gebrd", "gehrd", "gehrd_split": hyla_dgehrd with
 * HYLA_PANEL_CPU, "orghr"; the solvers "syevd" and "gesdd", values alone,
 * "syevd_vectors" and "gesdd_vectors" with vectors, and their parts: the
 * divide and conquer "stedc" and "bdsdc" (with "_vectors"), the vectors'
 * products "ormqr") uses in precision prec ('d' or 's') are calibrated: a
 * fitted regression for every kind of worker present that runs the codelet
 * (StarPU's dm* schedulers otherwise calibrate during the run, running
 * tasks where they are slow). With report, a line per model and worker
 * kind: samples, sizes, the fit a n^b + c and its error on the measured
 * sizes. Models live in STARPU_PERF_MODEL_DIR (perfmodels/README.md).
 * Returns 1 ready (also where no model places the algorithm's tasks: the
 * report says so), 0 not, or -1 for an unknown algorithm or precision;
 * calls hyla_init. */
HYLA_API int hyla_models_ready(const char *algorithm, char prec, FILE *report);

/* Number of StarPU workers of each kind (after hyla_init) in the calling
 * thread's scheduling context (all of them in StarPU's initial one). */
HYLA_API int hyla_ncpus(void);
HYLA_API int hyla_ncuda(void);

/* ---- Options -------------------------------------------------------------
 * Every routine takes a const hyla_options * as its last argument before
 * the sequence (hyla_async.h); NULL, or a structure set to zero, means the
 * defaults. A field a routine does not use is ignored. */
typedef enum { HYLA_MGS_BLOCKED = 0, HYLA_MGS_VECTOR = 1 } hyla_mgs_form;
typedef enum { HYLA_CGS2 = 0, HYLA_CGS = 1, HYLA_CGS_VECTOR = 2 } hyla_cgs_variant;
typedef enum {
	HYLA_PANEL_AUTO = 0, /* GPU: fused, where the models say; CPUs alone: split, or fused
	                        as a parallel task under pheft and peager */
	HYLA_PANEL_GPU = 1,  /* fused: one task whose column loop stays on the GPU's stream
	                        (HYLA_ERR_NODEV without a GPU) */
	HYLA_PANEL_CPU = 2   /* split (Tomov, Nath and Dongarra's): the column loop on a core,
	                        each column's GEMV as tasks where the matrix lives */
} hyla_gehrd_panel;

typedef struct hyla_options {
	/* Panel width (block size); 0: the routine's default for the workers
	 * present (hyla_options_defaults tells it). The asynchronous calls take
	 * the matrix's panel width instead. hyla_dsyevd's eigenvalues alone, by
	 * the two-stage reduction: also the band's half-width ("syevd_band"'s
	 * default; the asynchronous call's too; at most 256); the same for
	 * hyla_dgesdd's values alone ("gesdd_band"). */
	int64_t nb;
	/* Columns per trailing-update task (the reductions and the Householder
	 * QR); 0: $HYLA_UPDATE_WIDTH if set, else the default here. */
	int64_t update_width;
	/* The StarPU scheduling context (starpu_sched_ctx_create) that hyla's
	 * tasks go to, and whose workers the routine plans for (it needs a CPU
	 * worker); 0: the calling thread's (StarPU's initial context unless
	 * starpu_sched_ctx_set_context said otherwise). The call sets the
	 * thread's context and puts its value back after (StarPU keeps a
	 * pointer: the one you gave it is not the one restored). */
	unsigned sched_ctx;
	hyla_mgs_form mgs_form;       /* hyla_dmgs's (below) */
	hyla_cgs_variant cgs_variant; /* hyla_dcgs's (below) */
	hyla_gehrd_panel gehrd_panel; /* hyla_dgehrd's: where the panel runs */
} hyla_options;

/* The options routine ("mgs", "cgs", "geqrf", "orgqr", "sytrd", "syevd",
 * "syevd_band", "gebrd", "gesdd", "gesdd_band", "gehrd", "orghr") uses for
 * an m-by-n matrix (n-by-n: m = n) on the workers of opts->sched_ctx: opts's zero nb and update_width are filled in.
 * Returns 0, -1 for an unknown routine, -4 for a NULL opts. Calls hyla_init. */
HYLA_API int hyla_options_defaults(const char *routine, int64_t m, int64_t n, hyla_options *opts);

/* ---- Modified Gram-Schmidt QR -------------------------------------------
 * A = QR for an m-by-n matrix, m >= n >= 0. Q overwrites A (lda >= m); R is
 * written to the upper triangle of the n-by-n r (ldr >= n), its strictly
 * lower triangle is set to zero. opts->mgs_form:
 *   HYLA_MGS_BLOCKED: factor nb columns, then update the trailing columns
 *         with Level-3 operations (the product of the nb projections as
 *         I - Q1 T Q1^T, T = (I + L)^{-1} with L = strict_lower(Q1^T Q1),
 *         which keeps MGS's rounding behaviour);
 *   HYLA_MGS_VECTOR: per column, dot products (GEMV^T) and a rank-1 update
 *         (GER) of every remaining column (the BLAS-2 form).
 * Returns 0; -i for a bad argument i (7: opts); j > 0 if column j (1-based)
 * depends on the earlier ones (its remainder at most 10 sqrt(m) eps of its
 * norm: Q and R are then not meaningful); HYLA_ERR_* for a failure of the
 * runtime. Pass memory from hyla_malloc for A and R so transfers are
 * asynchronous. */
HYLA_API int hyla_dmgs(int64_t m, int64_t n, double *a, int64_t lda, double *r, int64_t ldr,
                       const hyla_options *opts);
HYLA_API int hyla_smgs(int64_t m, int64_t n, float *a, int64_t lda, float *r, int64_t ldr,
                       const hyla_options *opts);

/* ---- Classical Gram-Schmidt QR ------------------------------------------
 * A = QR as hyla_dmgs (same arguments, output and return values), by
 * classical Gram-Schmidt: each column's projections are computed from its
 * original values, all at once. opts->cgs_variant:
 *   HYLA_CGS2        blocked, reorthogonalised: every projection done twice
 *                    (block CGS2 of Barlow and Smoktunowicz across panels and
 *                    across 32-column sub-panels, CGS2 column by column inside
 *                    those; the second pass renormalises a nearly orthonormal
 *                    block by Cholesky QR, CGS's equal in exact arithmetic):
 *                    ||I - Q^T Q|| = O(eps) while cond(A) eps < 1;
 *   HYLA_CGS         blocked, one pass: ||I - Q^T Q|| grows like cond(A)^2 eps;
 *   HYLA_CGS_VECTOR  one pass, per column a dot product with every later
 *                    original column, then a rank-1 update of them all
 *                    (Level 2; keeps a copy of A; nb at most 256).
 * A matrix of more than three quarters of what the GPU's memory leaves
 * beside StarPU's 32 MB chunk: the blocked forms go out of core (each panel
 * projected a column block at a time, block MGS between them: the same in
 * exact arithmetic, as orthogonal; panels of at most a sixteenth of the
 * memory), the vector form refuses it (HYLA_ERR_TOO_LARGE). */
HYLA_API int hyla_dcgs(int64_t m, int64_t n, double *a, int64_t lda, double *r, int64_t ldr,
                       const hyla_options *opts);
HYLA_API int hyla_scgs(int64_t m, int64_t n, float *a, int64_t lda, float *r, int64_t ldr,
                       const hyla_options *opts);

/* A Gram-Schmidt QR's other form, in place: U = Q diag(R) (orthogonal,
 * unnormalised columns) over Q, mu = diag(R)^{-1} R (unit upper triangular)
 * over R, so that A = U mu. Returns 0 or -i for a bad argument i. */
HYLA_API int hyla_dqr_to_umu(int64_t m, int64_t n, double *q, int64_t ldq, double *r, int64_t ldr);
HYLA_API int hyla_sqr_to_umu(int64_t m, int64_t n, float *q, int64_t ldq, float *r, int64_t ldr);

/* ---- Householder QR ------------------------------------------------------
 * LAPACK dgeqrf's contract for an m-by-n A (any m, n >= 0): R on and above
 * the diagonal of a, the reflectors below it, tau of min(m, n) scalars;
 * LAPACK's dorgqr and dormqr take the result unchanged. A task graph: each
 * panel factored (on a core, or on the GPU's stream), the block reflector
 * (compact WY, I - V T V^T) applied to the later panels as Level-3 tasks
 * where the models say, the next panel's update first. min(m, n) at most
 * the block size goes to LAPACK on the host. Returns 0, -i for a bad
 * argument i (6: opts), or HYLA_ERR_*. */
HYLA_API int hyla_dgeqrf(int64_t m, int64_t n, double *a, int64_t lda, double *tau,
                         const hyla_options *opts);
HYLA_API int hyla_sgeqrf(int64_t m, int64_t n, float *a, int64_t lda, float *tau,
                         const hyla_options *opts);
/* LAPACK dorgqr's contract: the m-by-n Q (m >= n >= k) of the first k
 * reflectors in a (as dgeqrf leaves them) with tau, e.g. the full m-by-m Q
 * of a tall A with n = m: a task graph (T on the CPU, the block reflectors'
 * applications as Level-3 tasks); k at most the block size: LAPACK on the
 * host. Returns 0, -i for a bad argument i (7: opts), or HYLA_ERR_*. */
HYLA_API int hyla_dorgqr(int64_t m, int64_t n, int64_t k, double *a, int64_t lda,
                         const double *tau, const hyla_options *opts);
HYLA_API int hyla_sorgqr(int64_t m, int64_t n, int64_t k, float *a, int64_t lda, const float *tau,
                         const hyla_options *opts);

/* ---- Symmetric tridiagonal reduction --------------------------------------
 * Q^T A Q = T for a symmetric n-by-n A, LAPACK dsytrd's contract: uplo 'L'
 * or 'U' says which triangle of a holds A; on return d (n) and e (n-1) are
 * T's diagonal and off-diagonal, the reflectors and tau (n-1) are where
 * dsytrd leaves them, so LAPACK's dorgtr, dsteqr and dstedc take them.
 * A task graph (each panel as LAPACK's DLATRD, on a core or on the GPU's
 * stream, its trailing SYR2K update as Level-3 tasks where the models say);
 * upper reverses a in place before and after (dsytrd's upper reduction is
 * the lower one of J A J mirrored, J the reversal); n at most the block
 * size: LAPACK on the host. Returns 0, -i for a bad argument i (8: opts),
 * or HYLA_ERR_*. */
HYLA_API int hyla_dsytrd(char uplo, int64_t n, double *a, int64_t lda, double *d, double *e,
                         double *tau, const hyla_options *opts);
HYLA_API int hyla_ssytrd(char uplo, int64_t n, float *a, int64_t lda, float *d, float *e,
                         float *tau, const hyla_options *opts);

/* ---- Symmetric eigensolver -----------------------------------------------
 * LAPACK dsyevd's contract: the eigenvalues of the symmetric n-by-n A
 * (its uplo 'L' or 'U' triangle) into w, ascending; jobz 'V': its
 * orthonormal eigenvectors over a (column j for w[j]), 'N': the values
 * alone (a's triangle is destroyed, as LAPACK says; the task graph leaves a
 * as it was, never bringing its working copy home). hyla_dsytrd's reduction, T's
 * eigenproblem by divide and conquer as tasks (the secular equations on
 * the cores, the merges' products where the models say; with jobz 'V' up
 * to 2 n^2 elements of host workspace during the call, as dsyevd's lwork),
 * and Q times T's eigenvectors as Level-3 tasks where the models say; n at
 * most the block size: LAPACK's dsyevd on the host. Returns 0, -i for a bad argument i (7: opts), i > 0 where the
 * tridiagonal solver did not converge (LAPACK's info), or HYLA_ERR_*. */
HYLA_API int hyla_dsyevd(char jobz, char uplo, int64_t n, double *a, int64_t lda, double *w,
                         const hyla_options *opts);
HYLA_API int hyla_ssyevd(char jobz, char uplo, int64_t n, float *a, int64_t lda, float *w,
                         const hyla_options *opts);

/* ---- Bidiagonal reduction -----------------------------------------------
 * Q^T A P = B for an m-by-n A, LAPACK dgebrd's contract: d (min(m,n)), e
 * (min(m,n)-1), the reflectors and tauq, taup (min(m,n)) where dgebrd
 * leaves them (upper bidiagonal for m >= n), so LAPACK's dorgbr and dbdsqr
 * take them (lower bidiagonal for m < n). A task graph (each panel as
 * LAPACK's DLABRD, on a core or on the GPU's stream, its two GEMM updates
 * as Level-3 tasks where the models say); m < n runs it on a transposed
 * copy (m n more elements); min(m, n) at most the block size: LAPACK on the
 * host. Returns 0, -i for a bad argument i (9: opts), or HYLA_ERR_*. */
HYLA_API int hyla_dgebrd(int64_t m, int64_t n, double *a, int64_t lda, double *d, double *e,
                         double *tauq, double *taup, const hyla_options *opts);
HYLA_API int hyla_sgebrd(int64_t m, int64_t n, float *a, int64_t lda, float *d, float *e,
                         float *tauq, float *taup, const hyla_options *opts);

/* ---- Singular value decomposition -----------------------------------------
 * LAPACK dgesdd's contract, A = U S V^T for an m-by-n A (any shape): the
 * min(m, n) singular values into s, descending; jobz 'N': those alone; 'S':
 * the first min(m, n) columns of U into u (ldu >= m) and rows of V^T into
 * vt (ldvt >= min(m, n)); 'A': all m columns of U and n rows of V^T; 'O':
 * as 'S', but U over a when m >= n, V^T over a else. a is destroyed.
 * One task graph: hyla_dgebrd's reduction, B's SVD by divide and conquer
 * (the secular equations on the cores, the merges' products on the GPU
 * where the models say), U = Q U_B and V = P V_B as Level-3 tasks (m < n:
 * the same on A^T, in a copy); with vectors, host workspace of up to about
 * 3 m n + 7 min(m, n)^2 elements during the call. min(m, n) at most the
 * block size: LAPACK's dgesdd on the host. Returns 0, -i for a bad argument i (11:
 * opts; -4 too where a holds NaN, as dgesdd), i > 0 where the bidiagonal
 * solver did not converge, or HYLA_ERR_*. */
HYLA_API int hyla_dgesdd(char jobz, int64_t m, int64_t n, double *a, int64_t lda, double *s,
                         double *u, int64_t ldu, double *vt, int64_t ldvt,
                         const hyla_options *opts);
HYLA_API int hyla_sgesdd(char jobz, int64_t m, int64_t n, float *a, int64_t lda, float *s,
                         float *u, int64_t ldu, float *vt, int64_t ldvt, const hyla_options *opts);

/* ---- Hessenberg reduction ----------------------------------------------
 * Q^T A Q = H for an n-by-n A, LAPACK dgehrd's contract: on return H is on
 * and above the first subdiagonal of a, the reflectors below it, tau holds
 * n-1 scalars (Q = H(ilo) ... H(ihi-1)); LAPACK's dorghr and dhseqr take the
 * result unchanged. The block ilo..ihi goes through hyla's task graph (the
 * panel where opts->gehrd_panel says), then its Q to the rows above it and
 * the columns after it (LAPACK dormhr on the host); blocks of at most the
 * block size call LAPACK dgehrd on the host. Returns 0, -i for a bad
 * argument i (7: opts), or HYLA_ERR_*. */
HYLA_API int hyla_dgehrd(int64_t n, int64_t ilo, int64_t ihi, double *a, int64_t lda, double *tau,
                         const hyla_options *opts);
HYLA_API int hyla_sgehrd(int64_t n, int64_t ilo, int64_t ihi, float *a, int64_t lda, float *tau,
                         const hyla_options *opts);

/* Q of the reduction, explicitly, LAPACK dorghr's contract: a and tau as
 * hyla_dgehrd leaves them (same ilo, ihi); on return a holds the n-by-n
 * orthogonal Q. A task graph (the reflectors' T on the CPU, their
 * application on the GPU where the models say so); blocks of at most the
 * block size go to LAPACK dorgqr on the host. Returns 0, -i for a bad
 * argument i (7: opts), or HYLA_ERR_*. */
HYLA_API int hyla_dorghr(int64_t n, int64_t ilo, int64_t ihi, double *a, int64_t lda,
                         const double *tau, const hyla_options *opts);
HYLA_API int hyla_sorghr(int64_t n, int64_t ilo, int64_t ihi, float *a, int64_t lda,
                         const float *tau, const hyla_options *opts);

#ifdef __cplusplus
}
#endif
#endif
