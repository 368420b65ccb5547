// SPDX-License-Identifier: GPL-2.0
/*
 * flashbench: find the erase block size, page size, open-AU limit and
 * FAT-optimized areas of flash media by timing O_DIRECT I/O.
 *
 * Dispatch: after the command line is parsed and checked, run one test
 * (or restore a --preserve file, or analyse saved reports) with the
 * safety steps around it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "safety/gate.h"
#include "analysis/claims.h"
#include "identity/identity.h"
#include "output/identity_out.h"
#include "info.h"
#include "safety/inuse.h"
#include "lib/msg.h"
#include "safety/lock.h"
#include "offline.h"
#include "options.h"
#include "output/plot.h"
#include "safety/preserve.h"
#include "lib/sustain_rule.h"
#include "output/progress.h"
#include "run.h"
#include "output/run_json.h"
#include "output/stalls.h"
#include "safety/safefile.h"
#include "safety/signals.h"
#include "survey/survey.h"
#include "lib/units.h"

/* The classic tests show a progress line only when they run this long. */
#define PROGRESS_DELAY 3000000000ull

/*
 * Page faults and preemption inside a timed window show up as noise;
 * real-time priority only on request, as it slows the I/O completion
 * path on small machines.  Not MCL_FUTURE: the I/O buffer is locked by
 * itself, at most DEV_CHUNK_MAX (run_execute).
 */
