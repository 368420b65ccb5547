/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_TABLE_H
#define FLASHBENCH_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/latency.h"

/*
 * A result table in base units, as measured live or parsed from a report.
 * Rows are keyed by a size in bytes (align boundary, write size, offset);
 * values are ns or bytes/s depending on kind.  A value that was not
 * measured (interrupted run, short pasted table) is NAN.
 */
#define TABLE_MAXCOLS 64

/* The open-AU test (-O) writes AUs this many erase sizes apart. */
#define AU_SPACING 12
/* -f looks at the first so many AUs by default: where FAT areas live. */
#define FAT_AUS 6

enum table_kind {
	TAB_ALIGN,	/* key align; v: pre, on, post, diff (ns); live
			 * runs keep each place's pre, then on, then post */
	TAB_OPENAU,	/* key write size; v[0]: rate (B/s) */
	TAB_SWEEP,	/* key write size; v[j]: rate with col_nr[j] open AUs */
	TAB_FAT,	/* key write size; v[j]: rate of AU j (B/s) */
	TAB_ERASE,	/* key size; v: aligned ns, rate, misaligned ns, rate */
	TAB_SCATTER,	/* key offset; v[0]: best read time (ns) */
	TAB_INTERVAL,	/* key read size; v: fastest, mean, slowest (ns) */
	TAB_RAMP,	/* key streams, rows in the order run; v: coarse ns,
			 * rate, fine ns, rate, 1 if in random order
			 * (-O --ramp) */
	TAB_IOPS,	/* key 4KiB; v: read ns, write ns, seq ns, seq rate */
	TAB_SUSTAINED,	/* key offset, rows in the order run; v: ns, rate of
			 * the window there, 1 if written after --idle */
	TAB_EWRITE,	/* key candidate erase size; v: median ns of writes
			 * entering its odd multiples, of the writes after
			 * them, their ratio (--find-erase) */
	TAB_CAPACITY,	/* key probe offset; v: status, address it holds */
};

struct table_row {
	uint64_t key;
	double *v;		/* width values, in the table's pool */
	struct latency *lat;	/* live rows with writes: each one's time */
};

struct table {
	enum table_kind kind;
	/* what is known about how it was measured; 0 = unknown */
	uint64_t blocksize, erasesize;
	unsigned open_au_nr;
	int random;
	int has_offset;		/* -O: where its AUs start is known... */
	uint64_t offset;	/* ...and is this */
	uint64_t dev_size;	/* --capacity: the size the device claims */
	unsigned repeat;	/* earlier tables of the card measured alike */
	/* TAB_SUSTAINED: how the run ended (enum sus_end), its idle wait */
	unsigned ended;
	uint64_t idle_ns;
	unsigned ncols;
	unsigned col_nr[TABLE_MAXCOLS];	/* TAB_SWEEP: N of each column */
	/*
	 * Live runs only: the steps of a sample averaged into one value,
	 * each an unprinted value from v[kept_from] on, with the offset it
	 * was taken at (-a: each place, from the boundary).
	 */
	unsigned kept_from, nkept;
	uint64_t kept_at[TABLE_MAXCOLS];
	size_t nrows, cap;
	struct table_row *rows;
	/*
	 * Values per row: the most columns the table has had, so a million
	 * rows of one value take 8 MB, not 64 times that.
	 */
	unsigned width;
	double *pool;
};

/*
 * Append a row with room for max(ncols, what the kind has) values, preset
 * to NAN; set ncols first.  NULL on allocation failure.
 */
struct table_row *table_add_row(struct table *t, uint64_t key);
/* Room for w values in every row, the new ones NAN; 0 or -1 (memory). */
int table_widen(struct table *t, unsigned w);
void table_free(struct table *t);
const char *table_kind_name(enum table_kind k);

/*
 * The classic padded rows (-O, -f): the key in a field of ROW_KEY_WIDTH
 * columns, each value in one of ROW_COL_WIDTH (one value: ROW_KEY_WIDTH).
 * put_field() prints s and pads it with spaces to width columns, at least
 * one: a wider value widens its field rather than being cut.
 */
#define ROW_KEY_WIDTH	8
#define ROW_COL_WIDTH	9
void put_field(FILE *f, const char *s, unsigned width);

#endif
