// SPDX-License-Identifier: GPL-2.0
/*
 * flashbench: find the erase block size, page size, open-AU limit and
 * FAT-optimized areas of flash media by timing O_DIRECT I/O.
 *
 * The front end: parse and validate everything before the first I/O, then
 * dispatch to one test.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "bench.h"
#include "dev.h"
#include "inuse.h"
#include "devinfo.h"
#include "json.h"
#include "report.h"
#include "preserve.h"
#include "run.h"
#include "sim.h"
#include "units.h"

#define VERSION "2.0"

/* Exit statuses, documented in --help and README. */
#define EXIT_IO		1
#define EXIT_USAGE	2
#define EXIT_NODISCARD	3

struct front {
	struct opts o;
	const char *out;
	int json;
	int analyze;		/* --analyze: verdicts on stdout as "# " */
	const char **files;	/* --analyze=FILE: offline, no device */
	size_t nfiles;
	int dry_run;
	int realtime;
	int force;		/* --force: skip the in-use check */
	const char *preserve;	/* --preserve=FILE */
	const char *restore;	/* --restore=FILE: put it back, no test */
};

static void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("flashbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: flashbench TEST [OPTIONS] DEVICE\n"
"Find the hidden geometry of flash media by timing O_DIRECT I/O.\n"
"DEVICE is a block device, a regular file, or a simulated card 'sim:...'\n"
"(see 'flashbench --help-sim').  Sizes take K/M/G/T or KiB/MiB/GiB/TiB\n"
"(binary) or are plain byte counts.\n"
"\n"
"Tests (exactly one):\n"
"  -a, --align              alignment read test (read-only)\n"
"  -O, --open-au            open-AU write test (destructive)\n"
"  -f, --find-fat           FAT-area write test over the first AUs\n"
"                           (also --findfat; destructive)\n"
"      --erase              timed discard test (destructive)\n"
"      --discard=START:LEN  discard one range, e.g. to reset a card\n"
"                           (destructive)\n"
"  -s, --scatter            scatter read plot data (read-only)\n"
"  -i, --interval           read-size regression (read-only)\n"
"\n"
"Options:\n"
"  -b, --blocksize=N        smallest I/O size (default 16KiB)\n"
"  -e, --erasesize=N        AU size used by write tests (default 4MiB)\n"
"  -c, --count=N            repetitions (default 8)\n"
"      --open-au-nr=N|A-B   AUs written in turn (default 2); a range A-B\n"
"                           sweeps N=A..B, one column per N\n"
"      --offset=N           start of the write tests' region\n"
"                           (default 16MiB rounded up to the erase size)\n"
"      --fat-nr=N           AUs looked at by --find-fat (default 6)\n"
"  -r, --random             pseudo-random order inside each AU\n"
"      --scatter-order=N    2^N scatter positions (default 9)\n"
"      --scatter-span=N     scatter reads of N blocks (default 1)\n"
"      --interval-order=N   interval reads up to sector<<N (default 12)\n"
"  -o, --out=FILE           write the results to FILE (default stdout)\n"
"      --json               one JSON document instead of text tables\n"
"      --analyze            verdicts on stdout after the table, as '# '\n"
"                           lines (default: verdicts on stderr)\n"
"      --analyze=FILE ...   verdicts on saved or pasted reports, no device\n"
"                           ('-' reads stdin; more files may follow)\n"
"      --dry-run            print the I/O plan and totals, touch nothing\n"
"                           (with -v: every I/O)\n"
"      --realtime           SCHED_FIFO while measuring (off by default)\n"
"      --force              write tests: go on although the device or a\n"
"                           partition is mounted or in use\n"
"      --preserve=FILE      write tests: save the bytes to be overwritten\n"
"                           in FILE (not on the device), put them back\n"
"                           afterwards and verify\n"
"      --restore=FILE       put a --preserve FILE back on DEVICE (after\n"
"                           a crash); no test option\n"
"  -v, --verbose            more detail\n"
"  -h, --help               this text\n"
"      --help-sim           simulated card profiles and keys\n"
"  -V, --version            version\n"
"\n"
"Exit status: 0 ok, 1 I/O or runtime error, 2 usage error (nothing was\n"
"read or written), 3 discard not supported, 130/143 interrupted by\n"
"SIGINT/SIGTERM.\n");
}

