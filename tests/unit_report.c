// SPDX-License-Identifier: GPL-2.0
/*
 * Report parser: every table of the five seed reports is found with its
 * values (classic truncated units included), plus the sweep format, odd
 * layouts and hostile input.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "report/report.h"
#include "seeds/seeds.h"

static size_t count_kind(const struct report *r, size_t first, size_t n,
			 enum table_kind k)
{
	size_t i, c = 0;

	for (i = first; i < first + n && i < r->ntabs; i++)
		c += r->tabs[i].kind == k;
	return c;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fabs(b) + 1e-9;
}

/* Value v of the row keyed key in table t, NAN if absent. */
static double cell(const struct table *t, uint64_t key, unsigned v)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].key == key)
			return t->rows[i].v[v];
	return NAN;
}

static void seed_000(void)
{
	struct report r;
	int n = seed_parse(SEED_000, &r);
	size_t i;

	CHECK(n == 69, "000: 69 tables (got %d)", n);
	CHECK(r.nsecs == 7, "000: 7 cards (got %zu)", r.nsecs);
	if (n != 69 || r.nsecs != 7)
		goto out;
	CHECK(count_kind(&r, 0, r.ntabs, TAB_ALIGN) == 6, "000: 6 -a tables");
	CHECK(count_kind(&r, 0, r.ntabs, TAB_FAT) == 3, "000: 3 -f tables");
	CHECK(count_kind(&r, 0, r.ntabs, TAB_OPENAU) == 60,
	      "000: 60 -O tables");
	/* CF card: hdparm LBAsects=62500864 sectors of 512 bytes */
	CHECK(r.secs[0].ctx.dev_size == 62500864ULL * 512,
	      "000 CF: size from LBAsects");
	CHECK(r.tabs[0].nrows == 23 && r.tabs[0].blocksize == 1024,
	      "000 CF: -a -b 1024 table of 23 rows");
	/* "for i in `seq 1 10`; do echo $i; ... --open-au-nr=$i" */
	CHECK(r.tabs[1].open_au_nr == 1 && r.tabs[1].random &&
	      r.tabs[2].open_au_nr == 2, "000 CF: N from the echoed loop");
	CHECK(r.tabs[1].erasesize == 64ULL << 20,
	      "000 CF: --erasesize=$[64 * 1024 * 1024] across tokens");
	/* find-fat rows wrapped by the mail quoting: 10 columns */
	CHECK(r.tabs[3].kind == TAB_FAT && r.tabs[3].ncols == 10 &&
	      r.tabs[3].nrows == 17, "000 CF: -f with 10 AUs, 17 sizes");
	CHECK(near(cell(&r.tabs[3], 64ULL << 20, 9), 70.2e6),
	      "000 CF: last AU column of the wrapped row");
	/* Kingston: "--blocksize 1024align 402653184" glued by the archive */
	CHECK(r.secs[1].ctx.dev_size == 3951034368ULL &&
	      r.secs[1].ctx.preferred_erase == 4194304,
	      "000 Kingston: fdisk size and sysfs preferred_erase_size");
	CHECK(r.tabs[4].nrows == 36 && r.tabs[4].rows[0].key == 402653184 &&
	      r.tabs[4].blocksize == 1024, "000 Kingston: glued 'align'");
	CHECK(near(cell(&r.tabs[4], 12288, 3), -649),
	      "000 Kingston: diff -649ns");
	/* Sandisk Extreme: a second command pasted without its start */
	CHECK(r.tabs[10].open_au_nr == 3 && r.tabs[10].random &&
	      r.tabs[10].erasesize == 1048576,
	      "000 Extreme: partial command line still read");
	CHECK(near(cell(&r.tabs[8], 6144, 3), -10210),
	      "000 Extreme: truncated -10210n");
	/* Sascha: 5 samples per N, headed "Trying N open AUs:" */
	for (i = 0; i < 20; i++) {
		const struct table *t = &r.tabs[17 + i];

		CHECK(t->kind == TAB_OPENAU && t->open_au_nr == i % 10 + 1 &&
		      t->random == (i >= 10) && t->nrows == 6,
		      "000 Sascha: table %zu is N=%zu %s", 17 + i, i % 10 + 1,
		      i >= 10 ? "random" : "linear");
	}
	/* 512KiB 5.95M/s 4.96M/s 4.99M/s 4.92M/s 5M/s: median 4.99M/s */
	CHECK(near(cell(&r.tabs[17], 524288, 0), 4.99e6),
	      "000 Sascha: median of the 5 samples");
	CHECK(r.secs[3].ctx.dev_size == 3965190144ULL,
	      "000 Sascha: 'Size: 3965190144B'");
	CHECK(r.tabs[37].kind == TAB_FAT && r.tabs[37].ncols == 6 &&
	      r.tabs[37].random, "000 Sascha: -f --random, 6 AUs");
	/* Intel X25: --blocksize=10240 gives 5*2^n and 15*2^n boundaries */
	CHECK(r.tabs[38].nrows == 34 && r.tabs[38].rows[0].key == 2013265920 &&
	      r.tabs[38].blocksize == 10240, "000 Intel: 10240 -a table");
	CHECK(near(cell(&r.tabs[38], 61440, 3), 1),
	      "000 Intel: diff 1ns");
	CHECK(r.tabs[40].erasesize == 10240ULL * 1024 &&
	      r.tabs[40].blocksize == 5120 &&
	      near(cell(&r.tabs[40], 2621440, 0), 76.8e6),
	      "000 Intel: 2.5MiB row, $[10240 * 1024]");
	CHECK(r.tabs[47].open_au_nr == 130, "000 Intel: --open-au-nr=130");
	/* Patriot Rage: "[sudo] password for arnd:" before the rows */
	CHECK(r.tabs[52].open_au_nr == 12 && r.tabs[52].nrows == 9 &&
	      r.tabs[52].blocksize == 3 * 8192, "000 Rage: after sudo prompt");
	CHECK(r.tabs[56].nrows == 40 && near(cell(&r.tabs[56], 49152, 3),
					     235e3),
	      "000 Xporter: -a table with 3*2^n rows");
	CHECK(r.tabs[68].kind == TAB_FAT && r.tabs[68].ncols == 4,
	      "000 Xporter: -f --fat-nr=4");
out:
	report_free(&r);
}

