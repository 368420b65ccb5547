// SPDX-License-Identifier: GPL-2.0
/*
 * Verdicts: golden analyses of the seed reports, compared with what the
 * expert who read each one concluded, and synthetic tables (clean, flat,
 * noisy).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analysis/analysis.h"
#include "check.h"
#include "output/verdicts.h"
#include "report/report.h"
#include "seeds/seeds.h"
#include "analysis/stats.h"

#define MiB (1024ULL * 1024)
#define KiB 1024ULL
#define NONE_AT 0	/* expected value: null (not derivable) */
#define ANY 1		/* confidence bounds: any value allowed */

enum field { ERASE, PAGE, LINEAR, RANDOM, MINWRITE, FAT };

/* One expectation: value (0 with null = 1 for "no value"), whether it
 * is a bound (1 "at least", -1 "at most") and a range of acceptable
 * confidence. */
struct expect {
	enum field field;
	int null;
	uint64_t value;
	int bound;
	enum confidence lo, hi;
	const char *why;	/* the expert's words */
};

static const struct verdict *field(const struct analysis *a, enum field f)
{
	const struct verdict *v[] = {
		&a->erase_size, &a->page_size, &a->open_au_linear,
		&a->open_au_random, &a->min_full_speed_write, &a->fat_aus,
	};

	return v[f];
}

static void expect(const char *what, const struct analysis *a,
		   const struct expect *e)
{
	const struct verdict *v = field(a, e->field);
	int ok = v->type != V_NONE && v->is_null == e->null &&
		 v->conf >= e->lo && v->conf <= e->hi;

	if (ok && !e->null && v->type == V_LIST)
		ok = v->nlist == (e->value ? 1 : 0) &&
		     (!e->value || v->list[0] == e->value - 1);
	else if (ok && !e->null)
		ok = v->value == e->value && v->at_least - v->at_most ==
		     e->bound;
	CHECK(ok, "%s: %s -- got %s%s%llu (%s): %s", what, e->why,
	      v->is_null ? "null " : "", v->at_least ? "at least " :
	      v->at_most ? "at most " : "", (unsigned long long)v->value,
	      confidence_name(v->conf), v->evidence);
}

/* Analyse one section (or one table of it) of a seed. */
static void golden(const char *seed, size_t sec, long table,
		   const char *what, const struct expect *e, size_t n)
{
	struct analysis a;
	struct report r;
	size_t i;

	if (seed_parse(seed, &r) < 0 || sec >= r.nsecs) {
		CHECK(0, "%s: section %zu of %s", what, sec, seed);
		report_free(&r);
		return;
	}
	if (table >= 0)
		analyze(r.tabs + table, 1, &r.secs[sec].ctx, &a);
	else
		analyze(r.tabs + r.secs[sec].first, r.secs[sec].ntabs,
			&r.secs[sec].ctx, &a);
	for (i = 0; i < n; i++)
		expect(what, &a, &e[i]);
	report_free(&r);
}

#define GOLDEN(seed, sec, table, what, ...)				\
	do {								\
		static const struct expect e_[] = { __VA_ARGS__ };	\
		golden(seed, sec, table, what, e_,			\
		       sizeof(e_) / sizeof(e_[0]));			\
	} while (0)

static void seed_002_sd08g(void)
{
	GOLDEN(SEED_002, 0, -1, "002 SD08G",
	       { ERASE, 0, 4 * MiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "## 4MiB erase block" },
	       /* low: the 8KiB row's scatter could hide a multi-plane step */
	       { PAGE, 0, 16 * KiB, 0, CONF_LOW, CONF_HIGH,
		 "## 16KiB pages" },
	       { FAT, 0, 1 + 1, 0, CONF_MEDIUM, CONF_HIGH,
		 "## Special fat area in 2nd erase block (4MiB to 8MiB)" },
	       { LINEAR, 0, 6, 0, CONF_MEDIUM, CONF_HIGH,
		 "## 6 linear open-au." },
	       { RANDOM, 0, 0, 0, CONF_LOW, CONF_MEDIUM,
		 "## Rather poor random." },
	       /* "The drop in speed at 1MiB and 512kiB is consistent, across
		* runs. But only with 1 open-au." -- erratic, so not high;
		* writes get slower down to the 16 KiB page: 32 KiB and up
		* at full speed, 16 KiB too near the edge to call */
	       { MINWRITE, 0, 32 * KiB, -1, CONF_LOW, CONF_MEDIUM,
		 "dip at 1MiB/512KiB with 1 open AU" });
	/*
	 * the --blocksize=$[3*1024] table on its own: a 12 MiB step is a
	 * 12 MiB or a 4 MiB unit, which 3x2^n rows alone cannot tell
	 */
	GOLDEN(SEED_002, 0, 1, "002 SD08G 3*1024",
	       { ERASE, 1, 0, 0, CONF_INCONCLUSIVE, CONF_INCONCLUSIVE,
		 "## 12 MiB might be significant, but probably not; "
		 "no factor of 3" });
}

static void seed_004_samsung_sandisk(void)
{
	GOLDEN(SEED_004, 0, -1, "004 Samsung EVO",
	       { ERASE, 0, 16 * MiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "16MB boundary has performance penalty = allocation unit" },
	       { PAGE, 0, 16 * KiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "16KB performance penalty = page size" });
	GOLDEN(SEED_004, 1, -1, "004 Sandisk Ultra",
	       { ERASE, 0, 1 * MiB, 0, CONF_LOW, CONF_LOW,
		 "Results all over the place; 1MB boundary has performance "
		 "penalty = allocation unit?" },
	       { PAGE, 1, 0, 0, CONF_INCONCLUSIVE, CONF_INCONCLUSIVE,
		 "64KB dip, 4KB spike: no page size" });
}

static void seed_001_su04g(void)
{
	GOLDEN(SEED_001, 0, -1, "001 SU04G",
	       { LINEAR, 0, 2, 0, CONF_MEDIUM, CONF_HIGH,
		 "evidently, the card can deal with two concurrently open "
		 "4 MB erase blocks" },
	       { MINWRITE, 0, 32 * KiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "16KiB at 3.14M/s, 32KiB and up at ~9M/s" });
}

