/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* StarPU-MPI's start and end for hyla (include/hyla_mpi.h), and what the
 * distributed matrices share (mpi/mpi_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <starpu_mpi.h>
#include "hyla_mpi.h"
#include "mpi_internal.h"

/* Tags for StarPU-MPI, from 2^40 on (an application's own are likely
 * below): every rank makes the same collective calls in the same order, so
 * each takes the same tags. */
static starpu_mpi_tag_t next_tag = (starpu_mpi_tag_t)1 << 40;
static int started; /* between hyla_mpi_init and hyla_mpi_finalize */

starpu_mpi_tag_t hyla__mpi_tag(void)
{
	return next_tag++;
}

int hyla__mpi_started(void)
{
	return started;
}

int hyla__mpi_complain(const char *func, int code, const char *what)
{
	fprintf(stderr, "hyla: %s: %s\n", func, what);
	return code;
}

int hyla_mpi_init(MPI_Comm comm)
{
	if (started)
		return hyla__mpi_complain(__func__, HYLA_ERR_STARPU, "StarPU-MPI is running already");
	/* StarPU-MPI's thread polls while requests are pending; bound, it shares
	 * a worker's core and halves that worker (4 ranks of 4 cores on the GPU
	 * machine: qr_cols 8000 6.6 s bound, 3.7 s not). The application's
	 * setting wins; set before StarPU's threads start. */
	setenv("STARPU_MPI_NOBIND", "1", 0);
	int ret = hyla_init(), provided = MPI_THREAD_SINGLE, up = 0;
	if (ret != HYLA_SUCCESS)
		return ret;
	MPI_Initialized(&up);
	if (up)
		MPI_Query_thread(&provided);
	if (!up || provided < MPI_THREAD_SERIALIZED) {
		hyla_finalize();
		return hyla__mpi_complain(__func__, HYLA_ERR_STARPU,
		                          "MPI must be initialised first with MPI_THREAD_SERIALIZED or more");
	}
	if (starpu_mpi_init_comm(NULL, NULL, 0, comm)) {
		hyla_finalize();
		return hyla__mpi_complain(__func__, HYLA_ERR_STARPU, "StarPU-MPI could not start");
	}
	started = 1;
	return HYLA_SUCCESS;
}

void hyla_mpi_finalize(void)
{
	if (!started)
		return;
	started = 0;
	starpu_mpi_shutdown();
	hyla_finalize();
}
