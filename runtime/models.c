/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Whether the performance models an algorithm uses are calibrated on this
 * machine, and what they say (perfmodels/README.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime.h"

/* A model is accurate when a later run's tasks took within HYLA_MODEL_ACCURACY
 * (default 25%) of what it predicted: sum |predicted - measured| / sum
 * measured (each run's worst task left out: HYLA_CHECK_TRIM_FROM); or
 * within HYLA_MODEL_SLACK_US a task on average (StarPU's own cost of a task
 * is about that: placement cannot use a finer prediction, and tasks that
 * short vary more than 25% from run to run). */
#define HYLA_MODEL_SLACK_US 20.0

static double accuracy(void)
{
	const char *set = getenv("HYLA_MODEL_ACCURACY");
	char *end;
	double a = set ? strtod(set, &end) : 0;
	return set && end != set && !*end && a > 0 && a <= 10 ? a : 0.25;
}

/* A model an algorithm's tasks use: its symbol (%c: the precision), its
 * kind: a non-linear regression a n^b + c, or a power law a n^b (for costs
 * so flat on one kind of worker that StarPU's a n^b + c fit fails: NaN),
 * and how it is judged: CORES_ONLY, its tasks run on the cores alone (host
 * code: a GPU worker takes them only where a context has no core), so only
 * the cores' kinds are; GPU_WHERE_PRESENT, with a GPU only the GPU's kinds
 * are (the solvers' products: their matrices live on the GPU, and the
 * calibration's sizes gave the cores none of them on the GPU machines);
 * BY_SHAPE, by each shape's tasks in all, not task by task: the divide and
 * conquer's host tasks cost what their data decide, which no size known at
 * submission tells (a panel of a merge's vectors 4-10 times less where its
 * values deflated, a leaf's dstedc and a share of roots their iterations),
 * while a shape's tasks in all (a merge's panels, a level's leaves) cost
 * what their size says: spreading them over the cores is what the model is
 * for. */
enum model_kind { NL_REGRESSION, POWER_LAW };
enum { CORES_ONLY = 1, BY_SHAPE = 2, GPU_WHERE_PRESENT = 4 };

struct model_use {
	const char *symbol;
	enum model_kind kind;
	int judged;
};

#define REGRESSION(symbol) {symbol, NL_REGRESSION, 0}
#define DC_HOST(symbol) {symbol, NL_REGRESSION, CORES_ONLY | BY_SHAPE}
#define PRODUCT(symbol) {symbol, NL_REGRESSION, GPU_WHERE_PRESENT}
static const struct model_use mgs[] = {REGRESSION("hyla_gs_columns_%c_v1"),
                                       {"hyla_mgs_panel_%c_v4", POWER_LAW, 0},
                                       REGRESSION("hyla_mgs_update_%c_v2"), {0}};
static const struct model_use cgs[] = {REGRESSION("hyla_gs_columns_%c_v1"),
                                       REGRESSION("hyla_cgs_project_%c_v1"),
                                       REGRESSION("hyla_cgs_panel_%c_v1"), {0}};
static const struct model_use cgs_vector[] = {REGRESSION("hyla_gs_columns_%c_v1"),
                                              REGRESSION("hyla_cgs_vector_%c_v1"), {0}};
/* Without a GPU, orgqr's form (the panel's own columns, one core's task)
 * has no model: its time follows the rows it multiplies and the rows above
 * them it zeroes, which no one size tells (on 2 cores its fit stayed
 * 30-150% off after six rounds), and equal cores need no prediction to
 * place it. */
static const struct model_use geqrf[] = {REGRESSION("hyla_geqrf_panel_%c_v4"),
                                         REGRESSION("hyla_orgqr_t_%c_v1"),
                                         REGRESSION("hyla_orgqr_apply_%c_v2"), {0}};
/* With a GPU, steps: geqrf's panels after the first, orgqr's (its apply,
 * form and next T inside them; an apply of its own only on the columns
 * after the reflectors, a full Q, which the calibration does not run: 3
 * rounds on the GPU machine left apply and form unmeasured). geqrf's start
 * (hyla_geqrf_head*) runs on the GPU only, and orgqr's first T
 * (hyla_orgqr_t, one task a call) on the cores only where its panel is at
 * most HYLA_CORE_MAX_QR_PANEL (its last panel, up to 512 wide): from
 * 2000 to 8000 they never took one (no sample after four rounds on the
 * H100 machine), so neither model is judged, on either kind. */
static const struct model_use geqrf_gpu[] = {REGRESSION("hyla_geqrf_panel_%c_v4"),
                                             REGRESSION("hyla_geqrf_step_%c_v2"),
                                             REGRESSION("hyla_orgqr_step_%c_v1"), {0}};
static const struct model_use orghr[] = {REGRESSION("hyla_orgqr_t_%c_v1"),
                                         REGRESSION("hyla_orgqr_apply_%c_v2"), {0}};
static const struct model_use orghr_gpu[] = {REGRESSION("hyla_orgqr_step_%c_v1"), {0}};
/* The two-sided reductions with a GPU: one step task a panel (its update
 * in it); on all the cores the same, a parallel task placed without a
 * model (no_model); on cores that make no combined worker, panels and
 * updates. */
static const struct model_use sytrd_gpu[] = {REGRESSION("hyla_sytrd_step_%c_v1"), {0}};
static const struct model_use sytrd_cores[] = {REGRESSION("hyla_sytrd_panel_%c_v2"),
                                               REGRESSION("hyla_sytrd_update_%c_v1"), {0}};
static const struct model_use gebrd_gpu[] = {REGRESSION("hyla_gebrd_step_%c_v1"), {0}};
static const struct model_use gebrd_cores[] = {REGRESSION("hyla_gebrd_panel_%c_v2"),
                                               REGRESSION("hyla_gebrd_update_%c_v1"), {0}};
/* hr_reduce's auto: the fused panel with a GPU. On all the cores
 * (runtime/spmd.c) its panels and updates are placed without a model, and
 * so is the split panel (a core's columns; GEMVs, updates and Y top where
 * the trailing matrix lives). */
static const struct model_use gehrd_fused[] = {REGRESSION("hyla_gehrd_panel_%c_v3"),
                                             {"hyla_gehrd_update_%c_v3", POWER_LAW, 0}, {0}};
static const struct model_use no_model[] = {{0}};

/* The divide and conquer of the symmetric eigensolver (algorithms/stedc.c)
 * and of the SVD (algorithms/bdsdc.c): leaves, roots and assembly on the
 * cores (the eigensolver's roots and assembly on the GPU where there is
 * one, by rule);
 * with vectors, the merges' products where the models say. Its plans,
 * scaling and ends are host tasks too small to model. */
static const struct model_use stedc[] = {DC_HOST("hyla_dc_leaf_%c_v1"), DC_HOST("hyla_dc_roots_%c_v1"),
                                         DC_HOST("hyla_dc_assemble_values_%c_v1"), {0}};
static const struct model_use stedc_gpu[] = {DC_HOST("hyla_dc_leaf_%c_v1"), {0}};
static const struct model_use stedc_vectors[] = {
	DC_HOST("hyla_dc_leaf_%c_v1"), DC_HOST("hyla_dc_roots_%c_v1"),
	DC_HOST("hyla_dc_assemble_%c_v1"), PRODUCT("hyla_dc_gemm_%c_v1"), {0}};
static const struct model_use stedc_vectors_gpu[] = {DC_HOST("hyla_dc_leaf_%c_v1"),
                                                     PRODUCT("hyla_dc_gemm_%c_v1"), {0}};
static const struct model_use bdsdc[] = {DC_HOST("hyla_sd_leaf_values_%c_v1"), DC_HOST("hyla_sd_roots_%c_v1"),
                                         DC_HOST("hyla_sd_assemble_values_%c_v1"), {0}};
static const struct model_use bdsdc_vectors[] = {
	DC_HOST("hyla_sd_leaf_%c_v1"), DC_HOST("hyla_sd_roots_%c_v1"),
	DC_HOST("hyla_sd_assemble_%c_v1"), PRODUCT("hyla_sd_gemm_%c_v1"), {0}};

/* The solvers' vectors: dormqr's products, orgqr's T and apply. */
static const struct model_use ormqr[] = {PRODUCT("hyla_orgqr_t_%c_v1"),
                                         PRODUCT("hyla_orgqr_apply_%c_v2"), {0}};

/* The solvers: the algorithms whose tasks their graphs hold. */
static const struct solver {
	const char *name, *parts[4];
} solvers[] = {{"syevd", {"sytrd", "stedc"}}, /* the values' two stages (sy2sb) need none */
               {"syevd_vectors", {"sytrd", "ormqr", "stedc_vectors"}},
               {"gesdd", {"bdsdc"}}, /* the values' two stages (ge2gb) need none */
               {"gesdd_vectors", {"gebrd", "ormqr", "bdsdc_vectors"}}};

static const struct solver *solver_of(const char *algorithm)
{
	for (size_t i = 0; algorithm && i < sizeof solvers / sizeof *solvers; i++)
		if (!strcmp(algorithm, solvers[i].name))
			return &solvers[i];
	return NULL;
}

/* The algorithms whose models do not depend on the workers present. */
static const struct {
	const char *name;
	const struct model_use *uses;
} fixed_uses[] = {{"mgs", mgs},     {"cgs", cgs},     {"cgs_vector", cgs_vector},
                  {"gehrd_split", no_model},         {"ormqr", ormqr},
                  {"bdsdc", bdsdc}, {"bdsdc_vectors", bdsdc_vectors}};

static const struct model_use *uses_of(const char *algorithm)
{
	for (size_t i = 0; i < sizeof fixed_uses / sizeof *fixed_uses; i++)
		if (!strcmp(algorithm, fixed_uses[i].name))
			return fixed_uses[i].uses;
	int cores = hyla_ncuda() == 0 && hyla__parallel_tasks();
	if (!strcmp(algorithm, "geqrf"))
		return hyla_ncuda() > 0 ? geqrf_gpu : geqrf;
	if (!strcmp(algorithm, "orghr"))
		return hyla_ncuda() > 0 ? orghr_gpu : orghr;
	if (!strcmp(algorithm, "sytrd"))
		return hyla_ncuda() > 0 ? sytrd_gpu : cores ? no_model : sytrd_cores;
	if (!strcmp(algorithm, "gebrd"))
		return hyla_ncuda() > 0 ? gebrd_gpu : cores ? no_model : gebrd_cores;
	if (!strcmp(algorithm, "gehrd"))
		return hyla_ncuda() > 0 ? gehrd_fused : no_model;
	if (!strcmp(algorithm, "stedc"))
		return hyla_ncuda() > 0 ? stedc_gpu : stedc;
	if (!strcmp(algorithm, "stedc_vectors"))
		return hyla_ncuda() > 0 ? stedc_vectors_gpu : stedc_vectors;
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

/* The models' check (model_check.c): HYLA_MODELS_CHECK, else hyla-check.HOST
 * where StarPU keeps the models (HOST: STARPU_HOSTNAME, else the host's
 * name to its first dot, as StarPU names the models' files). */
static void check_path(char *path, size_t size)
{
	const char *set = getenv("HYLA_MODELS_CHECK"), *dir = getenv("STARPU_PERF_MODEL_DIR");
	if (set && *set) {
		snprintf(path, size, "%s", set);
		return;
	}
	char host[256] = "", home[1024];
	if (getenv("STARPU_HOSTNAME"))
		snprintf(host, sizeof host, "%s", getenv("STARPU_HOSTNAME"));
	else if (gethostname(host, sizeof host - 1) == 0)
		host[strcspn(host, ".")] = 0;
	if (!dir || !*dir) {
		const char *h = getenv("STARPU_HOME") ? getenv("STARPU_HOME") : getenv("HOME");
		snprintf(home, sizeof home, "%s/.starpu/sampling", h ? h : ".");
		dir = home;
	}
	snprintf(path, size, "%s/hyla-check.%s", dir, host);
}

/* A model's check on one kind of worker (NULL: all): the tasks, those without a
 * prediction, sum |predicted - measured| / sum measured (NaN: none) and
 * its mean a task (us). */
struct check {
	long tasks, unpredicted;
	double error, mean_us;
};

/* The check's lines (model_check.c), read once for a report. */
struct check_line {
	char symbol[64], kind[64];
	long tasks, unpredicted; /* tasks: the worst left out (below) */
	double error_us, measured_us; /* the same */
	long all_tasks; /* by shape, all of them: */
	double shapes_error_us, all_measured_us; /* (NaN: an older check without) */
};

/* A run's one worst task of a model on a kind of worker is left out where
 * the run checked at least this many: one stall (an interrupt, a clock
 * change, an allocation in the driver) is not the model's error, and one
 * such task among tens decided a check (a 16.5 ms task among 29 of 24 us). */
#define HYLA_CHECK_TRIM_FROM 10
/* A kind of worker the check gave fewer tasks than this is judged with the
 * model's other kinds, all its tasks together: dmda gives the cores one or
 * two of a GPU step's tasks a run, and one such task's own spread (30-55%
 * between runs on the H100 machine) decided whole calibrations. */
#define HYLA_CHECK_FEW 5

struct checks {
	struct check_line *lines;
	int count;
};

static struct checks checks_load(void)
{
	char path[1536], line[512];
	check_path(path, sizeof path);
	struct checks all = {NULL, 0};
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f)) {
		char *fields[9], *save = NULL, *p = line;
		int n = 0;
		for (char *t; n < 9 && (t = strtok_r(p, "\t\n", &save)); p = NULL)
			fields[n++] = t;
		struct check_line *more = n >= 6 ? realloc(all.lines, sizeof *more * (size_t)(all.count + 1)) : NULL;
		if (!more)
			continue;
		all.lines = more;
		struct check_line *l = &all.lines[all.count++];
		snprintf(l->symbol, sizeof l->symbol, "%s", fields[0]);
		snprintf(l->kind, sizeof l->kind, "%s", fields[1]);
		l->tasks = atol(fields[2]), l->unpredicted = atol(fields[3]);
		l->error_us = atof(fields[4]), l->measured_us = atof(fields[5]);
		l->all_tasks = l->tasks, l->all_measured_us = l->measured_us;
		l->shapes_error_us = n == 9 ? atof(fields[8]) : NAN;
		if (n >= 8 && l->tasks >= HYLA_CHECK_TRIM_FROM && l->unpredicted == 0) {
			l->tasks--; /* its worst task left out (older checks do not name it) */
			l->error_us -= atof(fields[6]), l->measured_us -= atof(fields[7]);
		}
	}
	if (f)
		fclose(f);
	return all;
}

