/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_REPORT_H
#define FLASHBENCH_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "identity/decode.h"
#include "lib/table.h"

/*
 * Limits that bound the memory a hostile report can make us allocate
 * (about 4 MiB of rows at most).
 */
#define REPORT_MAX_TABLES	256
#define REPORT_MAX_ROWS		8192	/* over all tables */
#define REPORT_MAX_SECTIONS	64
/* --analyze reads no more of a file (or stdin): /dev/zero is not a report */
#define REPORT_MAX_BYTES	(64u << 20)
/* A --capacity verdict line: capacity.c's are under 512 bytes. */
#define REPORT_CAP_LINE		512

/*
 * A pasted report often covers several cards (a mailing-list digest).  A
 * new section starts when, after at least one table, the text names a
 * different device or dumps another card's identity (sysfs cid, lsusb,
 * hdparm Model=).  Analyse each section on its own.
 */
struct report_section {
	size_t first, ntabs;		/* tabs[first .. first + ntabs) */
	struct analysis_ctx ctx;	/* device facts found in this section */
	struct id_attrs attrs;		/* its identity dump, if any */
	char device[32];		/* "/dev/mmcblk0" or "" */
	/*
	 * Its --capacity verdict line as printed, or "": the probes it
	 * rests on are not printed, so it is read back, not drawn again.
	 */
	char capacity[REPORT_CAP_LINE];
};

struct report {
	struct table *tabs;
	size_t ntabs;
	struct report_section *secs;
	size_t nsecs;
	struct analysis_ctx ctx;	/* first device facts found anywhere */
};

/*
 * Find every flashbench table in text (classic or current format, lines
 * collapsed by a mail archive, quoted, embedded in shell logs) and the
 * device facts around them.  r is overwritten; release it with
 * report_free() whatever the result.  Returns the number of tables, or
 * -ENOMEM.  Input past the limits above is ignored, not an error.
 */
int report_parse(const char *text, size_t len, struct report *r);
void report_free(struct report *r);

#endif
