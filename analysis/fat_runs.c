// SPDX-License-Identifier: GPL-2.0
/*
 * The FAT verdict from every -f table of a card: the best reading of one
 * table, raised by other runs of the same AUs that agree, lowered by
 * those that disagree at medium confidence or more.  Its AUs then lower
 * the open-AU counts whose test AUs include one.
 */
#include <string.h>

#include "analysis/fat_area.h"
#include "analysis/internal.h"

enum relation { UNRELATED, AGREE, DISAGREE };

/* The AUs the FAT verdict looked at: the first aus of unit bytes. */
struct fat_scope {
	uint64_t unit;
	unsigned aus;
};

static int rank(const struct fat_read *r)
{
	return (int)r->v.conf * 4 + (r->kind == FAT_SET ? 3 :
				     r->kind == FAT_NONE ? 2 :
				     r->kind == FAT_PAIR ? 1 : 0);
}

/* How r bears on the best reading b: only runs in the same AUs count. */
static enum relation relate(const struct fat_read *b,
			    const struct fat_read *r)
{
	unsigned nc = b->nc < r->nc ? b->nc : r->nc;
	uint64_t m = nc >= 64 ? ~0ULL : bit(nc) - 1;
	uint64_t s = b->set & m;

	if (r->erasesize != b->erasesize || r->kind == FAT_UNKNOWN ||
	    b->kind == FAT_UNKNOWN)
		return UNRELATED;
	if (r->kind == FAT_PAIR)
		return b->kind == FAT_SET && (s == (r->set & m) ||
					     s == (r->other & m)) ? AGREE :
		       DISAGREE;
	if (b->kind == FAT_PAIR)
		return UNRELATED;
	if (s != (r->set & m))
		return DISAGREE;
	/* both blind to the AUs that differ */
	return s || b->set == r->set ? AGREE : UNRELATED;
}

/*
 * The best reading of all -f tables.  Another run of the same AUs that
 * agrees at medium or high confidence raises it, one that disagrees as
 * surely lowers it, and two confident readings that disagree leave it
 * open; a run that disagrees at low confidence changes nothing.  Runs
 * that name the same AUs raise it however unsure each is (noise does
 * not set the same AUs apart twice); runs that agree there are none do
 * not: a FAT area the noise hides from one run it may hide from both.
 */
static void analyze_fat(const struct table *tabs, size_t n,
			struct verdict *v, struct fat_scope *scope)
{
	struct fat_read best, cur;
	size_t i, b = n, agree = 0, disagree = 0;
	enum confidence pro = CONF_INCONCLUSIVE, against = CONF_INCONCLUSIVE;

	verdict_init(v, V_NONE);
	memset(scope, 0, sizeof(*scope));
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_FAT)
			continue;
		fat_table(&tabs[i], &cur);
		if (b == n || rank(&cur) > rank(&best)) {
			best = cur;
			b = i;
		}
	}
	if (b == n)
		return;
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_FAT || i == b)
			continue;
		fat_table(&tabs[i], &cur);
		switch (relate(&best, &cur)) {
		case AGREE:
			agree++;
			pro = cur.v.conf > pro ? cur.v.conf : pro;
			break;
		case DISAGREE:
			disagree++;
			against = cur.v.conf > against ? cur.v.conf : against;
			break;
		case UNRELATED:
			break;
		}
	}
	*v = best.v;
	scope->unit = best.erasesize;
	scope->aus = best.nc;
	if (disagree && against >= CONF_MEDIUM && v->conf >= CONF_MEDIUM) {
		verdict_init(v, V_LIST);
		say(v->evidence, sizeof(v->evidence), "runs disagree: %s",
		    best.v.evidence);
	} else if (disagree) {
		/* a run unsure of its own reading is no evidence against */
		if (against >= CONF_MEDIUM)
			v->conf = conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence), "%zu other run%s "
		    "disagree%s%s", disagree, disagree > 1 ? "s" : "",
		    disagree > 1 ? "" : "s", against >= CONF_MEDIUM ? "" :
		    " at low confidence");
	} else if (agree && !v->is_null) {
		if ((pro >= CONF_MEDIUM || best.set) && v->conf < CONF_HIGH)
			v->conf++;
		say(v->evidence, sizeof(v->evidence), "%zu other run%s "
		    "agree%s", agree, agree > 1 ? "s" : "",
		    agree > 1 ? "" : "s");
	}
}

/* The most AUs an open-AU table wrote: its N, the largest of a sweep. */
static unsigned region_nr(const struct table *t)
{
	unsigned j, nr = t->open_au_nr;

	for (j = 0; t->kind == TAB_SWEEP && j < t->ncols; j++)
		if (t->col_nr[j] > nr)
			nr = t->col_nr[j];
	return nr ? nr : 1;
}

/*
 * The first listed AU among the n test AUs from AU first (each reaching
 * into the next with a misaligned offset: straddle), else -1.
 */
static int64_t special_in(const struct verdict *fat, uint64_t first,
			  unsigned n, int straddle)
{
	unsigned k;

	for (k = 0; k < fat->nlist; k++) {
		uint64_t a = fat->list[k];

		if (a < first || (a - first) / AU_SPACING >= n)
			continue;
		if ((a - first) % AU_SPACING <= (unsigned)straddle)
			return (int64_t)a;
	}
	return -1;
}

/*
 * Test AUs of an open-AU run (known where its offset is) that -f found
 * special: such an AU takes no open slot, so the count may be one too
 * high.  Where -f did not look at them, a region among the first AUs,
 * where FAT areas live, may hold one; either lowers the confidence.
 */
static void note_fat_region(const struct table *tabs, size_t n,
			    const struct verdict *fat,
			    const struct fat_scope *scope,
			    struct analysis *out)
{
	int noted[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		const struct table *t = &tabs[i];
		struct verdict *v = t->random ? &out->open_au_random :
				    &out->open_au_linear;
		uint64_t first;
		int64_t a;
		int same;

		if ((t->kind != TAB_OPENAU && t->kind != TAB_SWEEP) ||
		    !t->has_offset || !t->erasesize || v->type == V_NONE ||
		    v->is_null || noted[t->random])
			continue;
		first = t->offset / t->erasesize;
		same = fat->type != V_NONE && scope->unit == t->erasesize;
		a = same && fat->conf >= CONF_MEDIUM ?
		    special_in(fat, first, region_nr(t),
			       t->offset % t->erasesize != 0) : -1;
		if (a >= 0) {
			say(v->note, sizeof(v->note), "its test AUs include "
			    "AU %lld, special by fat_aus: it takes no open "
			    "slot, so the count may be one too high",
			    (long long)a);
		} else if (first < FAT_AUS && !(same && first < scope->aus)) {
			say(v->note, sizeof(v->note), "its test AUs start at "
			    "AU %llu, among the first %u, where FAT areas "
			    "live: one there takes no open slot (-f shows "
			    "whether one is special)",
			    (unsigned long long)first, FAT_AUS);
		} else {
			continue;
		}
		v->conf = conf_down(v->conf);
		noted[t->random] = 1;
	}
}

/*
 * The FAT AUs, and what they mean for the open-AU counts above: a
 * special AU among a run's test AUs takes no open slot.
 */
void family_fat(const struct table *tabs, size_t n,
		const struct analysis_ctx *ctx, struct analysis *out)
{
	struct fat_scope scope;

	(void)ctx;
	analyze_fat(tabs, n, &out->fat_aus, &scope);
	note_fat_region(tabs, n, &out->fat_aus, &scope, out);
}
