/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Matrix Market "array" and NumPy .npy files (see matrix_io.h). */
#include "matrix_io.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What a header says. */
struct header {
	int npy;          /* else Matrix Market */
	int64_t m, n;
	int itemsize;     /* npy: 8 or 4 */
	int fortran;      /* npy: column-major data */
	int symmetric;    /* Matrix Market: lower triangle stored */
	long data_offset; /* npy: where the data starts */
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* m, n in [1, 2^31) and m n doubles addressable. */
static int check_sizes(int64_t m, int64_t n, char *err, size_t errlen)
{
	if (m < 1 || n < 1)
		return fail(err, errlen, "matrix of %lld x %lld: sizes must be at least 1", (long long)m,
		            (long long)n);
	if (m > INT32_MAX || n > INT32_MAX || (double)m * (double)n * 8 > (double)SIZE_MAX / 2)
		return fail(err, errlen, "matrix of %lld x %lld is too large (sizes below 2^31)",
		            (long long)m, (long long)n);
	return 0;
}

/* The value of 'key' in a .npy header dict, up to the next ',' or '}' (or
 * the closing ')' of a shape). */
static const char *npy_value(const char *dict, const char *key)
{
	const char *at = strstr(dict, key);
	if (!at)
		return NULL;
	at = strchr(at + strlen(key), ':');
	if (!at)
		return NULL;
	while (*++at == ' ')
		;
	return at;
}

static int npy_header(FILE *f, struct header *h, char *err, size_t errlen)
{
	unsigned char pre[10];
	size_t got = fread(pre, 1, 10, f);
	if (got < 6 || memcmp(pre, "\x93NUMPY", 6))
		return fail(err, errlen, "not a .npy file (bad magic)");
	if (got < 10)
		return fail(err, errlen, ".npy header is truncated");
	int major = pre[6];
	size_t len;
	long offset;
	if (major == 1) {
		len = pre[8] | (size_t)pre[9] << 8;
		offset = 10;
	} else if (major == 2 || major == 3) {
		unsigned char more[2];
		if (fread(more, 1, 2, f) != 2)
			return fail(err, errlen, ".npy header is truncated");
		len = pre[8] | (size_t)pre[9] << 8 | (size_t)more[0] << 16 | (size_t)more[1] << 24;
		offset = 12;
	} else {
		return fail(err, errlen, ".npy format version %d is not supported (1 to 3)", major);
	}
	if (len > 1 << 20)
		return fail(err, errlen, ".npy header of %zu bytes is not plausible", len);
	char *dict = malloc(len + 1);
	if (!dict)
		return fail(err, errlen, "no memory for the .npy header");
	int ret = -1;
	if (fread(dict, 1, len, f) != len) {
		fail(err, errlen, ".npy header is truncated");
		goto out;
	}
	dict[len] = 0;
	/* The dict ends the header: '}', then only padding and '\n'. */
	char *close = strrchr(dict, '}');
	if (!close || len == 0 || dict[len - 1] != '\n' || close[strspn(close + 1, " ") + 1] != '\n') {
		fail(err, errlen, ".npy header is malformed (its length does not match its dict)");
		goto out;
	}
	const char *descr = npy_value(dict, "'descr'"), *order = npy_value(dict, "'fortran_order'");
	const char *shape = npy_value(dict, "'shape'");
	if (!descr || !order || !shape || *shape != '(') {
		fail(err, errlen, ".npy header is malformed (descr, fortran_order, shape)");
		goto out;
	}
	if (!strncmp(descr, "'<f8'", 5))
		h->itemsize = 8;
	else if (!strncmp(descr, "'<f4'", 5))
		h->itemsize = 4;
	else {
		int l = (int)strcspn(descr, ",}");
		fail(err, errlen, ".npy element type %.*s is not supported (float64 or float32, "
		     "little-endian: '<f8', '<f4')", l, descr);
		goto out;
	}
	h->fortran = !strncmp(order, "True", 4) && strchr(",} ", order[4]);
	if (!h->fortran && !(!strncmp(order, "False", 5) && strchr(",} ", order[5]))) {
		fail(err, errlen, ".npy fortran_order is neither True nor False");
		goto out;
	}
	long long dims[32];
	int ndims = 0;
	const char *p = shape + 1;
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == ')')
			break;
		char *end;
		errno = 0;
		long long d = strtoll(p, &end, 10);
		if (end == p || errno || ndims == 32) {
			fail(err, errlen, ".npy shape is malformed");
			goto out;
		}
		dims[ndims++] = d;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p != ')') {
			fail(err, errlen, ".npy shape is malformed");
			goto out;
		}
	}
	if (ndims != 2) {
		fail(err, errlen, ".npy array has %d dimension%s; a matrix needs 2", ndims,
		     ndims == 1 ? "" : "s");
		goto out;
	}
	h->npy = 1;
	h->m = dims[0];
	h->n = dims[1];
	h->data_offset = offset + (long)len;
	ret = check_sizes(h->m, h->n, err, errlen);
