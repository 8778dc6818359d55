/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* libhyla_lapack's internals: the routines it takes over, where each call
 * goes (hyla or the system LAPACK), and the system LAPACK's own symbols. */
#ifndef HYLA_LAPACK_DROPIN_H
#define HYLA_LAPACK_DROPIN_H

#include <stdint.h>
#include "hyla.h"

/* The routines, each in double then single precision: index 2 r + (s). */
enum { GEQRF, ORGQR, GEHRD, ORGHR, SYTRD, GEBRD, SYEVD, GESDD, ROUTINES };
#define DROPIN_ID(r, prec) (2 * (r) + ((prec) == 's'))

/* Whether call id, of the given size (the order of the work: min(m, n) for
 * QR, n for the reductions, ...), goes to hyla: valid (its arguments pass
 * LAPACK's checks, workspace queries excepted), at least the crossover,
 * not made by hyla itself or a StarPU worker, hyla running. Counts the
 * call. On 1, the caller calls hyla, then dropin_done with its result. */
int dropin_route(int id, int valid, int64_t size);
/* Ends a call dropin_route sent to hyla: returns 1 where hyla refused the
 * matrix untouched (HYLA_ERR_TOO_LARGE: more than its GPU takes), and the
 * caller then makes the system LAPACK's call; else 0. Any other failure
 * of hyla (the matrix may be half transformed) is reported on stderr and
 * aborts the process; the solvers' info > 0 (no convergence) is LAPACK's,
 * for the caller. */
int dropin_done(int id, int ret);
/* The options of hyla's calls ($HYLA_LAPACK_NB). */
const hyla_options *dropin_options(void);

/* The system LAPACK's routine id (the next definition after this library,
 * else liblapack.so.3's): never NULL (aborts if none has it). */
void *dropin_system(int id);
/* "dgeqrf_", ... */
const char *dropin_name(int id);

#endif
