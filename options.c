// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: classic options as people type them, the new ones,
 * and every check that can be made before the first I/O.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "lib/msg.h"
#include "sim/sim.h"
#include "lib/units.h"

/* --help and the like: exit 0 only once the text is out. */
static __attribute__((noreturn)) void exit_printed(void)
{
	exit(close_out(stdout, "stdout", 0, 0));
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: flashbench TEST [OPTIONS] DEVICE\n"
"Find the hidden geometry of flash media by timing O_DIRECT I/O.\n"
"DEVICE is a block device, a regular file, or a simulated card 'sim:...'\n"
"(see 'flashbench --help-sim').  Sizes take K/M/G/T or KiB/MiB/GiB/TiB\n"
"(binary) or are plain byte counts; numbers may be written in any C base\n"
"(0x2000000, 0755).\n"
"\n"
"The whole procedure:\n"
"      --survey             alignment, open-AU limit (linear, random),\n"
"                           smallest full-speed write and FAT area,\n"
"                           each step decided from the results so\n"
"                           far; prints a plan with regions, bytes and an\n"
"                           estimated time before the first write, each\n"
"                           step's table under its classic command, then\n"
"                           the verdicts and advice (partition alignment,\n"
"                           mkfs parameters).  Destructive: asks on a\n"
"                           terminal, else needs --yes (sim: never asks)\n"
"      --yes                --survey: write without asking\n"
"      --max-write=SIZE     --survey: stop before a step that would write\n"
"                           more than SIZE in all\n"
"      --max-time=DURATION  --survey: stop before a step that would end\n"
"                           after DURATION (90s, 20m, 2h, 1h30m)\n"
"\n"
"Tests (several run one after the other in the classic's order:\n"
"-s, -f, -a, -O, -i, then --erase and --discard):\n"
"  -a, --align              alignment read test (read-only)\n"
"  -O, --open-au            open-AU write test (destructive)\n"
"  -f, --find-fat           FAT-area write test over the first AUs\n"
"                           (also --findfat; destructive)\n"
"      --erase              timed discard test (destructive)\n"
"      --discard=START:LEN  discard one range, e.g. to reset a card\n"
"                           (destructive)\n"
"  -s, --scatter            scatter read plot data (read-only)\n"
"  -i, --interval           read-size regression (read-only)\n"
"      --info               what the device says about itself (CID, CSD,\n"
"                           SCR, SSR, sysfs sizes, USB IDs) and warnings;\n"
"                           no test, no timing (FLASHBENCH_SYSFS=DIR\n"
"                           reads DIR in place of /sys)\n"
"\n"
"Options:\n"
"  -b, --blocksize=N        smallest I/O size (default 16KiB)\n"
"  -e, --erasesize=N        AU size used by write tests (default 4MiB)\n"
"  -c, --count=N            repetitions, the best kept (default 8; -a: 32;\n"
"                           -O and -f: 1, as each pass writes its region\n"
"                           again, and in linear order up to 3 while\n"
"                           pauses of the card take them)\n"
"      --open-au-nr=N|A-B   AUs written in turn (default 2); a range A-B\n"
"                           sweeps N=A..B, one column per N\n"
"      --offset=N           start of the write tests' region\n"
"                           (default 16MiB or 8 erase sizes, whichever is\n"
"                           larger: the classic's 16MiB is AU 1 of 16MiB\n"
"                           AUs, where FAT areas live)\n"
"  -F, --fat-nr=N           AUs looked at by --find-fat (default 6)\n"
"  -r, --random             pseudo-random order inside each AU\n"
"      --scatter-order=N    2^N scatter positions (default 9)\n"
"      --scatter-span=N     scatter reads of N blocks (default 1)\n"
"      --interval-order=N   interval reads of sector<<0 .. sector<<(N-1)\n"
"                           (default 12)\n"
"  -o, --out=FILE           write the results to FILE (default stdout)\n"
"      --json               one JSON document instead of text tables\n"
"      --plot=FILE          also draw the results as an SVG chart in FILE\n"
"                           (several tests: a file each, x.svg gives\n"
"                           x-align.svg, x-open-au.svg, ...)\n"
"      --analyze            verdicts on stdout after the table, as '# '\n"
"                           lines (default: verdicts on stderr)\n"
"      --analyze=FILE ...   verdicts on saved or pasted reports, no device\n"
"                           ('-' reads stdin; more files may follow;\n"
"                           at most 64MiB each)\n"
"      --dry-run            print the I/O plan and totals, touch nothing\n"
"                           (with -v: every I/O; with --json: the plan\n"
"                           as a JSON document)\n"
"      --realtime           SCHED_FIFO while measuring (off by default)\n"
"      --force              write tests: go on although the device, or\n"
"                           something sharing its storage, is in use;\n"
"                           with --restore: onto a device other than the\n"
"                           one the file was saved from\n"
"      --preserve=FILE      write tests: save the bytes to be overwritten\n"
"                           in FILE (not on the device), put them back\n"
"                           afterwards and verify\n"
"      --restore=FILE       put a --preserve FILE back on DEVICE (after\n"
"                           a crash); no test option; FILE must be a\n"
"                           regular file not writable by others, saved\n"
"                           from DEVICE\n"
"  -v, --verbose            more detail\n"
"  -h, --help               this text\n"
"      --help-sim           simulated card profiles and keys\n"
"  -V, --version            version\n"
"\n"
"Exit status: 0 ok, 1 I/O or runtime error, 2 usage error (nothing was\n"
"read or written), 3 discard not supported, 128+N stopped by signal N\n"
"(130 ^C, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE; --preserve data put back).\n");
}