/* The check of a model on a kind of worker (NULL: all), task by task or
 * by shape (all its tasks, none left out). */
static struct check check_of(const struct checks *all, const char *symbol, const char *kind,
                             int by_shape)
{
	struct check c = {0, 0, NAN, NAN};
	double error_us = 0, measured_us = 0;
	for (const struct check_line *l = all->lines; l < all->lines + all->count; l++)
		if (!strcmp(l->symbol, symbol) && (!kind || !strcmp(l->kind, kind))) {
			c.tasks += by_shape ? l->all_tasks : l->tasks, c.unpredicted += l->unpredicted;
			error_us += by_shape ? l->shapes_error_us : l->error_us;
			measured_us += by_shape ? l->all_measured_us : l->measured_us;
		}
	if (c.tasks) {
		c.error = measured_us > 0 ? error_us / measured_us : 0;
		c.mean_us = error_us / (double)c.tasks;
	}
	return c;
}

/* Whether a check's predictions were accurate (HYLA_MODEL_ACCURACY, or
 * HYLA_MODEL_SLACK_US a task). */
static int within(struct check c)
{
	return c.error <= accuracy() || c.mean_us <= HYLA_MODEL_SLACK_US;
}

/* One model: ready on every kind of worker present (a check of its
 * predictions within HYLA_MODEL_ACCURACY, every task predicted: from its
 * size's own measurements or the fit; a kind that the check's schedule gave
 * none of its tasks, where another took them, needs the fit; one it gave
 * few, HYLA_CHECK_FEW); a report line per kind. */