static void seed_001(void)
{
	static const unsigned nr[] = { 1, 2, 3, 4, 5, 8, 10 };
	struct report r;
	int n = seed_parse(SEED_001, &r);
	size_t i;

	CHECK(n == 7 && count_kind(&r, 0, r.ntabs, TAB_OPENAU) == 7,
	      "001: 7 -O tables on collapsed lines (got %d)", n);
	for (i = 0; n == 7 && i < 7; i++)
		CHECK(r.tabs[i].open_au_nr == nr[i] && r.tabs[i].nrows == 9 &&
		      !r.tabs[i].random, "001: table %zu is N=%u", i, nr[i]);
	if (n == 7) {
		CHECK(near(r.tabs[0].rows[0].v[0], 9.06e6) &&
		      r.tabs[0].rows[0].key == 4194304, "001: 4MiB 9.06M/s");
		CHECK(near(cell(&r.tabs[4], 16384, 0), 829e3),
		      "001: 829K/s");
	}
	report_free(&r);
}

static void seed_002(void)
{
	struct report r;
	int n = seed_parse(SEED_002, &r);

	CHECK(n == 8, "002: 8 tables (got %d)", n);
	if (n != 8)
		goto out;
	CHECK(count_kind(&r, 0, 8, TAB_ALIGN) == 2 &&
	      count_kind(&r, 0, 8, TAB_FAT) == 1 &&
	      count_kind(&r, 0, 8, TAB_OPENAU) == 5, "002: 2 -a, 1 -f, 5 -O");
	CHECK(r.ctx.dev_size == 7948206080ULL &&
	      r.ctx.preferred_erase == 4194304,
	      "002: fdisk size after the tables, sysfs preferred erase");
	CHECK(r.tabs[0].nrows == 21 && near(cell(&r.tabs[0], 4194304, 3),
					     215e3),
	      "002: diff 215µs at 4MiB");
	CHECK(r.tabs[1].blocksize == 3072 && r.tabs[1].nrows == 19,
	      "002: --blocksize=$[3*1024] table");
	/* "on 1e+03µ": the classic tool cut 1000µs at 7 bytes */
	CHECK(near(cell(&r.tabs[1], 196608, 1), 1e6),
	      "002: 1e+03µ is 1e6 ns");
	CHECK(r.tabs[2].ncols == 6 && near(cell(&r.tabs[2], 4194304, 1),
					    3.35e6),
	      "002: -f row 4MiB, AU 1 3.35M/s");
	CHECK(r.tabs[3].open_au_nr == 1 && r.tabs[5].open_au_nr == 6 &&
	      r.tabs[6].open_au_nr == 7 && r.tabs[3].blocksize == 16384,
	      "002: -O N=1, 6, 7");
	CHECK(r.tabs[7].random && r.tabs[7].nrows == 7,
	      "002: --random run stopped by ^C after 7 rows");
out:
	report_free(&r);
}

