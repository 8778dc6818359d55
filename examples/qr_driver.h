/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The body the Gram-Schmidt QR drivers (qr_mgs, qr_cgs) share: options,
 * runs, checks, LAPACK (and cuSOLVER) references, the result line. */
#ifndef HYLA_QR_DRIVER_H
#define HYLA_QR_DRIVER_H

#include <stdint.h>
#include "hyla.h"

struct option;
struct qr_driver {
	const char *prog, *title; /* title: the algorithm, for the help text */
	const char *models;       /* the algorithm's name for hyla_options_defaults */
	const char *(*models_of)(void); /* its name for hyla_models_ready, or NULL: models */
	const char *options_help; /* the driver's own options */
	const struct option *extra;
	int (*on_extra)(int opt, const char *arg);
	/* A = QR in place (Q over a, R in r) with opts (the panel width from
	 * --nb, else 0: the library's default), hyla's info; with phases, the
	 * seconds of each phase into phase[0] and phase[1] (the run's time is
	 * their sum: what the driver does between them is not timed). */
	int (*factor)(char prec, int64_t m, int64_t n, void *a, void *r, const hyla_options *opts,
	              double phase[2]);
	const char *phases[2]; /* result keys of the two phases' times, or NULL */
	double (*flops)(int64_t m, int64_t n); /* NULL: 2 m n^2 */
	/* The second phase's routine (hyla_options_defaults), whose block size
	 * is printed under second_nb_key: *second_nb where set and nonzero,
	 * else its default when --nb is not given (--nb sets both); or NULL. */
	const char *second_routine;
	const char *second_nb_key;
	const int64_t *second_nb;
	const char *(*variant)(void); /* for the result line, once options are parsed */
	/* The orthogonality the algorithm keeps, in units of n eps, at cond. */
	double (*orth_growth)(double cond, int64_t n);
	const int *umu; /* if set and true: write U = Q diag(R) and mu, not Q and R */
	/* More checks after the common ones (their result fields); nonzero if
	 * one failed. a0: the input in double; q, r: the result (in prec). */
	int (*more_checks)(char prec, int64_t m, int64_t n, const double *a0, const void *q,
	                   const void *r);
};

/* The options every QR driver adds (its extra list starts with them; its
 * on_extra passes them on to qr_driver_option). */
enum { QR_OPT_CUSOLVER = 1000, QR_OPT_SAMPLED, QR_OPT_FIRST_OWN }; /* above the common codes */
#define QR_DRIVER_OPTIONS                                                                          \
	{"cusolver", no_argument, 0, QR_OPT_CUSOLVER}, {"sampled-check", no_argument, 0, QR_OPT_SAMPLED}
#define QR_DRIVER_OPTIONS_HELP \
	"  --cusolver       also time cuSOLVER's geqrf + orgqr on the GPU (data already\n" \
	"                   there, after a warm-up run), print the ratio\n" \
	"  --sampled-check  check on 4 random vectors, O(m n) (the default when m n^2 > 1e13,\n" \
	"                   where the full check would take longer than the run)\n"
int qr_driver_option(int opt, const char *arg);

int qr_driver_main(int argc, char **argv, const struct qr_driver *d);

#endif
