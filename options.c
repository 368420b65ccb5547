// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: classic options as people type them, the new ones,
 * and every check that can be made before the first I/O.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "lib/msg.h"
#include "lib/spell.h"
#include "lib/version.h"
#include "sim/sim.h"
#include "lib/units.h"

/* --help and the like: exit 0 only once the text is out. */
static __attribute__((noreturn)) void exit_printed(void)
{
	exit(close_out(stdout, "stdout", 0, 0));
}

/* A size option: parsed, nonzero. */
static uint64_t opt_size(const char *name, const char *arg)
{
	uint64_t v;
	const char *why = size_problem(arg, &v);

	if (why)
		die_usage("--%s=%s: %s", name, arg, why);
	if (v == 0)
		die_usage("--%s=%s: must not be zero", name, arg);
	return v;
}

/*
 * A count option: a plain positive number up to max.  Messages show the
 * whole value as typed (part of a range A-B is not what the user wrote).
 */
static unsigned opt_uint_in(const char *name, const char *arg,
			    const char *shown, unsigned max)
{
	uint64_t v;
	int ret = parse_uint(arg, &v);

	if (ret == -EINVAL)
		die_usage("--%s=%s: not a number", name, shown);
	if (ret || v > max)
		die_usage("--%s=%s: too large (at most %u)", name, shown, max);
	if (v == 0)
		die_usage("--%s=%s: must be at least 1", name, shown);
	return (unsigned)v;
}

static unsigned opt_uint(const char *name, const char *arg, unsigned max)
{
	return opt_uint_in(name, arg, arg, max);
}

/* N, or a range A-B of counts up to max. */
static void opt_range(const char *name, const char *arg, unsigned max,
		      unsigned *lo, unsigned *hi)
{
	const char *dash = strchr(arg, '-');
	char first[32];

	if (!dash) {
		*lo = *hi = opt_uint(name, arg, max);
		return;
	}
	if ((size_t)(dash - arg) >= sizeof(first))
		die_usage("--%s=%s: not a number or range A-B", name, arg);
	memcpy(first, arg, (size_t)(dash - arg));
	first[dash - arg] = '\0';
	if (!*first)
		die_usage("--%s=%s: not a number or range A-B", name, arg);
	*lo = opt_uint_in(name, first, arg, max);
	*hi = opt_uint_in(name, dash + 1, arg, max);
	if (*lo > *hi)
		die_usage("--%s=%s: range runs backwards", name, arg);
	if (*hi - *lo >= TABLE_MAXCOLS)
		die_usage("--%s=%s: a sweep has at most %d columns", name, arg,
			  TABLE_MAXCOLS);
}

/*
 * A name the kernel would refuse anyway: refused here, so that every
 * message buffer (MSG_MAX) holds the names in it and the reason after.
 * opt: the option it is the value of, NULL for an argument.
 */
static const char *opt_name(const char *opt, const char *name)
{
	/* refused before any check of the device could speak first */
	if (opt && !*name)
		die_usage("--%s=: no file named", opt);
	if (strlen(name) < PATH_MAX)
		return name;
	die_usage("%s%s%s%s: longer than %d bytes, the longest name the "
		  "kernel takes", opt ? "--" : "", opt ? opt : "",
		  opt ? "=" : "", name, PATH_MAX - 1);
}

static void opt_discard(struct front *fr, const char *arg)
{
	struct opts *o = &fr->o;
	const char *colon = strchr(arg, ':');
	char start[64];
	int ret;

	if (!colon || (size_t)(colon - arg) >= sizeof(start))
		die_usage("--discard=%s: expected START:LENGTH", arg);
	memcpy(start, arg, (size_t)(colon - arg));
	start[colon - arg] = '\0';
	ret = parse_size(start, &o->discard_off);
	if (ret)
		die_usage("--discard=%s: start '%s' is not a size", arg, start);
	ret = parse_size(colon + 1, &o->discard_len);
	if (ret || !o->discard_len)
		die_usage("--discard=%s: length '%s' is %s", arg, colon + 1,
			  ret == -ERANGE ? "too large" :
			  ret ? "not a size" : "zero");
}

/* Unlike the other sizes, 0 is a place: the start of the device. */
static void opt_offset(struct front *fr, const char *arg)
{
	if (parse_size(arg, &fr->o.offset))
		die_usage("--offset=%s: not a size", arg);
	fr->o.have_offset = 1;
}

static void opt_analyze(struct front *fr, const char *arg)
{
	if (!arg) {
		fr->analyze = 1;
		return;
	}
	if (!*arg)
		die_usage("--analyze=: no file named (use - for stdin)");
	if (!fr->files) {
		/* every later argument may be another report */
		fr->files = calloc((size_t)fr->argc, sizeof(*fr->files));
		if (!fr->files)
			die_usage("out of memory");
	}
	fr->files[fr->nfiles++] = opt_name("analyze", arg);
}

/*
 * A nonzero duration option into *ns; units: what the option takes, as
 * --help says it ("h, m, s" or "h, m, s, ms"), eg: examples.
 */
