// SPDX-License-Identifier: GPL-2.0
/*
 * What a logger or a real-time writer must survive: the slowest writes
 * of each row, the passes a pause made a test throw away included.
 */
#include "lib/units.h"
#include "output/stalls.h"

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

void latency_json(struct json *j, const struct latency *l)
{
	json_open(j, "latency", '{');
	json_u64(j, "writes", l->count);
	json_double(j, "p50_us", us(latency_quantile(l, 0.5)));
	json_double(j, "p99_us", us(latency_quantile(l, 0.99)));
	json_double(j, "p999_us", us(latency_quantile(l, 0.999)));
	json_double(j, "max_us", us(l->max_ns));
	json_double(j, "stall_us", us(l->threshold_ns));
	json_u64(j, "stalls", l->over);
	json_close(j, '}');
}

void stall_summary(FILE *f, const struct table *t)
{
	const struct table_row *worst = NULL;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	uint64_t stalls = 0;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		if (!r->lat)
			continue;
		stalls += r->lat->over;
		if (!worst || r->lat->max_ns > worst->lat->max_ns)
			worst = r;
	}
	if (!worst)
		return;
	fprintf(f, "flashbench: worst write %s at %s; %llu write%s over %s\n",
		fmt_time(a, (double)worst->lat->max_ns),
		fmt_size(b, (double)worst->key),
		(unsigned long long)stalls, stalls == 1 ? "" : "s",
		fmt_time(c, (double)worst->lat->threshold_ns));
}
