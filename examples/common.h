/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the drivers and the testers: argument parsing, test
 * matrices, accuracy checks, timing and LAPACK references. Matrices are
 * handled as double; single-precision runs convert at the call. */
#ifndef HYLA_EXAMPLES_COMMON_H
#define HYLA_EXAMPLES_COMMON_H

#include <stdint.h>
#include <stddef.h>

/* Exit status for bad arguments (one line on stderr). */
#define EXIT_USAGE 2

/* Options every driver takes. */
struct driver_options {
	int64_t m, n, nb, repeat;
	char prec;
	int check, lapack, seed, require_gpu, stats, allow_nonfinite, quiet;
	const char *input, *output, *trace; /* files, or NULL */
	int models;                /* --models: report the models' calibration and exit */
	const char *algorithms[3]; /* whose models the driver uses (set by it), NULL-ended */
	/* The siblings of --output the driver writes ("r": out.r.npy), up to 4,
	 * the rest NULL: set by it before driver_start, which checks them. */
	const char *output_tags[4];
	/* Set by driver_matrix: the input was multiplied by 2^input_scale (0:
	 * not scaled) to bring its largest entry near 1. */
	int input_scale;
	int work_power; /* set by the driver: see driver_progress_begin */
};

/* Help lines of the common options. */
#define DRIVER_OPTIONS_HELP \
	"  --nb B           block size (default: hyla's table for the workers present)\n" \
	"  --prec P         d (double) or s (single); default d\n" \
	"  --check          check the result against its defining identities (default)\n" \
	"  --no-check       skip the checks\n" \
	"  --lapack         also time LAPACK on all host cores, print the speed-up\n" \
	"  --repeat K       run K times, report the fastest and the median (default 1)\n" \
	"  --seed S         random matrix seed (default 1)\n" \
	"  --require-gpu    fail unless a CUDA worker is present\n" \
	"  --stats          print tasks and busy time per worker (last run)\n" \
	"  --input FILE     the matrix from FILE (Matrix Market array or .npy, float64\n" \
	"                   or float32) instead of a random one; no size arguments then\n" \
	"  --output FILE    write the results there (.npy, else Matrix Market); checked\n" \
	"                   writable before the run\n" \
	"  --allow-nonfinite  reduce an input holding NaN or Inf (refused by default)\n" \
	"  --json           the result as one JSON object on stdout (diagnostics on stderr)\n" \
	"  --quiet          no progress line (shown on a terminal for runs of over 2 s)\n" \
	"  --trace FILE.svg a Gantt chart of the (last) run: a row per worker, a bar per task\n" \
	"  --models         report whether the performance models this driver uses are\n" \
	"                   calibrated here (per codelet and worker kind) and exit: 0 ready,\n" \
	"                   1 not (perfmodels/calibrate.sh calibrates them); no sizes needed\n" \
	"  --version        hyla's and StarPU's versions\n" \
	"  --help           this text\n\n" \
	"StarPU's environment applies: STARPU_SCHED (eager, random, dmda, ws, ...),\n" \
	"STARPU_NCPU, STARPU_NCUDA, STARPU_CALIBRATE, STARPU_WORKER_STATS.\n" \
	"Exit status: 0 pass, 1 a check failed or the run failed, 2 bad arguments.\n"

/* Parses argv: the common options, the driver's own (extra, handled by
 * on_extra, which returns 0 for an option it does not know) and npos_max
 * sizes (M, then N defaulting to M). usage() prints the help. Dies with a
 * one-line error on anything else. */
struct option;
struct driver_options parse_driver_options(int argc, char **argv, const char *prog, int npos_max,
                                           const struct option *extra,
                                           int (*on_extra)(int opt, const char *arg),
                                           void (*usage)(void));

/* The input matrix (m-by-n, leading dimension m, double): from --input, or
 * random from --seed. Dies with a one-line error on a bad file, or on NaN/Inf
 * without --allow-nonfinite. An input whose largest entry is far from 1
 * (beyond 2^+-500 in double, 2^+-60 in single, where the algorithms'
 * squares and products over- or underflow, and a matrix of subnormal
 * numbers loses its bits) is scaled by a power of two, as LAPACK's
 * driver routines do (exactly, but for entries of a matrix of very wide
 * range that fall below the smallest subnormal when it is scaled down): the run and its checks are on 2^s A, s in o->input_scale,
 * and driver_write_scaled writes the results for A. */
void driver_matrix(const char *prog, struct driver_options *o, double *a);
/* Writes the m-by-n a (leading dimension lda; float when prec is 's') to
 * --output, or to its sibling with tag (out.npy -> out.TAG.npy; the tag
 * must be in o->output_tags), whole or not at all; dies on failure.
 * driver_write_scaled undoes the input's scaling first on the entries
 * (i, j) with lo <= j - i <= hi (the part of the result that scales with
 * the matrix: R, H, T, B, d, e); driver_write writes as it is. */