static void seed_003_samsung16(void)
{
	GOLDEN(SEED_003, 0, -1, "003 Samsung 16GB",
	       /* "Possibly 0.5 MiB erase block based on factored size";
		* the step is inverted (-10µs above 16MiB, 40µs below) */
	       { ERASE, 0, 16 * MiB, 0, CONF_LOW, CONF_LOW,
		 "flashbench is not good at analysing this kind of device" },
	       { PAGE, 0, 16 * KiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "~40µs down to 16KiB, ~0 below" },
	       { LINEAR, 0, 7, 1, CONF_LOW, CONF_MEDIUM,
		 "Doing open-au tests nets no useful data, it's always fast" },
	       { RANDOM, 0, 7, 1, CONF_LOW, CONF_MEDIUM,
		 "performance the same as the --open-au-nr=7 tests" });
}

static void seed_000_digest(void)
{
	GOLDEN(SEED_000, 0, -1, "000 SanDisk CF",
	       { ERASE, 1, 0, 0, CONF_INCONCLUSIVE, CONF_INCONCLUSIVE,
		 "The data must be misleading on this card" },
	       { FAT, 0, 0, 0, CONF_LOW, CONF_MEDIUM,
		 "It's not possible to actually see any FAT optimizations" });
	GOLDEN(SEED_000, 1, -1, "000 Kingston SA04G",
	       { ERASE, 0, 4 * MiB, 0, CONF_MEDIUM, CONF_HIGH,
		 "1.2ms at >= 4MiB, 15µs at 2MiB; preferred_erase 4MiB" });
	GOLDEN(SEED_000, 2, -1, "000 Sandisk Extreme III",
	       /*
		* noisy -a: 117µs at 1MiB, 45.7µs at 512KiB, 6.82µs at
		* 256KiB; the expert went on with --erasesize=1MiB
		*/
	       { ERASE, 0, 1024 * KiB, 0, CONF_LOW, CONF_MEDIUM,
		 "next runs use --erasesize=$[1024*1024]" });
	/*
	 * His table has 2^n boundaries only and the card's 3965190144
	 * bytes are 2521 x 1.5 MiB: a 1.5 MiB block would read the same,
	 * so the value stands but is not sure (-a --blocksize=3k would
	 * tell).
	 */
	GOLDEN(SEED_000, 3, -1, "000 Sascha SD04G",
	       { ERASE, 0, 512 * KiB, 0, CONF_LOW, CONF_HIGH,
		 "step at 512KiB (his runs use EBS=524288)" },
	       { PAGE, 0, 4 * KiB, 0, CONF_LOW, CONF_HIGH,
		 "steps at 8KiB and 4KiB" },
	       /* N=5 collapses below 6 and 7 that held: 4 to 7 */
	       { LINEAR, 0, 4, 1, CONF_LOW, CONF_LOW,
		 "I have a feeling 5 samples are not enough" },
	       { FAT, 0, 0, 0, CONF_LOW, CONF_MEDIUM, "no special AU" });
	GOLDEN(SEED_000, 4, -1, "000 Intel X25",
	       { ERASE, 1, 0, 0, CONF_INCONCLUSIVE, CONF_INCONCLUSIVE,
		 "diffs of 1-3µs: nothing to see in -a" },
	       { LINEAR, 0, 130, 1, CONF_LOW, CONF_MEDIUM,
		 "Absolutely no effects can be measured based on number of "
		 "open erase blocks" });
	GOLDEN(SEED_000, 5, -1, "000 Patriot Rage XT",
	       { LINEAR, 0, 12, 0, CONF_LOW, CONF_MEDIUM,
		 "The device can access 12 12 MB erase blocks ... The "
		 "results are still not conclusive" });
	GOLDEN(SEED_000, 6, -1, "000 Patriot Xporter XT",
	       { ERASE, 0, 8 * MiB, 0, CONF_HIGH, CONF_HIGH,
		 "The erase block size is clearly 8 MB" },
	       /* not from -a; from the -O runs' write times, low */
	       { PAGE, 0, 32 * KiB, 0, CONF_LOW, CONF_LOW,
		 "page size looks like 32 KB effective" },
	       { LINEAR, 0, 8, 0, CONF_HIGH, CONF_HIGH,
		 "nine blocks is where we hit the wall" },
	       { FAT, 0, 0, 0, CONF_LOW, CONF_MEDIUM,
		 "Looking for FAT optimizations, nothing there" });
}

