/* Helpers shared by the drivers and the testers: argument parsing, test
 * matrices, accuracy checks, timing and LAPACK references. Matrices are
 * handled as double; single-precision runs convert at the call. */
#ifndef HYLA_EXAMPLES_COMMON_H
#define HYLA_EXAMPLES_COMMON_H

#include <stdint.h>
#include <stddef.h>

/* Exit status for bad arguments (one line on stderr). */
#define EXIT_USAGE 2

/* Print "prog: error: ..." and exit(EXIT_USAGE). */
void die_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Parse a positive size; dies with a one-line error naming what. */
int64_t parse_size(const char *prog, const char *what, const char *text);
/* Parse an integer in [lo, hi]. */
int64_t parse_int(const char *prog, const char *what, const char *text, int64_t lo, int64_t hi);
/* Dies unless bytes fit in the machine's memory (with the figures). */
void check_memory(const char *prog, double bytes);

double now_seconds(void);
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

/* ||I - Q^T Q||_F for the m-by-n Q. */
double orthogonality(int64_t m, int64_t n, const double *q, int64_t ldq);
/* ||A - Q R||_F / ||A||_F with R n-by-n upper triangular. */
double qr_residual(int64_t m, int64_t n, const double *a, int64_t lda, const double *q,
                   int64_t ldq, const double *r, int64_t ldr);
/* 1-norm condition estimate of the upper triangular n-by-n R. */
double triangular_condition(int64_t n, const double *r, int64_t ldr);

/* Time of LAPACK dgeqrf + dorgqr (or s) on a copy of a, all host cores. */
double lapack_qr_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec);

/* Per-worker task counts and busy times (StarPU profiling) between the two
 * calls, on one line starting with "# workers:". */
void worker_stats_start(void);
void worker_stats_print(void);

#endif