enum {
	OPT_OPEN_AU_NR = 256, OPT_OFFSET, OPT_SCATTER_ORDER,
	OPT_SCATTER_SPAN, OPT_INTERVAL_ORDER, OPT_ERASE, OPT_DISCARD,
	OPT_JSON, OPT_DRY_RUN, OPT_REALTIME, OPT_HELP_SIM, OPT_ANALYZE,
	OPT_FORCE, OPT_PRESERVE, OPT_RESTORE, OPT_PLOT, OPT_INFO, OPT_SURVEY,
	OPT_YES, OPT_MAX_WRITE, OPT_MAX_TIME,
};

static const struct option long_opts[] = {
	{ "align", no_argument, NULL, 'a' },
	{ "open-au", no_argument, NULL, 'O' },
	{ "find-fat", no_argument, NULL, 'f' },
	{ "findfat", no_argument, NULL, 'f' },
	{ "scatter", no_argument, NULL, 's' },
	{ "interval", no_argument, NULL, 'i' },
	{ "erase", no_argument, NULL, OPT_ERASE },
	{ "discard", required_argument, NULL, OPT_DISCARD },
	{ "random", no_argument, NULL, 'r' },
	{ "count", required_argument, NULL, 'c' },
	{ "blocksize", required_argument, NULL, 'b' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "out", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "open-au-nr", required_argument, NULL, OPT_OPEN_AU_NR },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "fat-nr", required_argument, NULL, 'F' },
	{ "scatter-order", required_argument, NULL, OPT_SCATTER_ORDER },
	{ "scatter-span", required_argument, NULL, OPT_SCATTER_SPAN },
	{ "interval-order", required_argument, NULL, OPT_INTERVAL_ORDER },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "realtime", no_argument, NULL, OPT_REALTIME },
	{ "help", no_argument, NULL, 'h' },
	{ "help-sim", no_argument, NULL, OPT_HELP_SIM },
	{ "analyze", optional_argument, NULL, OPT_ANALYZE },
	{ "analyse", optional_argument, NULL, OPT_ANALYZE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "preserve", required_argument, NULL, OPT_PRESERVE },
	{ "restore", required_argument, NULL, OPT_RESTORE },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "survey", no_argument, NULL, OPT_SURVEY },
	{ "yes", no_argument, NULL, OPT_YES },
	{ "max-write", required_argument, NULL, OPT_MAX_WRITE },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

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