static int model_ready(const char *symbol, const struct model_use *u, const struct checks *all,
                       FILE *report)
{
	enum model_kind kind = u->kind;
	struct starpu_perfmodel model;
	memset(&model, 0, sizeof model);
	if (starpu_perfmodel_load_symbol(symbol, &model) != 0) {
		free((char *)model.symbol); /* its copy of the symbol, made before it looked */
		if (report)
			fprintf(report, "%-28s no measurements yet: not ready\n", symbol);
		return 0;
	}
	int by_shape = (u->judged & BY_SHAPE) != 0;
	struct check whole = check_of(all, symbol, NULL, by_shape);
	int ready = 1, seen[STARPU_NMAXWORKERS] = {0}, checked = whole.tasks > 0;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype((int)w, STARPU_NMAX_SCHED_CTXS);
		int comb = starpu_perfmodel_arch_comb_get(arch->ndevices, arch->devices);
		int cpu = arch->devices[0].type == STARPU_CPU_WORKER;
		if (comb < 0 || comb >= STARPU_NMAXWORKERS || seen[comb] ||
		    ((u->judged & CORES_ONLY) && !cpu && starpu_cpu_worker_get_count() > 0) ||
		    ((u->judged & GPU_WHERE_PRESENT) && cpu && hyla_ncuda() > 0))
			continue;
		seen[comb] = 1;
		struct starpu_perfmodel_per_arch *per = starpu_perfmodel_get_model_per_arch(&model, arch, 0);
		char name[64];
		starpu_perfmodel_get_arch_name(arch, name, sizeof name, 0);
		const struct starpu_perfmodel_regression_model *r = per ? &per->regression : NULL;
		/* Where a n^b + c has no fit, the power law beside it predicts
		 * (patches/starpu-1.3.10-footprint-history.patch). */
		enum model_kind used = kind == NL_REGRESSION && r && !r->nl_valid ? POWER_LAW : kind;
		int fitted = r && (used == POWER_LAW ? r->valid : r->nl_valid);
		struct check c = check_of(all, symbol, name, by_shape);
		int few = c.tasks > 0 && c.tasks < HYLA_CHECK_FEW;
		int accurate = c.tasks > 0 ? c.unpredicted == 0 && within(few ? whole : c)
		                           : checked && fitted;
		ready &= accurate;
		if (!report)
			continue;
		fprintf(report, "%-28s %-14s regression: %u samples, ", symbol, name, r ? r->nsample : 0);
		if (fitted)
			fprintf(report, "sizes %lu..%lu, %.3g n^%.3f %+.3g us%s, fit error %.1f%%; ", r->minx,
			        r->maxx, used == POWER_LAW ? r->alpha : r->a,
			        used == POWER_LAW ? r->beta : r->b, used == POWER_LAW ? 0 : r->c,
			        used != kind ? " (no a n^b + c fit: the power law)" : "",
			        100 * fit_error(per, used));
		else
			fprintf(report, "no fit (sizes not measured have no prediction); ");
		if (!c.tasks)
			fprintf(report, "%s\n", !checked ? "predictions not checked yet: not ready"
			                         : fitted ? "the check ran none of its tasks here: ready"
			                                  : "the check ran none of its tasks here: not ready");
		else if (c.unpredicted)
			fprintf(report, "%ld of %ld tasks checked had no prediction: not ready\n",
			        c.unpredicted, c.tasks);
		else if (few)
			fprintf(report, "predicted %ld tasks within %.1f%%, too few to judge alone: the "
			        "model's %ld tasks within %.1f%% (%.1f us a task): %s\n", c.tasks, 100 * c.error,
			        whole.tasks, 100 * whole.error, whole.mean_us,
			        accurate ? "ready" : "not accurate, not ready");
		else
			fprintf(report, "predicted %ld tasks%s within %.1f%% (%.1f us a task): %s\n", c.tasks,
			        by_shape ? ", each shape's in all," : "", 100 * c.error, c.mean_us,
			        accurate ? "ready" : "not accurate, not ready");
	}
	starpu_perfmodel_unload_model(&model);
	return ready;
}