static void opt_ns(const char *name, const char *arg, const char *units,
		   const char *eg, uint64_t *ns)
{
	int ret = parse_duration(arg, ns);

	if (ret == -ERANGE)
		die_usage("--%s=%s: too large", name, arg);
	if (ret)
		die_usage("--%s=%s: not a duration (%s in that order, each at "
			  "most once: e.g. %s)", name, arg, units, eg);
	if (!*ns)
		die_usage("--%s=%s: must not be zero", name, arg);
}

static void opt_duration(struct front *fr, const char *arg)
{
	opt_ns("max-time", arg, "h, m, s", "90s, 1h30m", &fr->max_time);
}

/* --stall=DURATION: the write time that counts as a stall. */
static void opt_stall(struct front *fr, const char *arg)
{
	opt_ns("stall", arg, "h, m, s, ms", "100ms, 2s", &fr->o.stall_ns);
}

/* --idle=DURATION: --sustained's wait before writing again. */
static void opt_idle(struct front *fr, const char *arg)
{
	opt_ns("idle", arg, "h, m, s, ms", "30s, 5m", &fr->o.idle_ns);
}

static void show_help(struct front *fr, const char *arg);

static void show_help_sim(struct front *fr, const char *arg)
{
	(void)fr;
	(void)arg;
	sim_help(stdout);
	exit_printed();
}

static void show_version(struct front *fr, const char *arg)
{
	(void)fr;
	(void)arg;
	printf("flashbench %s\n", VERSION);
	exit_printed();
}

enum opt_kind {
	K_HEADING,	/* a heading of --help, no option */
	K_TEST,		/* asks for .test */
	K_FLAG,		/* sets an int to 1 */
	K_LEVEL,	/* adds 1 to an int each time */
	K_COUNT,	/* a positive number up to .max */
	K_RANGE,	/* N or A-B, positive numbers up to .max */
	K_SIZE,		/* a nonzero size */
	K_NAME,		/* a file name */
	K_CALL,		/* .call parses and stores it */
	K_ALIAS,	/* another name for the option before, not in --help */
	K_DOC,		/* a second line of --help for the option before */
};

/*
 * One option.  The getopt_long() tables, the parser, the defaults and
 * --help are all built from these rows, in the order --help shows them.
 */
struct optdef {
	const char *name;
	int key;		/* the short option, 0: none */
	int has_arg;		/* as getopt_long() takes it */
	enum opt_kind kind;
	const char *arg;	/* the value as --help names it */
	/* --help's text, split at \n; a printf format where %s is .def */
	const char *help;
	size_t at, at_hi;	/* where the value goes in struct front */
	/* where the value as typed goes; 0 (the device's place): nowhere */
	size_t typed;
	unsigned max;
	const char *def;	/* the default, parsed as if typed */
	const struct testdesc *test;	/* the test it asks for */
	void (*call)(struct front *fr, const char *arg);
};

/* Defaults are set in a struct opts alone too (the survey's base). */
#define AT(field) offsetof(struct front, field)
_Static_assert(AT(o) == 0, "struct opts must lead struct front");

#define STR(x) #x
#define XSTR(x) STR(x)

