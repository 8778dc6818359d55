/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed drivers' test matrix (qr_rows, qr_cols): entry (i, j) a
 * function of the seed, i and j alone, so that any rank makes its own part
 * and the matrix is the same on any number of ranks. */
#ifndef HYLA_GRADED_MATRIX_H
#define HYLA_GRADED_MATRIX_H

#include <math.h>
#include <stdint.h>

enum { COND_DIGITS = 3 }; /* the columns graded from 1 to 10^-COND_DIGITS */

/* Entry (i, j) of an n-column matrix: uniform in [-1, 1) from a hash of the
 * seed, i and j, the columns graded. */
static inline double entry(uint64_t seed, int64_t i, int64_t j, int64_t n)
{
	uint64_t x = seed * 0x9E3779B97F4A7C15u ^ (uint64_t)i * 0xBF58476D1CE4E5B9u ^
	             (uint64_t)j * 0x94D049BB133111EBu;
	x ^= x >> 31, x *= 0xD6E8FEB86659FD39u, x ^= x >> 28;
	double u = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
	return u * pow(10, -COND_DIGITS * (n > 1 ? (double)j / (double)(n - 1) : 0));
}

#endif
