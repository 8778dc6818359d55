/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* qr_cgs: classical Gram-Schmidt QR (CGS2 or CGS) of a random m-by-n matrix
 * with hyla. */
#include <getopt.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "qr_driver.h"

enum { OPT_REORTH = QR_OPT_FIRST_OWN, OPT_NO_REORTH, OPT_VARIANT, OPT_UMU };
static int reorth = -1; /* -1: the variant's own (CGS2 when blocked) */
static int vector, umu;

static int on_option(int opt, const char *arg)
{
	if (qr_driver_option(opt, arg))
		return 1;
	switch (opt) {
	case OPT_REORTH: reorth = 1; break;
	case OPT_NO_REORTH: reorth = 0; break;
	case OPT_UMU: umu = 1; break;
	case OPT_VARIANT:
		if (strcmp(arg, "blocked") && strcmp(arg, "vector"))
			die_usage("qr_cgs", "--variant must be blocked or vector, not '%s'", arg);
		vector = !strcmp(arg, "vector");
		break;
	default: return 0;
	}
	if (vector && reorth == 1)
		die_usage("qr_cgs", "--reorth needs --variant blocked (the vector variant is one pass)");
	return 1;
}

static hyla_cgs_variant chosen(void)
{
	return vector ? HYLA_CGS_VECTOR : reorth == 0 ? HYLA_CGS : HYLA_CGS2;
}

static int factor(char prec, int64_t m, int64_t n, void *a, void *r, const hyla_options *opts,
                  double phase[2])
{
	(void)phase;
	hyla_options o = *opts;
	o.cgs_variant = chosen();
	return prec == 's' ? hyla_scgs(m, n, a, m, r, n, &o) : hyla_dcgs(m, n, a, m, r, n, &o);
}

static const char *variant(void)
{
	static const char *const names[] = {"cgs2", "cgs", "cgs_vector"};
	return names[chosen()];
}

/* The vector variant's tasks have models of their own. */
static const char *models_of(void)
{
	return vector ? "cgs_vector" : "cgs";
}

/* CGS2 keeps orthogonality at rounding level; CGS loses it like cond^2. */
static double orth_growth(double cond, int64_t n)
{
	(void)n;
	return chosen() == HYLA_CGS2 ? 1 : cond * cond;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {
		QR_DRIVER_OPTIONS,
		{"reorth", no_argument, 0, OPT_REORTH},
		{"no-reorth", no_argument, 0, OPT_NO_REORTH},
		{"variant", required_argument, 0, OPT_VARIANT},
		{"umu", no_argument, 0, OPT_UMU},
		{0, 0, 0, 0}};
	struct qr_driver d = {
		.prog = "qr_cgs",
		.models = "cgs",
		.models_of = models_of,
		.title = "Classical Gram-Schmidt",
		.options_help =
			"  --reorth         CGS2: every projection twice (the default when blocked)\n"
			"  --no-reorth      CGS: one pass (orthogonality lost like cond^2 eps)\n"
			"  --variant V      blocked (Level-3 projections, left-looking) or vector\n"
			"                   (Milde and Schneider's order: per column, dot products with every\n"
			"                   later column and a rank-1 update of them; one pass only);\n"
			"                   default blocked\n"
			"  --umu            --output writes U = Q diag(R) and mu =\n"
			"                   diag(R)^-1 R (A = U mu; to FILE and FILE's .mu sibling)\n",
		.extra = extra,
		.on_extra = on_option,
		.factor = factor,
		.variant = variant,
		.orth_growth = orth_growth,
		.umu = &umu,
	};
	return qr_driver_main(argc, argv, &d);
}