/* An align table from diffs (ns) at 8GiB, 4GiB, ... down to 2KiB. */
static void align_table(struct table *t, const double *diff, size_t n)
{
	uint64_t key = 8ULL << 30;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->kind = TAB_ALIGN;
	for (i = 0; i < n; i++, key /= 2) {
		struct table_row *r = table_add_row(t, key);

		if (!r)
			return;
		r->v[0] = r->v[2] = 800e3;
		r->v[1] = 800e3 + diff[i];
		r->v[3] = diff[i];
	}
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void synthetic_align(void)
{
	struct analysis_ctx ctx = { .dev_size = 8000ULL << 20 };
	double d[23];
	struct analysis a;
	struct table t;
	uint32_t s = 3;
	size_t i;

	/* 300µs >= 4MiB, 160µs down to 16KiB, 5µs below, some jitter */
	for (i = 0; i < 23; i++)
		d[i] = (i <= 11 ? 300e3 : i <= 19 ? 160e3 : 5e3) +
		       (double)(lcg(&s) % 4000);
	align_table(&t, d, 23);
	analyze(&t, 1, &ctx, &a);
	CHECK(a.erase_size.value == 4 * MiB && a.erase_size.conf == CONF_HIGH
	      && a.page_size.value == 16 * KiB &&
	      a.page_size.conf == CONF_HIGH, "clean two-level table: high");
	table_free(&t);

	for (i = 0; i < 23; i++)
		d[i] = 20e3 + (double)(lcg(&s) % 1500);
	align_table(&t, d, 23);
	analyze(&t, 1, &ctx, &a);
	CHECK(a.erase_size.is_null && a.erase_size.conf == CONF_INCONCLUSIVE
	      && a.page_size.is_null, "flat table: inconclusive, no value");
	table_free(&t);

	for (i = 0; i < 23; i++)
		d[i] = (double)(lcg(&s) % 200000);
	align_table(&t, d, 23);
	analyze(&t, 1, &ctx, &a);
	CHECK(a.erase_size.conf < CONF_HIGH && a.page_size.conf < CONF_HIGH,
	      "noise: not high (erase %s, page %s)",
	      confidence_name(a.erase_size.conf),
	      confidence_name(a.page_size.conf));
	table_free(&t);
}

/*
 * A live -a run on a 64 MiB device with no geometry (memory), 256 KiB
 * blocks: 7 places a row, each 8 MiB apart, read at about 50us with
 * 1us of scatter, where the 4 places at multiples of 24 MiB happen to
 * read 15us slower (another program's reads under load).  Four places
 * are chance, not an erase block.
 */
static void places_by_chance(void)
{
	struct analysis_ctx ctx = { .dev_size = 64ULL << 20 };
	const unsigned np = 7;
	uint64_t key = 16ULL << 20;
	struct analysis a;
	struct table t;
	uint32_t s = 11;
	unsigned k, i;

	memset(&t, 0, sizeof(t));
	t.kind = TAB_ALIGN;
	t.blocksize = 256 * KiB;
	t.ncols = 4 + 3 * np;
	t.kept_from = 4;
	t.nkept = 3 * np;
	for (k = 0; k < np; k++)
		t.kept_at[k] = (uint64_t)k * (8ULL << 20);
	for (i = 0; i < 6; i++, key /= 2) {
		struct table_row *r = table_add_row(&t, key);
		double *v, pre = 0, on = 0, post = 0;

		if (!r)
			return;
		v = r->v + t.kept_from;
		for (k = 0; k < np; k++) {
			int hit = (t.kept_at[k] + key) % (24ULL << 20) == 0;

			v[k] = 50e3 + (double)(lcg(&s) % 1000);
			v[2 * np + k] = 50e3 + (double)(lcg(&s) % 1000);
			v[np + k] = 50e3 + (double)(lcg(&s) % 1000) +
				    (hit ? 15e3 : 0);
			pre += v[k] / np;
			on += v[np + k] / np;
			post += v[2 * np + k] / np;
		}
		r->v[0] = pre;
		r->v[1] = on;
		r->v[2] = post;
		r->v[3] = on - (pre + post) / 2;
	}
	analyze(&t, 1, &ctx, &a);
	CHECK(a.erase_size.conf < CONF_MEDIUM,
	      "4 slow places on a 64MiB device: no erase block (%s)",
	      confidence_name(a.erase_size.conf));
	CHECK(a.page_size.conf < CONF_MEDIUM,
	      "4 slow places on a 64MiB device: no page (%s)",
	      confidence_name(a.page_size.conf));
	table_free(&t);
}

/*
 * An align table of n rows from top down, halving (a 3x2^n table when
 * top is), its diffs d (ns); pre and post at 800µs but where asym[i]
 * moves pre up by that much (a baseline that shifted inside the row).
 */
static void align_rows(struct table *t, uint64_t top, const double *d,
		       const double *asym, size_t n)
{
	uint64_t key = top;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->kind = TAB_ALIGN;
	for (i = 0; i < n; i++, key /= 2) {
		struct table_row *r = table_add_row(t, key);
		double a = asym ? asym[i] : 0;

		if (!r)
			return;
		r->v[0] = 800e3 + a;
		r->v[2] = 800e3;
		r->v[3] = d[i] - a / 2;
		r->v[1] = r->v[3] + (r->v[0] + r->v[2]) / 2;
	}
}

/* 300µs from 4MiB, 160µs down to 16KiB, 5µs below, jitter of j ns. */
static void staircase(double *d, size_t n, uint32_t *s, unsigned j)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = (i <= 11 ? 300e3 : i <= 19 ? 160e3 : 5e3) +
		       (double)(lcg(s) % j);
}

static void sure(const char *what, const struct verdict *v, uint64_t value)
{
	CHECK(v->value == value && v->conf >= CONF_MEDIUM, "%s: %llu (%s) -- "
	      "%s", what, (unsigned long long)v->value,
	      confidence_name(v->conf), v->evidence);
}

static void unsure(const char *what, const struct verdict *v)
{
	CHECK(v->is_null || v->conf < CONF_MEDIUM, "%s: %llu (%s) -- %s",
	      what, (unsigned long long)v->value, confidence_name(v->conf),
	      v->evidence);
}

static void has_note(const char *what, const struct verdict *v,
		     const char *words)
{
	CHECK(strstr(v->note, words) != NULL, "%s: the note names \"%s\": "
	      "%s", what, words, v->note);
}

/*
 * Multi-plane reads: the page is the first step above the floor, the
 * larger step at 2 or 4 pages a note; a first step the table cannot
 * tell from the floor leaves the page low.
 */