static void opt_open_au_nr(struct opts *o, const char *arg)
{
	const char *dash = strchr(arg, '-');
	char lo[32];

	if (!dash) {
		o->nr_lo = o->nr_hi = opt_uint("open-au-nr", arg, 65536);
		return;
	}
	if ((size_t)(dash - arg) >= sizeof(lo))
		die_usage("--open-au-nr=%s: not a number or range A-B", arg);
	memcpy(lo, arg, (size_t)(dash - arg));
	lo[dash - arg] = '\0';
	if (!*lo)
		die_usage("--open-au-nr=%s: not a number or range A-B", arg);
	o->nr_lo = opt_uint_in("open-au-nr", lo, arg, 65536);
	o->nr_hi = opt_uint_in("open-au-nr", dash + 1, arg, 65536);
	if (o->nr_lo > o->nr_hi)
		die_usage("--open-au-nr=%s: range runs backwards", arg);
	if (o->nr_hi - o->nr_lo >= TABLE_MAXCOLS)
		die_usage("--open-au-nr=%s: a sweep has at most %d columns",
			  arg, TABLE_MAXCOLS);
}

static void opt_discard(struct opts *o, const char *arg)
{
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

/*
 * A name the kernel would refuse anyway: refused here, so that every
 * message buffer (MSG_MAX) holds the names in it and the reason after.
 */
static const char *opt_name(const char *opt, const char *name)
{
	if (strlen(name) < PATH_MAX)
		return name;
	die_usage("%s%s%s: longer than %d bytes, the longest name the kernel "
		  "takes", opt ? opt : "", opt ? "=" : "", name, PATH_MAX - 1);
}

static void opt_analyze(struct front *fr, const char *arg, int argc)
{
	if (!arg) {
		fr->analyze = 1;
		return;
	}
	if (!*arg)
		die_usage("--analyze=: no file named (use - for stdin)");
	if (!fr->files) {
		/* every later argument may be another report */
		fr->files = calloc((size_t)argc, sizeof(*fr->files));
		if (!fr->files)
			die_usage("out of memory");
	}
	fr->files[fr->nfiles++] = opt_name("--analyze", arg);
}

static void opt_duration(struct front *fr, const char *arg)
{
	int ret = parse_duration(arg, &fr->max_time);

	if (ret == -ERANGE)
		die_usage("--max-time=%s: too large", arg);
	if (ret)
		die_usage("--max-time=%s: not a duration (use e.g. 90s, 20m, "
			  "2h, 1h30m)", arg);
	if (!fr->max_time)
		die_usage("--max-time=%s: must not be zero", arg);
	fr->max_time_arg = arg;
}

/* --survey picks its own tests; its options go with nothing else. */
static void check_survey(const struct front *fr)
{
	const char *only = fr->yes ? "--yes" : fr->max_write_arg ?
			   "--max-write" : fr->max_time_arg ? "--max-time" :
			   NULL;

	if (!fr->survey) {
		if (only)
			die_usage("%s: only goes with --survey", only);
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

	if (fr->plot && with)
		die_usage("--plot=%s: draws the tables of -a, -O, -f, -s, -i "
			  "or --erase; it does not go with %s", fr->plot,
			  with);
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
	&testdesc_scatter, &testdesc_find_fat, &testdesc_align,
	&testdesc_open_au, &testdesc_interval, &testdesc_erase,
	&testdesc_discard,
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

static void parse_argv(struct front *fr, int argc, char **argv)
{
	struct opts *o = &fr->o;
	unsigned tests = 0;
	int c;

	/* leading ':': report errors here, on one line */
	while ((c = getopt_long(argc, argv, ":aOfsirc:b:e:o:F:vhV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'a': set_test(&tests, &testdesc_align); break;
		case 'O': set_test(&tests, &testdesc_open_au); break;
		case 'f': set_test(&tests, &testdesc_find_fat); break;
		case 's': set_test(&tests, &testdesc_scatter); break;
		case 'i': set_test(&tests, &testdesc_interval); break;
		case OPT_ERASE: set_test(&tests, &testdesc_erase); break;
		case OPT_DISCARD:
			set_test(&tests, &testdesc_discard);
			opt_discard(o, optarg);
			break;
		case 'r': o->random = 1; break;
		case 'c':
			o->count_typed = opt_uint("count", optarg, 1000000);
			o->count_arg = optarg;
			break;
		case 'b':
			o->blocksize = opt_size("blocksize", optarg);
			o->blocksize_arg = optarg;
			break;
		case 'e':
			o->erasesize = opt_size("erasesize", optarg);
			o->erasesize_arg = optarg;
			break;
		case 'o': fr->out = opt_name("--out", optarg); break;
		case 'v': o->verbose++; break;
		case OPT_OPEN_AU_NR:
			opt_open_au_nr(o, optarg);
			o->nr_arg = optarg;
			break;
		case OPT_OFFSET:
			if (parse_size(optarg, &o->offset))
				die_usage("--offset=%s: not a size", optarg);
			o->have_offset = 1;
			o->offset_arg = optarg;
			break;
		case 'F':
			o->fat_nr = opt_uint("fat-nr", optarg, TABLE_MAXCOLS);
			o->fat_nr_arg = optarg;
			break;
		case OPT_SCATTER_ORDER:
			o->scatter_order = opt_uint("scatter-order", optarg, 30);
			o->scatter_order_arg = optarg;
			break;
		case OPT_SCATTER_SPAN:
			o->scatter_span = opt_uint("scatter-span", optarg, 4096);
			o->scatter_span_arg = optarg;
			break;
		case OPT_INTERVAL_ORDER:
			o->interval_order = opt_uint("interval-order", optarg,
						     20);
			o->interval_order_arg = optarg;
			break;
		case OPT_JSON: fr->json = 1; break;
		case OPT_DRY_RUN: fr->dry_run = 1; break;
		case OPT_REALTIME: fr->realtime = 1; break;
		case 'h': usage(stdout); exit_printed();
		case OPT_HELP_SIM: sim_help(stdout); exit_printed();
		case OPT_ANALYZE: opt_analyze(fr, optarg, argc); break;
		case OPT_FORCE: fr->force = 1; break;
		case OPT_PRESERVE:
			fr->preserve = opt_name("--preserve", optarg);
			break;
		case OPT_RESTORE:
			fr->restore = opt_name("--restore", optarg);
			break;
		case OPT_PLOT: fr->plot = opt_name("--plot", optarg); break;
		case OPT_INFO: fr->info = 1; break;
		case OPT_SURVEY: fr->survey = 1; break;
		case OPT_YES: fr->yes = 1; break;
		case OPT_MAX_WRITE:
			fr->max_write = opt_size("max-write", optarg);
			fr->max_write_arg = optarg;
			break;
		case OPT_MAX_TIME: opt_duration(fr, optarg); break;
		case 'V':
			printf("flashbench %s\n", VERSION);
			exit_printed();
		case ':':
			die_usage("%s: needs a value", bad_opt(argv));
		default:
			die_usage("%s: unknown option, or a value it does not "
				  "take (try 'flashbench --help')",
				  bad_opt(argv));
		}
	}
	if (fr->nfiles && fr->survey)
		die_usage("--analyze=%s: reads saved reports; it does not go "
			  "with --survey", fr->files[0]);
	order_tests(fr, tests);
	check_survey(fr);
	check_modes(fr);
	check_plot(fr);
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

void use_test(struct opts *o, const struct testdesc *t)
{
	o->test = t;
	o->count = o->count_typed ? o->count_typed : t->count ? t->count : 8;
}

void set_defaults(struct opts *o)
{
	if (!o->blocksize)
		o->blocksize = 16384;
	if (!o->erasesize)
		o->erasesize = 4u << 20;
	if (!o->nr_lo)
		o->nr_lo = o->nr_hi = 2;
	if (!o->fat_nr)
		o->fat_nr = FAT_AUS;
	if (!o->scatter_order)
		o->scatter_order = 9;
	if (!o->scatter_span)
		o->scatter_span = 1;
	if (!o->interval_order)
		o->interval_order = 12;
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
	if (o->test->writes && o->erasesize % d->sector)
		die_usage("--erasesize=%s: not a multiple of the %u-byte "
			  "sector", es, d->sector);
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

void front_free(struct front *fr)
{
	free(fr->argv);
	free(fr->files);
}