static void seed_003(void)
{
	struct report r;
	int n = seed_parse(SEED_003, &r);

	CHECK(n == 5, "003: 5 tables (got %d)", n);
	if (n != 5)
		goto out;
	CHECK(count_kind(&r, 0, 5, TAB_ALIGN) == 1 &&
	      count_kind(&r, 0, 5, TAB_OPENAU) == 4, "003: 1 -a, 4 -O");
	/* "diff -12097n": truncated nanoseconds */
	CHECK(near(cell(&r.tabs[0], 2147483648ULL, 3), -12097),
	      "003: -12097n is -12097 ns");
	CHECK(near(cell(&r.tabs[0], 16777216, 3), -12326),
	      "003: -12326n");
	CHECK(near(cell(&r.tabs[0], 4294967296ULL, 3), -8046),
	      "003: -8046ns");
	CHECK(r.ctx.dev_size == 15719727104ULL, "003: fdisk size");
	CHECK(r.tabs[2].open_au_nr == 7 && !r.tabs[2].random &&
	      r.tabs[4].open_au_nr == 7 && r.tabs[4].random &&
	      r.tabs[1].erasesize == 8388608, "003: N and --random");
out:
	report_free(&r);
}

static void seed_004(void)
{
	struct report r;
	int n = seed_parse(SEED_004, &r);

	CHECK(n == 2 && r.nsecs == 2, "004: 2 -a tables, 2 cards (got %d)",
	      n);
	if (n == 2 && r.nsecs == 2) {
		/* rows marked "**" by hand stay in their table */
		CHECK(r.tabs[0].nrows == 23 && r.tabs[1].nrows == 22,
		      "004: '**' marks do not end a table");
		CHECK(near(cell(&r.tabs[0], 16777216, 3), 297e3) &&
		      near(cell(&r.tabs[0], 8192, 3), -1225),
		      "004: 297µs at 16MiB, -1225ns at 8KiB");
		CHECK(!strcmp(r.secs[0].device, "/dev/sdj") &&
		      !strcmp(r.secs[1].device, "/dev/sdi"),
		      "004: one section per device");
	}
	report_free(&r);
}

static int parse_str(const char *s, struct report *r)
{
	return report_parse(s, strlen(s), r);
}

/* The sweep format the live tool prints, also when lines collapse. */
static void sweep_format(void)
{
	static const char *const texts[] = {
		"size\tlinear=1\tlinear=2\tlinear=3\n"
		"4MiB\t8.02M/s\t8.01M/s\t7.9M/s\n"
		"2MiB\t8.05M/s\t7.98M/s\t2.1M/s\n"
		"1MiB\t8M/s\t7.99M/s\t-\n",
		"# size linear=1 linear=2 linear=3 4MiB 8.02M/s 8.01M/s "
		"7.9M/s 2MiB 8.05M/s 7.98M/s 2.1M/s 1MiB 8M/s 7.99M/s -",
	};
	struct report r;
	size_t i;

	for (i = 0; i < 2; i++) {
		int n = parse_str(texts[i], &r);
		const struct table *t = &r.tabs[0];

		CHECK(n == 1 && t->kind == TAB_SWEEP && t->ncols == 3 &&
		      t->nrows == 3 && t->col_nr[2] == 3 && !t->random,
		      "sweep %zu: 3 columns, 3 rows", i);
		if (n == 1 && t->nrows == 3)
			CHECK(near(t->rows[1].v[2], 2.1e6) &&
			      isnan(t->rows[2].v[2]),
			      "sweep %zu: values and '-' as not measured", i);
		report_free(&r);
	}
	CHECK(parse_str("size random=1 random=4\n16KiB 3M/s 1M/s\n", &r) == 1
	      && r.tabs[0].random && r.tabs[0].col_nr[1] == 4,
	      "sweep: random=N columns");
	report_free(&r);
}