static void multi_plane(void)
{
	/* tests/real/004-sandisk-sd04g-class4.txt (seed 000, Sascha
	 * Silbe's SD04G), -a --blocksize=1024, 1GiB down to 2KiB */
	static const double sd04g[] = {
		791e3, 840e3, 871e3, 839e3, 855e3, 853e3, 862e3, 858e3,
		857e3, 868e3, 862e3, 859e3, 280e3, 281e3, 300e3, 293e3,
		264e3, 272e3, 52.5e3, 2.51e3,
	};
	/* sim:sd08g,size=7339376640,au=8388608,page=16384,noise=6,
	 * seed=140142644,planes=2,planecost=33 -a --blocksize=1024: a
	 * 16KiB page read two at a time, its own step 5.97µs in noise */
	static const double hidden[] = {
		209e3, 170e3, 166e3, 169e3, 165e3, 165e3, 193e3, 189e3,
		16.9e3, 17.6e3, 19.9e3, 18.5e3, 17.5e3, 19.1e3, 21.6e3,
		19.2e3, 5.97e3, -1.28e3, -3, 2.89e3,
	};
	struct analysis_ctx ctx = { .dev_size = 8000ULL << 20 };
	struct analysis a;
	struct table t;
	double d[20];
	size_t i;

	align_rows(&t, 1ULL << 30, sd04g, NULL, 20);
	analyze(&t, 1, &ctx, &a);
	CHECK(a.page_size.value == 4 * KiB, "004 SD04G: page %llu, not the "
	      "8KiB group", (unsigned long long)a.page_size.value);
	has_note("004 SD04G", &a.page_size, "reads 2 pages at once");
	table_free(&t);

	align_rows(&t, 1ULL << 30, hidden, NULL, 20);
	analyze(&t, 1, &ctx, &a);
	unsure("a first step in the noise: the 32KiB group", &a.page_size);
	has_note("a first step in the noise", &a.page_size, "multi-plane");
	table_free(&t);

	/* a 2KiB page read four at a time: 2KiB and 4KiB at 7.5µs, 8KiB
	 * and up at 24µs, 4MiB and up at 220µs */
	for (i = 0; i < 20; i++)
		d[i] = i <= 8 ? 220e3 : i <= 17 ? 24e3 + 300.0 * (double)(i % 3)
		       : 7.5e3 + 200.0 * (double)(i - 18);
	align_rows(&t, 1ULL << 30, d, NULL, 20);
	analyze(&t, 1, &ctx, &a);
	unsure("a floor above zero: the 8KiB group", &a.page_size);
	has_note("a floor above zero", &a.page_size, "multi-plane");
	table_free(&t);
}

/* What tables without a unit, or with a row gone astray, must not say. */
static void synthetic_noise(void)
{
	double d[23], asym[23] = { 0 };
	struct analysis a;
	struct table t[3];
	uint32_t s = 7;
	size_t i;

	/* about nothing down to rows that read faster across than beside */
	for (i = 0; i < 7; i++)
		d[i] = (i < 5 ? 1.3e3 : -6.2e3) + (double)(lcg(&s) % 900);
	align_rows(&t[0], 32 << 20, d, NULL, 7);
	analyze(t, 1, NULL, &a);
	unsure("a step from noise to negative diffs", &a.erase_size);
	table_free(&t[0]);

	/* the first row of a run alone slow: warming up, no unit */
	for (i = 0; i < 23; i++)
		d[i] = (i ? 2e3 : 4.7e6) + (double)(lcg(&s) % 1500);
	align_rows(&t[0], 8ULL << 30, d, NULL, 23);
	analyze(t, 1, NULL, &a);
	unsure("the top row alone", &a.erase_size);
	table_free(&t[0]);

	/* one row far off does not flatten a table */
	staircase(d, 23, &s, 4000);
	d[16] = 5e6;
	align_rows(&t[0], 8ULL << 30, d, NULL, 23);
	analyze(t, 1, NULL, &a);
	sure("an outlier row: erase block", &a.erase_size, 4 * MiB);
	sure("an outlier row: page", &a.page_size, 16 * KiB);
	table_free(&t[0]);

	/*
	 * The row at the page's edge read across a shift of the baseline:
	 * pre 40µs up, its diff 20µs down into the floor.  It sets no
	 * level, and the page is not said to be 32KiB.
	 */
	staircase(d, 23, &s, 4000);
	d[19] = 140e3;
	asym[19] = 40e3;
	align_rows(&t[0], 8ULL << 30, d, asym, 23);
	analyze(t, 1, NULL, &a);
	CHECK(a.page_size.value != 32 * KiB || a.page_size.conf < CONF_MEDIUM,
	      "a shifted edge row: page %llu (%s)",
	      (unsigned long long)a.page_size.value,
	      confidence_name(a.page_size.conf));
	table_free(&t[0]);
}

/* Tables that read alike: sure together; alone unsure; unlike: unsure. */
static void synthetic_runs(void)
{
	enum confidence alone[3];
	double d[23];
	struct analysis a;
	struct table t[3];
	uint32_t s = 11;
	size_t i, k;


	/*
	 * A page step of 20µs against rows that scatter by 3µs, the row
	 * under it a quarter of the way up: each run alone is not sure where
	 * the step is, three together are surer.
	 */
	for (i = 0; i < 3; i++) {
		staircase(d, 23, &s, 1);
		for (k = 12; k < 23; k++)
			d[k] = (k <= 19 ? 25e3 : 5e3) +
			       ((k + i) % 2 ? 3e3 : -3e3);
		d[20] = 10e3;
		align_rows(&t[i], 8ULL << 30, d, NULL, 23);
		analyze(&t[i], 1, NULL, &a);
		alone[i] = a.page_size.is_null ? CONF_INCONCLUSIVE :
			   a.page_size.value == 16 * KiB ? a.page_size.conf :
			   CONF_HIGH;
	}
	CHECK(alone[0] < CONF_MEDIUM && alone[1] < CONF_MEDIUM &&
	      alone[2] < CONF_MEDIUM, "a noisy page alone: %s, %s, %s",
	      confidence_name(alone[0]), confidence_name(alone[1]),
	      confidence_name(alone[2]));
	analyze(t, 3, NULL, &a);
	CHECK(a.page_size.value == 16 * KiB &&
	      a.page_size.conf >= CONF_MEDIUM,
	      "three runs that agree: %llu (%s) -- %s",
	      (unsigned long long)a.page_size.value,
	      confidence_name(a.page_size.conf), a.page_size.evidence);
	for (i = 0; i < 3; i++)
		table_free(&t[i]);

	/* two runs sure of different erase blocks: neither is sure */
	staircase(d, 23, &s, 4000);
	align_rows(&t[0], 8ULL << 30, d, NULL, 23);
	for (i = 0; i < 23; i++)
		d[i] = (i <= 10 ? 300e3 : i <= 19 ? 160e3 : 5e3) +
		       (double)(lcg(&s) % 4000);
	align_rows(&t[1], 8ULL << 30, d, NULL, 23);
	analyze(t, 2, NULL, &a);
	unsure("two runs, 4MiB and 8MiB", &a.erase_size);
	table_free(&t[0]);
	table_free(&t[1]);
}

/*
 * A 64KiB page of 200µs and a 1MiB erase block of 60µs more: the 3x2^n
 * rows step at 192KiB for the page (and weakly at 3MiB), which is no
 * erase block (evo32-like cards).
 */