static const struct optdef optdefs[] = {
	{ .kind = K_HEADING, .help = "The whole procedure:" },
	{ "survey", 0, no_argument, K_FLAG, .at = AT(survey),
	  .help = "alignment, open-AU limit (linear, random),\n"
		  "smallest full-speed write and FAT area,\n"
		  "each step decided from the results so\n"
		  "far; prints a plan with regions, bytes and an\n"
		  "estimated time before the first write, each\n"
		  "step's table under its classic command, then\n"
		  "the verdicts and advice (partition alignment,\n"
		  "mkfs parameters).  Destructive: asks on a\n"
		  "terminal, else needs --yes (sim: never asks)" },
	{ "yes", 0, no_argument, K_FLAG, .at = AT(yes),
	  .help = "--survey: write without asking" },
	{ "max-write", 0, required_argument, K_SIZE, .arg = "=SIZE",
	  .at = AT(max_write), .typed = AT(max_write_arg),
	  .help = "--survey: stop before a step that would write\n"
		  "more than SIZE in all; --sustained: write no\n"
		  "more than SIZE (the region ends there)" },
	{ "max-time", 0, required_argument, K_CALL, .arg = "=DURATION",
	  .call = opt_duration, .typed = AT(max_time_arg),
	  .help = "--survey: stop before a step that would end\n"
		  "after DURATION: h, m, s in that order, each\n"
		  "at most once (90s, 20m, 2h, 1h30m15s);\n"
		  "--sustained: stop before a write that would\n"
		  "end after it (write and idle time)" },
	{ .kind = K_HEADING,
	  .help = "Tests (several run one after the other: --capacity first, "
		  "then in\nthe classic's order -s, -f, -a, -O, -i, then --erase "
		  "and --discard):" },
	{ "align", 'a', no_argument, K_TEST, .test = &testdesc_align,
	  .help = "alignment read test (read-only)" },
	{ "open-au", 'O', no_argument, K_TEST, .test = &testdesc_open_au,
	  .help = "open-AU write test (destructive)" },
	{ "find-fat", 'f', no_argument, K_TEST, .test = &testdesc_find_fat,
	  .help = "FAT-area write test over the first AUs\n"
		  "(also --findfat; destructive)" },
	{ "findfat", .kind = K_ALIAS },
	{ "erase", 0, no_argument, K_TEST, .test = &testdesc_erase,
	  .help = "timed discard test (destructive)" },
	{ "discard", 0, required_argument, K_CALL, .arg = "=START:LEN",
	  .test = &testdesc_discard, .call = opt_discard,
	  .help = "discard one range, e.g. to reset a card\n(destructive)" },
	{ "scatter", 's', no_argument, K_TEST, .test = &testdesc_scatter,
	  .help = "scatter read plot data (read-only)" },
	{ "interval", 'i', no_argument, K_TEST, .test = &testdesc_interval,
	  .help = "read-size regression (read-only)" },
	{ "iops", 0, no_argument, K_TEST, .test = &testdesc_iops,
	  .help = "4KiB random read and write IOPS and the\n"
		  "sequential write rate in a 256MiB region;\n"
		  "the classes (A1, U3, V30...) they reach\n"
		  "(destructive)" },
	{ "sustained", 0, no_argument, K_TEST, .test = &testdesc_sustained,
	  .help = "sequential writes from --offset to the end\n"
		  "(or --max-write, --max-time) until the rate\n"
		  "falls off a cliff and stays down: the write\n"
		  "cache's size, the rates before and after it\n"
		  "(destructive)" },
	{ "idle", 0, required_argument, K_CALL, .arg = "=DURATION",
	  .call = opt_idle, .typed = AT(o.idle_arg),
	  .help = "--sustained: past the cliff, wait DURATION\n"
		  "idle and write again: does the cache recover\n"
		  "(default off; h, m, s, ms: 30s, 5m)" },
	{ "find-erase", 0, no_argument, K_TEST, .test = &testdesc_find_erase,
	  .help = "the erase size from writes: where writes\n"
		  "entering multiples of a size slow down\n"
		  "(destructive)" },
	{ "capacity", 'C', no_argument, K_TEST, .test = &testdesc_capacity,
	  .help = "does the card store what its size claims?\n"
		  "writes a few dozen 4KiB blocks spread over it,\n"
		  "reads them back, names where data wraps or is\n"
		  "lost; saves and restores them (exit 4: it\n"
		  "stores less; destructive, runs first)" },
	{ "info", 0, no_argument, K_FLAG, .at = AT(info),
	  .help = "what the device says about itself (CID, CSD,\n"
		  "SCR, SSR, sysfs sizes, USB IDs) and warnings;\n"
		  "no test, no timing" },
	{ .kind = K_HEADING, .help = "Options:" },
	{ "blocksize", 'b', required_argument, K_SIZE, .arg = "=N",
	  .at = AT(o.blocksize), .typed = AT(o.blocksize_arg), .def = "16KiB",
	  .help = "smallest I/O size (default %s)" },
	{ "erasesize", 'e', required_argument, K_SIZE, .arg = "=N",
	  .at = AT(o.erasesize), .typed = AT(o.erasesize_arg), .def = "4MiB",
	  .help = "AU size used by write tests (default %s)" },
	{ "count", 'c', required_argument, K_COUNT, .arg = "=N",
	  .at = AT(o.count_typed), .typed = AT(o.count_arg), .max = 1000000,
	  .help = "repetitions, the best kept (default 8; -a: 32;\n"
		  "-O and -f: 1, as each pass writes its region\n"
		  "again, and in linear order up to 3 while\n"
		  "pauses of the card take them)" },
	{ "open-au-nr", 0, required_argument, K_RANGE, .arg = "=N|A-B",
	  .at = AT(o.nr_lo), .at_hi = AT(o.nr_hi), .typed = AT(o.nr_arg),
	  .max = 65536, .def = "2",
	  .help = "AUs written in turn (default %s); a range A-B\n"
		  "sweeps N=A..B, one column per N" },
	{ "offset", 0, required_argument, K_CALL, .arg = "=N",
	  .call = opt_offset, .typed = AT(o.offset_arg),
	  .help = "start of the write tests' region\n"
		  "(default 16MiB or 8 erase sizes, whichever is\n"
		  "larger: the classic's 16MiB is AU 1 of 16MiB\n"
		  "AUs, where FAT areas live)" },
	{ "fat-nr", 'F', required_argument, K_COUNT, .arg = "=N",
	  .at = AT(o.fat_nr), .typed = AT(o.fat_nr_arg),
	  .max = TABLE_MAXCOLS, .def = XSTR(FAT_AUS),
	  .help = "AUs looked at by --find-fat (default %s)" },
	{ "stall", 0, required_argument, K_CALL, .arg = "=DURATION",
	  .call = opt_stall, .typed = AT(o.stall_arg),
	  .help = "write tests: a write slower than this is a\n"
		  "stall, counted per row and summed up on stderr\n"
		  "(default 100ms; h, m, s, ms: 100ms, 2s)" },
	{ "random", 'r', no_argument, K_FLAG, .at = AT(o.random),
	  .help = "pseudo-random order inside each AU" },
	{ "ramp", 0, no_argument, K_FLAG, .at = AT(o.ramp),
	  .help = "-O as a ramp: one stream (AU) more each step\n"
		  "until the writes collapse, confirmed by\n"
		  "dropping and re-adding the last; --open-au-nr=N\n"
		  "is the cap (default 64, or what the device\n"
		  "holds); far cheaper than a sweep" },
	/*
	 * A scatter keeps a row per position to print them sorted, about
	 * 60 bytes each: 2^20 rows take 60 MB, 2^30 took 60 GB, and at
	 * 2^20 a card reads for hours already.
	 */
	{ "scatter-order", 0, required_argument, K_COUNT, .arg = "=N",
	  .at = AT(o.scatter_order), .typed = AT(o.scatter_order_arg),
	  .max = 20, .def = "9",
	  .help = "2^N scatter positions (default %s)" },
	{ "scatter-span", 0, required_argument, K_COUNT, .arg = "=N",
	  .at = AT(o.scatter_span), .typed = AT(o.scatter_span_arg),
	  .max = 4096, .def = "1",
	  .help = "scatter reads of N blocks (default %s)" },
	{ "interval-order", 0, required_argument, K_COUNT, .arg = "=N",
	  .at = AT(o.interval_order), .typed = AT(o.interval_order_arg),
	  .max = 20, .def = "12",
	  .help = "interval reads of sector<<0 .. sector<<(N-1)\n"
		  "(default %s)" },
	{ "out", 'o', required_argument, K_NAME, .arg = "=FILE",
	  .at = AT(out),
	  .help = "write the results to FILE (default stdout)" },
	{ "json", 0, no_argument, K_FLAG, .at = AT(json),
	  .help = "one JSON document instead of text tables" },
	{ "plot", 0, required_argument, K_NAME, .arg = "=FILE",
	  .at = AT(plot),
	  .help = "also draw the results as an SVG chart in FILE\n"
		  "(several tests: a file each, x.svg gives\n"
		  "x-align.svg, x-open-au.svg, ...)" },
	{ "analyze", 0, optional_argument, K_CALL, .call = opt_analyze,
	  .help = "verdicts on stdout after the table, as '# '\n"
		  "lines (default: verdicts on stderr)" },
	{ "analyse", .kind = K_ALIAS },
	{ "analyze", .kind = K_DOC, .arg = "=FILE ...",
	  .help = "verdicts on saved or pasted reports, no device\n"
		  "('-' reads stdin; more files may follow;\n"
		  "at most 64MiB each)" },
	{ "dry-run", 0, no_argument, K_FLAG, .at = AT(dry_run),
	  .help = "print the I/O plan and totals, touch nothing\n"
		  "(with -v: every I/O; with --json: the plan\n"
		  "as a JSON document)" },
	{ "realtime", 0, no_argument, K_FLAG, .at = AT(realtime),
	  .help = "SCHED_FIFO while measuring (off by default)" },
	{ "force", 0, no_argument, K_FLAG, .at = AT(force),
	  .help = "write tests: go on although the device, or\n"
		  "something sharing its storage, is in use;\n"
		  "with --restore: onto a device other than the\n"
		  "one the file was saved from" },
	{ "preserve", 0, required_argument, K_NAME, .arg = "=FILE",
	  .at = AT(preserve),
	  .help = "write tests: save the bytes to be overwritten\n"
		  "in FILE (not on the device), put them back\n"
		  "afterwards and verify" },
	{ "restore", 0, required_argument, K_NAME, .arg = "=FILE",
	  .at = AT(restore),
	  .help = "put a --preserve FILE back on DEVICE (after\n"
		  "a crash); no test option; FILE must be a\n"
		  "regular file not writable by others, saved\n"
		  "from DEVICE" },
	{ "verbose", 'v', no_argument, K_LEVEL, .at = AT(o.verbose),
	  .help = "more detail" },
	{ "help", 'h', no_argument, K_CALL, .call = show_help,
	  .help = "this text" },
	{ "help-sim", 0, no_argument, K_CALL, .call = show_help_sim,
	  .help = "simulated card profiles and keys" },
	{ "version", 'V', no_argument, K_CALL, .call = show_version,
	  .help = "version" },
};