/* Layouts seen in the wild besides the seeds. */
static void layouts(void)
{
	struct report r;
	int n;

	n = parse_str("> align 4194304\tpre 1.02ms\ton 1.23ms\tpost 1.01ms"
		      "\tdiff 215µs\r\n> align 2097152  pre 821µs on 839µs "
		      "post 814µs diff 21.4µs\r\n", &r);
	CHECK(n == 1 && r.tabs[0].nrows == 2, "quoted CRLF align rows");
	report_free(&r);
	n = parse_str("$ flashbench -O --open-au-nr=3 -r /dev/sdx\n4MiB "
		      "9M/s\n2MiB 9M/s\n$ flashbench -O --open-au-nr 4 "
		      "--erasesize=8M --offset=$[8*1024*1024] /dev/sdx\n"
		      "8MiB 9M/s\n", &r);
	CHECK(n == 2 && r.tabs[0].open_au_nr == 3 && r.tabs[0].random &&
	      !r.tabs[0].has_offset && r.tabs[1].open_au_nr == 4 &&
	      !r.tabs[1].random && r.tabs[1].erasesize == 8ULL << 20 &&
	      r.tabs[1].has_offset && r.tabs[1].offset == 8ULL << 20,
	      "short -r, separate option value, 8M suffix, --offset");
	report_free(&r);
	/* a new table starts where sizes stop halving */
	n = parse_str("4MiB 9M/s 2MiB 9M/s 4MiB 3M/s 2MiB 1M/s", &r);
	CHECK(n == 2, "two tables back to back (got %d)", n);
	report_free(&r);
	n = parse_str("==> preferred_erase_size <== 8388608 "
		      "preferred_erase_size: 1", &r);
	CHECK(n == 0 && r.ctx.preferred_erase == 8388608,
	      "sysfs head output");
	report_free(&r);
}

/* N and the order named in free words, and the classic default N. */
static void headings(void)
{
	static const struct {
		const char *text;
		unsigned nr;
		int random;
	} h[] = {
		{ "# flashbench -O --open-au-nr=3 /dev/sdb\n4MiB 9M/s\n", 3, 0 },
		{ "$ sudo ./flashbench -O /dev/sdb\n4MiB 9M/s\n", 2, 0 },
		{ "+ flashbench --open-au -r /dev/mmcblk0\n4MiB 9M/s\n", 2, 1 },
		{ "I ran flashbench -O and got\n4MiB 9M/s\n", 0, 0 },
		{ "Trying 3 open AUs, random:\n4MiB 9M/s\n", 3, 1 },
		{ "5 AUs, random access\n4MiB 9M/s\n", 5, 1 },
		{ "=== 4 open, linear ===\n4MiB 9M/s\n", 4, 0 },
		{ "##### 6 open AUs (random) #####\n4MiB 9M/s\n", 6, 1 },
		{ "$ flashbench -O -r --open-au-nr=$i /dev/sdb\n"
		  "=== 7 open, linear ===\n4MiB 9M/s\n", 7, 0 },
	};
	struct report r;
	size_t i;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		int n = parse_str(h[i].text, &r);

		CHECK(n == 1 && r.tabs[0].kind == TAB_OPENAU &&
		      r.tabs[0].open_au_nr == h[i].nr &&
		      r.tabs[0].random == h[i].random,
		      "heading %zu: N=%u %s (got %u)", i, h[i].nr,
		      h[i].random ? "random" : "linear",
		      n == 1 ? r.tabs[0].open_au_nr : 0);
		report_free(&r);
	}
	CHECK(parse_str("=== find-fat, 4 AUs, random ===\n"
			"4MiB 9M/s 3M/s 9M/s 9M/s\n", &r) == 1 &&
	      r.tabs[0].kind == TAB_FAT && r.tabs[0].ncols == 4 &&
	      r.tabs[0].random, "find-fat banner: 4 AU columns, random");
	report_free(&r);
}

