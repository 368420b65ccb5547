// SPDX-License-Identifier: GPL-2.0
/*
 * The capacity check (-C, --capacity): does the card store what its size
 * claims?  A fake card reports a size its flash does not have; writes
 * past the real size wrap onto the start (a controller that ignores the
 * high address lines) or are lost.  A few dozen blocks spread over the
 * whole device, each filled with its own address and a tag of this run,
 * are written in ascending order and read back: a block that reads back
 * another's address, zeros or anything else is where the data stops.
 * Destructive, but only in the probes, which --preserve (the default
 * here, flashbench.c) saves before and puts back after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testdesc.h"
#include "lib/units.h"

/* One probe: a 4 KiB block, the page of most cards, at least a sector. */
#define CAP_BLOCK (4ull << 10)
/*
 * Powers of two from here up get a probe on each side: a controller that
 * drops address lines wraps at one, and no card holds less than 1 MiB.
 */
#define CAP_POW2_FROM (1ull << 20)
/* Evenly spaced probes, so a real size anywhere has one above it near. */
#define CAP_SPREAD 16
/* Probes at the end, 1, 2, 4, ... blocks back: a fake loses the end. */
#define CAP_TAIL 13
/* Room for all of them on a 2^63-byte device. */
#define CAP_MAX_PROBES (2 * 64 + CAP_SPREAD + CAP_TAIL + 1)
/* The loss is placed to a sector of the block: the smallest a card maps. */
#define CAP_SECTOR 512u
/* Every block starts with this, then the run's tag, then its address. */
#define CAP_MAGIC 0x4642434150434b31ull	/* "FBCAPCK1" */

/* What a probe read back, the table's v[0]; v[1] the address it holds. */
enum cap_status { CAP_OK, CAP_ZERO, CAP_GARBAGE, CAP_OTHER };

struct capacity {
	struct vm *vm;
	uint64_t block, tag;
	uint64_t probe[CAP_MAX_PROBES];
	size_t n;
};

static uint64_t block_of(const struct dev *d)
{
	return d->sector > CAP_BLOCK ? d->sector : CAP_BLOCK;
}

