/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_VM_H
#define FLASHBENCH_VM_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "lib/latency.h"
#include "lib/table.h"

/*
 * A test is a tree of vm_node, run by vm_run().  Loops bind variables;
 * I/O nodes compute offsets as linear expressions of those variables;
 * loops and repeats reduce their bodies' results; row nodes turn results
 * into printed rows and table rows.
 */
enum vm_var {
	VAR_LEN,	/* I/O length of the current series step */
	VAR_ALIGN,	/* boundary under test */
	VAR_PLACE,	/* sample place on the device */
	VAR_AU,		/* start of the AU being written */
	VAR_POS,	/* position inside an AU */
	VAR_NR,		/* number of AUs kept open */
	VAR_REP,	/* repetition index */
	VM_NVARS
};

/* value = add + sum(mul[v] * var[v]) */
struct vm_expr {
	int64_t add;
	int64_t mul[VM_NVARS];
};

enum vm_op {
	VM_IO,		/* one timed I/O */
	VM_LOOP,	/* bind var over a sequence, reduce the body */
	VM_ROW,		/* evaluate columns, emit a row */
	VM_COLS,	/* inside a row: a loop whose steps are columns */
	VM_DIFF,	/* inside a row: col[b] - (col[a] + col[c]) / 2 */
	VM_RATEOF,	/* inside a row: bytes per second of col[a] */
	VM_AVGOF,	/* inside a row: mean of the single I/Os in col[a] */
	VM_MAXOF,	/* inside a row: slowest single I/O in col[a] */
};

enum vm_order {
	ORD_HALVING,	/* from start down to stop, halving */
	ORD_LINEAR,	/* start + i * stride, i = 0..count-1 */
	ORD_LFSR,	/* the same positions, full-period pseudo-random */
	ORD_LIST,	/* the values in list[start..start+count-1] */
};

enum vm_reduce { RED_NONE, RED_MIN, RED_AVG, RED_MAX, RED_TOTAL };

enum vm_fmt {
	FMT_NONE,	/* column not printed */
	FMT_TIME,	/* fmt_time */
	FMT_RATE,	/* fmt_rate */
	FMT_SIZE,	/* fmt_size (row keys) */
	FMT_NUM,	/* plain integer (row keys: "align 4194304") */
};

struct vm_node {
	enum vm_op op;
	/* VM_IO */
	enum io_kind io;
	struct vm_expr off, len;
	/* VM_LOOP, VM_COLS */
	enum vm_var var;
	enum vm_order order;
	struct vm_expr start, stride, count;
	uint64_t stop;		/* ORD_HALVING: last value >= stop */
	uint64_t span;		/* nonzero: count = span / stride */
	const uint64_t *list;	/* ORD_LIST */
	enum vm_reduce reduce;
	int keep;		/* VM_LOOP in a row: each step's result is also
				 * a hidden column (-a: every place) */
	double prune;		/* VM_COLS: skip a column once below this
				 * fraction of its best rate (0: never) */
	int reverse;		/* VM_COLS: run the last column first */
	int warm;		/* VM_LOOP: of two steps or more, the first is
				 * a warm-up, not counted */
	double again;		/* VM_LOOP of one step: steps more while a
				 * single I/O of the fastest stood out by this
				 * share of its time or more (vm.c: paused()) */
	/*
	 * VM_ROW: key variable and its format.  Columns (children of a row):
	 * the format also picks the value, FMT_RATE being bytes per second
	 * and the others nanoseconds.
	 */
	enum vm_var key;
	enum vm_fmt fmt;
	const char *label;	/* printed before the value, e.g. "pre " */
	/*
	 * VM_ROW: 0 separates the fields with tabs (-a); else the key is
	 * padded with spaces to ROW_KEY_WIDTH and each column to width
	 * (the classic -O and -f rows), a wider value widening its field.
	 */
	unsigned width;
	/*
	 * VM_ROW: nonzero measures the columns round after round, this many
	 * times, each kept step's best kept (vm.c: run_rounds()).
	 */
	unsigned rounds;
	unsigned a, b, c;	/* VM_DIFF, VM_RATEOF, ... column indices */
	/* children: the body of a loop (one), the columns of a row */
	const struct vm_node *const *kids;
	unsigned nkids;
};

