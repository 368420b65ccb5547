// SPDX-License-Identifier: GPL-2.0
/*
 * The FAT verdict from every -f table of a card: the best reading of one
 * table, raised by other runs of the same AUs that agree, lowered by
 * those that disagree at medium confidence or more.
 */
#include <string.h>

#include "analysis/fat_area.h"
#include "analysis/internal.h"

enum relation { UNRELATED, AGREE, DISAGREE };

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
void analyze_fat(const struct table *tabs, size_t n, struct verdict *v,
		 struct fat_scope *scope)
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
