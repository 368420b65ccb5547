/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_TESTDESC_H
#define FLASHBENCH_TESTDESC_H

#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "lib/ramp_rule.h"
#include "lib/table.h"
#include "vm.h"

/* Everything the command line can set. */
struct opts {
	const char *device;
	const struct testdesc *test;
	uint64_t blocksize, erasesize, offset;
	int have_offset;
	/*
	 * The values as typed, for messages; NULL when defaulted (or chosen
	 * by the survey): a message names an option only as the user typed
	 * it, never a default as if typed.
	 */
	const char *blocksize_arg, *erasesize_arg, *offset_arg, *count_arg;
	const char *nr_arg, *fat_nr_arg, *scatter_order_arg;
	const char *scatter_span_arg, *interval_order_arg, *stall_arg;
	unsigned count;
	unsigned count_typed;		/* --count=N; 0: each test's default */
	unsigned nr_lo, nr_hi;		/* --open-au-nr=N or A-B */
	unsigned fat_nr;
	unsigned scatter_order, scatter_span, interval_order;
	int random;
	int ramp;		/* -O --ramp: the ramp instead of -O */
	int verbose;
	uint64_t stall_ns;	/* --stall=DURATION: a slower write stalls */
	uint64_t discard_off, discard_len;	/* --discard=START:LENGTH */
	/* --sustained's budget (--max-write, --max-time in ns); 0: none */
	uint64_t max_write, max_time;
	const char *max_write_arg;
	uint64_t idle_ns;	/* --idle=DURATION, then write again; 0: off */
	const char *idle_arg;
};

#define PROG_NODES 16
#define PROG_KIDS 24

/* Storage for one test program. */
struct prog {
	struct vm_node node[PROG_NODES];
	const struct vm_node *kid[PROG_KIDS];
	unsigned nnode, nkid;
	uint64_t *list;			/* ORD_LIST values, malloc'ed */
};

struct vm_node *prog_node(struct prog *p, enum vm_op op);
/* Give n its children (NULL-terminated list). */
void prog_kids(struct prog *p, struct vm_node *n, ...);
void prog_free(struct prog *p);

/* One test: its access pattern as a program, and how to check its input. */
struct testdesc {
	const char *name;
	enum table_kind kind;
	int writes;		/* destructive */
	unsigned count;		/* --count when not given; 0: 8 */
	/* Options that do not fit the device: message, -EINVAL. */
	int (*validate)(const struct opts *o, const struct dev *d, char *err,
			size_t errlen);
	/* NULL on allocation failure. */
	const struct vm_node *(*build)(struct prog *p, const struct opts *o,
				       const struct dev *d);
	void (*header)(FILE *f, const struct opts *o);
	/* The rows come out sorted by key, however they were visited. */
	int sorted;
	/*
	 * Non-NULL: the rows are printed by this after the run (sorted, or
	 * with lines computed from the whole table) rather than as they are
	 * measured.
	 */
	void (*print)(FILE *f, const struct table *t, const struct opts *o);
	/*
	 * Non-NULL: a test that decides its next I/O from the times of the
	 * last ones runs itself on the engine's device, buffer, table and
	 * hooks instead of a program (build is then NULL); -errno or 0.
	 * Its dry run (vm->dev->dry_run) writes once over all it may write.
	 */
	int (*drive)(struct vm *vm, const struct opts *o);
};

extern const struct testdesc testdesc_align, testdesc_open_au,
	testdesc_find_fat, testdesc_erase, testdesc_discard, testdesc_scatter,
	testdesc_interval, testdesc_ramp, testdesc_iops, testdesc_sustained,
	testdesc_find_erase, testdesc_capacity,
	testdesc_iops_random;	/* --iops without its sequential pass */

/* The ramp's chunk of that part for these options (the survey's forecast). */
uint64_t ramp_chunk(const struct opts *o, enum ramp_part q);

/* What an --iops table says: 4KiB IOPS, sequential write bytes/s. */
struct iops_figures {
	double read_iops, write_iops, seq_bps;
};

/* An --iops table's figures; 0 when t is not one or has no row. */
int iops_figures(const struct table *t, struct iops_figures *m);

/* The region --iops spreads its places over, from its offset. */
uint64_t iops_region(const struct opts *o, const struct dev *d);

/*
 * A complete --capacity table's verdict line into buf: 1 when the card
 * stores less than it claims, 0 when every probe read back, -1 when t is
 * not one or was cut short.
 */
int capacity_verdict(const struct table *t, char *buf, size_t len);

/* What a --capacity table says, for the verdict and the JSON. */
struct capacity_result {
	int is_short;		/* a probe did not hold its own data */
	uint64_t claimed, block;
	uint64_t at_most;	/* the lowest such probe: the card's bound */
	uint64_t top;		/* the highest probe below it read back */
	size_t probes, good;	/* all of them; those below at_most, fine */
	size_t evidence_row;
};

/* The same as capacity_verdict()'s status, with the figures in res. */
int capacity_result(const struct table *t, struct capacity_result *res);

/*
 * Pieces shared by the test descriptions.  best_of: the fastest of
 * --count runs of body.  best_pass: the same for a write test, which
 * without --count makes one pass, and more while a pause of the card
 * disturbed the fastest so far (vm.c: pass_again()).  chunk_write: VAR_LEN bytes at VAR_AU + VAR_POS.
 * au_walk: body at each chunk position VAR_POS of an AU, linear or
 * (--random) LFSR order, total time.  size_series: row once per size
 * VAR_LEN from --erasesize down to --blocksize.
 */
struct vm_node *best_of(struct prog *p, const struct opts *o,
			const struct vm_node *body);
struct vm_node *best_pass(struct prog *p, const struct opts *o,
			  const struct vm_node *body);
struct vm_node *chunk_write(struct prog *p);
struct vm_node *au_walk(struct prog *p, const struct opts *o,
			const struct vm_node *body);
struct vm_node *size_series(struct prog *p, const struct opts *o,
			    struct vm_node *row);

/*
 * For tests that drive themselves: one write of len bytes at off through
 * the engine's device, buffer and hooks (tick, trace), its time in *ns;
 * the failure is left in vm->error.  0 or -errno.
 */
int drive_write(struct vm *vm, uint64_t off, uint64_t len, uint64_t *ns);
int drive_row_end(struct vm *vm, int ret);

/* Helpers shared by the test descriptions. */
struct vm_expr expr_var(enum vm_var v, int64_t add);
struct vm_expr expr_const(int64_t add);
uint64_t round_up(uint64_t v, uint64_t to);

/* Start of the write tests' region: --offset or 16 MiB rounded up to AUs. */
uint64_t write_offset(const struct opts *o);

/* The write region's start is on a sector and on the device. */
int check_offset(const struct opts *o, const struct dev *d, char *err,
		 size_t errlen);

/* An option's value for a message: as typed, else the number in buf. */
const char *shown(const char *typed, uint64_t v, char *buf, size_t len);

/*
 * A test that does not fit on the device, NEED saying what it needs.
 * Then the options that decide it, as pairs of name and value as typed
 * (NULL when defaulted), ending with NULL: the message is led by the
 * first one typed, or when none was by the device, suggesting the first.
 * -EINVAL.
 */
int does_not_fit(char *err, size_t errlen, const struct dev *d,
		 const char *need, ...);

#endif