out:
	free(dict);
	return ret;
}

/* One whitespace-separated word of a Matrix Market file, past comments:
 * its length, 0 at the end, -1 if longer than size - 1. */
static int mm_word(FILE *f, char *word, size_t size)
{
	int c;
	for (;;) {
		while ((c = fgetc(f)) != EOF && isspace(c))
			;
		if (c != '%')
			break;
		while ((c = fgetc(f)) != EOF && c != '\n')
			;
	}
	size_t k = 0;
	int long_word = 0;
	while (c != EOF && !isspace(c)) {
		if (k + 1 < size)
			word[k++] = (char)c;
		else
			long_word = 1;
		c = fgetc(f);
	}
	word[k] = 0;
	return long_word ? -1 : (int)k;
}

/* The word as a number, all of it. */
static int mm_number(const char *word, int len, double *x)
{
	char *end;
	*x = strtod(word, &end);
	return len > 0 && end == word + len;
}

static int mm_header(FILE *f, struct header *h, char *err, size_t errlen)
{
	char line[256], banner[32], object[32], format[32], field[32], symmetry[32];
	if (!fgets(line, sizeof line, f) ||
	    sscanf(line, "%31s %31s %31s %31s %31s", banner, object, format, field, symmetry) != 5 ||
	    strcasecmp(banner, "%%MatrixMarket"))
		return fail(err, errlen, "neither a .npy file nor a Matrix Market file "
		            "(first line: %%%%MatrixMarket matrix array real general)");
	if (strcasecmp(object, "matrix"))
		return fail(err, errlen, "Matrix Market object '%s' is not a matrix", object);
	if (strcasecmp(format, "array"))
		return fail(err, errlen, "Matrix Market format '%s': only dense 'array' is read", format);
	if (strcasecmp(field, "real") && strcasecmp(field, "integer") && strcasecmp(field, "double"))
		return fail(err, errlen, "Matrix Market field '%s' is not supported (real, integer)", field);
	h->symmetric = !strcasecmp(symmetry, "symmetric");
	if (!h->symmetric && strcasecmp(symmetry, "general"))
		return fail(err, errlen, "Matrix Market symmetry '%s' is not supported (general, "
		            "symmetric)", symmetry);
	char word[64];
	long long size[2];
	for (int k = 0; k < 2; k++) {
		char *end;
		errno = 0;
		int len = mm_word(f, word, sizeof word);
		if (len <= 0 || (size[k] = strtoll(word, &end, 10), end != word + len || errno))
			return fail(err, errlen, "Matrix Market size line is malformed (expected: rows columns)");
	}
	h->npy = 0;
	h->m = size[0];
	h->n = size[1];
	if (h->symmetric && h->m != h->n)
		return fail(err, errlen, "symmetric Matrix Market matrix of %lld x %lld is not square",
		            size[0], size[1]);
	return check_sizes(h->m, h->n, err, errlen);
}

