/* What the algorithms share (untyped). */
#ifndef HYLA_ALGORITHMS_H
#define HYLA_ALGORITHMS_H

#include <stdint.h>

/* LAPACK's argument checks of dgehrd and dorghr (-1 n, -2 ilo, -3 ihi, -4 a,
 * -5 lda, -6 tau, which must be there when need_tau), with a one-line
 * message; 0 when all are good. */
int hyla__check_hessenberg_args(int64_t n, int64_t ilo, int64_t ihi, const void *a, int64_t lda,
                                const void *tau, int need_tau);

#endif