#define NOPTS (sizeof(optdefs) / sizeof(optdefs[0]))

/*
 * --help's columns: "  -x, " or six blanks, the long name and its value
 * padded to a width that fits the longest (--max-time=DURATION) with a
 * gap, then the text, its further lines indented to match.
 */
#define HELP_NAME_WIDTH 21
#define HELP_INDENT (6 + HELP_NAME_WIDTH)

static void usage_row(FILE *f, const struct optdef *d)
{
	char name[64], text[1024];
	const char *line, *end;

	if (d->kind == K_HEADING) {
		fprintf(f, "\n%s\n", d->help);
		return;
	}
	if (d->kind == K_ALIAS)
		return;
	snprintf(name, sizeof(name), "--%s%s", d->name, d->arg ? d->arg : "");
	snprintf(text, sizeof(text), d->help, d->def);
	if (d->key && d->kind != K_DOC)
		fprintf(f, "  -%c, %-*s", d->key, HELP_NAME_WIDTH, name);
	else
		fprintf(f, "      %-*s", HELP_NAME_WIDTH, name);
	for (line = text; (end = strchr(line, '\n')); line = end + 1)
		fprintf(f, "%.*s\n%*s", (int)(end - line), line, HELP_INDENT,
			"");
	fprintf(f, "%s\n", line);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("Usage: flashbench TEST [OPTIONS] DEVICE\n"
"Find the hidden geometry of flash media by timing O_DIRECT I/O.\n"
"DEVICE is a block device, a regular file, or a simulated card 'sim:...'\n"
"(see 'flashbench --help-sim').  Sizes take K/M/G/T or KiB/MiB/GiB/TiB\n"
"(binary) or are plain byte counts; numbers may be written in any C base\n"
"(0x2000000, 0755).\n", f);
	for (i = 0; i < NOPTS; i++)
		usage_row(f, &optdefs[i]);
	fputs("\n"
"Exit status: 0 ok, 1 I/O or runtime error, 2 usage error (nothing was\n"
"read or written), 3 discard not supported or a survey stopped by\n"
"--max-write/--max-time, 4 --capacity or --survey: the card stores less\n"
"than it claims, 128+N stopped by signal N (130 ^C, 143 SIGTERM, 129 SIGHUP,\n"
"141 SIGPIPE; --preserve data put back).\n",
	      f);
}

