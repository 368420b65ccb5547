// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line counts the passes more after a pause: a run whose
 * planned I/O is all done but that goes on with a pass more shows less
 * than 100 % and, in a survey, the time of that pass as left.
 */
#include <string.h>

#include "output/progress.h"
#include "tests/check.h"

/* The last line drawn on f, from its start. */
static void last_line(FILE *f, char *buf, size_t len)
{
	char *cr;
	long n;

	fflush(f);
	n = ftell(f);
	rewind(f);
	n = (long)fread(buf, 1, len - 1 < (size_t)n ? len - 1 : (size_t)n, f);
	buf[n] = 0;
	cr = strrchr(buf, '\r');
	memmove(buf, cr ? cr + 4 : buf, strlen(cr ? cr + 4 : buf) + 1);
	fseek(f, 0, SEEK_END);
}

/* A run of 10 writes of 100 bytes, all of them done: then a pass more. */
static void check_pass_more(double run_ns, const char *full,
			    const char *more)
{
	struct vm_val pass = { .ns = run_ns, .bytes = 1000, .ios = 10 };
	struct dev d;
	struct progress p;
	char line[256];
	FILE *f = tmpfile();

	memset(&d, 0, sizeof(d));
	progress_init(&p, f, 0);
	p.tty = 1;
	progress_run(&p, &d, 10, 1000, "run");
	p.run_ns = run_ns;
	d.stats.writes = 10;
	d.stats.bytes_written = 1000;
	progress_show(&p);
	last_line(f, line, sizeof(line));
	CHECK(!strncmp(line, full, strlen(full)), "planned I/O done: '%s'",
	      line);
	progress_again(&p, &pass);
	progress_show(&p);
	last_line(f, line, sizeof(line));
	CHECK(!strncmp(line, more, strlen(more)),
	      "a pass more to come: '%s', not 100 %%", line);
	fclose(f);
}

int main(void)
{
	check_pass_more(0, "run: 100%", "run: 50%");
	/* a survey's step: the pass's time is left */
	check_pass_more(4e9, "run: 100%, about 0s left",
			"run: 50%, about 4s left");
	return CHECK_DONE();
}
