// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated flash card behind "sim:" device names.  It runs in virtual
 * time: every call returns what the modelled card would have taken, so the
 * tests and verdicts can be checked against known geometry in a fraction of
 * a second.  Only the AUs currently open for writing have state, so a 2 TiB
 * card costs no more memory than a 2 GiB one.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "lib/units.h"

#define SIM_SECTOR	512
#define SIM_MAX_OPEN	64
/* The largest off_t, down to a sector: no real device is larger. */
#define SIM_MAX_SIZE	(INT64_MAX / SIM_SECTOR * SIM_SECTOR)
#define SIM_NOISE	1.0
#define SIM_SEED	1
/*
 * Pages of a FAT-optimized AU cost this many times a normal page: seed
 * 002 writes its 2nd AU at 3.35 M/s against 8 M/s elsewhere.
 */
#define SIM_FAT_COST	3

/* Costs in ns, except the bus transfer which is in ps per byte. */
struct sim_timing {
	uint64_t rd_cmd;	/* per read command */
	uint64_t wr_cmd;	/* per write command */
	uint64_t xfer_ps;	/* bus transfer per byte */
	uint64_t page_rd;	/* sensing one flash page */
	uint64_t au_cross;	/* extra for a read that spans two AUs */
	uint64_t prog_kib;	/* programming, per KiB of a page */
	uint64_t erase;		/* one AU */
	uint64_t discard_cmd;	/* per discard command */
};

/*
 * What real -a tables show beyond a clean staircase (read side only).
 * Seeds 002, 003 and 004 read the last KiB before a 16 MiB boundary
 * 60-100us slower than the first KiB after it, seed 000's Xporter 115us
 * faster at its 8 MiB AUs: the read-ahead crosses into the next zone (or
 * stops at its end).  Seed 002's baseline moves by 10-25 % between rows
 * (pre 924us, post 723us at 8 MiB; 1.02ms at 4 MiB, 820us below), and
 * some rows above the AU stand out (32 MiB, 512 MiB) where one of the
 * places is slower to cross.
 */
struct sim_reads {
	int64_t edge;		/* a read ending at a zone boundary, extra ns */
	unsigned zone_aus;	/* zone = this many AUs; 0: no zones */
	double drift;		/* percent: baseline level shifts */
	double slowau;		/* percent of AU boundaries slower to cross */
};

/*
 * How writes depart from the classic model (one copy of the whole rest
 * of an AU per write past the open limit), as the seeds show it: the
 * defaults of the keys of the same names.
 */
struct sim_writes {
	double merge;		/* percent of an early-closed AU's rest copied */
	double level;		/* past the limit: percent of the normal rate */
	uint64_t small;		/* writes up to this size skip the slots */
	double rcost;		/* random-order writes: extra programming, % */
};

struct sim_profile {
	const char *name;
	const char *card;
	uint64_t size, au, page;
	unsigned open, random, fat, fatstart;
	struct sim_timing t;
	struct sim_reads r;
	struct sim_writes w;
	const char *regs;	/* what sysfs said about the card: key=value */
};

/*
 * The identity attributes of the seed cards, as their reports dumped
 * them (head of /sys/block/mmcblk0/device/ files, lsusb).
 */
#define SD_REGS(cid, csd, scr, date, manfid, oemid, name, serial, hw, fw) \
	"type=SD\ncid=" cid "\ncsd=" csd "\nscr=" scr "\ndate=" date \
	"\nmanfid=" manfid "\noemid=" oemid "\nname=" name "\nserial=" \
	serial "\nhwrev=" hw "\nfwrev=" fw "\nerase_size=512\n" \
	"preferred_erase_size=4194304\nqueue/logical_block_size=512\n" \
	"queue/physical_block_size=512\nqueue/rotational=0\n"
#define USB_READER \
	"transport=usb\nqueue/logical_block_size=512\n" \
	"queue/physical_block_size=512\nqueue/rotational=0\n"
#define USB_REGS(vid, pid) \
	USB_READER "usb/idVendor=" vid "\nusb/idProduct=" pid \
	"\nusb/manufacturer=Kingston Technology Company Inc.\n"

/*
 * Each profile is one card from the seed reports.  Geometry is what the
 * report (or the expert answering it) concluded; the costs are solved from
 * its tables: the 1 KiB read time of -a gives rd_cmd + xfer + page_rd, the
 * diff at page boundaries is page_rd and at AU boundaries page_rd +
 * au_cross; two rows of -O (a whole AU and a single page) give wr_cmd and
 * the per-page cost.  What a report does not show is marked "assumed".
 */