static void add(struct capacity *c, uint64_t off, uint64_t size)
{
	off -= off % c->block;
	if (off + c->block <= size && c->n < CAP_MAX_PROBES)
		c->probe[c->n++] = off;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* The probes, sorted, each once. */
static void place_probes(struct capacity *c, uint64_t size)
{
	uint64_t b;
	size_t i, j;

	add(c, 0, size);
	for (b = CAP_POW2_FROM; b && b < size; b <<= 1) {
		add(c, b - c->block, size);
		add(c, b, size);
	}
	for (i = 1; i < CAP_SPREAD; i++)
		add(c, size / CAP_SPREAD * i, size);
	for (i = 0; i < CAP_TAIL && c->block << i < size; i++)
		add(c, size - (c->block << i), size);
	qsort(c->probe, c->n, sizeof(c->probe[0]), cmp_u64);
	for (i = j = 0; i < c->n; i++)
		if (!j || c->probe[j - 1] != c->probe[i])
			c->probe[j++] = c->probe[i];
	c->n = j;
}

/* splitmix64: the words of a block, distinct for every tag and place */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t word(const struct capacity *c, uint64_t off, size_t i)
{
	if (i == 0)
		return CAP_MAGIC;
	if (i == 1)
		return c->tag;
	if (i == 2)
		return off;
	return mix(c->tag ^ mix(off ^ mix(i)));
}

static void fill(const struct capacity *c, uint64_t *w, uint64_t off)
{
	size_t i;

	for (i = 0; i < c->block / sizeof(*w); i++)
		w[i] = word(c, off, i);
}

static int is_block_of(const struct capacity *c, const uint64_t *w,
		       uint64_t off)
{
	size_t i;

	for (i = 0; i < c->block / sizeof(*w); i++)
		if (w[i] != word(c, off, i))
			return 0;
	return 1;
}

/* Erased flash reads all zeros or all ones. */
static int is_blank(const unsigned char *b, uint64_t len)
{
	uint64_t i;

	for (i = 1; i < len; i++)
		if (b[i] != b[0])
			return 0;
	return b[0] == 0 || b[0] == 0xff;
}

/* Where in the block the first sector that is not its own starts. */
static uint64_t first_wrong(const struct capacity *c, const uint64_t *w,
			    uint64_t off)
{
	size_t i;

	for (i = 0; i < c->block / sizeof(*w); i++)
		if (w[i] != word(c, off, i))
			break;
	return i * sizeof(*w) / CAP_SECTOR * CAP_SECTOR;
}

/*
 * What the block at off read back; *v1 the address of the block it
 * holds (CAP_OTHER) or where in it the loss starts (blank, other data).
 */
static enum cap_status judge(const struct capacity *c, const void *buf,
			     uint64_t off, uint64_t *v1)
{
	const uint64_t *w = buf;
	uint64_t wrong = first_wrong(c, w, off);

	*v1 = w[2];
	if (wrong == c->block)
		return CAP_OK;
	if (w[0] == CAP_MAGIC && w[1] == c->tag && w[2] != off &&
	    bsearch(&w[2], c->probe, c->n, sizeof(c->probe[0]), cmp_u64) &&
	    is_block_of(c, w, w[2]))
		return CAP_OTHER;
	*v1 = wrong;
	return is_blank((const unsigned char *)buf + wrong, c->block - wrong) ?
	       CAP_ZERO : CAP_GARBAGE;
}

static int io(struct capacity *c, enum io_kind kind, uint64_t off)
{
	struct vm *vm = c->vm;
	uint64_t ns;
	int ret;

	vm->error = (struct vm_error){ 0, kind, off, c->block, 0 };
	if (vm_stop)
		ret = -EINTR;
	else if (kind == IO_WRITE)
		ret = dev_write(vm->dev, vm->buf, c->block, off, &ns);
	else
		ret = dev_read(vm->dev, vm->buf, c->block, off, &ns);
	if (ret)
		vm->error.err = ret;
	return ret;
}

static int write_all(struct capacity *c)
{
	size_t i;
	int ret;

	for (i = 0; i < c->n; i++) {
		/* a dry run only records: it has no buffer */
		if (!c->vm->dev->dry_run)
			fill(c, c->vm->buf, c->probe[i]);
		if ((ret = io(c, IO_WRITE, c->probe[i])))
			return ret;
	}
	return 0;
}

static int read_all(struct capacity *c)
{
	struct table_row *row;
	uint64_t v1;
	size_t i;
	int ret;

	for (i = 0; i < c->n; i++) {
		if ((ret = io(c, IO_READ, c->probe[i])))
			return ret;
		if (!c->vm->tab || c->vm->dev->dry_run)
			continue;
		row = table_add_row(c->vm->tab, c->probe[i]);
		if (!row)
			return -ENOMEM;
		row->v[0] = judge(c, c->vm->buf, c->probe[i], &v1);
		row->v[1] = (double)v1;
	}
	return 0;
}

/* A tag no earlier run left on the card: blocks of it are never ours. */
static uint64_t run_tag(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return mix((uint64_t)ts.tv_sec ^ mix((uint64_t)ts.tv_nsec ^
					     (uint64_t)getpid()));
}

static int capacity_drive(struct vm *vm, const struct opts *o)
{
	struct capacity c = { .vm = vm, .block = block_of(vm->dev),
			      .tag = run_tag() };
	int ret;

	(void)o;
	place_probes(&c, vm->dev->size);
	if (vm->tab) {
		vm->tab->ncols = 2;
		vm->tab->blocksize = c.block;
		vm->tab->dev_size = vm->dev->size;
	}
	ret = write_all(&c);
	if (ret)
		return ret;
	if (!vm->dev->dry_run) {
		fprintf(stderr, "flashbench: capacity: %zu probes written; "
			"reading them back\n", c.n);
		if (vm->after_row)
			vm->after_row();
	}
	return read_all(&c);
}

static int capacity_validate(const struct opts *o, const struct dev *d,
			     char *err, size_t errlen)
{
	char s[UNIT_BUFLEN];

	(void)o;
	if (d->size >= 2 * block_of(d))
		return 0;
	snprintf(err, errlen, "%s (%s) is too small for --capacity: it "
		 "needs two blocks of %lluKiB", d->path,
		 fmt_size(s, (double)d->size),
		 (unsigned long long)(block_of(d) >> 10));
	return -EINVAL;
}

/*
 * The lowest probe of the blocks that read back the one written at h
 * (and h itself): the only one of them that can be in its own place.
 */
static uint64_t class_low(const struct table *t, uint64_t h)
{
	uint64_t low = h;
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].v[0] == CAP_OTHER &&
		    (uint64_t)t->rows[i].v[1] == h && t->rows[i].key < low)
			low = t->rows[i].key;
	return low;
}

/*
 * The lowest probe that does not hold its own data, or UINT64_MAX; *at
 * the row that shows it.  Blocks that read back the same one share a
 * place: all but the lowest of them (and the one they hold) wrapped.
 */
static uint64_t first_bad(const struct table *t, size_t *at)
{
	uint64_t bad = UINT64_MAX, p, h, low;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		p = t->rows[i].key;
		h = (uint64_t)t->rows[i].v[1];
		if (t->rows[i].v[0] == CAP_OK)
			continue;
		if (t->rows[i].v[0] == CAP_OTHER) {
			low = class_low(t, h);
			/* the lowest holds another's: that one wrapped */
			p = p == low ? h : p;
		} else {
			p += h;		/* where in the block the loss starts */
		}
		if (p < bad) {
			bad = p;
			*at = i;
		}
	}
	return bad;
}