enum {
	OPT_OPEN_AU_NR = 256, OPT_OFFSET, OPT_FAT_NR, OPT_SCATTER_ORDER,
	OPT_SCATTER_SPAN, OPT_INTERVAL_ORDER, OPT_ERASE, OPT_DISCARD,
	OPT_JSON, OPT_DRY_RUN, OPT_REALTIME, OPT_HELP_SIM, OPT_ANALYZE,
	OPT_FORCE, OPT_PRESERVE, OPT_RESTORE,
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
	{ "fat-nr", required_argument, NULL, OPT_FAT_NR },
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
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* A size option: parsed, nonzero. */
static uint64_t opt_size(const char *name, const char *arg)
{
	uint64_t v;
	int ret = parse_size(arg, &v);

	if (ret == -ERANGE)
		die_usage("--%s=%s: too large", name, arg);
	if (ret)
		die_usage("--%s=%s: not a size (use e.g. 4M, 4MiB, 16k, 512)",
			  name, arg);
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
	unsigned long long v;
	char *end;

	errno = 0;
	if (*arg < '0' || *arg > '9')
		die_usage("--%s=%s: not a number", name, shown);
	v = strtoull(arg, &end, 10);
	if (*end)
		die_usage("--%s=%s: not a number", name, shown);
	if (errno == ERANGE || v > max)
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
	fr->files[fr->nfiles++] = arg;
}

static void set_test(struct front *fr, const struct bench *b)
{
	if (fr->o.test && fr->o.test != b)
		die_usage("--%s: only one test per run (already --%s)",
			  b->name, fr->o.test->name);
	fr->o.test = b;
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

static void parse_args(struct front *fr, int argc, char **argv)
{
	struct opts *o = &fr->o;
	int c;

	/* leading ':': report errors here, on one line */
	while ((c = getopt_long(argc, argv, ":aOfsirc:b:e:o:vhV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'a': set_test(fr, &bench_align); break;
		case 'O': set_test(fr, &bench_open_au); break;
		case 'f': set_test(fr, &bench_find_fat); break;
		case 's': set_test(fr, &bench_scatter); break;
		case 'i': set_test(fr, &bench_interval); break;
		case OPT_ERASE: set_test(fr, &bench_erase); break;
		case OPT_DISCARD:
			set_test(fr, &bench_discard);
			opt_discard(o, optarg);
			break;
		case 'r': o->random = 1; break;
		case 'c': o->count = opt_uint("count", optarg, 1000000); break;
		case 'b':
			o->blocksize = opt_size("blocksize", optarg);
			o->blocksize_arg = optarg;
			break;
		case 'e':
			o->erasesize = opt_size("erasesize", optarg);
			o->erasesize_arg = optarg;
			break;
		case 'o': fr->out = optarg; break;
		case 'v': o->verbose++; break;
		case OPT_OPEN_AU_NR: opt_open_au_nr(o, optarg); break;
		case OPT_OFFSET:
			if (parse_size(optarg, &o->offset))
				die_usage("--offset=%s: not a size", optarg);
			o->have_offset = 1;
			o->offset_arg = optarg;
			break;
		case OPT_FAT_NR:
			o->fat_nr = opt_uint("fat-nr", optarg, TABLE_MAXCOLS);
			break;
		case OPT_SCATTER_ORDER:
			o->scatter_order = opt_uint("scatter-order", optarg, 30);
			break;
		case OPT_SCATTER_SPAN:
			o->scatter_span = opt_uint("scatter-span", optarg, 4096);
			break;
		case OPT_INTERVAL_ORDER:
			o->interval_order = opt_uint("interval-order", optarg,
						     20);
			break;
		case OPT_JSON: fr->json = 1; break;
		case OPT_DRY_RUN: fr->dry_run = 1; break;
		case OPT_REALTIME: fr->realtime = 1; break;
		case 'h': usage(stdout); exit(0);
		case OPT_HELP_SIM: sim_help(stdout); exit(0);
		case OPT_ANALYZE: opt_analyze(fr, optarg, argc); break;
		case OPT_FORCE: fr->force = 1; break;
		case OPT_PRESERVE: fr->preserve = optarg; break;
		case OPT_RESTORE: fr->restore = optarg; break;
		case 'V': printf("flashbench %s\n", VERSION); exit(0);
		case ':':
			die_usage("%s: needs a value", bad_opt(argv));
		default:
			die_usage("%s: unknown option, or a value it does not "
				  "take (try 'flashbench --help')",
				  bad_opt(argv));
		}
	}
	if (fr->nfiles) {
		if (o->test)
			die_usage("--analyze=%s: reads saved reports; it does "
				  "not go with --%s", fr->files[0],
				  o->test->name);
		while (optind < argc)
			fr->files[fr->nfiles++] = argv[optind++];
		return;
	}
	if (optind < argc && strcmp(argv[optind], "sim:help") == 0) {
		sim_help(stdout);
		exit(0);
	}
	if (optind >= argc)
		die_usage("no device given (try 'flashbench --help')");
	if (optind + 1 < argc)
		die_usage("%s %s: one device per run", argv[optind],
			  argv[optind + 1]);
	o->device = argv[optind];
}

static void set_defaults(struct opts *o)
{
	if (!o->blocksize)
		o->blocksize = 16384;
	if (!o->erasesize)
		o->erasesize = 4u << 20;
	if (!o->count)
		o->count = 8;
	if (!o->nr_lo)
		o->nr_lo = o->nr_hi = 2;
	if (!o->fat_nr)
		o->fat_nr = 6;
	if (!o->scatter_order)
		o->scatter_order = 9;
	if (!o->scatter_span)
		o->scatter_span = 1;
	if (!o->interval_order)
		o->interval_order = 12;
}

/* Checks that need the device geometry but no I/O. */
static void validate(const struct front *fr, const struct dev *d)
{
	const struct opts *o = &fr->o;
	char err[512], b[32], e[32];
	const char *bs = shown(o->blocksize_arg, o->blocksize, b, sizeof(b));
	const char *es = shown(o->erasesize_arg, o->erasesize, e, sizeof(e));

	if (o->blocksize % d->sector)
		die_usage("--blocksize=%s: not a multiple of the %u-byte "
			  "sector", bs, d->sector);
	if (o->test->writes && o->erasesize % d->sector)
		die_usage("--erasesize=%s: not a multiple of the %u-byte "
			  "sector", es, d->sector);
	if (o->test->writes && o->blocksize > o->erasesize)
		die_usage("--blocksize=%s: larger than --erasesize=%s", bs, es);
	if (o->test->validate(o, d, err, sizeof(err)))
		die_usage("%s", err);
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	vm_stop = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * Page faults and preemption inside a timed window show up as noise;
 * real-time priority only on request, as it slows the I/O completion
 * path on small machines.
 */
static void quiet_machine(const struct front *fr)
{
	struct sched_param sp = { .sched_priority = 1 };

	mlockall(MCL_CURRENT | MCL_FUTURE);
	if (fr->realtime && sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		fprintf(stderr, "flashbench: --realtime: %s (continuing)\n",
			strerror(errno));
}

static const char *const col_names[][4] = {
	[TAB_ALIGN] = { "pre_ns", "on_ns", "post_ns", "diff_ns" },
	[TAB_OPENAU] = { "rate_bps" },
	[TAB_ERASE] = { "aligned_ns", "aligned_bps", "misaligned_ns",
			"misaligned_bps" },
	[TAB_SCATTER] = { "ns" },
	[TAB_INTERVAL] = { "ns" },
};

static const char *const key_names[] = {
	[TAB_ALIGN] = "align", [TAB_OPENAU] = "size", [TAB_SWEEP] = "size",
	[TAB_FAT] = "size", [TAB_ERASE] = "size", [TAB_SCATTER] = "offset",
	[TAB_INTERVAL] = "size",
};

static void json_rows(struct json *j, const struct table *t)
{
	size_t i;
	unsigned c;

	json_open(j, "rows", '[');
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		json_open(j, NULL, '{');
		json_u64(j, key_names[t->kind], r->key);
		if (t->kind == TAB_SWEEP || t->kind == TAB_FAT) {
			json_open(j, "rates_bps", '[');
			for (c = 0; c < t->ncols; c++)
				json_double(j, NULL, r->v[c]);
			json_close(j, ']');
		} else {
			for (c = 0; c < 4 && col_names[t->kind][c]; c++)
				json_double(j, col_names[t->kind][c], r->v[c]);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_table(struct json *j, const struct table *t)
{
	unsigned c;

	json_open(j, NULL, '{');
	json_str(j, "kind", table_kind_name(t->kind));
	json_bool(j, "random", t->random);
	if (t->kind == TAB_SWEEP) {
		json_open(j, "open_au_nr", '[');
		for (c = 0; c < t->ncols; c++)
			json_u64(j, NULL, t->col_nr[c]);
		json_close(j, ']');
	} else if (t->kind == TAB_OPENAU) {
		json_u64(j, "open_au_nr", t->open_au_nr);
	}
	json_rows(j, t);
	json_close(j, '}');
}

static void json_params(struct json *j, const struct opts *o)
{
	json_open(j, "parameters", '{');
	json_str(j, "test", o->test->name);
	json_u64(j, "blocksize", o->blocksize);
	json_u64(j, "erasesize", o->erasesize);
	json_u64(j, "count", o->count);
	if (o->test == &bench_open_au) {
		json_u64(j, "open_au_nr_min", o->nr_lo);
		json_u64(j, "open_au_nr_max", o->nr_hi);
	}
	if (o->test->writes)
		json_u64(j, "offset", write_offset(o));
	if (o->test == &bench_find_fat)
		json_u64(j, "fat_nr", o->fat_nr);
	json_bool(j, "random", o->random);
	json_close(j, '}');
}

static void json_io(struct json *j, const struct io_stats *s)
{
	json_open(j, "io", '{');
	json_u64(j, "reads", s->reads);
	json_u64(j, "writes", s->writes);
	json_u64(j, "discards", s->discards);
	json_u64(j, "bytes_read", s->bytes_read);
	json_u64(j, "bytes_written", s->bytes_written);
	json_u64(j, "bytes_discarded", s->bytes_discarded);
	json_u64(j, "device_ns", s->ns);
	json_close(j, '}');
}

static void print_json(FILE *f, const struct front *fr, const struct dev *d,
		       const struct run *r, const struct analysis *a,
		       int status)
{
	struct json j;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_open(&j, "device", '{');
	json_str(&j, "path", d->path);
	json_u64(&j, "size", d->size);
	json_u64(&j, "logical_sector_size", d->sector);
	json_close(&j, '}');
	json_params(&j, &fr->o);
	json_open(&j, "tables", '[');
	json_table(&j, &r->tab);
	json_close(&j, ']');
	analysis_json(&j, a);
	json_io(&j, &d->stats);
	json_int(&j, "exit_status", status);
	json_close(&j, '}');
	json_end(&j);
}

/*
 * O_EXCL only says "busy"; this names the mount, swap or holder that a
 * write test would destroy, before any I/O.
 */
static void refuse_in_use(const char *path)
{
	char msg[PATH_MAX + 128];

	if (dev_in_use(path, msg, sizeof(msg)))
		die_usage("%s: in use: %s (use --force to override)", path,
			  msg);
}

static int open_device(const struct front *fr, struct dev *d)
{
	char err[512];
	int mode = DEV_RDONLY, ret;

	if (fr->o.test->writes && !fr->dry_run)
		mode = DEV_RDWR | DEV_EXCL;
	if (mode != DEV_RDONLY && !fr->force)
		refuse_in_use(fr->o.device);
	ret = dev_open(d, fr->o.device, mode, err, sizeof(err));
	if (ret)
		die_usage("%s", err);
	return 0;
}

/* Errors of a card pulled out or a device detached mid-run. */
static int vanished(int err)
{
	return err == -ENODEV || err == -ENXIO || err == -ENOMEDIUM;
}

static int report_error(const struct run *r, const struct dev *d)
{
	const struct vm_error *e = &r->error;

	if (e->err == -EOPNOTSUPP) {
		fprintf(stderr, "flashbench: %s: discard is not supported by "
			"this device\n", d->path);
		return EXIT_NODISCARD;
	}
	fprintf(stderr, "flashbench: %s %llu bytes at offset %llu of %s: %s%s\n",
		io_kind_name(e->io), (unsigned long long)e->len,
		(unsigned long long)e->off, d->path, strerror(-e->err),
		vanished(e->err) ? " (the device vanished: removed or detached)"
				 : "");
	return EXIT_IO;
}

/* Writing results over the device under test would wreck both. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (!a || !b || stat(a, &x) < 0 || stat(b, &y) < 0)
		return 0;
	if (S_ISBLK(x.st_mode) && S_ISBLK(y.st_mode))
		return x.st_rdev == y.st_rdev;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static FILE *open_out(const struct front *fr)
{
	FILE *f;

	if (!fr->out || strcmp(fr->out, "-") == 0)
		return stdout;
	if (same_file(fr->out, fr->o.device))
		die_usage("--out=%s: that is the device under test", fr->out);
	if (same_file(fr->out, fr->preserve))
		die_usage("--out=%s: that is the --preserve file", fr->out);
	f = fopen(fr->out, "w");
	if (!f)
		die_usage("--out=%s: %s", fr->out, strerror(errno));
	return f;
}

/* What the tables say, with what sysfs knows about the card. */
static void verdicts(const struct dev *d, const struct table *t,
		     struct analysis *a)
{
	struct analysis_ctx ctx = {
		.dev_size = d->kind == DEV_FILE ? 0 : d->size,
		.preferred_erase = sysfs_preferred_erase(d->path),
	};

	analyze(t, t->nrows ? 1 : 0, &ctx, a);
}

static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *nb;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static char *read_report(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *text;

	if (!f)
		die_usage("--analyze=%s: %s", path, strerror(errno));
	text = slurp(f, len);
	if (!text)
		die_usage("--analyze=%s: %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	return text;
}

static void print_section_json(struct json *j, const struct report *rep,
			       const struct report_section *sec)
{
	struct analysis a;
	size_t i;

	analyze(rep->tabs + sec->first, sec->ntabs, &sec->ctx, &a);
	json_open(j, NULL, '{');
	json_str(j, "device", sec->device);
	json_u64(j, "size", sec->ctx.dev_size);
	json_open(j, "tables", '[');
	for (i = 0; i < sec->ntabs; i++)
		json_table(j, &rep->tabs[sec->first + i]);
	json_close(j, ']');
	analysis_json(j, &a);
	json_close(j, '}');
}

static void print_section_text(FILE *out, const char *path,
			       const struct report *rep,
			       const struct report_section *sec)
{
	struct analysis a;

	analyze(rep->tabs + sec->first, sec->ntabs, &sec->ctx, &a);
	fprintf(out, "# %s%s%s: %zu table%s\n", path, *sec->device ? " " : "",
		sec->device, sec->ntabs, sec->ntabs == 1 ? "" : "s");
	analysis_print(out, &a, "# ");
}

/* --analyze=FILE: verdicts on saved or pasted reports, no device. */
static int analyze_files(const struct front *fr, FILE *out)
{
	struct report rep;
	struct json j;
	size_t i, k, len;
	int found = 0;
	char *text;

	if (fr->json) {
		json_init(&j, out);
		json_open(&j, NULL, '{');
		json_open(&j, "reports", '[');
	}
	for (i = 0; i < fr->nfiles; i++) {
		text = read_report(fr->files[i], &len);
		if (report_parse(text, len, &rep) < 0) {
			free(text);
			report_free(&rep);
			fprintf(stderr, "flashbench: %s: out of memory\n",
				fr->files[i]);
			return EXIT_IO;
		}
		if (!rep.ntabs)
			fprintf(stderr, "flashbench: %s: no flashbench tables "
				"found\n", fr->files[i]);
		found += rep.ntabs > 0;
		if (fr->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "path", fr->files[i]);
			json_open(&j, "sections", '[');
		}
		for (k = 0; k < rep.nsecs; k++) {
			if (fr->json)
				print_section_json(&j, &rep, &rep.secs[k]);
			else
				print_section_text(out, fr->files[i], &rep,
						   &rep.secs[k]);
		}
		if (fr->json) {
			json_close(&j, ']');
			json_close(&j, '}');
		}
		report_free(&rep);
		free(text);
	}
	if (fr->json) {
		json_close(&j, ']');
		json_close(&j, '}');
		json_end(&j);
	}
	return found ? 0 : EXIT_IO;
}

/* --preserve, before the first write; nonzero: the exit status. */
static int save_preserve(const struct front *fr, struct dev *d,
			 const struct run *r)
{
	char err[PATH_MAX + 512], size[UNIT_BUFLEN];
	int ret;

	ret = preserve_save(fr->preserve, d, r->plan.ranges, r->plan.nranges,
			    err, sizeof(err));
	if (ret == -EINTR) {
		fprintf(stderr, "flashbench: interrupted while saving to "
			"--preserve=%s; nothing was written\n", fr->preserve);
		return 128 + stop_signal;
	}
	if (ret) {
		fprintf(stderr, "flashbench: %s; nothing was written\n", err);
		return EXIT_IO;
	}
	fprintf(stderr, "flashbench: saved %s to %s\n",
		fmt_size(size, (double)r->plan.written), fr->preserve);
	return 0;
}

/*
 * After the test however it ended (^C included): the file goes only
 * once the data is back and verified and the run ended normally.
 */
static int put_back(const struct front *fr, struct dev *d, int status)
{
	char msg[PATH_MAX + 512];

	/* The timing is over; restoring need not be locked in memory. */
	munlockall();
	if (preserve_restore(fr->preserve, d, msg, sizeof(msg))) {
		fprintf(stderr, "flashbench: %s; %s kept: try again with "
			"'flashbench --restore=%s %s'\n", msg, fr->preserve,
			fr->preserve, d->path);
		return EXIT_IO;
	}
	if (status)
		fprintf(stderr, "flashbench: %s; %s kept\n", msg,
			fr->preserve);
	else if (unlink(fr->preserve) < 0)
		fprintf(stderr, "flashbench: %s; cannot remove it: %s\n", msg,
			strerror(errno));
	else
		fprintf(stderr, "flashbench: %s\n", msg);
	return status;
}

static int run_test(struct front *fr, struct dev *d, FILE *out)
{
	struct analysis a;
	struct run r;
	int ret, status = 0;

	ret = run_prepare(&r, &fr->o, d);
	if (ret) {
		run_free(&r);
		fprintf(stderr, "flashbench: %s: %s\n", fr->o.test->name,
			strerror(-ret));
		return EXIT_IO;
	}
	if (fr->dry_run) {
		run_print_plan(&r, &fr->o, d, out);
		run_free(&r);
		return 0;
	}
	run_announce(&r, &fr->o, d, stderr);
	catch_signals();
	if (fr->preserve) {
		status = save_preserve(fr, d, &r);
		if (status) {
			run_free(&r);
			return status;
		}
	}
	quiet_machine(fr);
	ret = run_execute(&r, &fr->o, d, fr->json ? NULL : out);
	if (ret == -EINTR && stop_signal) {
		status = 128 + stop_signal;
	} else if (ret == -ENOMEM && !r.error.err) {
		/* before any I/O: the buffer for the largest one */
		fprintf(stderr, "flashbench: %s: no memory for a %llu-byte "
			"I/O buffer\n", fr->o.test->name,
			(unsigned long long)r.plan.max_len);
		status = EXIT_IO;
	} else if (ret) {
		status = report_error(&r, d);
	}
	if (status > 128)
		fprintf(stderr, "flashbench: interrupted after %zu rows\n",
			r.tab.nrows);
	if (fr->preserve)
		status = put_back(fr, d, status);
	verdicts(d, &r.tab, &a);
	if (fr->json)
		print_json(out, fr, d, &r, &a, status);
	else if (fr->analyze)
		analysis_print(out, &a, "# ");
	else
		analysis_print(stderr, &a, "flashbench: ");
	run_free(&r);
	return status;
}

/* --restore=FILE DEVICE: the way back after SIGKILL or a power loss. */
static int restore_mode(const struct front *fr)
{
	char msg[PATH_MAX + 512];
	struct dev d;
	int ret;

	if (fr->o.test)
		die_usage("--restore=%s: puts saved data back; it does not go "
			  "with --%s", fr->restore, fr->o.test->name);
	if (fr->preserve)
		die_usage("--restore=%s: does not go with --preserve=%s",
			  fr->restore, fr->preserve);
	if (!fr->force)
		refuse_in_use(fr->o.device);
	if (dev_open(&d, fr->o.device, DEV_RDWR | DEV_EXCL, msg, sizeof(msg)))
		die_usage("%s", msg);
	ret = preserve_restore(fr->restore, &d, msg, sizeof(msg));
	dev_close(&d);
	if (ret == -EINVAL)
		die_usage("--restore=%s", msg);
	fprintf(stderr, "flashbench: %s\n", msg);
	return ret ? EXIT_IO : 0;
}

/* Before any I/O: a file to save into, off the device. */
static void check_preserve(const struct front *fr, const struct dev *d)
{
	char err[PATH_MAX + 512];

	if (!fr->preserve || fr->dry_run)
		return;
	if (!fr->o.test->writes)
		die_usage("--preserve=%s: --%s does not write to the device",
			  fr->preserve, fr->o.test->name);
	if (preserve_check(fr->preserve, d, err, sizeof(err)))
		die_usage("%s", err);
}

int main(int argc, char **argv)
{
	struct front fr = { .o = { .count = 0 } };
	struct dev d;
	FILE *out;
	int status;

	parse_args(&fr, argc, argv);
	if (fr.nfiles) {
		out = open_out(&fr);
		status = analyze_files(&fr, out);
		if (out != stdout)
			fclose(out);
		free(fr.files);
		return status;
	}
	if (fr.restore)
		return restore_mode(&fr);
	if (!fr.o.test)
		die_usage("no test given: use -a, -O, -f, --erase, "
			  "--discard, -s or -i (try 'flashbench --help')");
	set_defaults(&fr.o);
	open_device(&fr, &d);
	validate(&fr, &d);
	check_preserve(&fr, &d);
	out = open_out(&fr);
	status = run_test(&fr, &d, out);
	dev_close(&d);
	if (out != stdout && fclose(out) != 0) {
		fprintf(stderr, "flashbench: --out=%s: %s\n", fr.out,
			strerror(errno));
		return EXIT_IO;
	}
	return status;
}