/* Whether the file is long enough for what its header announces (so that
 * no one allocates for a matrix the file cannot hold): the .npy data, or
 * two bytes per Matrix Market value. */
static int check_length(FILE *f, const struct header *h, char *err, size_t errlen)
{
	long here = ftell(f);
	if (here < 0 || fseek(f, 0, SEEK_END))
		return fail(err, errlen, "cannot seek in the file");
	double size = (double)ftell(f), count = (double)h->m * (double)h->n;
	if (h->symmetric)
		count = (double)h->n * ((double)h->n + 1) / 2;
	double needed = h->npy ? (double)h->data_offset + count * h->itemsize
	                        : (double)here + 2 * count - 1;
	if (fseek(f, here, SEEK_SET))
		return fail(err, errlen, "cannot seek in the file");
	if (size < needed)
		return fail(err, errlen, "file of %.0f bytes is too short for the %lld x %lld matrix its "
		            "header announces", size, (long long)h->m, (long long)h->n);
	return 0;
}

static FILE *open_header(const char *path, struct header *h, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	*h = (struct header){0};
	int c = fgetc(f);
	rewind(f);
	if ((c == 0x93 ? npy_header(f, h, err, errlen) : mm_header(f, h, err, errlen)) != 0 ||
	    check_length(f, h, err, errlen) != 0) {
		fclose(f);
		return NULL;
	}
	return f;
}

int matrix_file_size(const char *path, int64_t *m, int64_t *n, char *err, size_t errlen)
{
	struct header h;
	FILE *f = open_header(path, &h, err, errlen);
	if (!f)
		return -1;
	fclose(f);
	*m = h.m;
	*n = h.n;
	return 0;
}

static int npy_data(FILE *f, const struct header *h, double *a, char *err, size_t errlen)
{
	size_t count = (size_t)(h->m * h->n);
	unsigned char *raw = malloc(count * (size_t)h->itemsize);
	if (!raw)
		return fail(err, errlen, "no memory to read %zu elements", count);
	size_t got = fread(raw, (size_t)h->itemsize, count, f);
	if (got != count) {
		free(raw);
		return fail(err, errlen, ".npy data is truncated: %zu of %zu elements", got, count);
	}
	for (size_t k = 0; k < count; k++) {
		double x;
		if (h->itemsize == 8) {
			memcpy(&x, raw + 8 * k, 8);
		} else {
			float y;
			memcpy(&y, raw + 4 * k, 4);
			x = y;
		}
		/* C order: element k is (k / n, k % n). */
		size_t i = h->fortran ? k % (size_t)h->m : k / (size_t)h->n;
		size_t j = h->fortran ? k / (size_t)h->m : k % (size_t)h->n;
		a[i + j * (size_t)h->m] = x;
	}
	free(raw);
	return 0;
}

static int mm_data(FILE *f, const struct header *h, double *a, char *err, size_t errlen)
{
	size_t m = (size_t)h->m, n = (size_t)h->n;
	size_t count = h->symmetric ? n * (n + 1) / 2 : m * n, k = 0;
	char word[128];
	for (size_t j = 0; j < n; j++)
		for (size_t i = h->symmetric ? j : 0; i < m; i++, k++) {
			int len = mm_word(f, word, sizeof word);
			double x;
			if (len == 0)
				return fail(err, errlen, "Matrix Market data ends after %zu of %zu values", k, count);
			if (len < 0 || !mm_number(word, len, &x))
				return fail(err, errlen, "Matrix Market value %zu ('%.20s') is not a number", k + 1,
				            word);
			a[i + j * m] = x;
			if (h->symmetric)
				a[j + i * m] = x;
		}
	if (mm_word(f, word, sizeof word) != 0)
		return fail(err, errlen, "Matrix Market file has more than its %zu values", count);
	return 0;
}