void driver_write(const char *prog, const struct driver_options *o, const char *tag, int64_t m,
                  int64_t n, const void *a, int64_t lda);
void driver_write_scaled(const char *prog, const struct driver_options *o, const char *tag,
                         int64_t m, int64_t n, const void *a, int64_t lda, int64_t lo, int64_t hi);
#define ALL_DIAGONALS INT64_MIN, INT64_MAX

/* Around a run: a progress line on stderr (panels done, elapsed, an estimate
 * of the rest) when stderr is a terminal, the run has lasted 2 s and
 * --quiet was not given; the end clears it. The estimate takes the work
 * left after a fraction f of the panels as (1 - f)^o->work_power of the
 * whole (3 for the reductions, whose panels sweep ever smaller trailing
 * matrices; 1, every panel alike, when 0). */
void driver_progress_begin(const char *prog, const struct driver_options *o);
void driver_progress_end(void);

/* Around run k of the driver's repeats: the last one is traced when --trace
 * was given; the end writes the chart (dies on failure). */
void driver_trace_begin(const struct driver_options *o, int64_t k);
void driver_trace_end(const char *prog, const struct driver_options *o, int64_t k);

/* Unless --models: checks every file the run writes (--output, its
 * output_tags siblings, --trace): each must be writable and none the input
 * or another (device and inode, not names), else dies (exit 2). Then starts
 * hyla, dies if a GPU is required and absent, prints the machine
 * line; with --models prints the models' report and exits; under a dm*
 * scheduler with uncalibrated models, says so in one line on stderr
 * (StarPU's own warnings are silenced unless STARPU_SILENT is set). */
void driver_start(const char *prog, const struct driver_options *o);

/* Print "prog: error: ..." and exit(EXIT_USAGE). */
void die_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Parse a positive size; dies with a one-line error naming what. */
int64_t parse_size(const char *prog, const char *what, const char *text);
/* Parse an integer in [lo, hi]. */
int64_t parse_int(const char *prog, const char *what, const char *text, int64_t lo, int64_t hi);
/* Dies unless bytes fit in the machine's memory (with the figures). */
void check_memory(const char *prog, double bytes);

double now_seconds(void);
/* Sorts run times in increasing order: [0] the fastest, [count/2] the median. */
void sort_times(double *times, int64_t count);
/* Cores of this machine. Host-side BLAS (checks, LAPACK references) goes
 * between host_blas_begin (StarPU workers paused, OpenBLAS on every core)
 * and host_blas_end (back to one thread per StarPU worker). */
int host_cores(void);
void host_blas_begin(void);
void host_blas_end(void);

/* Random m-by-n matrix, entries uniform in (-1, 1), reproducible from seed. */
void random_matrix(int64_t m, int64_t n, double *a, int64_t lda, int seed);
/* m-by-n matrix with singular values geometric from 1 to 1/cond (dlatms). */
int conditioned_matrix(int64_t m, int64_t n, double *a, int64_t lda, double cond, int seed);
/* Rounds every entry to float precision (so a single run's input is exact). */
void round_to_float(int64_t m, int64_t n, double *a, int64_t lda);
void to_float(int64_t m, int64_t n, const double *a, int64_t lda, float *f);
void to_double(int64_t m, int64_t n, const float *f, double *a, int64_t lda);

/* ||x - y||_F / ||y||_F (||x - y||_F if y is zero) over an m-by-n block of
 * leading dimension ld. */
double relative_difference(int64_t m, int64_t n, const double *x, const double *y, int64_t ld);
/* ||I - Q^T Q||_F for the m-by-n Q. */
double orthogonality(int64_t m, int64_t n, const double *q, int64_t ldq);
/* ||A - Q R||_F / ||A||_F with R n-by-n upper triangular. */
double qr_residual(int64_t m, int64_t n, const double *a, int64_t lda, const double *q,
                   int64_t ldq, const double *r, int64_t ldr);
/* The same two norms estimated from k Gaussian vectors, O(m n k) instead of
 * O(m n^2): ||(A - QR) X||_F / (sqrt(k) ||A||_F) and ||(Q^T Q - I) Y||_F /
 * sqrt(k) (the squares' expectations are the norms' squares); for sizes
 * whose full check would take longer than the run. 1 if out of memory. */
int qr_sampled_errors(int64_t m, int64_t n, const double *a, int64_t lda, const double *q,
                      int64_t ldq, const double *r, int64_t ldr, int k, double *resid,
                      double *orth);
/* 1-norm condition estimate of the upper triangular n-by-n R. */
double triangular_condition(int64_t n, const double *r, int64_t ldr);

/* A malloc'ed copy of a (leading dimension m) in prec ('s': float), or NULL. */
void *working_copy(int64_t m, int64_t n, const double *a, int64_t lda, char prec);

