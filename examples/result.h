/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The drivers' result line: "prog key=value ..." or, with --json, one JSON
 * object (keys as in the text; times in seconds). */
#ifndef HYLA_RESULT_H
#define HYLA_RESULT_H

/* Non-zero once --json was given: diagnostics then go to stderr. */
extern int result_json;
/* A note of the driver's appended to the machine line (both forms), or "". */
extern char result_machine_note[96];

/* Starts the line; in JSON also the machine summary ("machine"). */
void result_begin(const char *prog);
void result_str(const char *key, const char *value);
/* value with printf format fmt; unit follows it in the text (" s", "x"). */
void result_num(const char *key, const char *fmt, double value, const char *unit);
void result_end(void);

#endif
