// SPDX-License-Identifier: GPL-2.0
/*
 * --iops claims: the line each stated class gets against a measurement,
 * the "qualifies for" line where none is readable, and over a sweep of
 * measurements around the floors, no "meets" under a floor and no
 * "below" over one.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/claims.h"

static char out[4096];

static const char *run(double rd, double wr, double mbps,
		       const struct claims_stated *s)
{
	const struct claims_measured m = { rd, wr, mbps };
	FILE *f = fmemopen(out, sizeof(out), "w");

	if (!f)
		return "";
	claims_print(f, &m, s);
	fclose(f);
	return out;
}

static void lines(void)
{
	const struct claims_stated none = { 0 }, blank = { .readable = 1 };
	const struct claims_stated a1 = { .readable = 1, .app_class = 1 };
	const struct claims_stated u3v30 = { .readable = 1, .uhs_grade = 3,
					     .video_class = 30 };

	CHECK(!strcmp(run(1800, 600, 20, &none), "qualifies for A1, C2, C4, "
		      "C6, C10, U1, V6, V10 (from measurement; the card's "
		      "claims are not readable here)\n"),
	      "not readable: what it qualifies for");
	CHECK(!strcmp(run(100, 10, 1, &blank), "qualifies for no class "
		      "(from measurement; the card states no class)\n"),
	      "no class stated, none reached");
	CHECK(!strcmp(run(1820, 410, 20, &a1), "claims A1: 1820 read / 410 "
		      "write IOPS, 20.0 MB/s sequential write: write below "
		      "A1 (medium)\n"), "A1 missed on writes");
	CHECK(!strcmp(run(0, 0, 31, &u3v30), "claims U3: 31.0 MB/s "
		      "sequential write: sequential write within 10% of the "
		      "U3 floor (inconclusive)\nclaims V30: 31.0 MB/s "
		      "sequential write: sequential write within 10% of the "
		      "V30 floor (inconclusive)\n"),
	      "U3, V30 at the floor: inconclusive");
	CHECK(!strcmp(run(0, 0, 45, &u3v30), "claims U3: 45.0 MB/s "
		      "sequential write: meets U3 (medium)\nclaims V30: 45.0 "
		      "MB/s sequential write: meets V30 (medium)\n"),
	      "U3, V30 met");
}

/* Every measurement from 0.5x to 2x of A2's floors, a step of 1%. */
static void sweep(void)
{
	const struct claims_stated a2 = { .readable = 1, .app_class = 2 };
	unsigned i, wrong = 0, n = 0;
	double k;

	for (i = 50; i <= 200; i++) {
		k = i / 100.0;
		run(4000 * k, 2000 * k, 10 * k, &a2);
		n++;
		if (k < 1 && strstr(out, "meets"))
			wrong++;
		if (k >= 1 && strstr(out, "below"))
			wrong++;
	}
	CHECK(!wrong, "A2 sweep: %u of %u measurements judged the wrong way",
	      wrong, n);
}

int main(void)
{
	lines();
	sweep();
	return CHECK_DONE();
}
