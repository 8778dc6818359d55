/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Dense matrix files for the drivers: Matrix Market "array" (real or
 * integer, general or symmetric) and NumPy .npy (float64 or float32,
 * little-endian, C or Fortran order), told apart by their content. */
#ifndef HYLA_MATRIX_IO_H
#define HYLA_MATRIX_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The matrix's size, from the file's header (nothing else is read). 0, or
 * -1 with a one-line reason in err. */
int matrix_file_size(const char *path, int64_t *m, int64_t *n, char *err, size_t errlen);

/* Reads the m-by-n matrix (sizes as matrix_file_size gave them) into a,
 * column-major with leading dimension m. 0, or -1 with a reason in err. */
int matrix_file_read(const char *path, int64_t m, int64_t n, double *a, char *err, size_t errlen);

/* Writes the m-by-n a (leading dimension lda): .npy (float64, Fortran
 * order) when path ends in ".npy", Matrix Market array otherwise. 0, or -1
 * with a reason in err. */
int matrix_file_write(const char *path, int64_t m, int64_t n, const double *a, int64_t lda,
                      char *err, size_t errlen);

/* Writing a file whole or not at all. file_replace_open opens a new
 * temporary beside path (or beside its target if it is a symbolic link):
 * NULL, with errno and a reason in err, if it cannot. file_replace_close
 * flushes, syncs and closes it, then renames it over the target if ok (the
 * writes went well) and all of that did; otherwise removes it, leaving the
 * old file as it was: 0, or -1 with a reason in err. */
struct file_replace {
	const char *path; /* as given */
	char target[4096], tmp[4112];
};
FILE *file_replace_open(struct file_replace *w, const char *path, char *err, size_t errlen);
int file_replace_close(struct file_replace *w, FILE *f, int ok, char *err, size_t errlen);

/* The path with ".tag" before its extension (out.npy -> out.tau.npy). */
void matrix_file_sibling(const char *path, const char *tag, char *out, size_t outlen);

#endif
