/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What the algorithms share (untyped). */
#ifndef HYLA_ALGORITHMS_H
#define HYLA_ALGORITHMS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "hyla.h"

/* LAPACK's argument checks of dgehrd and dorghr (-1 n, -2 ilo, -3 ihi, -4 a,
 * -5 lda, -6 tau, which must be there when need_tau), with a one-line
 * message; 0 when all are good. */
int hyla__check_hessenberg_args(int64_t n, int64_t ilo, int64_t ihi, const void *a, int64_t lda,
                                const void *tau, int need_tau);

/* The Gram-Schmidt QRs' argument checks (-1 m, -2 n, -3 a, -4 lda, -5 r,
 * -6 ldr), and their asynchronous calls' (-1 a, -2 r, -3 ldr); 0 when all
 * are good. */
int hyla__check_gs_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *r,
                        int64_t ldr);
struct hyla_desc;
int hyla__check_gs_async_args(const struct hyla_desc *A, const void *r, int64_t ldr);
/* LAPACK dgeqrf's argument checks (-1 m, -2 n, -3 a, -4 lda, -5 tau) and
 * dorgqr's (-1 m, -2 n, -3 k, -4 a, -5 lda, -6 tau); 0 when all are good. */
int hyla__check_geqrf_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *tau);
int hyla__check_orgqr_args(int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                           const void *tau);
/* LAPACK dsytrd's argument checks (-1 uplo, -2 n, -3 a, -4 lda, -5 d, -6 e,
 * -7 tau); 0 when all are good. */
int hyla__check_sytrd_args(char uplo, int64_t n, const void *a, int64_t lda, const void *d,
                           const void *e, const void *tau);
/* LAPACK dsyevd's argument checks (-1 jobz, -2 uplo, -3 n, -4 a, -5 lda,
 * -6 w); 0 when all are good. */
int hyla__check_syevd_args(char jobz, char uplo, int64_t n, const void *a, int64_t lda,
                           const void *w);
/* LAPACK dgesdd's argument checks (-1 jobz, -2 m, -3 n, -4 a, -5 lda, -6 s,
 * -7 u, -8 ldu, -9 vt, -10 ldvt); 0 when all are good. */
int hyla__check_gesdd_args(char jobz, int64_t m, int64_t n, const void *a, int64_t lda,
                           const void *s, const void *u, int64_t ldu, const void *vt,
                           int64_t ldvt);
/* LAPACK dgebrd's argument checks (-1 m, -2 n, -3 a, -4 lda, -5 d, -6 e,
 * -7 tauq, -8 taup); 0 when all are good. */
int hyla__check_gebrd_args(int64_t m, int64_t n, const void *a, int64_t lda, const void *d,
                           const void *e, const void *tauq, const void *taup);
/* A call's options (opts, argument number arg; NULL: defaults) into *o,
 * checked: -arg and a line naming the field if one is bad. */
int hyla__options_check(const hyla_options *opts, int arg, hyla_options *o);
/* An asynchronous call's last checks: its options (argument arg) into *o,
 * then its sequence (argument arg + 1). Once they pass, the call enters o's
 * context (hyla__context_enter), submits, and ends with hyla__async_done,
 * which leaves the context and records a failed submission in seq. */
struct hyla_sequence;
int hyla__async_args(const hyla_options *opts, int arg, const struct hyla_sequence *seq,
                     hyla_options *o);
int hyla__async_done(struct hyla_sequence *seq, const hyla_options *o, unsigned outer, int ret);
/* The default block size of routine (as hyla_options_defaults names it) on
 * an m-by-n matrix for the workers of the calling thread's context. */
int64_t hyla__default_nb(const char *routine, int64_t m, int64_t n);
/* The Hessenberg reduction's nb for an n-by-n block: o's, else the default
 * for o's panel variant and the workers. */
int64_t hyla__gehrd_nb(const hyla_options *o, int64_t n);
/* The columns per trailing-update task for an n-column matrix: o's, or
 * the default ($HYLA_UPDATE_WIDTH, else per machine); at most n. */
int64_t hyla__update_width(const hyla_options *o, int64_t n);
/* Panels per trailing-update task of a step (geqrf, orgqr, sytrd, gebrd)
 * over at most `panels` panels of width nb, and whether the next panel's
 * update goes first, alone (look-ahead): with a GPU one task over them all
 * (the GPU runs the updates one after the other anyway, and its panels
 * read the whole trailing matrix: larger GEMMs, fewer dependent tasks),
 * without, groups of width columns (hyla__update_width). */
int64_t hyla__update_group(int64_t panels, int64_t width, int64_t nb, int *lookahead);
/* Zeroes the strictly lower triangle of the n-by-n r (on threads when it is
 * large: algorithms/clear_lower.c). */
void hyla__clear_lower(int64_t n, void *r, int64_t ldr, size_t elsize);
/* The same in two steps: start zeroes the lower parts of the diagonal blocks
 * of nb and starts threads on the rest (below those blocks), which the
 * caller leaves alone (registers no handle on it) until finish has joined
 * them. */
enum { HYLA_CLEAR_THREADS = 8 };
struct hyla_clear_part {
	char *r;
	int64_t n, nb, ldr, first, end; /* columns [first, end) */
	size_t elsize;
	pthread_t thread;
	int running;
};
struct hyla_clear {
	struct hyla_clear_part parts[HYLA_CLEAR_THREADS];
	int threads;
};
void hyla__clear_start(struct hyla_clear *c, int64_t n, int64_t nb, void *r, int64_t ldr,
                       size_t elsize);
void hyla__clear_finish(struct hyla_clear *c);

#endif