static const struct sim_profile profiles[] = {
	/*
	 * seed 002, SanDisk SD08G: 7948206080 bytes; -a: 1 KiB reads
	 * ~820us, diff 215us at 4 MiB and up, ~20us from 16 KiB to 2 MiB,
	 * ~0 below: 4 MiB AU, 16 KiB page; -O: 6 open AUs (7 collapse),
	 * --random collapses even with one AU; 8.0 M/s at 4 MiB, 6.1 M/s
	 * at 16 KiB; -f: the 2nd AU runs at 3.35 M/s against 8 M/s.  With
	 * 7 AUs the collapse from 2 MiB to 256 KiB recovers at 128 KiB and
	 * below (7.8 M/s at 64 KiB): small writes skip the AU slots.
	 */
	{ .name = "sd08g",
	  .card = "SanDisk SD08G 8 GB SD (seed 002)",
	  .size = 7948206080ull, .au = 4 << 20, .page = 16 << 10,
	  .open = 6, .random = 0, .fat = 1, .fatstart = 1,
	  .t = { .rd_cmd = 759000, .wr_cmd = 623000, .xfer_ps = 40000,
		 .page_rd = 20000, .au_cross = 195000, .prog_kib = 86875,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = 60000, .zone_aus = 4, .drift = 8, .slowau = 5 },
	  .w = { .merge = 100, .small = 128 << 10 },
	  .regs = SD_REGS("035344534430384780a11ce23a00c400",
			"400e00325b5900003b377f800a404000", "0235800100000000",
			"04/2012", "0x000003", "0x5344", "SD08G", "0xa11ce23a",
			"0x8", "0x0") },
	/*
	 * seed 001, SanDisk SU04G class 4: 2 open 4 MiB AUs (3 collapse);
	 * 9.06 M/s at 4 MiB, 8.29 M/s at 32 KiB but 3.14 M/s at 16 KiB,
	 * hence a 32 KiB page.  Past two AUs the rate levels off at ~2.3
	 * M/s at every size ("performance is still basically constant, so
	 * the card is doing something smart"): a quarter of the normal rate.
	 * Size (that of the SD04G in seed 000), read times (no -a in the
	 * report) and no FAT area are assumed.
	 */
	{ .name = "su04g",
	  .card = "SanDisk SU04G 4 GB SD class 4 (seed 001)",
	  .size = 3965190144ull, .au = 4 << 20, .page = 32 << 10,
	  .open = 2, .random = 0, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 734000, .wr_cmd = 339000, .xfer_ps = 40000,
		 .page_rd = 25000, .au_cross = 195000, .prog_kib = 71875,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .drift = 3, .slowau = 2 },
	  .w = { .merge = 100, .level = 25 },
	  .regs = "type=SD\nmanfid=0x000003\noemid=0x5344\nname=SU04G\n"
		"serial=0x03a847f0\ndate=10/2010\nqueue/rotational=0\n" },
	/*
	 * seed 004, Samsung EVO 32GB MB-MP32D: -a: 1 KiB reads ~1.37ms,
	 * diff ~320us at 16 MiB and up, ~205us from 16 KiB to 8 MiB, ~0
	 * below: 16 MiB AU, 16 KiB page.  The report has no write tests:
	 * size, 20 M/s (UHS-1 class 10) and 7 open AUs taking any order
	 * (as the Samsung of seed 003) are assumed.
	 */
	{ .name = "evo32",
	  .card = "Samsung EVO 32GB MB-MP32D microSDHC (seed 004)",
	  .size = 31914983424ull, .au = 16 << 20, .page = 16 << 10,
	  .open = 7, .random = 7, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 1145000, .wr_cmd = 547000, .xfer_ps = 20000,
		 .page_rd = 205000, .au_cross = 115000, .prog_kib = 30700,
		 .erase = 4000000, .discard_cmd = 250000 },
	  .r = { .edge = 100000, .zone_aus = 1, .drift = 6, .slowau = 3 },
	  .w = { .merge = 100 },
	  .regs = USB_READER },
	/*
	 * seed 003, Samsung 16 GB SD (oemid SM, 2013): 15719727104 bytes;
	 * -a: 1 KiB reads ~225us, diff ~38us from 16 KiB; -O with 8 MiB
	 * units: 17.3 M/s, 16 KiB ~10 M/s with --random, still as fast with
	 * 7 AUs in either order and with 31 linear: the smart controller
	 * whose open-AU test never collapses (no more was measured, so 32
	 * and 8 are the least the report allows), random writes at no extra
	 * cost.  The AU diff (the report shows none above 8 MiB) is assumed.
	 */
	{ .name = "samsung16",
	  .card = "Samsung 16 GB SD, 2013 (seed 003)",
	  .size = 15719727104ull, .au = 8 << 20, .page = 16 << 10,
	  .open = 32, .random = 8, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 141000, .wr_cmd = 692000, .xfer_ps = 45000,
		 .page_rd = 38000, .au_cross = 112000, .prog_kib = 13000,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = 65000, .zone_aus = 2, .drift = 4, .slowau = 3 },
	  .w = { .merge = 100 },
	  .regs = SD_REGS("1b534d3030303030107b156f8000d900",
			"400e00325b590000751e7f800a404000", "02b5800200000000",
			"09/2013", "0x00001b", "0x534d", "00000", "0x7b156f80",
			"0x1", "0x0") },
	/*
	 * seed 000, Patriot Xporter XT Boost 16 GB USB stick: -a: 1 KiB
	 * reads ~660us, diff ~215us at 8 MiB and up, 20-40us below: 8 MiB
	 * AU; -O: 15 M/s at 8 MiB, 10.9 M/s at 32 KiB, 3.12 M/s at 16 KiB
	 * (32 KiB page); 8 open AUs (9 hit the wall), 8 in random order
	 * cope, "but not perfect" (about half the linear rate at 1 MiB to
	 * 32 KiB); no FAT area.  Past the limit the rate declines gradually
	 * (14.7, 13.9, 12.3, 10 M/s from 8 MiB to 1 MiB, "log-structured"):
	 * a write costs ~45 ms, a tenth of an AU's copy.  16 KiB and smaller
	 * writes stay fast with 9 AUs.  Exact size assumed.
	 */
	{ .name = "xporter",
	  .card = "Patriot Xporter XT Boost 16 GB USB (seed 000)",
	  .size = 15938355200ull, .au = 8 << 20, .page = 32 << 10,
	  .open = 8, .random = 8, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 597000, .wr_cmd = 825000, .xfer_ps = 33000,
		 .page_rd = 30000, .au_cross = 185000, .prog_kib = 34375,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = -115000, .zone_aus = 1, .drift = 5, .slowau = 3 },
	  .w = { .merge = 10, .small = 16 << 10, .rcost = 100 },
	  .regs = USB_REGS("13fe", "3100") },
	/*
	 * seed 000, Patriot Rage XT 16 GB USB stick: 12 MiB (3 x 4 MiB)
	 * units, 12 open (13 collapse), tested with 24 KiB blocks; 13.5
	 * M/s at 12 MiB; --random inconclusive, so none.  With 13 the
	 * rate falls 12.9, 11.5, 8.35, 5.13 M/s from 12 MiB to 1.5 MiB: a
	 * write costs ~0.25 s, half an AU's copy.  Page 24 KiB, size and
	 * read times assumed (the report has no -a).  No power of two is
	 * an AU or page boundary: -a needs --blocksize=3072.
	 */
	{ .name = "rage",
	  .card = "Patriot Rage XT 16 GB USB, 12 MiB AU (seed 000)",
	  .size = 16106127360ull, .au = 12 << 20, .page = 24 << 10,
	  .open = 12, .random = 0, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 637000, .wr_cmd = 1254000, .xfer_ps = 33000,
		 .page_rd = 30000, .au_cross = 170000, .prog_kib = 41958,
		 .erase = 4000000, .discard_cmd = 250000 },
	  .r = { .drift = 4, .slowau = 3 },
	  .w = { .merge = 50 },
	  .regs = USB_REGS("13fe", "3800") },
};