/* What row r shows, into buf. */
static void evidence(const struct table_row *r, char *buf, size_t len)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	uint64_t h = (uint64_t)r->v[1];

	fmt_size(a, (double)r->key);
	fmt_size(b, (double)h);
	if (r->v[0] != CAP_OTHER)
		snprintf(buf, len, "the block written at %s (byte %llu) "
			 "reads back %s from byte %llu", a,
			 (unsigned long long)r->key,
			 r->v[0] == CAP_ZERO ? "blank" : "other data",
			 (unsigned long long)(r->key + h));
	else
		snprintf(buf, len, "the block written at %s (byte %llu) "
			 "reads back at byte %llu: the two share one place",
			 b, (unsigned long long)h,
			 (unsigned long long)r->key);
}

/* Probes below bad that read back, the highest of them in *top. */
static size_t good_below(const struct table *t, uint64_t bad, uint64_t *top)
{
	size_t i, n = 0;

	*top = 0;
	for (i = 0; i < t->nrows && t->rows[i].key < bad; i++) {
		if (t->rows[i].v[0] != CAP_OK)
			continue;
		n++;
		*top = t->rows[i].key;
	}
	return n;
}

/* All the probes of a run were read back: a verdict may be drawn. */
static int complete(const struct table *t)
{
	struct capacity c = { .block = t->blocksize };

	if (t->kind != TAB_CAPACITY || !t->dev_size || !t->blocksize)
		return 0;
	place_probes(&c, t->dev_size);
	return t->nrows == c.n;
}

/* Room for a size in bytes and as rounded. */
#define EXACT_LEN (UNIT_BUFLEN + 32)

/* v as a size when that is exact, else in bytes: a bound must not round */
static const char *exact(char *buf, uint64_t v)
{
	char s[UNIT_BUFLEN];
	uint64_t back;

	fmt_size(s, (double)v);
	if (parse_size(s, &back) || back != v)
		snprintf(buf, EXACT_LEN, "%llu bytes (%s)",
			 (unsigned long long)v, s);
	else
		snprintf(buf, EXACT_LEN, "%s", s);
	return buf;
}

int capacity_result(const struct table *t, struct capacity_result *res)
{
	size_t at = 0;

	memset(res, 0, sizeof(*res));
	if (!complete(t))
		return -1;
	res->claimed = t->dev_size;
	res->block = t->blocksize;
	res->probes = t->nrows;
	res->at_most = first_bad(t, &at);
	res->is_short = res->at_most != UINT64_MAX;
	res->evidence_row = at;
	res->good = good_below(t, res->at_most, &res->top);
	return res->is_short;
}

int capacity_verdict(const struct table *t, char *buf, size_t len)
{
	char a[EXACT_LEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], ev[320];
	struct capacity_result res;
	int ret = capacity_result(t, &res);

	if (ret < 0)
		return ret;
	fmt_size(c, (double)t->dev_size);
	if (!ret) {
		snprintf(buf, len, "capacity: as claimed, %s (medium) -- all "
			 "%zu probes of %s from 0 to %s read back; note: "
			 "sparse probes: a card that remaps other blocks "
			 "could still hide a loss", c, res.probes,
			 fmt_size(a, (double)res.block), c);
		return 0;
	}
	evidence(&t->rows[res.evidence_row], ev, sizeof(ev));
	if (res.good)
		snprintf(ev + strlen(ev), sizeof(ev) - strlen(ev),
			 "; the %zu probes below it read back, the highest "
			 "at %s (byte %llu)", res.good,
			 fmt_size(b, (double)res.top),
			 (unsigned long long)res.top);
	snprintf(buf, len, "capacity: at most %s of %s claimed (high) -- %s",
		 exact(a, res.at_most), c, ev);
	return 1;
}

static void capacity_print(FILE *f, const struct table *t,
			   const struct opts *o)
{
	static const char *const said[] = {
		[CAP_OK] = "ok", [CAP_ZERO] = "blank",
		[CAP_GARBAGE] = "other data", [CAP_OTHER] = "holds",
	};
	char line[512];
	size_t i;

	for (i = 0; o->verbose && i < t->nrows; i++) {
		fprintf(f, "probe %llu\t%s", (unsigned long long)t->rows[i].key,
			said[(int)t->rows[i].v[0]]);
		if (t->rows[i].v[0] != CAP_OK)
			fprintf(f, " %s%llu", t->rows[i].v[0] == CAP_OTHER ?
				"" : "from +",
				(unsigned long long)t->rows[i].v[1]);
		fputc('\n', f);
	}
	if (capacity_verdict(t, line, sizeof(line)) >= 0)
		fprintf(f, "%s\n", line);
}

const struct testdesc testdesc_capacity = {
	.name = "capacity",
	.kind = TAB_CAPACITY,
	.writes = 1,
	.count = 1,
	.validate = capacity_validate,
	.drive = capacity_drive,
	.print = capacity_print,
};
