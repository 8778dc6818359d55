/* Dense matrix files for the drivers: Matrix Market "array" (real or
 * integer, general or symmetric) and NumPy .npy (float64 or float32,
 * little-endian, C or Fortran order), told apart by their content. */
#ifndef HYLA_MATRIX_IO_H
#define HYLA_MATRIX_IO_H

#include <stddef.h>
#include <stdint.h>

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

/* The path with ".tag" before its extension (out.npy -> out.tau.npy). */
void matrix_file_sibling(const char *path, const char *tag, char *out, size_t outlen);

#endif