static void show_help(struct front *fr, const char *arg)
{
	(void)fr;
	(void)arg;
	usage(stdout);
	exit_printed();
}

/* --survey picks its own tests; its options go with nothing else. */
/*
 * Options of the tests that --survey sets itself at each step (sizes,
 * regions, counts of AUs and orders); only --count it takes from the
 * command line.  Typed with --survey, one of these would be ignored.
 */
static const char *const survey_chooses[] = {
	"blocksize", "erasesize", "offset", "fat-nr", "open-au-nr",
	"scatter-order", "scatter-span", "interval-order",
};

#define N_SURVEY_CHOOSES (sizeof(survey_chooses) / sizeof(survey_chooses[0]))

/* Exit on the first option of survey_chooses the command line gave. */
static void refuse_survey_chosen(const struct front *fr)
{
	const char *typed;
	size_t i, j;

	for (i = 0; i < NOPTS; i++) {
		if (!optdefs[i].typed)
			continue;
		typed = *(const char *const *)((const char *)fr +
					       optdefs[i].typed);
		for (j = 0; typed && j < N_SURVEY_CHOOSES; j++)
			if (strcmp(optdefs[i].name, survey_chooses[j]) == 0)
				die_usage("--%s=%s: --survey chooses its own "
					  "sizes and regions; not with "
					  "--survey", optdefs[i].name, typed);
	}
}

/* Whether --sustained is among the tests asked for. */
static int has_sustained(const struct front *fr)
{
	unsigned i;

	for (i = 0; i < fr->ntests; i++)
		if (fr->tests[i] == &testdesc_sustained)
			return 1;
	return 0;
}

/*
 * The budgets go with --survey and --sustained, and are --sustained's
 * own: another test run with it would not keep them.
 */
static void check_budget(struct front *fr)
{
	const char *only = fr->max_write_arg ? "--max-write" :
			   fr->max_time_arg ? "--max-time" : NULL;

	if (fr->o.idle_arg && !has_sustained(fr))
		die_usage("--idle=%s: only goes with --sustained",
			  fr->o.idle_arg);
	if (fr->survey || !has_sustained(fr))
		return;
	if (only && fr->ntests > 1)
		die_usage("%s: --sustained's budget; run --sustained on its "
			  "own", only);
	if (fr->preserve && !fr->max_write)
		die_usage("--preserve=%s: --sustained writes to the device's "
			  "end; give --max-write=SIZE to bound what is saved",
			  fr->preserve);
	fr->o.max_write = fr->max_write;
	fr->o.max_time = fr->max_time;
	fr->o.max_write_arg = fr->max_write_arg;
}

