/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* qr_mgs: modified Gram-Schmidt QR of a random m-by-n matrix with hyla. */
#include <getopt.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "qr_driver.h"

static hyla_mgs_form form = HYLA_MGS_BLOCKED;

static int on_option(int opt, const char *arg)
{
	if (qr_driver_option(opt, arg))
		return 1;
	if (opt != 'f')
		return 0;
	if (!strcmp(arg, "blocked"))
		form = HYLA_MGS_BLOCKED;
	else if (!strcmp(arg, "vector"))
		form = HYLA_MGS_VECTOR;
	else
		die_usage("qr_mgs", "--form must be blocked or vector, not '%s'", arg);
	return 1;
}

static int factor(char prec, int64_t m, int64_t n, void *a, void *r, const hyla_options *opts,
                  double phase[2])
{
	(void)phase;
	hyla_options o = *opts;
	o.mgs_form = form;
	return prec == 's' ? hyla_smgs(m, n, a, m, r, n, &o) : hyla_dmgs(m, n, a, m, r, n, &o);
}

static const char *variant(void)
{
	return form == HYLA_MGS_VECTOR ? "vector" : "blocked";
}

/* MGS loses orthogonality in proportion to the condition number. */
static double orth_growth(double cond, int64_t n)
{
	(void)n;
	return cond;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {QR_DRIVER_OPTIONS,
	                                      {"form", required_argument, 0, 'f'}, {0, 0, 0, 0}};
	struct qr_driver d = {
		.prog = "qr_mgs",
		.models = "mgs",
		.title = "Modified Gram-Schmidt",
		.options_help = "  --form F         blocked (Level-3 trailing updates) or vector\n"
		                "                   (GEMV^T + GER per column); default blocked\n",
		.extra = extra,
		.on_extra = on_option,
		.factor = factor,
		.variant = variant,
		.orth_growth = orth_growth,
	};
	return qr_driver_main(argc, argv, &d);
}