static void quiet_machine(const struct front *fr)
{
	struct sched_param sp = { .sched_priority = 1 };

	mlockall(MCL_CURRENT);
	if (fr->realtime && sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		tell("--realtime: %s (continuing)\n",
		     strerror(errno));
}

/*
 * O_EXCL only says "busy"; this names the mount, swap or holder that a
 * write test would destroy, before any I/O.  The hint says whether
 * --force can get past it: not while the kernel holds the device.
 */
static void refuse_in_use(const char *path, int force)
{
	char msg[MSG_MAX];

	if (file_is_swap(path, msg, sizeof(msg)))
		die_usage("%s: in use: %s (swapoff it first; the kernel "
			  "refuses to write it, also with --force)", path, msg);
	if (force || !dev_in_use(path, msg, sizeof(msg)))
		return;
	if (held_by_kernel(path))
		die_usage("%s: in use: %s (the kernel holds the device "
			  "while it is: --force cannot override that)", path,
			  msg);
	die_usage("%s: in use: %s (use --force to override)", path, msg);
}

/* The storage under test, held until the data is back (see lock.h). */
static struct storage_lock held;

static void lock_storage(const struct front *fr, int write)
{
	char msg[MSG_MAX];

	if (storage_lock(&held, fr->o.device, write, fr->force, msg,
			 sizeof(msg)))
		die_usage("%s", msg);
}

static void close_device(struct dev *d)
{
	dev_close(d);
	storage_unlock(&held);
}

static int any_writes(const struct front *fr)
{
	unsigned i;

	for (i = 0; i < fr->ntests; i++)
		if (fr->tests[i]->writes)
			return 1;
	return 0;
}

/*
 * dev_open(), or exit with its message.  A device node belongs to root
 * or a disk group: say how to get at it when the kernel refused us.
 */
static void open_or_die(struct dev *d, const char *path, int mode)
{
	char err[MSG_MAX];
	int ret = dev_open(d, path, mode, err, sizeof(err));

	if (ret == -EACCES || ret == -EPERM)
		die_usage("%s (run as root, or get %s access to %s)", err,
			  mode & DEV_RDWR ? "write" : "read", path);
	if (ret)
		die_usage("%s", err);
}

static int open_device(const struct front *fr, struct dev *d)
{
	int mode = DEV_RDONLY;

	if (any_writes(fr) && !fr->dry_run)
		mode = DEV_RDWR | DEV_EXCL;
	if (mode != DEV_RDONLY)
		refuse_in_use(fr->o.device, fr->force);
	if (!fr->dry_run)
		lock_storage(fr, mode != DEV_RDONLY);
	open_or_die(d, fr->o.device, mode);
	return 0;
}

static int report_error(const struct run *r, const struct dev *d)
{
	char msg[RUN_ERROR_LEN];

	if (r->error.err == -EOPNOTSUPP) {
		tell("%s: discard is not supported by "
		     "this device\n", d->path);
		return EXIT_NODISCARD;
	}
	run_io_error_text(&r->error, d->path, msg, sizeof(msg));
	tell("%s\n", msg);
	return EXIT_IO;
}

/* The same file under two names, or the same block device. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (!a || !b || stat(a, &x) < 0 || stat(b, &y) < 0)
		return 0;
	if (S_ISBLK(x.st_mode) && S_ISBLK(y.st_mode))
		return x.st_rdev == y.st_rdev;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Out is the file --analyze=FILE reads; "-" is standard input. */
static int same_as_input(const char *out, const char *file)
{
	struct stat x, y;

	if (strcmp(file, "-") != 0)
		return same_file(out, file);
	if (stat(out, &x) < 0 || fstat(STDIN_FILENO, &y) < 0)
		return 0;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Where the results go, for messages. */
static const char *out_name(const struct front *fr, char *buf, size_t len)
{
	if (!fr->out || strcmp(fr->out, "-") == 0)
		return "stdout";
	snprintf(buf, len, "--out=%s", fr->out);
	return buf;
}

/* Set once a lost result has been reported: say it once. */
static int output_failed;

static FILE *open_out(const struct front *fr)
{
	char why[PATH_MAX + 128];
	size_t i;
	FILE *f;

	if (!fr->out || strcmp(fr->out, "-") == 0)
		return stdout;
	if (fr->o.device && shares_storage(fr->o.device, fr->out, why,
					   sizeof(why)))
		die_usage("--out=%s: that is %s", fr->out, why);
	/* opening it for writing would empty it before it is read */
	for (i = 0; i < fr->nfiles; i++)
		if (same_as_input(fr->out, fr->files[i]))
			die_usage("--out=%s: that is the report --analyze=%s "
				  "reads%s", fr->out, fr->files[i],
				  strcmp(fr->files[i], "-") ? "" :
				  " (standard input)");
	if (same_file(fr->out, fr->preserve))
		die_usage("--out=%s: that is the --preserve file", fr->out);
	f = open_report(fr->out, why, sizeof(why));
	if (!f)
		die_usage("--out=%s", why);
	return f;
}

/*
 * --plot=FILE: one chart per test.  Several tests in one run write one
 * file each, named after the test: --plot=card.svg -a -O gives
 * card-align.svg and card-open-au.svg.
 */
struct plots {
	char *path[FRONT_MAXTESTS];
	FILE *f[FRONT_MAXTESTS];
};

/* FILE with "-TEST" before the extension of its last component. */
static char *plot_path(const char *file, const char *test)
{
	const char *base = strrchr(file, '/');
	const char *dot;
	size_t stem;
	char *p;

	base = base ? base + 1 : file;
	dot = strrchr(base, '.');
	stem = dot && dot != base ? (size_t)(dot - file) : strlen(file);
	if (asprintf(&p, "%.*s-%s%s", (int)stem, file, test, file + stem) < 0)
		return NULL;
	return p;
}

/* Why path cannot take a chart (in why), or NULL. */
static const char *plot_clash(const struct front *fr, const char *path,
			      char *why, size_t len)
{
	if (shares_storage(fr->o.device, path, why, len))
		return why;
	if (same_file(path, fr->preserve))
		return "the --preserve file";
	if (same_file(path, fr->out))
		return "the --out file";
	return NULL;
}

/*
 * The files of tests that never ran (an earlier one failed or was
 * interrupted, or a later path was refused) are empty, so they go.
 */
static void drop_plots(struct plots *pl)
{
	unsigned i;

	for (i = 0; i < FRONT_MAXTESTS; i++) {
		if (pl->f[i]) {
			fclose(pl->f[i]);
			unlink(pl->path[i]);
			pl->f[i] = NULL;
		}
	}
}

/* Made before any I/O, so a bad path is a usage error. */
static void open_plots(const struct front *fr, struct plots *pl)
{
	char buf[PATH_MAX + 128];
	const char *clash;
	unsigned i;
	char *p;

	for (i = 0; i < fr->ntests && fr->plot && !fr->dry_run; i++) {
		p = fr->ntests > 1 ? plot_path(fr->plot, fr->tests[i]->name) :
				     strdup(fr->plot);
		if (!p)
			die_usage("out of memory");
		pl->path[i] = p;
		clash = plot_clash(fr, p, buf, sizeof(buf));
		/* as the report: no link or file another user planted */
		pl->f[i] = clash ? NULL : open_report(p, buf, sizeof(buf));
		if (pl->f[i])
			continue;
		drop_plots(pl);
		if (!clash)	/* buf: "PATH: why" */
			die_usage("--plot=%s%s%s", fr->ntests > 1 ? fr->plot : "",
				  fr->ntests > 1 ? ": " : "", buf);
		die_usage("--plot=%s: %s%sthat is %s", fr->plot,
			  fr->ntests > 1 ? p : "", fr->ntests > 1 ? ": " : "",
			  clash);
	}
}

static void close_plots(struct plots *pl)
{
	unsigned i;

	drop_plots(pl);
	for (i = 0; i < FRONT_MAXTESTS; i++)
		free(pl->path[i]);
}

static int write_plot(const struct front *fr, struct plots *pl, unsigned i,
		      const struct table *t, const struct analysis *a)
{
	int ret = plot_tables(pl->f[i], t, 1, a);

	if (fclose(pl->f[i]) != 0 && !ret)
		ret = -errno;
	pl->f[i] = NULL;
	if (ret) {
		tell("--plot=%s: %s\n", pl->path[i], strerror(-ret));
		return EXIT_IO;
	}
	if (fr->ntests > 1)
		tell("%s: chart in %s\n", fr->tests[i]->name, pl->path[i]);
	return 0;
}

/* What the tables say, checked against what the device claims. */
static void verdicts(const struct dev *d, const struct identity *id,
		     const struct table *t, struct analysis *a)
{
	struct analysis_ctx ctx = {
		.dev_size = dev_medium_size(d),
	};

	identity_claims(id, &ctx);
	analyze(t, t->nrows ? 1 : 0, &ctx, a);
}

/* --iops: the classes the card states, against the measurement. */
static void print_claims(FILE *out, const struct identity *id,
			 const struct table *t)
{
	const struct claims_stated s = {
		.readable = id->ssr.has,
		.speed_class = id->ssr.speed_class,
		.uhs_grade = id->ssr.uhs_grade,
		.video_class = id->ssr.video_class,
		.app_class = id->ssr.app_class,
	};
	struct iops_figures f;
	struct claims_measured m;

	if (!iops_figures(t, &f))
		return;
	m.read_iops = f.read_iops;
	m.write_iops = f.write_iops;
	m.seq_mbps = f.seq_bps / 1e6;
	claims_print(out, &m, &s);
}

/* --preserve, before the first write; nonzero: the exit status. */
static int save_preserve(const struct front *fr, struct dev *d,
			 const struct run *r)
{
	char err[MSG_MAX], size[UNIT_BUFLEN];
	int ret;

	ret = preserve_save(fr->preserve, d, r->plan.ranges, r->plan.nranges,
			    err, sizeof(err));
	if (ret == -EINTR) {
		tell("interrupted while saving to "
		     "--preserve=%s; nothing was written\n", fr->preserve);
		return 128 + stop_signal();
	}
	if (ret) {
		tell("%s; nothing was written\n", err);
		return EXIT_IO;
	}
	tell("saved %s to %s\n",
	     fmt_size(size, (double)r->plan.written), fr->preserve);
	return 0;
}

/*
 * A signal that came when there was no I/O left to stop at, or while
 * the data was being put back (which always runs to its end).
 */
static int late_signal(const char *during)
{
	char name[32];
	int sig = stop_signal();

	tell("%s came during %s, which was finished "
	     "first\n", signal_name(sig, name, sizeof(name)), during);
	return 128 + sig;
}

/*
 * After the test however it ended (^C included): the file goes only
 * once the data is back and verified and the run ended normally.
 */
static int put_back(const struct front *fr, struct dev *d, int status)
{
	char msg[MSG_MAX];

	/* The timing is over; restoring need not be locked in memory. */
	munlockall();
	/* the device is the one saved from: it has been open all along */
	if (preserve_restore(fr->preserve, d, 1, NULL, msg, sizeof(msg))) {
		tell("%s; %s kept: try again with "
		     "'flashbench --restore=%s %s'\n", msg, fr->preserve,
		     fr->preserve, d->path);
		return EXIT_IO;
	}
	/*
	 * a survey cut short by a budget was put back all the same, and
	 * --capacity's own file goes once the data is back: it is small
	 */
	if (status && status != EXIT_PARTIAL && !fr->preserve_default)
		tell("%s; %s kept\n", msg,
		     fr->preserve);
	else if (unlink(fr->preserve) < 0)
		tell("%s; cannot remove it: %s\n", msg,
		     strerror(errno));
	else
		tell("%s\n", msg);
	return status;
}

/* The exit status of a run that ended with ret, what went wrong told. */
static int run_status(const struct front *fr, const struct dev *d,
		      const struct run *r, int ret)
{
	char sig[32], name[PATH_MAX + 16];
	int status = 0;

	if (stop_signal() && (ret == -EINTR || r->error.output)) {
		status = 128 + stop_signal();
		output_failed = r->error.output;
	} else if (r->error.output) {
		tell("writing the results to %s: %s; "
		     "stopped after %zu rows\n",
		     out_name(fr, name, sizeof(name)), strerror(-ret),
		     r->tab.nrows);
		output_failed = 1;
		status = EXIT_IO;
	} else if (ret == -ENOMEM && !r->error.err) {
		/* before any I/O: the buffer for the largest one */
		tell("%s: no memory for a %llu-byte "
		     "I/O buffer\n", fr->o.test->name,
		     (unsigned long long)r->plan.max_len);
		status = EXIT_IO;
	} else if (ret) {
		status = report_error(r, d);
	}
	if (status > 128)
		tell("interrupted by %s after %zu rows\n",
		     signal_name(stop_signal(), sig, sizeof(sig)),
		     r->tab.nrows);
	return status;
}

/*
 * A fault injected where no I/O of the test lies cannot fire: a run
 * meant to test the error path would pass without taking it.
 */
static void warn_unreachable_fault(const struct run *r, const struct dev *d)
{
	char name[64];
	uint64_t off;

	if (dev_fault(d, &off, name, sizeof(name)))
		return;
	if (r->plan.hi && off >= r->plan.lo && off < r->plan.hi)
		return;
	tell("%s: this test never touches offset %llu; the fault cannot "
	     "fire\n", name, (unsigned long long)off);
}

static int run_test(struct front *fr, struct dev *d, FILE *out,
		    struct plots *pl, unsigned nth)
{
	struct json_cmd cmd = front_cmd(fr);
	struct identity id;
	struct progress pg;
	struct analysis a;
	struct run r;
	int ret, status = 0;

	ret = run_prepare(&r, &fr->o, d);
	if (ret) {
		run_free(&r);
		tell("%s: %s\n", fr->o.test->name,
		     ret == -EOVERFLOW ? "with these sizes an offset would "
		     "overflow 64 bits; nothing was read or written" :
		     strerror(-ret));
		return EXIT_IO;
	}
	r.after_row = gate_wait;
	if (fr->dry_run) {
		if (fr->json)
			print_plan_json(out, &cmd, d, &r);
		else
			run_print_plan(&r, &fr->o, d, out);
		run_free(&r);
		return 0;
	}
	identity_read(d, &id);
	warn_unreachable_fault(&r, d);
	run_announce(&r, &fr->o, d, stderr);
	stop_on_signals();
	if (fr->preserve && fr->o.test->writes) {
		status = save_preserve(fr, d, &r);
		if (status) {
			run_free(&r);
			return status;
		}
	}
	quiet_machine(fr);
	progress_init(&pg, stderr, PROGRESS_DELAY);
	progress_run(&pg, d, (double)(r.plan.io.reads + r.plan.io.writes +
				      r.plan.io.discards),
		     (double)(r.plan.io.bytes_read + r.plan.io.bytes_written +
			      r.plan.io.bytes_discarded), fr->o.test->name);
	r.tick = progress_tick;
	r.again = progress_again;
	r.hook_arg = &pg;
	tell_mark();
	ret = run_execute(&r, &fr->o, d, fr->json ? NULL : out);
	progress_clear(&pg);
	status = run_status(fr, d, &r, ret);
	stall_summary(stderr, &r.tab);
	if (fr->preserve && fr->o.test->writes)
		status = put_back(fr, d, status);
	if (!status && stop_signal())
		status = late_signal("the end of the test");
	verdicts(d, &id, &r.tab, &a);
	if (!status && capacity_verdict(&r.tab, NULL, 0) > 0)
		status = EXIT_FAKE;
	if (!fr->json)
		print_claims(out, &id, &r.tab);
	if (pl->f[nth] && write_plot(fr, pl, nth, &r.tab, &a) && !status)
		status = EXIT_IO;
	if (fr->json)
		print_run_json(out, &cmd, d, &id, &r, &a, status,
			       status == EXIT_FAKE ? "--capacity: the card "
			       "stores less than it claims" :
			       status ? tell_first() : NULL);
	else if (fr->analyze)
		analysis_print(out, &a, "# ");
	else
		analysis_print(stderr, &a, "flashbench: ");
	if (!fr->json)
		sus_print_tables(fr->analyze ? out : stderr, &r.tab, 1,
				 fr->analyze ? "# " : "flashbench: ");
	run_free(&r);
	return status;
}

/*
 * Several tests: one after the other, each with its own announcement,
 * --preserve save and restore, table and verdicts; the first that fails
 * or is interrupted ends the run.  --json: an array of the documents.
 */
static int run_tests(struct front *fr, struct dev *d, FILE *out,
		     struct plots *pl)
{
	unsigned i;
	int status = 0;

	if (fr->json && fr->ntests > 1)
		fputs("[\n", out);
	for (i = 0; i < fr->ntests && !status; i++) {
		if (fr->json && i)
			fputs(",\n", out);
		use_test(&fr->o, fr->tests[i]);
		status = run_test(fr, d, out, pl, i);
	}
	if (fr->json && fr->ntests > 1)
		fputs("]\n", out);
	return status;
}

/* --restore=FILE DEVICE: the way back after SIGKILL or a power loss. */
static int restore_mode(const struct front *fr)
{
	char msg[MSG_MAX], announce[MSG_MAX];
	struct dev d;
	int ret, status;

	if (fr->o.test)
		die_usage("--restore=%s: puts saved data back; it does not go "
			  "with --%s", fr->restore, fr->o.test->name);
	if (fr->preserve)
		die_usage("--restore=%s: does not go with --preserve=%s",
			  fr->restore, fr->preserve);
	refuse_in_use(fr->o.device, fr->force);
	lock_storage(fr, 1);
	open_or_die(&d, fr->o.device, DEV_RDWR | DEV_EXCL);
	stop_on_signals();
	snprintf(announce, sizeof(announce),
		 "--restore=%s: putting it back on %s", fr->restore, d.path);
	ret = preserve_restore(fr->restore, &d, fr->force, announce, msg,
			       sizeof(msg));
	close_device(&d);
	if (ret == -EINVAL)
		die_usage("--restore=%s", msg);
	tell("%s\n", msg);
	status = ret ? EXIT_IO : 0;
	if (stop_signal() && !status)
		status = late_signal("--restore");
	return status;
}

/* path with its directory resolved: two names of one file compare equal */
static void canonical(const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(buf, len, "%s/%s", real, slash ? slash + 1 : path);
}

static int same_path(const char *a, const char *b)
{
	char x[2 * PATH_MAX], y[2 * PATH_MAX];

	if (!a || !b)
		return 0;
	canonical(a, x, sizeof(x));
	canonical(b, y, sizeof(y));
	return strcmp(x, y) == 0;
}

/* Before any I/O: a file to save into, off the device. */
static void check_preserve(const struct front *fr, const struct dev *d)
{
	char err[MSG_MAX];

	if (!fr->preserve || fr->dry_run)
		return;
	if (!*fr->preserve)
		die_usage("--preserve=: no file named");
	if (!any_writes(fr) && fr->ntests == 1)
		die_usage("--preserve=%s: --%s does not write to the device",
			  fr->preserve, fr->o.test->name);
	if (!any_writes(fr))
		die_usage("--preserve=%s: none of these tests writes to the "
			  "device", fr->preserve);
	if (same_path(fr->preserve, fr->out))
		die_usage("--preserve=%s: that is also --out=%s", fr->preserve,
			  fr->out);
	if (preserve_check(fr->preserve, d, err, sizeof(err)))
		die_usage("%s%s", err, fr->preserve_default ? " (--capacity "
			  "saves its probes there by default; choose the file "
			  "with --preserve=FILE)" : "");
}

/*
 * --capacity overwrites blocks all over a card that may hold data (its
 * first block, the partition table, among them), so it saves them by
 * default, in the current directory, where a crash leaves the file for
 * --restore; other write tests in the same run need a --preserve file
 * named.  A device whose writes destroy nothing needs none.
 */
static void default_preserve(struct front *fr, const struct dev *d)
{
	static char path[PATH_MAX];
	const char *base = strrchr(d->path, '/');
	unsigned i, writes = 0, capacity = 0;

	for (i = 0; i < fr->ntests; i++) {
		writes += fr->tests[i]->writes;
		capacity |= fr->tests[i] == &testdesc_capacity;
	}
	if (!capacity || fr->preserve || fr->dry_run ||
	    dev_has(d, DEV_CAP_NO_CONSENT))
		return;
	if (writes > 1)
		die_usage("--capacity: saves its probes by default, but not "
			  "the regions of other write tests: give "
			  "--preserve=FILE, or run it alone");
	snprintf(path, sizeof(path), "flashbench-capacity-%s.fbp",
		 base ? base + 1 : d->path);
	fr->preserve = path;
	fr->preserve_default = 1;
}

/* --preserve for a survey: all it may write, before its first write. */
static int save_survey(void *arg, struct dev *d, struct range *r, size_t n)
{
	struct run tmp = { .plan = { .ranges = r, .nranges = n } };
	size_t i;

	for (i = 0; i < n; i++)
		tmp.plan.written += r[i].len;
	return save_preserve(arg, d, &tmp);
}

static int survey_mode(struct front *fr)
{
	struct survey_cfg cfg = { .base = fr->o, .max_write = fr->max_write,
				  .max_time = fr->max_time, .yes = fr->yes,
				  .json = fr->json, .stop_signal = stop_signal,
				  .cmd = front_cmd(fr) };
	char err[MSG_MAX], name[PATH_MAX + 16];
	int status, wrote = 0;
	struct dev d;
	FILE *out;

	set_defaults(&cfg.base);
	refuse_in_use(fr->o.device, fr->force);
	lock_storage(fr, 1);
	open_or_die(&d, fr->o.device, DEV_RDWR | DEV_EXCL);
	if (!fr->yes && !dev_has(&d, DEV_CAP_NO_CONSENT) &&
	    !(isatty(0) && isatty(2)))
		die_usage("--survey: overwrites data on %s; confirm with --yes "
			  "(no terminal to ask on)", d.path);
	if (fr->preserve) {
		if (preserve_check(fr->preserve, &d, err, sizeof(err)))
			die_usage("%s", err);
		cfg.save = save_survey;
		cfg.save_arg = fr;
	}
	out = open_out(fr);
	cfg.out_name = out_name(fr, name, sizeof(name));
	stop_on_signals();
	quiet_machine(fr);
	status = survey_run(&cfg, &d, out, &wrote);
	if (fr->preserve && wrote)
		status = put_back(fr, &d, status);
	close_device(&d);
	/* a survey the results stopped has said so */
	return close_out(out, cfg.out_name, status, status && ferror(out));
}

/* Everything after parsing; fr stays in main's frame, even on exit(). */
static int dispatch(struct front *fr)
{
	char name[PATH_MAX + 16];
	struct dev d;
	struct plots pl = { .f = { NULL } };
	unsigned i;
	FILE *out;
	int status;

	if (gate_open())
		die_usage("FLASHBENCH_TEST_GATE=%s: %s",
			  getenv("FLASHBENCH_TEST_GATE"), strerror(errno));
	if (fr->nfiles) {
		out = open_out(fr);
		status = analyze_files(fr, out);
		return close_out(out, out_name(fr, name, sizeof(name)),
				 status, 0);
	}
	if (fr->info)
		return close_out(stdout, "stdout", info_mode(fr, stdout), 0);
	if (fr->restore)
		return restore_mode(fr);
	if (fr->survey)
		return survey_mode(fr);
	if (!fr->o.test)
		die_usage("no test given: use --survey, -a, -O, -f, --erase, "
			  "--discard, -s or -i (try 'flashbench --help')");
	set_defaults(&fr->o);
	open_device(fr, &d);
	for (i = 0; i < fr->ntests; i++) {
		use_test(&fr->o, fr->tests[i]);
		validate(fr, &d);
	}
	default_preserve(fr, &d);
	check_preserve(fr, &d);
	out = open_out(fr);
	open_plots(fr, &pl);
	status = run_tests(fr, &d, out, &pl);
	close_plots(&pl);
	close_device(&d);
	return close_out(out, out_name(fr, name, sizeof(name)), status,
			 output_failed);
}

int main(int argc, char **argv)
{
	struct front fr = { .o = { .count = 0 } };
	int status;

	parse_args(&fr, argc, argv);
	status = dispatch(&fr);
	front_free(&fr);
	return status;
}
