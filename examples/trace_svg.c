/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Gantt chart of a traced run as SVG (see trace_svg.h). */
#include "trace_svg.h"
#include "matrix_io.h"
#include <math.h>
#include <stdlib.h>
#include <starpu.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 1200
#define LEFT 190
#define TOP 40
#define ROW 18
#define MAX_CODELETS 16

static const char *palette[MAX_CODELETS] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
	"#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#17becf"};

/* The colour index of a codelet, in order of first appearance. */
static int colour_of(const char *name, const char **names, int *nnames)
{
	for (int k = 0; k < *nnames; k++)
		if (!strcmp(names[k], name))
			return k;
	if (*nnames == MAX_CODELETS)
		return MAX_CODELETS - 1;
	names[*nnames] = name;
	return (*nnames)++;
}

static const hyla_trace_event *sorted_events;

static int by_end(const void *a, const void *b)
{
	double x = sorted_events[*(const size_t *)a].end, y = sorted_events[*(const size_t *)b].end;
	return (x > y) - (x < y);
}

/* Marks the critical path of the schedule as it ran: from the task that
 * ended last, back through each task's releaser, the task that ended last
 * before it became ready. Returns the path's length; on[e] is 1 on it. */
static size_t mark_critical(const hyla_trace_event *events, size_t n, char *on)
{
	size_t *order = malloc(sizeof *order * (n ? n : 1)), marked = 0;
	if (!order)
		return 0;
	for (size_t e = 0; e < n; e++)
		order[e] = e;
	sorted_events = events;
	qsort(order, n, sizeof *order, by_end);
	for (size_t k = n; k > 0;) { /* order[k - 1]: on the path */
		size_t cur = order[k - 1];
		on[cur] = 1, marked++;
		size_t lo = 0, hi = k - 1; /* the last of order[0..k-2] ending by cur's ready */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (events[order[mid]].end <= events[cur].ready)
				lo = mid + 1;
			else
				hi = mid;
		}
		k = lo;
	}
	free(order);
	return marked;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 8 ticks. */
static double tick_step(double span)
{
	double step = pow(10, floor(log10(span / 8)));
	return span / step > 40 ? 5 * step : span / step > 16 ? 2 * step : step;
}

/* The time axis under the rows at y: a tick and its time every step. */
static void time_axis(FILE *f, int y, double span, double scale)
{
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", LEFT, y,
	        WIDTH - 20, y);
	double step = tick_step(span);
	for (int i = 0; i * step <= span * (1 + 1e-9); i++) {
		double t = i * step, x = LEFT + t * scale;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>"
		        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g s</text>\n", x, y, x, y + 4, x,
		        y + 15, t);
	}
}

/* A worker's name as its row's label: cut to what fits left of the bars
 * (the whole name in the label's tooltip). */
static void worker_label(FILE *f, int y, const char *name)
{
	enum { FITS = 30 };
	fprintf(f, "<text x=\"10\" y=\"%d\"><title>%s</title>%.*s%s</text>\n", y, name, FITS, name,
	        strlen(name) > FITS ? "…" : "");
}

int trace_svg_write(const char *path, const char *title, const hyla_trace_event *events, size_t n,
                    char *err, size_t errlen)
{
	struct file_replace w; /* whole or not at all */
	FILE *f = file_replace_open(&w, path, err, errlen);
	if (!f)
		return -1;
	int workers = (int)starpu_worker_get_count();
	double span = 0;
	for (size_t e = 0; e < n; e++)
		span = events[e].end > span ? events[e].end : span;
	span = span > 0 ? span : 1;
	double scale = (WIDTH - LEFT - 20) / span;
	const char *names[MAX_CODELETS];
	int nnames = 0;
	for (size_t e = 0; e < n; e++)
		colour_of(events[e].codelet, names, &nnames);
	char *critical = calloc(n ? n : 1, 1);
	size_t ncritical = critical ? mark_critical(events, n, critical) : 0;
	int axis = TOP + workers * ROW + 2, legend = axis + 30;
	int height = legend + 10 + (nnames + 4) / 4 * ROW;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
	        "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">%s — %.3f s, %zu tasks</text>\n",
	        WIDTH, height, title, span, n);
	for (int w = 0; w < workers; w++) {
		char name[64];
		starpu_worker_get_name(w, name, sizeof name);
		int y = TOP + w * ROW;
		worker_label(f, y + 12, name);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
		        LEFT, y, WIDTH - LEFT - 20, ROW - 4);
	}
	for (size_t e = 0; e < n; e++) {
		const hyla_trace_event *ev = &events[e];
		if (ev->worker < 0 || ev->worker >= workers)
			continue;
		double x = LEFT + ev->start * scale, width = (ev->end - ev->start) * scale;
		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s>"
		        "<title>%s %.3f ms at %.6f s%s</title></rect>\n", x, TOP + ev->worker * ROW,
		        width > 0.3 ? width : 0.3, ROW - 4, palette[colour_of(ev->codelet, names, &nnames)],
		        critical && critical[e] ? " stroke=\"black\" stroke-width=\"1\"" : "", ev->codelet,
		        (ev->end - ev->start) * 1e3, ev->start,
		        critical && critical[e] ? ", on the critical path" : "");
	}
	time_axis(f, axis, span, scale);
	for (int k = 0; k <= nnames; k++) {
		int x = LEFT + k % 4 * 240, y = legend + k / 4 * ROW;
		if (k < nnames)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text "
			        "x=\"%d\" y=\"%d\">%s</text>\n", x, y, palette[k], x + 16, y + 10, names[k]);
		else
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"white\" "
			        "stroke=\"black\"/><text x=\"%d\" y=\"%d\">critical path (%zu tasks)</text>\n",
			        x, y, x + 16, y + 10, ncritical);
	}
	free(critical);
	fputs("</svg>\n", f);
	return file_replace_close(&w, f, !ferror(f), err, errlen);
}