/* List, quote and table decoration, terminal noise. */
static void decoration(void)
{
	static const char *const texts[] = {
		"- 4MiB 9M/s\n- 2MiB 8M/s\n- 1MiB 2M/s\n",
		"* 4MiB 9M/s\n* 2MiB 8M/s\n* 1MiB 2M/s\n",
		"> 4MiB 9M/s\n>> 2MiB 8M/s\n> > 1MiB 2M/s\n",
		"| size | rate |\n|---:|---:|\n| 4MiB | 9M/s |\n"
		"| 2MiB | 8M/s |\n|1MiB|2M/s|\n",
		"4MiB 9M/s |\n2MiB 8M/s |\n1MiB 2M/s |\n",
		"```\n4MiB    9M/s    \n2MiB    8M/s    \n1MiB    2M/s    \n```",
		"\033[1m4MiB\033[0m\t\t9M/s\r\n2MiB\t8M/s\033[K\r\n"
		"1MiB\t2.5\b\bM/s\0\r\n",
		"- 4MiB 9M/s - 2MiB 8M/s - 1MiB **2M/s**",
	};
	struct report r;
	size_t i;
	int n;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		n = parse_str(texts[i], &r);
		CHECK(n == 1 && r.tabs[0].nrows == 3 &&
		      near(cell(&r.tabs[0], 1048576, 0), 2e6),
		      "decoration %zu: one table of 3 rows (got %d)", i, n);
		report_free(&r);
	}
	n = report_parse("4MiB 9M/s\0\n2MiB 8M/s\n", 21, &r);
	CHECK(n == 1 && r.tabs[0].nrows == 2, "NUL between rows");
	report_free(&r);
	CHECK(parse_str("\033]0;user@box: ~\007$ flashbenx\b \bch -O "
			"--open-au-nr=3 /dev/sdb\n4MiB 9M/s\n", &r) == 1 &&
	      r.tabs[0].open_au_nr == 3,
	      "window title escape, typo fixed with backspace");
	report_free(&r);
	/* a sweep's '-' cells are values; a bullet after them is not */
	CHECK(parse_str("- size linear=1 linear=2 - 4MiB 9M/s - - 2MiB 9M/s "
			"1M/s", &r) == 1 && r.tabs[0].nrows == 2 &&
	      isnan(r.tabs[0].rows[0].v[1]) &&
	      near(r.tabs[0].rows[1].v[1], 1e6), "bullets around a sweep");
	report_free(&r);
}

/* A paste cut in its last row. */
static void cut_rows(void)
{
	static const char head[] =
		"align 8192\tpre 814µs\ton 833µs\tpost 816µs\tdiff 18µs\n"
		"align 4096\tpre 814µs\ton 814µs\tpost 812µs\t";
	static const char *const tails[] = {
		"diff 1.", "diff", "", "di", "diff 1.2^C",
	};
	struct report r;
	char text[256];
	size_t i;
	int n;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, tails[i]);
		n = parse_str(text, &r);
		CHECK(n == 1 && r.tabs[0].nrows == 2 &&
		      near(cell(&r.tabs[0], 4096, 3), 1000),
		      "cut '%s': diff from pre, on and post", tails[i]);
		report_free(&r);
	}
	n = parse_str("align 8192 pre 814µs on 833µs post 816µs diff 18µs "
		      "align 4096 pre 814µs on 814µs post 81", &r);
	CHECK(n == 1 && r.tabs[0].nrows == 1, "cut in post: row dropped");
	report_free(&r);
	n = parse_str("4MiB 9M/s 3M/s 9M/s\n2MiB 9M/s 3M/s 9M/s\n"
		      "1MiB 9M/s 3M/s 9.", &r);
	CHECK(n == 1 && r.tabs[0].kind == TAB_FAT && r.tabs[0].nrows == 2,
	      "find-fat row cut short: dropped, no new table (got %d)", n);
	report_free(&r);
	n = parse_str("size linear=1 linear=2\n4MiB 9M/s 9M/s\n2MiB 9M/s 1",
		      &r);
	CHECK(n == 1 && r.tabs[0].nrows == 1, "sweep row cut short");
	report_free(&r);
	n = parse_str("| align | pre | on | post | diff |\n|---|---|---|---|"
		      "---|\n| 8192 | 814µs | 833µs | 816µs | 18µs |\n"
		      "| 4096 | 814µs | 814µs | 812µs | 1", &r);
	CHECK(n == 1 && r.tabs[0].kind == TAB_ALIGN && r.tabs[0].nrows == 2 &&
	      near(cell(&r.tabs[0], 8192, 1), 833e3) &&
	      near(cell(&r.tabs[0], 4096, 3), 1000),
	      "gist table naming the align columns");
	report_free(&r);
}