#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

enum key_kind { KEY_SIZE, KEY_COUNT, KEY_U64, KEY_PERCENT, KEY_FAIL };

struct sim_key {
	const char *name;
	enum key_kind kind;
	size_t off;
	const char *help;
};

#define KEY(n, k, f, h) { n, k, offsetof(struct sim_params, f), h }

static const struct sim_key keys[] = {
	KEY("size", KEY_SIZE, size, "device size (multiple of 512, >= 2 AUs)"),
	KEY("au", KEY_SIZE, au,
	    "allocation unit / erase block (multiple of page and 512)"),
	KEY("page", KEY_SIZE, page,
	    "flash page: read granularity, smallest full-speed write"),
	KEY("open", KEY_COUNT, open, "AUs open for linear writes (1-64)"),
	KEY("random", KEY_COUNT, random,
	    "of those, how many accept writes in any order"),
	KEY("fat", KEY_COUNT, fat,
	    "FAT-optimized AUs: any order, slower per page"),
	KEY("fatstart", KEY_COUNT, fatstart, "index of the first FAT AU"),
	KEY("noise", KEY_PERCENT, noise,
	    "percent jitter with rare outliers; 0: exact [1]"),
	KEY("seed", KEY_U64, seed, "seed of the jitter generator [1]"),
	KEY("zone", KEY_SIZE, zone,
	    "reads ending at its multiples cost more or less; 0: none"),
	KEY("drift", KEY_PERCENT, drift,
	    "percent the read baseline shifts now and then [0 if noise=0]"),
	KEY("slowau", KEY_PERCENT, slowau,
	    "percent of AU boundaries slower to cross [0 if noise=0]"),
	KEY("merge", KEY_PERCENT, merge,
	    "percent of its missing part an AU closed early copies [100]"),
	KEY("level", KEY_PERCENT, level,
	    "past the open AUs, write at this percent of the rate; 0: off"),
	KEY("small", KEY_SIZE, small,
	    "writes up to this size into an AU not open take no slot"),
	KEY("rcost", KEY_PERCENT, rcost,
	    "percent more programming for a write out of order"),
	KEY("pause", KEY_PERCENT, pause,
	    "percent chance per MiB written of a 20-200ms pause [noise]"),
	KEY("fail", KEY_FAIL, fail, "any I/O covering byte N fails: EIO"),
	KEY("vanish", KEY_U64, vanish,
	    "every I/O after the N-th fails: ENODEV (0: never) [0]"),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* An AU the card keeps open for writing. */
struct au_slot {
	uint64_t au;		/* its index */
	uint64_t wp;		/* write pointer, bytes from its start */
	uint64_t written;	/* bytes written to it since it opened */
	uint64_t used;		/* LRU stamp; 0 while the slot is free */
	int random;		/* accepts writes in any order */
};

struct sim {
	struct sim_params p;
	struct sim_timing t;
	uint64_t au_pages;
	uint64_t prog, fat_prog;	/* one page */
	uint64_t copy;		/* moving one page inside the card */
	double fold;		/* ns per byte a card that levels off adds */
	uint64_t clock;		/* LRU stamps */
	uint64_t ios;		/* calls so far, for vanish */
	uint64_t rng;
	/*
	 * Reads shift each of their draws by one from a stream of their
	 * own, started by the first read: two runs of the same card that
	 * read differently (the 1 KiB and 3 KiB -a) see independent noise,
	 * as on a real card, and the card's stream moves as it did, so
	 * what follows the reads is as it was.
	 */
	uint64_t rd_rng;
	int rd_started;
	int64_t edge;		/* the profile's read-ahead edge */
	double level;		/* read baseline shift, a fraction */
	unsigned busy;		/* reads left in a housekeeping burst */
	uint64_t busy_ns;	/* what each of them costs extra */
	unsigned nrandom;	/* slots in random mode */
	struct au_slot slot[];	/* p.open of them */
};

static int fail_msg(char *err, size_t errlen, const char *spec,
		    const char *what, const char *fmt, ...)
{
	char msg[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (errlen && what)
		snprintf(err, errlen, "%s: %s: %s", spec, what, msg);
	else if (errlen)
		snprintf(err, errlen, "%s: %s", spec, msg);
	return -EINVAL;
}

static const struct sim_profile *find_profile(const char *name)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

/* Name them all: the user may not know where the help is. */
static int unknown_profile(const char *spec, const char *name, char *err,
			   size_t errlen)
{
	char known[128] = "";
	size_t i, n = 0;

	for (i = 0; i < NPROFILES && n < sizeof(known); i++)
		n += snprintf(known + n, sizeof(known) - n, "%s%s",
			      i ? " " : "", profiles[i].name);
	return fail_msg(err, errlen, spec, name,
			"unknown profile (known: %s)", known);
}

static void load_profile(struct sim_params *p, const struct sim_profile *pr)
{
	memset(p, 0, sizeof(*p));
	p->profile = pr->name;
	p->size = pr->size;
	p->au = pr->au;
	p->page = pr->page;
	p->open = pr->open;
	p->random = pr->random;
	p->fat = pr->fat;
	p->fatstart = pr->fatstart;
	p->noise = SIM_NOISE;
	p->seed = SIM_SEED;
	p->drift = pr->r.drift;
	p->slowau = pr->r.slowau;
	p->merge = pr->w.merge;
	p->level = pr->w.level;
	p->small = pr->w.small;
	p->rcost = pr->w.rcost;
}

/* Plain decimal: a count of AUs or I/Os has no unit suffix. */
static int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

static int set_key(struct sim_params *p, const struct sim_key *k,
		   const char *val, const char *spec, char *err,
		   size_t errlen)
{
	void *field = (char *)p + k->off;
	uint64_t v = 0;
	char *end;
	double d;
	int ret;

	switch (k->kind) {
	case KEY_PERCENT:
		d = strtod(val, &end);
		if (!*val || !strchr("0123456789.", *val) || *end ||
		    !isfinite(d))
			return fail_msg(err, errlen, spec, k->name,
					"not a number");
		if (d < 0 || d > 100)
			return fail_msg(err, errlen, spec, k->name,
					"must be 0..100");
		*(double *)field = d;
		return 0;
	case KEY_SIZE:
	case KEY_FAIL:
		ret = parse_size(val, &v);
		if (ret == -ERANGE)
			return fail_msg(err, errlen, spec, k->name,
					"too large");
		if (ret)
			return fail_msg(err, errlen, spec, k->name,
					"not a size");
		*(uint64_t *)field = v;
		p->has_fail |= k->kind == KEY_FAIL;
		return 0;
	case KEY_U64:
	case KEY_COUNT:
		ret = parse_u64(val, &v);
		if (ret == -ERANGE || (k->kind == KEY_COUNT && v > UINT32_MAX))
			return fail_msg(err, errlen, spec, k->name,
					"too large");
		if (ret)
			return fail_msg(err, errlen, spec, k->name,
					"not a number");
		if (k->kind == KEY_COUNT)
			*(unsigned *)field = (unsigned)v;
		else
			*(uint64_t *)field = v;
		return 0;
	}
	return -EINVAL;
}

static int parse_item(struct sim_params *p, char *item, unsigned *set,
		      const char *spec, char *err, size_t errlen)
{
	char *val = strchr(item, '=');
	size_t i;

	if (!*item)
		return fail_msg(err, errlen, spec, NULL, "empty item");
	if (!val)
		return fail_msg(err, errlen, spec, item,
				"expected key=value (a profile comes first)");
	*val++ = '\0';
	for (i = 0; i < NKEYS; i++) {
		if (strcmp(keys[i].name, item) == 0) {
			*set |= 1u << i;
			return set_key(p, &keys[i], val, spec, err, errlen);
		}
	}
	return fail_msg(err, errlen, spec, item, "unknown key");
}

static int key_set(unsigned set, const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return !!(set & 1u << i);
	return 0;
}

/*
 * Read quirks the keys left alone follow the card: zones scale with the
 * AU, and noise=0 (an exact card) has no random shifts or slow AUs.
 */
static void read_defaults(struct sim_params *p, unsigned set)
{
	if (!key_set(set, "zone"))
		p->zone = find_profile(p->profile)->r.zone_aus * p->au;
	if (p->noise > 0)
		return;
	if (!key_set(set, "drift"))
		p->drift = 0;
	if (!key_set(set, "slowau"))
		p->slowau = 0;
}

static int check_geometry(const struct sim_params *p, const char *spec,
			  char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (!p->size)
		return fail_msg(err, errlen, spec, "size", "must not be zero");
	if (!p->au)
		return fail_msg(err, errlen, spec, "au", "must not be zero");
	if (!p->page)
		return fail_msg(err, errlen, spec, "page", "must not be zero");
	if (p->au % SIM_SECTOR)
		return fail_msg(err, errlen, spec, "au",
				"not a multiple of 512");
	if (p->page % SIM_SECTOR)
		return fail_msg(err, errlen, spec, "page",
				"not a multiple of 512");
	if (p->page > p->au)
		return fail_msg(err, errlen, spec, "page",
				"%s is larger than au (%s)",
				fmt_size(a, p->page), fmt_size(b, p->au));
	if (p->au % p->page)
		return fail_msg(err, errlen, spec, "au",
				"%s is not a multiple of page (%s)",
				fmt_size(a, p->au), fmt_size(b, p->page));
	if (p->size % SIM_SECTOR)
		return fail_msg(err, errlen, spec, "size",
				"not a multiple of 512");
	if (p->zone % SIM_SECTOR)
		return fail_msg(err, errlen, spec, "zone",
				"not a multiple of 512");
	if (p->size > SIM_MAX_SIZE)
		return fail_msg(err, errlen, spec, "size",
				"more than %llu bytes (2^63 - 512; Linux "
				"offsets are signed 64-bit)",
				(unsigned long long)SIM_MAX_SIZE);
	if (p->size / 2 < p->au)
		return fail_msg(err, errlen, spec, "size",
				"%s holds fewer than two AUs of %s",
				fmt_size(a, p->size), fmt_size(b, p->au));
	return 0;
}

static int check_params(const struct sim_params *p, const char *spec,
			char *err, size_t errlen)
{
	int ret = check_geometry(p, spec, err, errlen);

	if (ret)
		return ret;
	if (p->open < 1 || p->open > SIM_MAX_OPEN)
		return fail_msg(err, errlen, spec, "open", "must be 1..%d",
				SIM_MAX_OPEN);
	if (p->random > p->open)
		return fail_msg(err, errlen, spec, "random",
				"%u is more than open (%u)", p->random,
				p->open);
	if (p->fat && p->fatstart >= p->size / p->au)
		return fail_msg(err, errlen, spec, "fatstart",
				"AU %u is beyond the device", p->fatstart);
	if (p->fat && (uint64_t)p->fatstart + p->fat > p->size / p->au)
		return fail_msg(err, errlen, spec, "fat",
				"AUs %u..%u reach beyond the device",
				p->fatstart, p->fatstart + p->fat - 1);
	if (p->has_fail && p->fail >= p->size)
		return fail_msg(err, errlen, spec, "fail",
				"beyond the device");
	return 0;
}

int sim_parse(const char *spec, struct sim_params *p, char *err,
	      size_t errlen)
{
	const char *body = spec;
	char *copy, *rest, *item;
	unsigned set = 0;
	int ret = 0;

	if (strncmp(body, "sim:", 4) == 0)
		body += 4;
	load_profile(p, &profiles[0]);
	if (!*body)
		return 0;
	copy = strdup(body);
	if (!copy) {
		if (errlen)
			snprintf(err, errlen, "%s: out of memory", spec);
		return -ENOMEM;
	}
	rest = copy;
	item = strsep(&rest, ",");
	if (*item && !strchr(item, '=')) {
		const struct sim_profile *pr = find_profile(item);

		if (!pr) {
			ret = unknown_profile(spec, item, err, errlen);
			goto out;
		}
		load_profile(p, pr);
		item = strsep(&rest, ",");
	}
	for (; item && !ret; item = strsep(&rest, ","))
		ret = parse_item(p, item, &set, spec, err, errlen);
	/* A lower open on a random-capable profile lowers random with it. */
	if (!ret && !key_set(set, "random") && p->random > p->open)
		p->random = p->open;
	/* pauses come and go with the jitter, unless told otherwise */
	if (!ret && !key_set(set, "pause"))
		p->pause = p->noise;
	if (!ret)
		read_defaults(p, set);
	if (!ret)
		ret = check_params(p, spec, err, errlen);
out:
	free(copy);
	return ret;
}

static const struct sim_profile *profile_of(const struct sim_params *p)
{
	const struct sim_profile *pr = find_profile(p->profile);

	return pr ? pr : &profiles[0];
}

/* A profile's write keys that differ from the classic model. */
static void help_writes(FILE *f, const struct sim_writes *w)
{
	char a[UNIT_BUFLEN];

	if (w->merge == 100 && !w->level && !w->small && !w->rcost)
		return;
	fprintf(f, "  %-10s", "");
	if (w->merge != 100)
		fprintf(f, " merge=%g", w->merge);
	if (w->level)
		fprintf(f, " level=%g", w->level);
	if (w->small)
		fprintf(f, " small=%s", fmt_size(a, (double)w->small));
	if (w->rcost)
		fprintf(f, " rcost=%g", w->rcost);
	fprintf(f, "\n");
}

void sim_help(FILE *f)
{
	char s[UNIT_BUFLEN], a[UNIT_BUFLEN], g[UNIT_BUFLEN];
	size_t i;

	fprintf(f, "Simulated card: sim:[PROFILE,]key=value,...\n"
		"(virtual time, nothing is stored; \"sim:\" alone is "
		"sim:%s)\n\nProfiles:\n", profiles[0].name);
	for (i = 0; i < NPROFILES; i++) {
		const struct sim_profile *pr = &profiles[i];

		fprintf(f, "  %-10s %s\n", pr->name, pr->card);
		fprintf(f, "  %-10s size=%s au=%s page=%s open=%u random=%u",
			"", fmt_size(s, pr->size), fmt_size(a, pr->au),
			fmt_size(g, pr->page), pr->open, pr->random);
		if (pr->fat)
			fprintf(f, " fat=%u fatstart=%u", pr->fat,
				pr->fatstart);
		fprintf(f, "\n");
		help_writes(f, &pr->w);
	}
	fprintf(f, "\nKeys (sizes take K/M/G/T suffixes; default: the "
		"profile's, or as shown):\n");
	for (i = 0; i < NKEYS; i++)
		fprintf(f, "  %-10s %s\n", keys[i].name, keys[i].help);
}

const char *sim_registers(const struct dev *d)
{
	const struct sim_params *p = sim_get_params(d);

	return p ? profile_of(p)->regs : NULL;
}

const struct sim_params *sim_get_params(const struct dev *d)
{
	const struct sim *s;

	if (d->kind != DEV_SIM || !d->priv)
		return NULL;
	s = d->priv;
	return &s->p;
}

/* splitmix64's finalizer: scrambles a counter into a random word. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64: tiny, fast, and the same sequence for the same seed. */
static uint64_t next_rand(struct sim *s)
{
	return mix64(s->rng += 0x9e3779b97f4a7c15ull);
}

static double to_unit(uint64_t z)
{
	return (double)(z >> 11) * 0x1p-53;
}

static double unit_rand(struct sim *s)
{
	return to_unit(next_rand(s));
}

static double read_rand(struct sim *s)
{
	double u = unit_rand(s) + to_unit(mix64(s->rd_rng +=
					       0x9e3779b97f4a7c15ull));

	return u < 1 ? u : u - 1;
}

static uint64_t jitter(struct sim *s, double (*rnd)(struct sim *),
		       uint64_t ns)
{
	double f;

	if (s->p.noise <= 0)
		return ns;
	f = 1.0 + s->p.noise / 100.0 * (2.0 * rnd(s) - 1.0);
	/* Now and then the controller does housekeeping in between. */
	if (rnd(s) * 1000.0 < s->p.noise)
		f += 1.0 + 3.0 * rnd(s);
	return (uint64_t)((double)ns * f + 0.5);
}

static uint64_t xfer(const struct sim *s, uint64_t len)
{
	/* split so that even a whole 2 TiB card cannot overflow */
	return len / 1000 * s->t.xfer_ps + len % 1000 * s->t.xfer_ps / 1000;
}

/* Flash pages touched by [from, to), to > from. */
static uint64_t pages_in(const struct sim *s, uint64_t from, uint64_t to)
{
	return (to - 1) / s->p.page - from / s->p.page + 1;
}

static int sim_open(struct dev *d, const char *path, char *err,
		    size_t errlen)
{
	const struct sim_profile *pr;
	struct sim_params p;
	struct sim *s;
	int ret;

	ret = sim_parse(path, &p, err, errlen);
	if (ret)
		return ret;
	s = calloc(1, sizeof(*s) + p.open * sizeof(s->slot[0]));
	if (!s) {
		if (errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	pr = profile_of(&p);
	s->p = p;
	s->t = pr->t;
	s->au_pages = p.au / p.page;
	s->prog = s->t.prog_kib * p.page / 1024;
	s->fat_prog = s->prog * SIM_FAT_COST;
	s->copy = s->t.page_rd + s->prog;
	/* level% of the rate: each byte costs 100/level times its due */
	if (p.level > 0)
		s->fold = ((double)s->t.xfer_ps / 1000 +
			   (double)s->t.prog_kib / 1024) * (100 / p.level - 1);
	s->rng = p.seed;
	s->edge = pr->r.edge;
	d->size = p.size;
	d->sector = SIM_SECTOR;
	d->kind = DEV_SIM;
	d->priv = s;
	return 0;
}

static void sim_close(struct dev *d)
{
	free(d->priv);
	d->priv = NULL;
}

/* What every call goes through: a pulled card, bounds, injected faults. */
static int admit(struct sim *s, uint64_t len, uint64_t off, uint64_t *ns)
{
	*ns = 0;
	s->ios++;
	if (s->p.vanish && s->ios > s->p.vanish)
		return -ENODEV;
	if (!len || off > s->p.size || len > s->p.size - off)
		return -ERANGE;
	if (s->p.has_fail && s->p.fail >= off && s->p.fail - off < len)
		return -EIO;
	return 0;
}

/*
 * A fixed draw in [0, 1) for AU boundary i: whether it is slow to cross
 * stays the same across reads, as a remapped block would.
 */
static double boundary_draw(const struct sim *s, uint64_t i, uint64_t salt)
{
	return to_unit(mix64((s->p.seed ^ salt) +
			     i * 0x9e3779b97f4a7c15ull));
}

/* Crossing the AU boundaries inside [off, last]: some cost up to 3x. */
static uint64_t cross_cost(const struct sim *s, uint64_t off, uint64_t last)
{
	uint64_t i, cost = 0;

	for (i = off / s->p.au + 1; i <= last / s->p.au; i++) {
		cost += s->t.au_cross;
		if (boundary_draw(s, i, 0x51) * 100.0 < s->p.slowau)
			cost += (uint64_t)((double)s->t.au_cross *
					   (1.0 + 2.0 * boundary_draw(s, i, 0xa7)));
	}
	return cost;
}

/*
 * The card's state changes now and then (housekeeping, power modes): the
 * baseline shifts for a while, and a rare burst slows a run of reads,
 * long enough that the best of a few tries does not escape it.
 */
static double read_state(struct sim *s)
{
	if (s->p.drift > 0 && read_rand(s) * 2000.0 < 1.0)
		s->level = s->p.drift / 100.0 * (2.0 * read_rand(s) - 1.0);
	if (s->busy) {
		s->busy--;
		return (double)s->busy_ns;
	}
	if (read_rand(s) * 20000.0 < s->p.noise) {
		s->busy = 4 + (unsigned)(12.0 * read_rand(s));
		s->busy_ns = (uint64_t)((double)s->t.rd_cmd *
					(0.5 + 1.5 * read_rand(s)));
	}
	return 0;
}

static int sim_read(struct dev *d, void *buf, uint64_t len, uint64_t off,
		    uint64_t *ns)
{
	struct sim *s = d->priv;
	uint64_t last = off + len - 1;
	double t;
	int ret = admit(s, len, off, ns);

	(void)buf;
	if (ret)
		return ret;
	if (!s->rd_started) {
		s->rd_rng = mix64(s->p.seed ^ mix64(off ^ mix64(len)));
		s->rd_started = 1;
	}
	t = (double)(s->t.rd_cmd + xfer(s, len) +
		     pages_in(s, off, off + len) * s->t.page_rd +
		     cross_cost(s, off, last));
	if (s->p.zone && (last + 1) % s->p.zone == 0)
		t = fmax(t + (double)s->edge, 0.0);
	t = t * (1.0 + s->level) + read_state(s);
	*ns = jitter(s, read_rand, (uint64_t)(t + 0.5));
	return 0;
}

static int is_fat(const struct sim *s, uint64_t au)
{
	return s->p.fat && au >= s->p.fatstart &&
	       au - s->p.fatstart < s->p.fat;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/*
 * Moving pages from an AU's old copy into its new one; a log-structured
 * card moves only part of them now (the rest later, unseen).
 */
static uint64_t move_pages(const struct sim *s, uint64_t pages)
{
	return (uint64_t)((double)(pages * s->copy) * s->p.merge / 100 + 0.5);
}

/*
 * Closing an AU moves the pages it still lacks from the old copy; a card
 * that levels off instead folds what the AU took since it opened out of
 * its log, so that thrashing writes run at a fixed share of the rate:
 * at most an AU's worth, however often an AU kept open was rewritten.
 */
static uint64_t close_cost(const struct sim *s, const struct au_slot *a)
{
	uint64_t done = a->random ? 0 : div_up(a->wp, s->p.page);
	uint64_t folded = a->written < s->p.au ? a->written : s->p.au;

	if (done > s->au_pages)
		done = s->au_pages;
	if (s->p.level > 0 && done < s->au_pages)
		return (uint64_t)((double)folded * s->fold + 0.5);
	return move_pages(s, s->au_pages - done) + s->t.erase;
}

/* A block opened at page head starts with a copy of what precedes it. */
static uint64_t head_cost(const struct sim *s, uint64_t head)
{
	return s->p.level > 0 ? 0 : move_pages(s, head);
}

static struct au_slot *find_slot(struct sim *s, uint64_t au)
{
	unsigned i;

	for (i = 0; i < s->p.open; i++)
		if (s->slot[i].used && s->slot[i].au == au)
			return &s->slot[i];
	return NULL;
}

/* A free slot, else the least recently used one, closed. */
static struct au_slot *take_slot(struct sim *s, uint64_t *cost)
{
	struct au_slot *lru = &s->slot[0];
	unsigned i;

	for (i = 0; i < s->p.open; i++) {
		if (!s->slot[i].used)
			return &s->slot[i];
		if (s->slot[i].used < lru->used)
			lru = &s->slot[i];
	}
	*cost += close_cost(s, lru);
	if (lru->random)
		s->nrandom--;
	lru->random = 0;
	return lru;
}

/* An out-of-order write into a random-capable AU: mapping work. */
static uint64_t random_cost(const struct sim *s, uint64_t pages)
{
	return (uint64_t)((double)(pages * s->prog) * s->p.rcost / 100 + 0.5);
}

/*
 * The random-capable slots go to the AUs written out of order most
 * recently: the one used least recently is closed (merged) to make room.
 */
static int free_random(struct sim *s, uint64_t *cost)
{
	struct au_slot *lru = NULL;
	unsigned i;

	for (i = 0; i < s->p.open; i++)
		if (s->slot[i].random && (!lru || s->slot[i].used < lru->used))
			lru = &s->slot[i];
	if (!lru)
		return 0;
	*cost += close_cost(s, lru);
	s->nrandom--;
	memset(lru, 0, sizeof(*lru));
	return 1;
}

/* Cost of writing [from, to) of one AU, beyond the bus transfer. */
static uint64_t write_au(struct sim *s, uint64_t au, uint64_t from,
			 uint64_t to)
{
	uint64_t pages = pages_in(s, from, to), cost = pages * s->prog;
	uint64_t head = from / s->p.page, done;
	struct au_slot *a;

	if (is_fat(s, au))
		return pages * s->fat_prog;
	a = find_slot(s, au);
	if (!a && to - from <= s->p.small) {
		/* small writes go to a buffer of their own */
		return cost;
	} else if (!a) {
		a = take_slot(s, &cost);
		a->au = au;
		a->written = 0;
		cost += head_cost(s, head);
	} else if (a->random) {
		/* any order is fine, at a price */
		cost += from != a->wp ? random_cost(s, pages) : 0;
	} else if (from >= a->wp) {
		done = div_up(a->wp, s->p.page);
		cost += head > done ? move_pages(s, head - done) : 0;
	} else if (a->wp < s->p.au && s->p.random &&
		   (s->nrandom < s->p.random || free_random(s, &cost))) {
		a->random = 1;
		s->nrandom++;
		cost += random_cost(s, pages);
	} else {
		/*
		 * Out of order: garbage-collect and start over; a full AU
		 * written again from the start just starts over.
		 */
		cost += close_cost(s, a) + head_cost(s, head);
		a->written = 0;
	}
	a->wp = to;
	a->written += to - from;
	a->used = ++s->clock;
	return cost;
}

/*
 * Now and then the card stops to collect garbage, for tens to hundreds
 * of milliseconds, the more often the more it is given to write (seed
 * 000's five-sample runs: a row in five at a third of its rate).
 */
static uint64_t pauses(struct sim *s, uint64_t len)
{
	double expect = s->p.pause / 100 * (double)len / (1 << 20), ns = 0;
	uint64_t n;

	if (expect <= 0)
		return 0;
	n = (uint64_t)expect + (unit_rand(s) < expect - floor(expect));
	while (n--)
		ns += (20 + 180 * unit_rand(s)) * 1e6;
	return (uint64_t)ns;
}

static int sim_write(struct dev *d, const void *buf, uint64_t len,
		     uint64_t off, uint64_t *ns)
{
	struct sim *s = d->priv;
	int ret = admit(s, len, off, ns);
	uint64_t t, au, rel, n, total = len;

	(void)buf;
	if (ret)
		return ret;
	t = s->t.wr_cmd + xfer(s, len);
	while (len) {
		au = off / s->p.au;
		rel = off - au * s->p.au;
		n = s->p.au - rel < len ? s->p.au - rel : len;
		t += write_au(s, au, rel, rel + n);
		off += n;
		len -= n;
	}
	*ns = jitter(s, unit_rand, t) + pauses(s, total);
	return 0;
}

static int sim_discard(struct dev *d, uint64_t off, uint64_t len,
		       uint64_t *ns)
{
	struct sim *s = d->priv;
	int ret = admit(s, len, off, ns);
	uint64_t first, end;
	unsigned i;

	if (ret)
		return ret;
	/* Only AUs covered whole get erased; the rest is bookkeeping. */
	first = div_up(off, s->p.au);
	end = (off + len) / s->p.au;
	if (end < first)
		end = first;
	for (i = 0; i < s->p.open; i++) {
		struct au_slot *a = &s->slot[i];

		if (!a->used || a->au < first || a->au >= end)
			continue;
		if (a->random)
			s->nrandom--;
		memset(a, 0, sizeof(*a));
	}
	*ns = jitter(s, unit_rand,
		     s->t.discard_cmd + (end - first) * s->t.erase);
	return 0;
}

const struct dev_ops sim_ops = {
	.name = "sim",
	.open = sim_open,
	.read = sim_read,
	.write = sim_write,
	.discard = sim_discard,
	.close = sim_close,
};
