/* Block-size tables: the seeds tune them per machine (GPU or not). */
#include <errno.h>
#include <stdlib.h>
#include "algorithms.h"
#include "hyla.h"

int64_t hyla_mgs_default_nb(int64_t m, int64_t n)
{
	(void)m;
	/* Measured on an H100 + 16 cores at n = 8000: nb = 512 0.19 s, 384 0.20 s,
	 * 256 0.23 s; 16 cores alone: 128. */
	int64_t nb = hyla_ncuda() == 0 ? 128 : n >= 6144 ? 512 : 256;
	return n < nb ? (n > 0 ? n : 1) : nb;
}

int64_t hyla_cgs_default_nb(int64_t m, int64_t n)
{
	(void)m;
	/* The panel's Level-2 work grows with nb, the projections' Level-3
	 * efficiency too. */
	int64_t nb = hyla_ncuda() == 0 ? 64 : 256;
	return n < nb ? (n > 0 ? n : 1) : nb;
}

int64_t hyla_geqrf_default_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* The panel is the critical path; on the GPU its column loop costs about
	 * the same per column at any width. H100, qr_householder 8000: geqrf
	 * 0.138 s at nb 128, 0.153 s at 192, 0.177 s at 256. */
	return hyla_ncuda() > 0 ? 128 : 64;
}

int64_t hyla_orgqr_default_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* Level 3 alone, step after step: wider blocks, fewer steps. H100,
	 * qr_householder 8000: orgqr 0.084 s at nb 128, 0.076 s at 192, 0.071 s
	 * at 256. */
	return hyla_ncuda() > 0 ? 256 : 64;
}

int64_t hyla__update_group(int64_t panels, int64_t n, int64_t nb, int *lookahead)
{
	/* H100, n = 8000, one update a step against the next panel's alone and
	 * groups of 2048 columns: qr_householder 0.193 s (0.222 s). */
	*lookahead = hyla_ncuda() == 0;
	int64_t width = hyla_gehrd_update_width(n), group = width / nb > 1 ? width / nb : 1;
	return *lookahead ? group : panels > 0 ? panels : 1;
}

int64_t hyla_sytrd_default_nb(int64_t n)
{
	(void)n;
	/* With a GPU its step tasks (panel and update; nb 64: H100, session 9);
	 * DLATRD's panel on a core: its SYMVs grow with nb; to be tuned. */
	return hyla_ncuda() > 0 ? 64 : 32;
}

int64_t hyla_gebrd_default_nb(int64_t m, int64_t n)
{
	/* DLABRD's panel on a core, two GEMVs per column: as the tridiagonal's. */
	return hyla_sytrd_default_nb(m < n ? m : n);
}

int64_t hyla_gehrd_default_nb(int64_t n)
{
	(void)n;
	/* DLAHR2's panel: its non-GEMV work grows with nb, the task count (each
	 * about 0.3 ms of the runtime's with a GPU) falls with it. H100, n =
	 * 8000: nb 64 0.773 s, 96 0.764 s, 128 0.777 s. */
	return hyla_ncuda() > 0 ? 96 : 32;
}

int64_t hyla_gehrd_update_width(int64_t n)
{
	/* H100, n = 8000, against 512: hr_reduce 0.90 s (0.96), tridiag 1.00 s (1.05),
	 * bidiag 2.46 s (2.53), qr_householder 0.44 s (0.47; 16384: 1.42 s, 1.77):
	 * fewer, larger GEMMs; 4096 and 8192 no better. HYLA_UPDATE_WIDTH
	 * overrides it (ignored unless a positive number); never beyond n. */
	const char *env = getenv("HYLA_UPDATE_WIDTH");
	char *end;
	errno = 0;
	long long width = env ? strtoll(env, &end, 10) : 0;
	if (!env || *end != '\0' || errno == ERANGE || width <= 0)
		width = hyla_ncuda() > 0 ? 2048 : 128;
	return width < n ? width : n > 0 ? n : 1;
}
