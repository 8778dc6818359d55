/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Whether the performance models an algorithm uses are calibrated on this
 * machine, and what they say (perfmodels/README.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

/* A model an algorithm's tasks use: its symbol (%c: the precision), whether
 * its codelet also runs on CUDA workers, and its kind: a non-linear
 * regression a n^b + c, a power law a n^b (for costs so flat on one kind of
 * worker that StarPU's a n^b + c fit fails: NaN), or history-based (one
 * size: a mean per footprint). */
enum model_kind { NL_REGRESSION, POWER_LAW };

struct model_use {
	const char *symbol;
	int cuda;
	enum model_kind kind;
};

#define REGRESSION(symbol, cuda) {symbol, cuda, NL_REGRESSION}
static const struct model_use mgs[] = {REGRESSION("hyla_gs_columns_%c_v1", 1),
                                       REGRESSION("hyla_mgs_panel_%c_v4", 1),
                                       REGRESSION("hyla_mgs_update_%c_v2", 1), {0}};
static const struct model_use cgs[] = {REGRESSION("hyla_gs_columns_%c_v1", 1),
                                       REGRESSION("hyla_cgs_project_%c_v1", 1),
                                       REGRESSION("hyla_cgs_panel_%c_v1", 1), {0}};
static const struct model_use geqrf[] = {REGRESSION("hyla_geqrf_panel_%c_v4", 1),
                                         REGRESSION("hyla_orgqr_t_%c_v1", 1),
                                         REGRESSION("hyla_orgqr_apply_%c_v2", 1),
                                         REGRESSION("hyla_orgqr_form_%c_v2", 1), {0}};
/* With a GPU, steps: geqrf's panels after the first, orgqr's but the last.
 * (geqrf's start, hyla_geqrf_head*, runs on the GPU only: its cores' entries
 * would never be ready.) */
static const struct model_use geqrf_gpu[] = {REGRESSION("hyla_geqrf_panel_%c_v4", 1),
                                             REGRESSION("hyla_geqrf_step_%c_v2", 1),
                                             REGRESSION("hyla_orgqr_step_%c_v1", 1),
                                             REGRESSION("hyla_orgqr_t_%c_v1", 1),
                                             REGRESSION("hyla_orgqr_apply_%c_v2", 1),
                                             REGRESSION("hyla_orgqr_form_%c_v2", 1), {0}};
static const struct model_use orghr[] = {REGRESSION("hyla_orgqr_t_%c_v1", 1),
                                         REGRESSION("hyla_orgqr_apply_%c_v2", 1),
                                         REGRESSION("hyla_orgqr_form_%c_v2", 1), {0}};
static const struct model_use orghr_gpu[] = {REGRESSION("hyla_orgqr_step_%c_v1", 1),
                                             REGRESSION("hyla_orgqr_t_%c_v1", 1),
                                             REGRESSION("hyla_orgqr_apply_%c_v2", 1),
                                             REGRESSION("hyla_orgqr_form_%c_v2", 1), {0}};
/* The two-sided reductions with a GPU: one step task a panel (its update
 * in it); without, panels and updates. */
static const struct model_use sytrd_gpu[] = {REGRESSION("hyla_sytrd_step_%c_v1", 1), {0}};
static const struct model_use sytrd_cores[] = {REGRESSION("hyla_sytrd_panel_%c_v2", 1),
                                               REGRESSION("hyla_sytrd_update_%c_v1", 1), {0}};
static const struct model_use gebrd_gpu[] = {REGRESSION("hyla_gebrd_step_%c_v1", 1), {0}};
static const struct model_use gebrd_cores[] = {REGRESSION("hyla_gebrd_panel_%c_v2", 1),
                                               REGRESSION("hyla_gebrd_update_%c_v1", 1), {0}};
/* hr_reduce's auto: the fused panel with a GPU or under the parallel
 * schedulers, else the split panel. */
static const struct model_use gehrd_fused[] = {REGRESSION("hyla_gehrd_panel_%c_v3", 1),
                                             {"hyla_gehrd_update_%c_v3", 1, POWER_LAW}, {0}};
static const struct model_use gehrd_split[] = {REGRESSION("hyla_gehrd_ytop_%c_v1", 1),
                                             {"hyla_gehrd_update_%c_v3", 1, POWER_LAW}, {0}};

static const struct model_use *uses_of(const char *algorithm)
{
	if (!strcmp(algorithm, "mgs"))
		return mgs;
	if (!strcmp(algorithm, "cgs"))
		return cgs;
	if (!strcmp(algorithm, "geqrf"))
		return hyla_ncuda() > 0 ? geqrf_gpu : geqrf;
	if (!strcmp(algorithm, "orghr"))
		return hyla_ncuda() > 0 ? orghr_gpu : orghr;
	if (!strcmp(algorithm, "sytrd"))
		return hyla_ncuda() > 0 ? sytrd_gpu : sytrd_cores;
	if (!strcmp(algorithm, "gebrd"))
		return hyla_ncuda() > 0 ? gebrd_gpu : gebrd_cores;
	if (!strcmp(algorithm, "gehrd"))
		return hyla_ncuda() > 0 || hyla__parallel_tasks() ? gehrd_fused : gehrd_split;
	return NULL;
}

/* A regression's prediction in microseconds: a n^b + c (NL_REGRESSION) or
 * alpha n^beta (POWER_LAW). */
static double fit(const struct starpu_perfmodel_regression_model *r, enum model_kind kind, double n)
{
	return kind == POWER_LAW ? r->alpha * pow(n, r->beta) : r->a * pow(n, r->b) + r->c;
}

/* The fit's relative error on the sizes measured (root mean square over
 * the history's entries), or NaN without entries. */
static double fit_error(const struct starpu_perfmodel_per_arch *per, enum model_kind kind)
{
	double sum = 0;
	int count = 0;
	for (const struct starpu_perfmodel_history_list *l = per->list; l; l = l->next) {
		const struct starpu_perfmodel_history_entry *e = l->entry;
		if (!e || !(e->mean > 0))
			continue;
		double err = (fit(&per->regression, kind, (double)e->size) - e->mean) / e->mean;
		sum += err * err;
		count++;
	}
	return count ? sqrt(sum / count) : NAN;
}

/* One model: ready on every kind of worker present that runs its codelet;
 * a report line per kind. */
static int model_ready(const char *symbol, int cuda, enum model_kind kind, FILE *report)
{
	struct starpu_perfmodel model;
	memset(&model, 0, sizeof model);
	if (starpu_perfmodel_load_symbol(symbol, &model) != 0) {
		free((char *)model.symbol); /* its copy of the symbol, made before it looked */
		if (report)
			fprintf(report, "%-28s no measurements yet: not ready\n", symbol);
		return 0;
	}
	int ready = 1, seen[STARPU_NMAXWORKERS] = {0};
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype((int)w, STARPU_NMAX_SCHED_CTXS);
		int comb = starpu_perfmodel_arch_comb_get(arch->ndevices, arch->devices);
		int is_cuda = arch->devices[0].type == STARPU_CUDA_WORKER;
		if (comb < 0 || comb >= STARPU_NMAXWORKERS || seen[comb] || (is_cuda && !cuda))
			continue;
		seen[comb] = 1;
		struct starpu_perfmodel_per_arch *per = starpu_perfmodel_get_model_per_arch(&model, arch, 0);
		char name[64];
		starpu_perfmodel_get_arch_name(arch, name, sizeof name, 0);
		const struct starpu_perfmodel_regression_model *r = per ? &per->regression : NULL;
		int ok = r && (kind == POWER_LAW ? r->valid : r->nl_valid);
		ready &= ok;
		if (!report)
			continue;
		if (ok)
			fprintf(report, "%-28s %-14s regression: %u samples, sizes %lu..%lu, "
			        "%.3g n^%.3f %+.3g us, error %.1f%%: ready\n", symbol, name, r->nsample,
			        r->minx, r->maxx, kind == POWER_LAW ? r->alpha : r->a,
			        kind == POWER_LAW ? r->beta : r->b, kind == POWER_LAW ? 0 : r->c,
			        100 * fit_error(per, kind));
		else
			fprintf(report, "%-28s %-14s regression: %u samples, no fit yet: not ready\n", symbol,
			        name, r ? r->nsample : 0);
	}
	starpu_perfmodel_unload_model(&model);
	return ready;
}

int hyla_models_ready(const char *algorithm, char prec, FILE *report)
{
	const struct model_use *uses = algorithm ? uses_of(algorithm) : NULL;
	if (!uses || (prec != 'd' && prec != 's'))
		return HYLA_ERROR(-1, "no models for algorithm '%s' in precision '%c'",
		                  algorithm ? algorithm : "(null)", prec);
	if (hyla__ensure_init() != HYLA_SUCCESS)
		return HYLA_ERR_STARPU;
	int ready = 1;
	for (const struct model_use *u = uses; u->symbol; u++) {
		char symbol[64];
		snprintf(symbol, sizeof symbol, u->symbol, prec);
		ready &= model_ready(symbol, u->cuda, u->kind, report);
	}
	return ready;
}