enum vm_tick { TICK_IO, TICK_ROW };

/*
 * A result: time and bytes moved, reduced together; and, whatever the
 * reduction, the spread of the single I/Os behind it.
 */
struct vm_val {
	double ns;
	double bytes;
	unsigned n;		/* samples behind it */
	double io_sum, io_max;	/* ns of the single I/Os: total, slowest */
	uint64_t ios;
};

/* An error comes back as a value, never printed from inside the engine. */
struct vm_error {
	int err;		/* -errno; -EINTR when stopped by a signal */
	enum io_kind io;
	uint64_t off, len;
	int output;		/* not the device: writing a row to out failed */
};

struct vm {
	struct dev *dev;
	void *buf;		/* the I/O buffer, of buf_len bytes */
	uint64_t buf_len;	/* 0: it holds the largest I/O whole */
	FILE *out;		/* rows printed here as they complete; or NULL */
	FILE *trace;		/* each I/O and its time printed here; or NULL */
	struct table *tab;	/* rows appended here; or NULL */
	/*
	 * its rows are the test's text, to or without out: tab keeps them
	 * as printed (a test printing its own text keeps full precision)
	 */
	int rows_printed;
	int64_t var[VM_NVARS];
	struct vm_error error;
	/* VM_COLS pruning state: best rate of each column so far */
	double col_best[TABLE_MAXCOLS];
	int col_dead[TABLE_MAXCOLS];
	/*
	 * Optional hooks: row_done after each row (nonzero ends the program
	 * there, as a success: a survey stops a series once it has seen
	 * enough); tick before each I/O and before a row is printed (a
	 * progress line to draw or to take off the screen); again before a
	 * pass more after a pause, given the pass it repeats (nonzero: not
	 * run, the row keeps what it has; a budget that it would overrun).
	 */
	int (*row_done)(void *arg, const struct table *t);
	void (*tick)(void *arg, enum vm_tick what);
	int (*again)(void *arg, const struct vm_val *pass);
	void *hook_arg;
	int done;
	/* the current row's kept steps (keep loops): value and variable */
	double kept[TABLE_MAXCOLS];
	int64_t kept_at[TABLE_MAXCOLS];
	unsigned nkept;
	/*
	 * A dry run recording into a LOG_EXTENTS log: a loop whose passes
	 * differ only by where they are is planned from its first pass.
	 */
	int plan;
	/*
	 * Every timed write of the current row, the passes a pause made
	 * the row throw away included (those are the stalls), handed to
	 * the table's row; a write slower than stall_ns (0: LAT_STALL_NS)
	 * is a stall.
	 */
	struct latency row_lat;
	uint64_t stall_ns;
	/* called after each row: a point a test can hold the run at */
	int (*after_row)(void);
};

/*
 * A test that drives its own I/O (testdesc drive): each write's time into
 * the row being measured, and that row's latencies into tr (NULL: none
 * kept), starting the next.
 */
void vm_write_latency(struct vm *vm, uint64_t ns);
void vm_row_latency(struct vm *vm, struct table_row *tr);

/* Set from a signal handler: the engine stops before the next I/O. */
extern volatile sig_atomic_t vm_stop;

/* Run prog; 0 or the -errno of vm->error. */
int vm_run(struct vm *vm, const struct vm_node *prog);

/* Full-period pseudo-random permutation of 0..count-1. */
struct lfsr {
	uint64_t count;
	uint32_t state, taps;
};

void lfsr_init(struct lfsr *l, uint64_t count);
uint64_t lfsr_next(struct lfsr *l);	/* each of 0..count-1 once */

#endif
