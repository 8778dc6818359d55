/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* --help and --version for the example and benchmark programs (the drivers
 * have their own options): prints usage (the first line names the program)
 * or "PROG (hyla) VERSION" and exits 0 when either is among the arguments. */
#ifndef HYLA_EXAMPLES_PROGRAM_H
#define HYLA_EXAMPLES_PROGRAM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyla.h"

static inline void program_options(int argc, char **argv, const char *prog, const char *usage)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		if (!strcmp(argv[i], "--version")) {
			printf("%s (hyla) %s\n", prog, hyla_version());
			exit(0);
		}
	}
}

#endif