int matrix_file_read(const char *path, int64_t m, int64_t n, double *a, char *err, size_t errlen)
{
	struct header h;
	FILE *f = open_header(path, &h, err, errlen);
	if (!f)
		return -1;
	int ret;
	if (h.m != m || h.n != n)
		ret = fail(err, errlen, "%s changed while being read", path);
	else if (h.npy)
		ret = fseek(f, h.data_offset, SEEK_SET) ? fail(err, errlen, "cannot seek in %s", path)
		                                        : npy_data(f, &h, a, err, errlen);
	else
		ret = mm_data(f, &h, a, err, errlen);
	fclose(f);
	return ret;
}

static int ends_with(const char *s, const char *tail)
{
	size_t ls = strlen(s), lt = strlen(tail);
	return ls >= lt && !strcmp(s + ls - lt, tail);
}

FILE *file_replace_open(struct file_replace *w, const char *path, char *err, size_t errlen)
{
	static unsigned count;
	if (strlen(path) >= sizeof w->target) {
		errno = ENAMETOOLONG;
		fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	w->path = path;
	if (!realpath(path, w->target)) /* not there yet: the name as given */
		strcpy(w->target, path);
	struct stat st;
	int existed = stat(w->target, &st) == 0, fd = -1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned seed = (unsigned)getpid() * 2654435761u ^ (unsigned)ts.tv_nsec;
	for (int k = 0; k < 100 && fd < 0; k++) { /* as mkstemp, with the mode of a new file */
		snprintf(w->tmp, sizeof w->tmp, "%s.tmp%06x", w->target,
		         (seed + 40503u * ++count) & 0xffffff);
		fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (f && existed)
		fchmod(fd, st.st_mode & 07777); /* the old file's (best effort) */
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd), remove(w->tmp);
		fail(err, errlen, "cannot write %s: %s", path, strerror(e));
		errno = e;
	}
	return f;
}

int file_replace_close(struct file_replace *w, FILE *f, int ok, char *err, size_t errlen)
{
	int e = ok ? 0 : errno ? errno : EIO;
	if (fflush(f) && !e)
		e = errno;
	if (fsync(fileno(f)) && !e)
		e = errno;
	if (fclose(f) && !e)
		e = errno;
	if (!e && rename(w->tmp, w->target) == 0)
		return 0;
	e = e ? e : errno;
	remove(w->tmp);
	return fail(err, errlen, "writing %s failed: %s (the old file, if any, is kept)", w->path,
	            strerror(e));
}

int matrix_file_write(const char *path, int64_t m, int64_t n, const double *a, int64_t lda,
                      char *err, size_t errlen)
{
	struct file_replace w;
	FILE *f = file_replace_open(&w, path, err, errlen);
	if (!f)
		return -1;
	int ok = 1;
	if (ends_with(path, ".npy")) {
		char dict[128];
		int len = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': True, "
		                   "'shape': (%lld, %lld), }", (long long)m, (long long)n);
		int padded = (len + 1 + 10 + 63) / 64 * 64 - 10; /* header + '\n', 64-byte aligned */
		unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(padded & 255),
		                         (unsigned char)(padded >> 8)};
		ok = fwrite(pre, 1, 10, f) == 10 && fprintf(f, "%-*s\n", padded - 1, dict) == padded;
		for (int64_t j = 0; j < n && ok; j++)
			ok = fwrite(a + j * lda, sizeof *a, (size_t)m, f) == (size_t)m;
	} else {
		ok = fprintf(f, "%%%%MatrixMarket matrix array real general\n%lld %lld\n", (long long)m,
		             (long long)n) > 0;
		for (int64_t j = 0; j < n && ok; j++)
			for (int64_t i = 0; i < m && ok; i++)
				ok = fprintf(f, "%.17g\n", a[i + j * lda]) > 0;
	}
	return file_replace_close(&w, f, ok, err, errlen);
}

void matrix_file_sibling(const char *path, const char *tag, char *out, size_t outlen)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	if (!dot || (slash && dot < slash))
		snprintf(out, outlen, "%s.%s", path, tag);
	else
		snprintf(out, outlen, "%.*s.%s%s", (int)(dot - path), path, tag, dot);
}
