/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The options of a call (hyla.h): their checks, and the defaults tuned per
 * machine (GPU or not; the worker counts are the calling thread's
 * scheduling context's). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "runtime.h"

static int64_t mgs_nb(int64_t m, int64_t n)
{
	(void)m;
	/* Measured on an H100 + 16 cores at n = 8000: nb = 512 0.19 s, 384 0.20 s,
	 * 256 0.23 s; 16 cores alone: 128. */
	int64_t nb = hyla_ncuda() == 0 ? 128 : n >= 6144 ? 512 : 256;
	return n < nb ? (n > 0 ? n : 1) : nb;
}

static int64_t cgs_nb(int64_t m, int64_t n)
{
	(void)m;
	/* The panel's Level-2 work grows with nb, the projections' Level-3
	 * efficiency too. */
	int64_t nb = hyla_ncuda() == 0 ? 64 : 256;
	return n < nb ? (n > 0 ? n : 1) : nb;
}

static int64_t geqrf_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* The panel is the critical path; on the GPU its column loop costs about
	 * the same per column at any width. H100, qr_householder 8000: geqrf
	 * 0.138 s at nb 128, 0.153 s at 192, 0.177 s at 256. */
	return hyla_ncuda() > 0 ? 128 : 64;
}

static int64_t orgqr_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* Level 3 alone, step after step: wider blocks, fewer steps (each at
	 * least about 0.3 ms on the GPU, the next panel's T among it). H100,
	 * the matrix on the GPU (qr_householder --resident), orgqr at nb 256,
	 * 384, 512: 8000 0.0282, 0.0256, 0.0258 s; 16384 0.153, 0.151, 0.143 s;
	 * 8192 x 4096 0.0123, 0.0120, 0.0111 s; 2000 and 4000 alike. */
	return hyla_ncuda() > 0 ? 512 : 64;
}

static int64_t sytrd_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* With a GPU its step tasks (panel and update; nb 64 measured on an H100);
	 * DLATRD's panel on a core: its SYMVs grow with nb; to be tuned. */
	return hyla_ncuda() > 0 ? 64 : 32;
}

/* The band of the two-stage reductions (the eigenvalues', algorithms/syevd.c;
 * the singular values', algorithms/gesdd.c): their second stage, on the
 * cores, costs in proportion to it (the eigenvalues' on one core, n = 8000:
 * 1.4 s at 32, 3.3 s at 64); the first, Level 3, gains from it, but its
 * steps cost about 0.5 ms each on the GPU whatever their width (H200, 8000:
 * 32 and 16 gave 0.54 and 0.55 s). */
static int64_t band_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	return 32;
}

static int64_t gebrd_nb(int64_t m, int64_t n)
{
	/* DLABRD's panel on a core, two GEMVs per column: as the tridiagonal's. */
	return sytrd_nb(m, m < n ? m : n);
}

static int64_t gehrd_nb(int64_t m, int64_t n)
{
	(void)m, (void)n;
	/* DLAHR2's panel: its non-GEMV work grows with nb, the task count (each
	 * about 0.3 ms of the runtime's with a GPU) falls with it. H100, n =
	 * 8000: nb 64 0.773 s, 96 0.764 s, 128 0.777 s. */
	return hyla_ncuda() > 0 ? 96 : 32;
}

int64_t hyla__gehrd_nb(const hyla_options *o, int64_t n)
{
	if (o->nb)
		return o->nb;
	/* The split panel with a GPU is a task a panel whose work on its core
	 * grows with nb (H200, n = 8000: nb 32 1.19 s, 48 1.32 s, 64 1.59 s). */
	return o->gehrd_panel == HYLA_PANEL_CPU && hyla_ncuda() > 0 ? 32 : gehrd_nb(n, n);
}

static int64_t update_width(int64_t n)
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

int64_t hyla__update_group(int64_t panels, int64_t width, int64_t nb, int *lookahead)
{
	/* H100, n = 8000, one update a step against the next panel's alone and
	 * groups of 2048 columns: qr_householder 0.193 s (0.222 s). */
	*lookahead = hyla_ncuda() == 0;
	int64_t group = width / nb > 1 ? width / nb : 1;
	return *lookahead ? group : panels > 0 ? panels : 1;
}


/* orghr is orgqr on the shifted reflectors, so hyla_dorghr's width is
 * orgqr's, not gehrd's (H100, hr_reduce 8000 --want-q: orghr 0.089-0.092 s
 * at 512, 0.113-0.115 s at 96; 2 cores, 2000: 0.135 s at 64, 0.144-0.156 s
 * at 32). The asynchronous call takes its matrix's panels as they are. */
