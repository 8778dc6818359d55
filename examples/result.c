/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The drivers' result line (see result.h). */
#include "result.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyla.h"

int result_json;
char result_machine_note[96];

static void json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\u%04x", *c); /* control characters; other bytes as Latin-1 */
		else
			putchar(*c);
	}
	putchar('"');
}

void result_begin(const char *prog)
{
	if (!result_json) {
		fputs(prog, stdout);
		return;
	}
	char summary[640];
	hyla_machine_summary(summary, sizeof summary);
	strncat(summary, result_machine_note, sizeof summary - strlen(summary) - 1);
	fputs("{\"driver\": ", stdout);
	json_string(prog);
	fputs(", \"machine\": ", stdout);
	json_string(summary);
}

void result_str(const char *key, const char *value)
{
	if (!result_json) {
		printf(" %s=%s", key, value);
		return;
	}
	printf(", \"%s\": ", key);
	json_string(value);
}

void result_num(const char *key, const char *fmt, double value, const char *unit)
{
	printf(result_json ? ", \"%s\": " : " %s=", key);
	if (result_json && !isfinite(value))
		fputs("null", stdout);
	else
		printf(fmt, value);
	if (!result_json && unit)
		fputs(unit, stdout);
}

void result_end(void)
{
	puts(result_json ? "}" : "");
}