static void synthetic_pair(void)
{
	double d2[23], d3[21];
	struct analysis a;
	struct table t[2];
	uint32_t s = 5;
	size_t i;
	uint64_t k;

	for (i = 0, k = 8ULL << 30; i < 23; i++, k /= 2)
		d2[i] = (k >= 1 * MiB ? 260e3 : k >= 64 * KiB ? 200e3 : 0) +
			(double)(lcg(&s) % 20000);
	for (i = 0, k = 6ULL << 30; i < 21; i++, k /= 2)
		d3[i] = (k >= 3 * MiB ? 260e3 : k >= 192 * KiB ? 200e3 : 0) +
			(double)(lcg(&s) % 20000);
	align_rows(&t[0], 8ULL << 30, d2, NULL, 23);
	align_rows(&t[1], 6ULL << 30, d3, NULL, 21);
	analyze(t, 2, NULL, &a);
	CHECK(a.erase_size.value != 192 * KiB || a.erase_size.conf < CONF_MEDIUM,
	      "a 64KiB page in 3x2^n rows is no 192KiB erase block: %llu (%s)",
	      (unsigned long long)a.erase_size.value,
	      confidence_name(a.erase_size.conf));
	sure("the page the 2^n and 3x2^n rows both show", &a.page_size,
	     64 * KiB);
	table_free(&t[0]);
	table_free(&t[1]);
}

/* A sweep table: rates at 4MiB..16KiB for N=n..n+3, N=n+3 collapses. */
static void sweep_table(struct table *t, unsigned n)
{
	uint64_t key;
	unsigned j;

	memset(t, 0, sizeof(*t));
	t->kind = TAB_SWEEP;
	t->erasesize = 4 * MiB;
	t->ncols = 4;
	for (j = 0; j < 4; j++)
		t->col_nr[j] = n + j;
	for (key = 4 * MiB; key >= 16 * KiB; key /= 2) {
		struct table_row *r = table_add_row(t, key);

		for (j = 0; r && j < 4; j++)
			r->v[j] = j < 3 ? 9e6 : 9e6 * (double)key / (4 * MiB);
	}
}

static void synthetic_sweep(void)
{
	struct analysis a;
	struct table t;

	sweep_table(&t, 1);
	analyze(&t, 1, NULL, &a);
	CHECK(a.open_au_linear.value == 3 && !a.open_au_linear.at_least &&
	      a.open_au_linear.conf == CONF_HIGH,
	      "sweep: 3 open AUs, N=4 collapses (%s)",
	      a.open_au_linear.evidence);
	CHECK(a.open_au_random.type == V_NONE && a.erase_size.type == V_NONE,
	      "sweep: no random or align verdict");
	table_free(&t);
}

/*
 * A sweep of N=1..ncols over an AU of au bytes down to 16KiB: shape(j, i)
 * times 9M/s in column j at row i (row 0: the whole AU).
 */
static void shaped_sweep(struct table *t, int random, uint64_t au,
			 unsigned ncols, double (*shape)(unsigned, unsigned))
{
	uint64_t key;
	unsigned j, i;

	memset(t, 0, sizeof(*t));
	t->kind = TAB_SWEEP;
	t->random = random;
	t->erasesize = au;
	t->ncols = ncols;
	for (j = 0; j < ncols; j++)
		t->col_nr[j] = j + 1;
	for (key = au, i = 0; key >= 16 * KiB; key /= 2, i++) {
		struct table_row *r = table_add_row(t, key);

		for (j = 0; r && j < ncols; j++)
			r->v[j] = 9e6 * shape(j, i);
	}
}

/* N=4 declines from the half AU, 91 % of the size before, to half. */
static double declining(unsigned j, unsigned i)
{
	return j < 3 || !i ? 1 : pow(0.91, i - 1) * 0.95;
}

/*
 * Random order that costs more the smaller the writes (down to 45 % of
 * the whole-AU rate from 128KiB on) within the limit of 2, a collapse to
 * a tenth of that past it.
 */
static double random_cost(unsigned j, unsigned i)
{
	double cost = i < 2 ? 1 : fmax(0.45, 1 - 0.15 * (i - 1));

	return j < 2 ? cost : cost / (i < 2 ? 1 : 10);
}

/* N=4 at 45 % from 256KiB down (30 % at 16KiB), N=3 nearly as slow. */
static double alike(unsigned j, unsigned i)
{
	if (j < 2 || i < 4)
		return 1;
	if (j == 2)
		return i == 8 ? 0.37 : 0.55;
	return i == 8 ? 0.3 : 0.45;
}

/*
 * N=5 and 6 collapse at 512KiB and 256KiB of a 1MiB AU, four chunks or
 * fewer (an order that goes backwards only once the AU is whole), and
 * from 128KiB down are as fast as N=4: writes that small skip the slots
 * (the sim's sd08g at 1MiB AUs; N=4 and up pay for random order at
 * 128KiB).
 */
static double big_only(unsigned j, unsigned i)
{
	static const double past[] = { 1, 0.58, 0.35, 0.78 };

	if (i == 3 && j == 3)
		return 0.75;
	return j < 4 || i > 3 ? 1 : past[i];
}

/*
 * N=4 at 47 % from 256KiB to 64KiB of a 4MiB AU, back at 80 % below; N=5
 * and 6 at a tenth from 1MiB down (a linear sweep of the sim's noisiest
 * cards: the limit was 4).
 */
static double shallow(unsigned j, unsigned i)
{
	if (j < 3 || i < 2)
		return 1;
	if (j == 3)
		return i >= 4 && i <= 6 ? 0.47 : i > 6 ? 0.8 : 1;
	return 0.1;
}

/*
 * Full speed at every size of a 4MiB AU (a 100us command, 9M/s), each
 * write off by up to 10 % of deterministic noise of its own.
 */
static double noisy(unsigned j, unsigned i)
{
	double size = (double)(4 * MiB >> i), u;
	uint32_t h = (j * 2654435761u) ^ (i * 40503u + 17);

	h ^= h >> 13;
	h *= 0x5bd1e995;
	h ^= h >> 15;
	u = (double)(h % 2001) / 1000 - 1;
	return size / (1e-4 + size / 9e6) / 9e6 * (1 + 0.1 * u);
}