/* cuSOLVER's peer of a driver (CUDA builds only): QR = dgeqrf + dorgqr,
 * dsytrd (uplo), dgebrd (m >= n), dsyevd (uplo; values, or with vectors),
 * dgesvd (m >= n; values, or with the thin vectors), or the s versions. cusolver_seconds: its
 * time on the GPU on a copy of a already there, after a warm-up run; -1 on
 * failure. report_cusolver: that time and best's ratio to it as result
 * fields; 1 (after a one-line error) when it failed. */
enum cusolver_peer {
	CUSOLVER_QR, CUSOLVER_SYTRD, CUSOLVER_GEBRD, CUSOLVER_SYEVD, CUSOLVER_SYEVD_VECTORS,
	CUSOLVER_GESVD, CUSOLVER_GESVD_VECTORS
};
/* --cusolver given: 1, or a one-line error (exit 2) in a build without CUDA. */
int cusolver_option(const char *prog);
double cusolver_seconds(enum cusolver_peer peer, int64_t m, int64_t n, const double *a,
                        int64_t lda, char prec, char uplo);
int report_cusolver(const char *prog, enum cusolver_peer peer, int64_t m, int64_t n,
                    const double *a, int64_t lda, char prec, char uplo, double best);

/* Time of LAPACK dgeqrf + dorgqr (or s) on a copy of a, all host cores. */
double lapack_qr_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec);

/* Time of LAPACK dgebrd (or s) on a copy of the m-by-n a, all host cores. */
double lapack_gebrd_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec);

/* Time of LAPACK dsytrd (or s, triangle uplo) on a copy of the n-by-n a,
 * all host cores. */
double lapack_sytrd_seconds(int64_t n, const double *a, int64_t lda, char prec, char uplo);

/* Time of LAPACK dgehrd (or s) on a copy of the n-by-n a, all host cores;
 * with orghr, also the time of dorghr on its result there. */
double lapack_gehrd_seconds(int64_t n, const double *a, int64_t lda, char prec, double *orghr);

/* For a dgehrd result h (H on and above the subdiagonal, reflectors below)
 * with tau, of the input a: resid = ||A - Q H Q^T||_F / (n ||A||_F) and
 * orth = ||I - Q^T Q||_F / n, with the given Q (n-by-n, leading dimension n)
 * or, if q is NULL, Q formed by LAPACK's dorghr. 0 or -1. */
int hessenberg_residuals(int64_t n, const double *a, int64_t lda, const double *h, int64_t ldh,
                         const double *tau, const double *q, double *resid, double *orth);
/* The same two from k Gaussian vectors, O(n^2 k) (see qr_sampled_errors):
 * ||(A - Q H Q^T) X||_F / (sqrt(k) n ||A||_F) and ||(Q^T Q - I) Y||_F /
 * (sqrt(k) n), H the upper Hessenberg part of h, Q given. 0 or -1. */
int hessenberg_sampled_errors(int64_t n, const double *a, int64_t lda, const double *h,
                              int64_t ldh, const double *q, int k, double *resid, double *orth);

/* For a dsytrd result of the symmetric a (h: the reflectors where uplo says,
 * leading dimension n; d, e, tau): resid = ||A - Q T Q^T||_F / (n ||A||_F)
 * and orth = ||I - Q^T Q||_F / n, Q by LAPACK's dorgtr. 0 or -1. */
int tridiagonal_residuals(int64_t n, char uplo, const double *a, int64_t lda, const double *h,
                          const double *d, const double *e, const double *tau, double *resid,
                          double *orth);
/* The largest distance between T's eigenvalues (LAPACK dsterf on d, e) and
 * A's (dsyevd; a is symmetric, its lower triangle read); *scale: A's
 * largest |eigenvalue|. NaN if LAPACK fails. */
double tridiagonal_eig_error(int64_t n, const double *a, int64_t lda, const double *d,
                             const double *e, double *scale);

/* For a dgebrd result of the m-by-n a (h: the reflectors, leading dimension
 * m; d, e, tauq, taup; k = min(m, n)): resid = ||A - Q B P^T||_F /
 * (k ||A||_F) and orth = the larger of Q's and P's ||I - X^T X||_F / k, Q
 * and P^T by LAPACK's dorgbr. 0 or -1. */
int bidiagonal_residuals(int64_t m, int64_t n, const double *a, int64_t lda, const double *h,
                         const double *d, const double *e, const double *tauq, const double *taup,
                         double *resid, double *orth);
/* The largest distance between B's singular values (LAPACK dbdsqr on d, e)
 * and A's (dgesdd); *scale: A's largest. NaN if LAPACK fails. */
double bidiagonal_sv_error(int64_t m, int64_t n, const double *a, int64_t lda, const double *d,
                           const double *e, double *scale);

/* Per-worker task counts and busy times (StarPU profiling) between the two
 * calls, on one line starting with "# workers:". */
void worker_stats_start(void);
void worker_stats_print(void);

#endif
