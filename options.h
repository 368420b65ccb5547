/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_OPTIONS_H
#define FLASHBENCH_OPTIONS_H

#include <stddef.h>

#include "dev.h"
#include "output/run_json.h"
#include "testdesc.h"

#define FRONT_MAXTESTS 11

/* The whole command line: the test's options and the front end's own. */
struct front {
	struct opts o;		/* o.test: the test running now */
	/* the tests asked for, in the classic's order (-s -f -a -O -i) */
	const struct testdesc *tests[FRONT_MAXTESTS];
	unsigned ntests;
	const char *out;
	int json;
	int analyze;		/* --analyze: verdicts on stdout as "# " */
	const char **files;	/* --analyze=FILE: offline, no device */
	size_t nfiles;
	int dry_run;
	int realtime;
	int force;		/* --force: skip the in-use check */
	const char *preserve;	/* --preserve=FILE */
	int preserve_default;	/* preserve is --capacity's own file */
	const char *restore;	/* --restore=FILE: put it back, no test */
	const char *plot;	/* --plot=FILE: an SVG chart of the tables */
	int argc;		/* the command line as typed, for --json */
	char **argv;
	int info;		/* --info: the device's identity, no test */
	int survey;		/* --survey: the whole procedure */
	int yes;		/* --yes: write without asking */
	uint64_t max_write;	/* --max-write=SIZE, 0: no limit */
	uint64_t max_time;	/* --max-time=DURATION in ns, 0: none */
	const char *max_write_arg, *max_time_arg;
};

/* The command line as a JSON document reports it. */
struct json_cmd front_cmd(const struct front *fr);

/* Parse argv into fr; bad input ends the program with status 2. */
void parse_args(struct front *fr, int argc, char **argv);

/* Release what parse_args() allocated. */
void front_free(struct front *fr);

/* Defaults for whatever the command line left unset. */
void set_defaults(struct opts *o);

/* Make t the test o describes, with its default --count unless typed. */
void use_test(struct opts *o, const struct testdesc *t);

/* Checks that need the device geometry but no I/O. */
void validate(const struct front *fr, const struct dev *d);

#endif