static const struct {
	const char *name;
	int64_t (*nb)(int64_t m, int64_t n);
} routines[] = {
	{"mgs", mgs_nb},     {"cgs", cgs_nb},     {"geqrf", geqrf_nb}, {"orgqr", orgqr_nb},
	{"sytrd", sytrd_nb}, {"gebrd", gebrd_nb}, {"gehrd", gehrd_nb}, {"orghr", orgqr_nb},
	{"syevd", sytrd_nb}, /* their reductions'; their vectors' products take orgqr's */
	{"gesdd", gebrd_nb}, {"syevd_band", band_nb}, {"gesdd_band", band_nb},
};

int64_t hyla__default_nb(const char *routine, int64_t m, int64_t n)
{
	for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
		if (!strcmp(routine, routines[i].name))
			return routines[i].nb(m, n);
	return 0;
}

int64_t hyla__update_width(const hyla_options *o, int64_t n)
{
	if (o->update_width == 0)
		return update_width(n);
	return o->update_width < n ? o->update_width : n > 0 ? n : 1;
}

int hyla__options_check(const hyla_options *opts, int arg, hyla_options *o)
{
	*o = opts ? *opts : (hyla_options){0};
	if (o->nb < 0 || o->nb > INT32_MAX)
		return HYLA_ERROR(-arg, "opts->nb = %lld must be in [0, 2^31) (0: default)",
		                  (long long)o->nb);
	if (o->update_width < 0 || o->update_width > INT32_MAX)
		return HYLA_ERROR(-arg, "opts->update_width = %lld must be in [0, 2^31) (0: default)",
		                  (long long)o->update_width);
	if (o->mgs_form != HYLA_MGS_BLOCKED && o->mgs_form != HYLA_MGS_VECTOR)
		return HYLA_ERROR(-arg, "opts->mgs_form = %d is not an hyla_mgs_form", (int)o->mgs_form);
	if (o->cgs_variant != HYLA_CGS2 && o->cgs_variant != HYLA_CGS &&
	    o->cgs_variant != HYLA_CGS_VECTOR)
		return HYLA_ERROR(-arg, "opts->cgs_variant = %d is not an hyla_cgs_variant",
		                  (int)o->cgs_variant);
	if (o->gehrd_panel != HYLA_PANEL_AUTO && o->gehrd_panel != HYLA_PANEL_GPU &&
	    o->gehrd_panel != HYLA_PANEL_CPU)
		return HYLA_ERROR(-arg, "opts->gehrd_panel = %d is not an hyla_gehrd_panel",
		                  (int)o->gehrd_panel);
	if (!hyla__context_valid(o->sched_ctx))
		return HYLA_ERROR(-arg, "opts->sched_ctx = %u is not a scheduling context with a "
		                  "CPU worker", o->sched_ctx);
	return HYLA_SUCCESS;
}

int hyla__async_args(const hyla_options *opts, int arg, const hyla_sequence *seq, hyla_options *o)
{
	int ret = hyla__options_check(opts, arg, o);
	return ret == HYLA_SUCCESS ? hyla__sequence_check(seq, arg + 1) : ret;
}

int hyla__async_done(hyla_sequence *seq, const hyla_options *o, unsigned outer, int ret)
{
	hyla__context_leave(o, outer);
	return hyla__sequence_submitted(seq, ret);
}

int hyla_options_defaults(const char *routine, int64_t m, int64_t n, hyla_options *opts)
{
	if (!routine || !hyla__default_nb(routine, 1, 1))
		return HYLA_ERROR(-1, "routine '%s' is not one of hyla's", routine ? routine : "(null)");
	if (m < 0)
		return HYLA_ERROR(-2, "m = %lld must be >= 0", (long long)m);
	if (n < 0)
		return HYLA_ERROR(-3, "n = %lld must be >= 0", (long long)n);
	hyla_options o;
	int ret = hyla__options_check(opts, 4, &o);
	if (ret == HYLA_SUCCESS && !opts)
		ret = HYLA_ERROR(-4, "opts is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__ensure_init();
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	if (opts->nb == 0 && !strcmp(routine, "gehrd"))
		opts->nb = hyla__gehrd_nb(opts, n);
	else if (opts->nb == 0)
		opts->nb = hyla__default_nb(routine, m, n);
	if (opts->update_width == 0)
		opts->update_width = update_width(n);
	hyla__context_leave(&o, outer);
	return HYLA_SUCCESS;
}