static void check_survey(const struct front *fr)
{
	const char *only = fr->yes ? "--yes" : fr->max_write_arg ?
			   "--max-write" : fr->max_time_arg ? "--max-time" :
			   NULL;

	if (!fr->survey) {
		if (only && (fr->yes || !has_sustained(fr)))
			die_usage("%s: only goes with --survey%s", only,
				  fr->yes ? "" : " or --sustained");
		return;
	}
	if (fr->o.test)
		die_usage("--survey: runs its own tests; it does not go with "
			  "--%s", fr->o.test->name);
	if (fr->dry_run)
		die_usage("--survey: decides each step from measurements; it "
			  "does not go with --dry-run");
	if (fr->restore)
		die_usage("--survey: does not go with --restore=%s",
			  fr->restore);
	if (fr->o.random)
		die_usage("--random: --survey runs both orders itself; not "
			  "with --survey");
	refuse_survey_chosen(fr);
}

/*
 * --ramp turns -O into the ramp, which judges medians of single writes
 * and takes one cap: what would make -O measure differently is refused.
 */
static void check_ramp(struct front *fr)
{
	struct opts *o = &fr->o;
	unsigned i;

	if (!o->ramp)
		return;
	for (i = 0; i < fr->ntests && fr->tests[i] != &testdesc_open_au; i++)
		;
	if (i == fr->ntests)
		die_usage("--ramp: a way of running -O (--open-au); give -O");
	if (o->nr_arg && o->nr_lo != o->nr_hi)
		die_usage("--open-au-nr=%s: --ramp takes one number, the most "
			  "streams it tries", o->nr_arg);
	if (o->count_arg)
		die_usage("--count=%s: --ramp judges the median of single "
			  "writes; it takes no --count", o->count_arg);
	if (fr->plot)
		die_usage("--plot=%s: does not draw the ramp (--ramp)",
			  fr->plot);
	fr->tests[i] = &testdesc_ramp;
	if (i == 0)
		o->test = &testdesc_ramp;
}

/* The mode of a run without a test, for messages; NULL: tests. */
static const char *mode_of(const struct front *fr)
{
	return fr->nfiles ? "--analyze=FILE" : fr->info ? "--info" :
	       fr->restore ? "--restore" : fr->survey ? "--survey" : NULL;
}

/* --plot draws the tables of the tests a run is given, nothing else. */
static void check_plot(const struct front *fr)
{
	const char *with = mode_of(fr);
	unsigned i;

	for (i = 0; fr->plot && i < fr->ntests; i++)
		if (fr->tests[i] == &testdesc_capacity)
			die_usage("--plot=%s: --capacity gives a verdict, no "
				  "table to draw; not with --plot", fr->plot);

	if (fr->plot && with)
		die_usage("--plot=%s: draws the tables of -a, -O, -f, -s, -i "
			  "or --erase; it does not go with %s", fr->plot,
			  with);
}

/*
 * --stall counts slow writes: a run that writes nothing (read tests,
 * --analyze, --info, --restore) would take it and say nothing.
 */
static void check_stall(const struct front *fr)
{
	const char *mode = mode_of(fr);
	unsigned i;

	if (!fr->o.stall_arg || fr->survey)
		return;
	if (mode)
		die_usage("--stall=%s: counts slow writes of a test; it does "
			  "not go with %s", fr->o.stall_arg, mode);
	for (i = 0; i < fr->ntests; i++)
		if (fr->tests[i]->writes)
			return;
	die_usage("--stall=%s: counts slow writes; the %s test only reads",
		  fr->o.stall_arg, fr->ntests ? fr->tests[0]->name : "the run");
}

/*
 * Options that cannot apply are refused, not ignored: "--info
 * --restore=F" ended with status 0 and nothing put back, "--restore=F
 * --dry-run" wrote to the device.
 */
static void check_modes(const struct front *fr)
{
	const char *mode = mode_of(fr);

	if (fr->restore && (fr->nfiles || fr->info))
		die_usage("--restore=%s: puts saved data back; it does not go "
			  "with %s", fr->restore, mode);
	if (fr->info && fr->survey)
		die_usage("--survey: runs its own tests; it does not go with "
			  "--info");
	if (fr->restore && fr->dry_run)
		die_usage("--restore=%s: writes to the device; it does not go "
			  "with --dry-run", fr->restore);
	if (fr->preserve && (fr->nfiles || fr->info))
		die_usage("--preserve=%s: nothing is written with %s",
			  fr->preserve, mode);
	if (fr->o.count_arg && mode && !fr->survey)
		die_usage("--count=%s: nothing is measured with %s",
			  fr->o.count_arg, mode);
	if (fr->o.count_arg && fr->ntests == 1 &&
	    fr->tests[0] == &testdesc_discard)
		die_usage("--count=%s: --discard discards its range once",
			  fr->o.count_arg);
}

/*
 * The classic ran the tests it was given in this order, whatever the
 * order on the command line; the new ones follow.
 */
static const struct testdesc *const test_order[FRONT_MAXTESTS] = {
	&testdesc_capacity, &testdesc_scatter, &testdesc_find_fat, &testdesc_align,
	&testdesc_open_au, &testdesc_interval, &testdesc_erase,
	&testdesc_discard, &testdesc_iops, &testdesc_sustained,
	&testdesc_find_erase,
};