static double flat(unsigned j, unsigned i)
{
	(void)j;
	(void)i;
	return 1;
}

/* The verdicts on one shaped_sweep(). */
static void shaped_analysis(struct analysis *a, int random, uint64_t au,
			    unsigned ncols,
			    double (*shape)(unsigned, unsigned))
{
	struct table t;

	shaped_sweep(&t, random, au, ncols, shape);
	analyze(&t, 1, NULL, a);
	table_free(&t);
}

static void synthetic_shapes(void)
{
	struct analysis a;

	/* a decline size after size is a collapse, not a thin dip */
	shaped_analysis(&a, 0, 4 * MiB, 4, declining);
	CHECK(a.open_au_linear.value == 3 && !a.open_au_linear.at_least &&
	      a.open_au_linear.conf >= CONF_MEDIUM,
	      "sweep: N=4 declining to half is a collapse (%s)",
	      a.open_au_linear.evidence);

	/* the best run falls, but runs of more AUs fall ten times lower */
	shaped_analysis(&a, 1, 4 * MiB, 4, random_cost);
	CHECK(a.open_au_random.value == 2 && a.open_au_random.at_least,
	      "random sweep: the card's random-order cost is no collapse "
	      "(%s)", a.open_au_random.evidence);

	/* what held looks like what collapsed: the count is not sure */
	shaped_analysis(&a, 0, 4 * MiB, 4, alike);
	CHECK(a.open_au_linear.conf == CONF_LOW,
	      "sweep: N=3 as slow where N=4 collapses (%s)",
	      a.open_au_linear.evidence);

	/* a first collapse far shallower than the next: not sure */
	shaped_analysis(&a, 0, 4 * MiB, 6, shallow);
	CHECK(a.open_au_linear.value == 3 && a.open_au_linear.conf == CONF_LOW,
	      "sweep: N=4 collapses far less deeply than N=5 (%s)",
	      a.open_au_linear.evidence);

	/*
	 * too noisy for the best of the runs alone to stand clear of the
	 * edge, but four runs read one by one end where it does
	 */
	shaped_analysis(&a, 0, 4 * MiB, 5, noisy);
	CHECK(a.min_full_speed_write.value == 16 * KiB &&
	      a.min_full_speed_write.conf == CONF_MEDIUM &&
	      strstr(a.min_full_speed_write.evidence, "one by one"),
	      "sweep: noisy runs that agree (%s)",
	      a.min_full_speed_write.evidence);
	/* two are too few: only the bound the line's sizes give at N=1 */
	shaped_analysis(&a, 0, 4 * MiB, 2, noisy);
	CHECK(a.min_full_speed_write.at_most &&
	      a.min_full_speed_write.value == 64 * KiB &&
	      !strstr(a.min_full_speed_write.evidence, "one by one"),
	      "sweep: two noisy runs are too few to agree (%s)",
	      a.min_full_speed_write.evidence);

	/* random slots never came into it: no count, no lower bound */
	shaped_analysis(&a, 1, MiB, 6, big_only);
	CHECK((a.open_au_random.is_null || a.open_au_random.at_most) &&
	      !a.open_au_random.at_least,
	      "random sweep slow only at a quarter of the AU and up: not a "
	      "random count (%s)", a.open_au_random.evidence);

	/* a 512KiB AU has one random-order size of 64KiB or more */
	shaped_analysis(&a, 1, 512 * KiB, 4, flat);
	CHECK(a.open_au_random.value == 4 && a.open_au_random.at_least &&
	      a.open_au_random.conf == CONF_LOW,
	      "random sweep of 512KiB AUs: no collapse is only low (%s)",
	      a.open_au_random.evidence);
}

/*
 * A -f table of 4 AUs at 4MiB..16KiB: 8M/s, times fat[j] (1: an ordinary
 * AU), AUs listed in coll collapsing (rate falling with the size) below
 * 2MiB, and +-jitter percent of deterministic noise.
 */
static void fat_table(struct table *t, int random, const double fat[4],
		      unsigned coll, double jitter, uint32_t *s)
{
	uint64_t key;
	unsigned j;

	memset(t, 0, sizeof(*t));
	t->kind = TAB_FAT;
	t->random = random;
	t->erasesize = 4 * MiB;
	t->ncols = 4;
	for (key = 4 * MiB; key >= 16 * KiB; key /= 2) {
		struct table_row *r = table_add_row(t, key);

		for (j = 0; r && j < 4; j++) {
			double x = 8e6 * fat[j] * (1 + jitter / 100 *
				   ((double)(lcg(s) % 2001) / 1000 - 1));

			if ((coll & 1u << j) && key < 2 * MiB)
				x *= (double)key / (2 * MiB);
			r->v[j] = x;
		}
	}
}

/* The fat_aus verdict of one such table. */
static struct verdict fat_verdict(int random, const double fat[4],
				  unsigned coll, double jitter, uint32_t *s)
{
	struct analysis a;
	struct table t;

	fat_table(&t, random, fat, coll, jitter, s);
	analyze(&t, 1, NULL, &a);
	table_free(&t);
	return a.fat_aus;
}

/*
 * Two linear -f runs of their first 3 sizes, read together into *a:
 * whether each alone was low.
 */
static int two_short_runs(const double fat[4], double jitter, uint32_t *s,
			  struct analysis *a)
{
	struct table t[2];
	int low = 1, i;

	for (i = 0; i < 2; i++) {
		fat_table(&t[i], 0, fat, 0, jitter, s);
		t[i].nrows = 3;
		analyze(&t[i], 1, NULL, a);
		low &= a->fat_aus.conf == CONF_LOW;
	}
	analyze(t, 2, NULL, a);
	for (i = 0; i < 2; i++) {
		t[i].nrows = 9;
		table_free(&t[i]);
	}
	return low;
}

/*
 * A --random -f table of alike AUs whose AU 1 writes a quarter slower in
 * n of the rows below the two moot ones, spread over them: the fat_aus
 * verdict, and whether it is not null.
 */