int hyla_models_ready(const char *algorithm, char prec, FILE *report)
{
	const struct solver *solver = solver_of(algorithm);
	if (solver && (prec == 'd' || prec == 's')) {
		int ready = 1;
		for (int i = 0; i < 4 && solver->parts[i]; i++) {
			int part = hyla_models_ready(solver->parts[i], prec, report);
			if (part < 0)
				return part;
			ready &= part;
		}
		return ready;
	}
	const struct model_use *uses = algorithm ? uses_of(algorithm) : NULL;
	if (!uses || (prec != 'd' && prec != 's'))
		return HYLA_ERROR(-1, "no models for algorithm '%s' in precision '%c'",
		                  algorithm ? algorithm : "(null)", prec);
	if (hyla__ensure_init() != HYLA_SUCCESS)
		return HYLA_ERR_STARPU;
	uses = uses_of(algorithm); /* the lists depend on the workers */
	if (!uses->symbol && report)
		fprintf(report, "%s: no model places its tasks (%s)\n", algorithm,
		        strcmp(algorithm, "gehrd_split") && hyla__parallel_tasks()
		            ? "its panels and updates run on all the cores"
		            : "its columns on a core, the rest where the trailing matrix lives");
	int ready = 1;
	struct checks all = checks_load();
	for (const struct model_use *u = uses; u->symbol; u++) {
		char symbol[64];
		snprintf(symbol, sizeof symbol, u->symbol, prec);
		ready &= model_ready(symbol, u, &all, report);
	}
	free(all.lines);
	return ready;
}
