/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Mutation fuzzing of the drivers' matrix file readers (examples/matrix_io.c):
 *   fuzz_matrix_io SECONDS [SEED]
 * Valid .npy and Matrix Market files are mutated at random (bytes flipped
 * or set to characters their grammars care about, cut short, chunks
 * repeated) and read back; every outcome must be a clean success, or a
 * failure with a message. Built with AddressSanitizer and UBSan, so a bad
 * read or write stops the run. Prints the count of files tried. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "matrix_io.h"

static size_t npy_seed(unsigned char *buf, const char *descr, int fortran, int itemsize)
{
	char dict[128];
	int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (3, 2), }\n",
	                   descr, fortran ? "True" : "False");
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (unsigned char)len;
	buf[9] = 0;
	memcpy(buf + 10, dict, (size_t)len);
	size_t at = 10 + (size_t)len;
	for (int k = 0; k < 6; k++, at += (size_t)itemsize) {
		double d = k + 0.5;
		float f = (float)d;
		memcpy(buf + at, itemsize == 8 ? (void *)&d : (void *)&f, (size_t)itemsize);
	}
	return at;
}

static void mutate(unsigned char *buf, size_t *len, size_t cap)
{
	static const char interesting[] = "0123456789-+.,()' \n%eE:TrueFalse<>f48nanif";
	size_t pos = *len ? (size_t)rand() % *len : 0;
	switch (rand() % 4) {
	case 0:
		if (*len)
			buf[pos] ^= (unsigned char)(1 << (rand() % 8));
		break;
	case 1:
		if (*len)
			buf[pos] = (unsigned char)interesting[rand() % (int)(sizeof interesting - 1)];
		break;
	case 2:
		*len = pos;
		break;
	default: {
		size_t chunk = (size_t)(rand() % 16);
		if (pos + chunk <= *len && *len + chunk <= cap) {
			memmove(buf + pos + chunk, buf + pos, *len - pos);
			*len += chunk;
		}
	}
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fuzz_matrix_io SECONDS [SEED]\n");
		return 2;
	}
	double seconds = atof(argv[1]);
	srand(argc > 2 ? (unsigned)atoi(argv[2]) : 1);
	enum { CAP = 4096, NSEEDS = 5 };
	static unsigned char seeds[NSEEDS][CAP], buf[CAP];
	size_t seed_len[NSEEDS];
	seed_len[0] = npy_seed(seeds[0], "<f8", 0, 8);
	seed_len[1] = npy_seed(seeds[1], "<f8", 1, 8);
	seed_len[2] = npy_seed(seeds[2], "<f4", 0, 4);
	seed_len[3] = (size_t)snprintf((char *)seeds[3], CAP,
	                               "%%%%MatrixMarket matrix array real general\n%% c\n3 2\n1\n2.5\n-3e1\n4\n5\n6\n");
	seed_len[4] = (size_t)snprintf((char *)seeds[4], CAP,
	                               "%%%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
	char path[] = "/tmp/hyla_fuzz_XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	long tries = 0, read_ok = 0;
	time_t end = time(NULL) + (time_t)seconds;
	while (time(NULL) < end) {
		int s = rand() % NSEEDS;
		size_t len = seed_len[s];
		memcpy(buf, seeds[s], len);
		for (int k = 1 + rand() % 4; k > 0; k--)
			mutate(buf, &len, CAP);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
			perror(path);
			return 1;
		}
		tries++;
		char err[256] = "";
		int64_t m, n;
		if (matrix_file_size(path, &m, &n, err, sizeof err)) {
			if (!err[0]) {
				fprintf(stderr, "failure without a message after %ld files\n", tries);
				return 1;
			}
			continue;
		}
		if (m * n > 1 << 20)
			continue; /* a plausible header for a matrix too large to try here */
		double *a = malloc(sizeof *a * (size_t)(m * n));
		if (!a)
			return 1;
		err[0] = 0;
		if (matrix_file_read(path, m, n, a, err, sizeof err) == 0)
			read_ok++;
		else if (!err[0]) {
			fprintf(stderr, "failure without a message after %ld files\n", tries);
			return 1;
		}
		free(a);
	}
	remove(path);
	printf("fuzz_matrix_io: %ld files, %ld read cleanly, the rest refused with a message\n", tries,
	       read_ok);
	return 0;
}