/* The same test run twice on one card: two tables, the second a rerun. */
static void reruns(void)
{
	struct report r;
	int n;

	n = parse_str("$ flashbench -O --open-au-nr=3 /dev/sdb\n4MiB 9M/s\n"
		      "2MiB 9M/s\n$ flashbench -O --open-au-nr=3 /dev/sdb\n"
		      "4MiB 8M/s\n2MiB 9M/s\n$ flashbench -O --open-au-nr=4 "
		      "/dev/sdb\n4MiB 3M/s\n2MiB 1M/s\n$ flashbench -O "
		      "--open-au-nr=3 /dev/sdb\n4MiB 9M/s\n2MiB 9M/s\n", &r);
	CHECK(n == 4 && r.tabs[0].repeat == 0 && r.tabs[1].repeat == 1 &&
	      r.tabs[2].repeat == 0 && r.tabs[3].repeat == 2,
	      "reruns kept apart and counted (got %d tables)", n);
	report_free(&r);
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void limits_ok(const struct report *r, int n, const char *what)
{
	size_t i, rows = 0;

	for (i = 0; i < r->ntabs; i++)
		rows += r->tabs[i].nrows;
	CHECK(n >= 0 && r->ntabs <= REPORT_MAX_TABLES &&
	      rows <= REPORT_MAX_ROWS && r->nsecs <= REPORT_MAX_SECTIONS,
	      "%s: within limits (%d tables, %zu rows)", what, n, rows);
}

/* Hostile input: no crash, no overflow, bounded memory. */
static void hostile(void)
{
	static const char *const odd[] = {
		"", "align", "align 1 pre", "4MiB", "size nr=", "size nr=9",
		"--erasesize=$[", "--erasesize=$[99999999999 * 99999999999]",
		"-e $[1/0] 4MiB 1M/s", "align 0 pre 1 on 1 post 1 diff 1",
		"4MiB 1e999M/s", "18446744073709551615B 1M/s",
		"LBAsects=99999999999999999999", "Disk x 99999999999999999999 bytes",
		"flashbench -O --open-au-nr=4294967297 4MiB 1M/s",
	};
	static const char words[] =
		"4MiB 1M/s align 12 pre 1 on 2 post 1 diff 1\n\xc2\xa0";
	struct report r;
	char *big;
	size_t i, len = 4 << 20;
	uint32_t s = 1;
	int n;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		n = parse_str(odd[i], &r);
		limits_ok(&r, n, odd[i]);
		report_free(&r);
	}
	/* not NUL-terminated, with NULs and high bytes inside */
	big = malloc(len);
	if (!big)
		return;
	for (i = 0; i < len; i++)
		big[i] = words[lcg(&s) % sizeof(words)];
	n = report_parse(big, len, &r);
	limits_ok(&r, n, "4 MiB of shuffled table words");
	report_free(&r);
	/* many short tables, then many rows */
	for (i = 0; i + 20 < len; i += 20)
		memcpy(big + i, "x 4MiB 1M/s 2MiB 1M/s", 20);
	n = report_parse(big, len, &r);
	limits_ok(&r, n, "many tables");
	CHECK(n == REPORT_MAX_TABLES, "table limit reached (got %d)", n);
	report_free(&r);
	n = report_parse(big, 0, &r);
	CHECK(n == 0, "empty input");
	report_free(&r);
	free(big);
}

/* Seeds with random bytes changed, cut and repeated. */
static void mutations(void)
{
	static const char *const seeds[] = {
		SEED_000, SEED_001, SEED_002, SEED_003, SEED_004,
	};
	uint32_t s = 7;
	size_t k, i, len, bad = 0;

	for (k = 0; k < 5; k++) {
		char *text = seed_text(seeds[k], &len);

		for (i = 0; text && i < 60; i++) {
			size_t j, cut = lcg(&s) % (len + 1);
			struct report r;
			int n;

			for (j = 0; j < 20 && len; j++)
				text[lcg(&s) % len] = (char)lcg(&s);
			n = report_parse(text, cut, &r);
			bad += n < 0 || r.ntabs > REPORT_MAX_TABLES;
			report_free(&r);
		}
		free(text);
	}
	CHECK(bad == 0, "300 mutated seeds parse");
}

int main(void)
{
	seed_000();
	seed_001();
	seed_002();
	seed_003();
	seed_004();
	sweep_format();
	layouts();
	headings();
	decoration();
	cut_rows();
	reruns();
	hostile();
	mutations();
	return CHECK_DONE();
}