static int paused_rows(unsigned n, uint32_t *s, struct verdict *v)
{
	static const double plain[4] = { 1, 1, 1, 1 };
	struct analysis a;
	struct table t;
	unsigned i;

	fat_table(&t, 1, plain, 0, 2, s);
	for (i = 0; i < n; i++)
		t.rows[2 + 2 * i].v[1] *= 0.75;
	analyze(&t, 1, NULL, &a);
	table_free(&t);
	*v = a.fat_aus;
	return !v->is_null;
}

/* The linear fat_aus verdict of one table from its first 3 sizes, all 9. */
static void fat_by_rows(const double fat[4], double jitter, uint32_t *s,
			struct verdict *few, struct verdict *all)
{
	struct analysis a;
	struct table t;

	fat_table(&t, 0, fat, 0, jitter, s);
	t.nrows = 3;
	analyze(&t, 1, NULL, &a);
	*few = a.fat_aus;
	t.nrows = 9;
	analyze(&t, 1, NULL, &a);
	*all = a.fat_aus;
	table_free(&t);
}

/* Relative speeds of four AUs: alike, and AU 1 22 % slower. */
static const double fat_plain[4] = { 1, 1, 1, 1 };
static const double fat_one[4] = { 1, 0.78, 1, 1 };
/* AU 1 12 % slower: under what a FAT area costs, low in one table */
static const double fat_small[4] = { 1, 0.88, 1, 1 };

/* Several -f runs of one card read together, noise seeded with s. */
static void synthetic_fat_runs(uint32_t s)
{
	const double *plain = fat_plain, *one = fat_one;
	struct analysis a;
	struct table t[2];

	/* two runs: agreement raises, disagreement leaves it open */
	fat_table(&t[0], 0, one, 0, 1, &s);
	fat_table(&t[1], 0, one, 0, 1, &s);
	analyze(t, 2, NULL, &a);
	CHECK(a.fat_aus.nlist == 1 && a.fat_aus.conf == CONF_HIGH &&
	      strstr(a.fat_aus.evidence, "1 other run agrees"),
	      "-f twice, alike: high (%s)", a.fat_aus.evidence);
	table_free(&t[1]);
	fat_table(&t[1], 0, plain, 0, 1, &s);
	analyze(t, 2, NULL, &a);
	CHECK(a.fat_aus.is_null && strstr(a.fat_aus.evidence, "disagree"),
	      "-f twice, one finding AU 1, one none: open (%s)",
	      a.fat_aus.evidence);
	table_free(&t[0]);
	table_free(&t[1]);

	/* two unsure runs naming the same AU: surer; two unsure "none": not */
	s = 22;
	CHECK(two_short_runs(fat_small, 3, &s, &a) &&
	      a.fat_aus.nlist == 1 && a.fat_aus.list[0] == 1 &&
	      a.fat_aus.conf == CONF_MEDIUM,
	      "-f twice, each low on AU 1: medium (%s)", a.fat_aus.evidence);
	CHECK(two_short_runs(plain, 15, &s, &a) &&
	      a.fat_aus.nlist == 0 && !a.fat_aus.is_null &&
	      a.fat_aus.conf == CONF_LOW,
	      "-f twice, each low on none: still low (%s)",
	      a.fat_aus.evidence);
}

static void synthetic_fat(void)
{
	static const double half[4] = { 0.5, 0.5, 1, 1 };
	static const double mid[4] = { 1, 0.5, 0.5, 1 };
	const double *plain = fat_plain, *one = fat_one;
	struct verdict v, w;
	uint32_t s = 5;

	v = fat_verdict(0, one, 0, 1, &s);
	CHECK(v.nlist == 1 && v.list[0] == 1 && v.conf >= CONF_MEDIUM &&
	      v.direction < 0,
	      "-f: a 22%% slower AU in every size is special (%s)",
	      v.evidence);
	/* real cards' first AUs can differ by this much (tests/real/013) */
	v = fat_verdict(0, fat_small, 0, 1, &s);
	CHECK(v.nlist == 1 && v.list[0] == 1 && v.conf == CONF_LOW,
	      "-f: a 12%% slower AU, under a FAT area's cost: low (%s)",
	      v.evidence);
	v = fat_verdict(0, half, 0, 2, &s);
	CHECK(v.is_null && v.conf == CONF_INCONCLUSIVE &&
	      strstr(v.evidence, "either half"),
	      "-f: AUs 0-1 against 2-3: either may be special (%s)",
	      v.evidence);
	v = fat_verdict(0, mid, 0, 2, &s);
	CHECK(v.nlist == 2 && v.list[0] == 1 && v.list[1] == 2 &&
	      v.conf >= CONF_MEDIUM,
	      "-f: AUs 1-2 against 0 and 3: a FAT area is one run (%s)",
	      v.evidence);
	/* the first two AUs took the random slots; none is special */
	v = fat_verdict(1, plain, 0xc, 2, &s);
	CHECK(!v.is_null && v.nlist == 0 && v.conf >= CONF_MEDIUM &&
	      strstr(v.evidence, "AUs 2,3 collapse"),
	      "-f --random: AUs that collapse are not FAT (%s)", v.evidence);
	/* no random slot: only the FAT area keeps its speed */
	v = fat_verdict(1, mid, 0x9, 2, &s);
	CHECK(v.nlist == 2 && v.list[0] == 1 && v.conf >= CONF_MEDIUM &&
	      strstr(v.evidence, "only they keep their speed"),
	      "-f --random: the AUs that keep their speed (%s)", v.evidence);

	/*
	 * Pauses in 2 of the 7 random-order rows, on one AU: chance, as
	 * pauses land; in 3 of them a FAT area the moot rows hid may show.
	 */
	CHECK(paused_rows(2, &s, &v) && v.nlist == 0 &&
	      v.conf == CONF_MEDIUM,
	      "-f --random: AU 1 paused in 2 of 7 small sizes, none (%s)",
	      v.evidence);
	CHECK(paused_rows(3, &s, &v) && v.conf == CONF_LOW,
	      "-f --random: AU 1 slow in 3 of 7 small sizes, unsure (%s)",
	      v.evidence);

	/* 22% apart with 5% jitter: surer with every size that shows it */
	fat_by_rows(one, 5, &s, &v, &w);
	CHECK(v.conf < w.conf && w.nlist == 1 && w.list[0] == 1,
	      "-f: 3 sizes %s, 9 sizes %s (%s)", confidence_name(v.conf),
	      confidence_name(w.conf), w.evidence);
	/* alike AUs, 15% jitter: 3 sizes could hide a FAT area, 9 cannot */
	fat_by_rows(plain, 15, &s, &v, &w);
	CHECK(v.nlist == 0 && !v.is_null && v.conf == CONF_LOW &&
	      w.nlist == 0 && w.conf == CONF_MEDIUM,
	      "-f: noisy alike AUs, none: 3 sizes %s (%s), 9 sizes %s",
	      confidence_name(v.conf), v.evidence, confidence_name(w.conf));

	synthetic_fat_runs(s);
}