static void set_test(unsigned *mask, const struct testdesc *t)
{
	unsigned i;

	for (i = 0; i < FRONT_MAXTESTS; i++)
		if (test_order[i] == t)
			*mask |= 1u << i;
}

static void order_tests(struct front *fr, unsigned mask)
{
	unsigned i;

	for (i = 0; i < FRONT_MAXTESTS; i++)
		if (mask & (1u << i))
			fr->tests[fr->ntests++] = test_order[i];
	fr->o.test = fr->ntests ? fr->tests[0] : NULL;
}

/* The option getopt_long() just refused, as typed. */
static const char *bad_opt(char **argv)
{
	static char s[3] = "-?";
	const char *arg = argv[optind - 1];

	if (optopt && strncmp(arg, "--", 2) != 0) {
		s[1] = (char)optopt;
		return s;
	}
	return arg;
}

/* Typed is the option name, alone or with a value it does not take. */
static int refused_value(const char *typed, const char *name)
{
	size_t n = strlen(name);

	return strncmp(typed, name, n) == 0 &&
	       (typed[n] == '=' || typed[n] == '\0');
}

/* The option a refused "--name[=value]" most likely meant, or NULL. */
static const char *meant(const char *arg)
{
	unsigned best = UINT_MAX, e;
	const char *name = NULL;
	size_t i;

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	for (i = 0; i < NOPTS; i++) {
		if (optdefs[i].kind == K_HEADING || optdefs[i].kind == K_DOC)
			continue;
		if (refused_value(arg + 2, optdefs[i].name))
			return NULL;
		if (misspelt(arg + 2, optdefs[i].name, &e) && e < best) {
			best = e;
			name = optdefs[i].name;
		}
	}
	return name;
}

/* The value of a numeric option, from the command line or a default. */
static void put_value(char *base, const struct optdef *d, const char *arg)
{
	switch (d->kind) {
	case K_COUNT:
		*(unsigned *)(base + d->at) = opt_uint(d->name, arg, d->max);
		break;
	case K_RANGE:
		opt_range(d->name, arg, d->max, (unsigned *)(base + d->at),
			  (unsigned *)(base + d->at_hi));
		break;
	case K_SIZE:
		*(uint64_t *)(base + d->at) = opt_size(d->name, arg);
		break;
	default:
		break;
	}
}

/* A default fills only what the command line left at 0. */
static int value_set(const char *base, const struct optdef *d)
{
	if (d->kind == K_SIZE)
		return *(const uint64_t *)(base + d->at) != 0;
	return *(const unsigned *)(base + d->at) != 0;
}

static void apply(struct front *fr, const struct optdef *d, const char *arg,
		  unsigned *tests)
{
	char *base = (char *)fr;

	if (d->test)
		set_test(tests, d->test);
	switch (d->kind) {
	case K_FLAG:
		*(int *)(base + d->at) = 1;
		break;
	case K_LEVEL:
		(*(int *)(base + d->at))++;
		break;
	case K_NAME:
		*(const char **)(base + d->at) = opt_name(d->name, arg);
		break;
	case K_CALL:
		d->call(fr, arg);
		break;
	default:
		put_value(base, d, arg);
		break;
	}
	if (d->typed)
		*(const char **)(base + d->typed) = arg;
}

/* getopt_long()'s value for a row: its short option, else past them all. */
static int key_of(size_t i)
{
	return optdefs[i].key ? optdefs[i].key : UCHAR_MAX + 1 + (int)i;
}

static const struct optdef *row_of(int key)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (optdefs[i].kind != K_DOC && optdefs[i].kind != K_ALIAS &&
		    key_of(i) == key)
			return &optdefs[i];
	return NULL;
}

/* The option strings of getopt_long(); an alias takes the row before. */
static void getopt_tables(struct option *longs, char *shorts)
{
	int val = 0, has_arg = no_argument;
	size_t i;

	/* leading ':': report errors here, on one line */
	*shorts++ = ':';
	for (i = 0; i < NOPTS; i++) {
		const struct optdef *d = &optdefs[i];

		if (d->kind == K_HEADING || d->kind == K_DOC)
			continue;
		if (d->kind != K_ALIAS) {
			val = key_of(i);
			has_arg = d->has_arg;
		}
		*longs++ = (struct option){ d->name, has_arg, NULL, val };
		if (!d->key)
			continue;
		*shorts++ = (char)d->key;
		if (has_arg != no_argument)
			*shorts++ = ':';
		if (has_arg == optional_argument)
			*shorts++ = ':';
	}
	*longs = (struct option){ NULL, 0, NULL, 0 };
	*shorts = '\0';
}

