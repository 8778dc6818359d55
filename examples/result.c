/* The drivers' result line (see result.h). */
#include "result.h"
#include <math.h>
#include <stdio.h>
#include "hyla.h"

int result_json;

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

void result_begin(const char *prog)
{
	if (!result_json) {
		fputs(prog, stdout);
		return;
	}
	char summary[512];
	hyla_machine_summary(summary, sizeof summary);
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
