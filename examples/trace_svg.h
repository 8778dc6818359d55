/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* A Gantt chart of a traced run (hyla_trace_*) as SVG: one row per StarPU
 * worker, one bar per task coloured by codelet, idle time left blank. */
#ifndef HYLA_TRACE_SVG_H
#define HYLA_TRACE_SVG_H

#include <stddef.h>
#include "hyla.h"

/* 0, or -1 with a one-line reason in err. */
int trace_svg_write(const char *path, const char *title, const hyla_trace_event *events, size_t n,
                    char *err, size_t errlen);

#endif