/* The open-AU verdict of tables t: 7 at confidence c, the note naming. */
static void region_note(const struct table *t, size_t n, enum confidence c,
			const char *naming, const char *what)
{
	struct analysis a;

	analyze(t, n, NULL, &a);
	CHECK(a.open_au_linear.value == 7 && a.open_au_linear.conf == c &&
	      (naming ? strstr(a.open_au_linear.note, naming) != NULL :
			!a.open_au_linear.note[0]),
	      "%s (%s)", what, a.open_au_linear.note);
}

/* A sweep from AU 1, where -f finds AU 1 special: one too many? */
static void fat_region(void)
{
	static const double one[4] = { 1, 0.4, 1, 1 };
	struct table t[2];
	uint32_t s = 9;

	sweep_table(&t[0], 5);
	t[0].has_offset = 1;
	t[0].offset = 4 * MiB;
	region_note(t, 1, CONF_MEDIUM, "start at AU 1",
		    "sweep from AU 1 without -f: lowered, says why");
	fat_table(&t[1], 0, one, 0, 1, &s);
	region_note(t, 2, CONF_MEDIUM, "include AU 1, special",
		    "sweep from AU 1, -f finds AU 1: may be one too high");
	t[0].offset = 32 * MiB;
	region_note(t, 2, CONF_HIGH, NULL,
		    "sweep from AU 8, -f finds AU 1: no note");
	table_free(&t[0]);
	table_free(&t[1]);
}

/* Text and JSON: stable formats the front end and scripts rely on. */
static void output(void)
{
	struct analysis a;
	struct report r;
	struct json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ok;

	if (seed_parse(SEED_002, &r) < 0)
		return;
	analyze(r.tabs, r.ntabs, &r.ctx, &a);
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	analysis_print(f, &a, "# ");
	fflush(f);
	ok = buf && strstr(buf, "# erase_size: 4MiB (high) -- diff 215µs at "
			   "4MiB vs 21.4µs at 2MiB") &&
	     strstr(buf, "# open_au_linear: 6 (high) -- ") &&
	     strstr(buf, "# fat_aus: 1 (high) -- ");
	CHECK(ok, "text: one '# key: value (confidence) -- evidence' line");
	if (!ok)
		printf("%s\n", buf ? buf : "");
	rewind(f);
	json_init(&j, f);
	json_open(&j, NULL, '{');
	analysis_json(&j, &a);
	json_close(&j, '}');
	json_end(&j);
	fputc('\0', f);
	fflush(f);
	ok = strstr(buf, "\"erase_size\": {") &&
	     strstr(buf, "\"value\": 4194304") &&
	     strstr(buf, "\"page_size\": {") &&
	     strstr(buf, "\"open_au_random\": {") &&
	     strstr(buf, "\"at_least\": false") &&
	     strstr(buf, "\"min_full_speed_write\": {") &&
	     strstr(buf, "\"fat_aus\": {") && strstr(buf, "\"value\": [") &&
	     strstr(buf, "\"direction\": \"slower\"") &&
	     strstr(buf, "\"confidence\": \"high\"");
	CHECK(ok, "json: all six verdicts with value, confidence, evidence");
	if (!ok)
		printf("%s\n", buf);
	fclose(f);
	free(buf);
	/* no tables at all: every key still there, value null */
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	analyze(NULL, 0, NULL, &a);
	json_init(&j, f);
	json_open(&j, NULL, '{');
	analysis_json(&j, &a);
	json_close(&j, '}');
	fputc('\0', f);
	fflush(f);
	ok = strstr(buf, "\"fat_aus\": {") && !strstr(buf, "\"value\": 0") &&
	     strstr(buf, "\"confidence\": \"inconclusive\"");
	CHECK(ok, "json without tables: every key, value null");
	if (!ok)
		printf("%s\n", buf);
	fclose(f);
	free(buf);
out:
	report_free(&r);
}

/* Student's t tails against printed tables. */
static void student_t(void)
{
	CHECK(fabs(t_tail(2.228, 10) - 0.025) < 2e-4 &&
	      fabs(t_tail(-2.228, 10) - 0.975) < 2e-4 &&
	      fabs(t_tail(0, 3) - 0.5) < 1e-12 &&
	      fabs(t_tail(63.657, 1) - 0.005) < 1e-4 &&
	      fabs(t_tail(3.291, 1e6) - 0.0005) < 1e-5,
	      "t_tail: 2.228/10 dof %g", t_tail(2.228, 10));
	CHECK(fabs(t_quantile(0.025, 10) - 2.228) < 1e-3 &&
	      fabs(t_quantile(0.005, 1) - 63.657) < 1e-2,
	      "t_quantile: 0.025 at 10 dof %g", t_quantile(0.025, 10));
}

int main(void)
{
	student_t();
	seed_002_sd08g();
	seed_004_samsung_sandisk();
	seed_001_su04g();
	seed_003_samsung16();
	seed_000_digest();
	synthetic_align();
	places_by_chance();
	synthetic_noise();
	multi_plane();
	synthetic_runs();
	synthetic_pair();
	synthetic_sweep();
	synthetic_shapes();
	synthetic_fat();
	fat_region();
	output();
	CHECK(!strcmp(confidence_name(CONF_MEDIUM), "medium"),
	      "confidence names");
	return CHECK_DONE();
}