/* After the options: reports to read, or the one device. */
static void operands(struct front *fr, int argc, char **argv)
{
	struct opts *o = &fr->o;

	if (fr->nfiles) {
		if (fr->info)
			die_usage("--analyze=%s: reads saved reports; it does "
				  "not go with --info", fr->files[0]);
		if (o->test)
			die_usage("--analyze=%s: reads saved reports; it does "
				  "not go with --%s", fr->files[0],
				  o->test->name);
		while (optind < argc)
			fr->files[fr->nfiles++] = opt_name(NULL,
							   argv[optind++]);
		return;
	}
	if (fr->info && o->test)
		die_usage("--info: reads what the device says about itself; "
			  "it does not go with --%s", o->test->name);
	if (optind < argc && strcmp(argv[optind], "sim:help") == 0) {
		sim_help(stdout);
		exit_printed();
	}
	if (optind >= argc)
		die_usage("no device given (try 'flashbench --help')");
	if (optind + 1 < argc)
		die_usage("%s %s: one device per run", argv[optind],
			  argv[optind + 1]);
	o->device = opt_name(NULL, argv[optind]);
}

static void refuse_option(const char *arg)
{
	const char *close = meant(arg);

	if (close)
		die_usage("%s: unknown option; did you mean --%s?", arg,
			  close);
	die_usage("%s: unknown option, or a value it does not take (try "
		  "'flashbench --help')", arg);
}

static void parse_argv(struct front *fr, int argc, char **argv)
{
	/* each row a long option, a short one at most 3 characters */
	struct option longs[NOPTS + 1];
	char shorts[1 + 3 * NOPTS + 1];
	const struct optdef *d;
	unsigned tests = 0;
	int c;

	getopt_tables(longs, shorts);
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == ':')
			die_usage("%s: needs a value", bad_opt(argv));
		d = row_of(c);
		if (!d)
			refuse_option(bad_opt(argv));
		apply(fr, d, optarg, &tests);
	}
	if (fr->nfiles && fr->survey)
		die_usage("--analyze=%s: reads saved reports; it does not go "
			  "with --survey", fr->files[0]);
	order_tests(fr, tests);
	check_ramp(fr);
	check_budget(fr);
	check_survey(fr);
	check_modes(fr);
	check_plot(fr);
	check_stall(fr);
	operands(fr, argc, argv);
}

void use_test(struct opts *o, const struct testdesc *t)
{
	o->test = t;
	o->count = o->count_typed ? o->count_typed : t->count ? t->count : 8;
}

void set_defaults(struct opts *o)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (optdefs[i].def && !value_set((char *)o, &optdefs[i]))
			put_value((char *)o, &optdefs[i], optdefs[i].def);
}

/* --blocksize above --erasesize, naming only what the user typed */
static void too_large(const struct opts *o)
{
	char b[UNIT_BUFLEN], e[UNIT_BUFLEN];

	fmt_size(b, (double)o->blocksize);
	fmt_size(e, (double)o->erasesize);
	if (o->blocksize_arg && o->erasesize_arg)
		die_usage("--blocksize=%s: larger than --erasesize=%s",
			  o->blocksize_arg, o->erasesize_arg);
	if (o->blocksize_arg)
		die_usage("--blocksize=%s: larger than the erase size, %s by "
			  "default; give a larger --erasesize", o->blocksize_arg,
			  e);
	die_usage("--erasesize=%s: smaller than the block size, %s by "
		  "default; give a smaller --blocksize", o->erasesize_arg, b);
}

void validate(const struct front *fr, const struct dev *d)
{
	const struct opts *o = &fr->o;
	char err[MSG_MAX], b[32], e[32];
	const char *bs = shown(o->blocksize_arg, o->blocksize, b, sizeof(b));
	const char *es = shown(o->erasesize_arg, o->erasesize, e, sizeof(e));

	if (o->blocksize % d->sector)
		die_usage("--blocksize=%s: not a multiple of the %u-byte "
			  "sector", bs, d->sector);
	/* typed, it is refused where it is wrong, even for a test not using it */
	if ((o->test->writes || o->erasesize_arg) && o->erasesize % d->sector)
		die_usage("--erasesize=%s: not a multiple of the %u-byte "
			  "sector", es, d->sector);
	if (o->erasesize_arg && o->erasesize > d->size &&
	    does_not_fit(err, sizeof(err), d, "an erase block larger than "
			 "the device", "erasesize", o->erasesize_arg, NULL))
		die_usage("%s", err);
	if (o->test->writes && o->blocksize > o->erasesize)
		too_large(o);
	if (o->test->validate(o, d, err, sizeof(err)))
		die_usage("%s", err);
}

/*
 * getopt_long() reorders argv; fr->argv keeps a copy as typed for the
 * JSON's command_line (the strings themselves are shared).
 */
void parse_args(struct front *fr, int argc, char **argv)
{
	fr->argv = calloc((size_t)argc + 1, sizeof(*fr->argv));
	if (!fr->argv)
		die_usage("out of memory");
	memcpy(fr->argv, argv, (size_t)argc * sizeof(*fr->argv));
	fr->argc = argc;
	parse_argv(fr, argc, argv);
}

struct json_cmd front_cmd(const struct front *fr)
{
	struct json_cmd cmd = { fr->argc, fr->argv, &fr->o };

	return cmd;
}

void front_free(struct front *fr)
{
	free(fr->argv);
	free(fr->files);
}
