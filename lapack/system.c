/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The system LAPACK's routines: the next definition of each symbol after
 * this library (LD_PRELOAD, or linked ahead of -llapack), else the one in
 * liblapack.so.3 (this library opened by dlopen). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "dropin.h"

static const char *names[2 * ROUTINES] = {"dgeqrf_", "sgeqrf_", "dorgqr_", "sorgqr_",
                                          "dgehrd_", "sgehrd_", "dorghr_", "sorghr_",
                                          "dsytrd_", "ssytrd_", "dgebrd_", "sgebrd_",
                                          "dsyevd_", "ssyevd_", "dgesdd_", "sgesdd_"};
static void *routines[2 * ROUTINES];
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void find(void)
{
	void *lib = NULL;
	for (int id = 0; id < 2 * ROUTINES; id++) {
		routines[id] = dlsym(RTLD_NEXT, names[id]);
		if (!routines[id] && (lib || (lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL))))
			routines[id] = dlsym(lib, names[id]);
		if (!routines[id]) {
			fprintf(stderr, "hyla_lapack: no system LAPACK has %s (liblapack.so.3: %s)\n",
			        names[id], lib ? "found" : dlerror());
			abort();
		}
	}
}

void *dropin_system(int id)
{
	pthread_once(&found, find);
	return routines[id];
}

const char *dropin_name(int id)
{
	return names[id];
}
