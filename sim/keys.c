// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of "sim:" device names: parsing sim:[PROFILE,]key=value,...
 * into a card's parameters, checking them, and the --help-sim text.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"
#include "lib/units.h"

#define SIM_MAX_OPEN	64
/* The largest off_t, down to a sector: no real device is larger. */
#define SIM_MAX_SIZE	(INT64_MAX / SIM_SECTOR * SIM_SECTOR)
#define SIM_NOISE	1.0
#define SIM_SEED	1
/*
 * Seed 000's SanDisk SD04G (tests/real/004) reads two 4 KiB pages at
 * once: its -a diff is 52.5us at 4 KiB, 272us from 8 KiB, 2.5us at 2
 * KiB: a page of a pair costs about a fifth of a page read.
 */
#define SIM_PLANECOST	20
/* Cards read 2 or 4 pages at once; 8 leaves room, more is no card. */
#define SIM_MAX_PLANES	8

enum key_kind {
	KEY_SIZE, KEY_COUNT, KEY_U64, KEY_PERCENT, KEY_FAIL, KEY_STALL,
	KEY_CLASS, KEY_CACHE, KEY_FAKE, KEY_IOPS
};

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
	KEY("planes", KEY_COUNT, planes,
	    "pages read at once (multi-plane; 1, 2, 4 or 8) [1]"),
	KEY("planecost", KEY_PERCENT, planecost,
	    "percent of a page read each further page of those costs [20]"),
	KEY("xcost", KEY_PERCENT, xcost,
	    "percent of the read cost of crossing an AU boundary; 0: -a\n"
	    "             cannot see the AU, only writes do [100]"),
	KEY("merge", KEY_PERCENT, merge,
	    "percent of its missing part an AU closed early copies [100]"),
	KEY("level", KEY_PERCENT, level,
	    "past the open AUs, write at this percent of the rate; 0: off"),
	KEY("small", KEY_SIZE, small,
	    "writes up to this size into an AU not open take no slot"),
	KEY("rcost", KEY_PERCENT, rcost,
	    "percent more programming for a write out of order"),
	KEY("rmerge", KEY_PERCENT, rmerge,
	    "writes into a random-capable AU, in any order, run at this\n"
	    "             percent of the in-order rate; 0: off [0]"),
	KEY("rmw", KEY_PERCENT, rmw,
	    "a write covering part of a page costs this percent of a\n"
	    "             page copy more (read back, programmed whole); 0: off\n"
	    "             [0]"),
	KEY("pause", KEY_PERCENT, pause,
	    "percent chance per MiB written of a 20-200ms pause [noise]"),
	KEY("stall", KEY_STALL, stall_every,
	    "N:DURATION: every N-th write (where k mod N = seed mod N)\n"
	    "             takes DURATION (e.g. 250ms) more; 0:0s: none [0:0s]"),
	KEY("cache", KEY_CACHE, cache_size,
	    "SIZE:RATE[:RECOVER]: past SIZE written, at most RATE\n"
	    "             bytes/s (e.g. 1G:14M: 14 MiB/s after 1 GiB); idle\n"
	    "             time frees RECOVER bytes/s of it [none]; 0:0: none"),
	KEY("fake", KEY_FAKE, fake_size,
	    "SIZE[:wrap|:zero]: a fake-capacity card storing SIZE bytes;\n"
	    "             above, addresses wrap modulo the power of two at\n"
	    "             least SIZE (wrap, the default) or lose their\n"
	    "             data (zero: read back zeros) [0: honest]"),
	KEY("iops", KEY_IOPS, iops_read,
	    "READ:WRITE: random 4KiB I/O (not continuing the one before)\n"
	    "             at READ / WRITE per second at queue depth 1, writes\n"
	    "             taking no AU slot; 0:0: the generic model [0:0]"),
	KEY("fail", KEY_FAIL, fail, "any I/O covering byte N fails: EIO"),
	KEY("vanish", KEY_U64, vanish,
	    "every I/O after the N-th fails: ENODEV (0: never) [0]"),
	KEY("class", KEY_CLASS, has_class,
	    "classes its SD Status register states, e.g. A1:U3:V30"),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

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

/* Name them all: the user may not know where the help is. */
static int unknown_profile(const char *spec, const char *name, char *err,
			   size_t errlen)
{
	char known[128] = "";
	size_t i, n = 0;

	for (i = 0; i < sim_nprofiles && n < sizeof(known); i++)
		n += snprintf(known + n, sizeof(known) - n, "%s%s",
			      i ? " " : "", sim_profiles[i].name);
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
	p->planes = 1;
	p->planecost = SIM_PLANECOST;
	p->xcost = 100;
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

/*
 * Split "A:B" (the values of stall=, cache= and iops=): A into first (of size
 * len), and a pointer to B; NULL without a colon or with A too long.
 */
static const char *split_pair(const char *val, char *first, size_t len)
{
	const char *colon = strchr(val, ':');

	if (!colon || (size_t)(colon - val) >= len)
		return NULL;
	memcpy(first, val, (size_t)(colon - val));
	first[colon - val] = '\0';
	return colon + 1;
}

/* stall=N:DURATION, N from 1; or 0:... for none */
static int set_stall(struct sim_params *p, const struct sim_key *k,
		     const char *val, const char *spec, char *err,
		     size_t errlen)
{
	char every[32];
	const char *rest = split_pair(val, every, sizeof(every));

	if (!rest)
		return fail_msg(err, errlen, spec, k->name,
				"expected N:DURATION (e.g. 500:250ms)");
	if (parse_u64(every, &p->stall_every))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a count of writes", every);
	if (parse_duration(rest, &p->stall_ns))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a duration (e.g. 250ms, 2s)", rest);
	if (!p->stall_every != !p->stall_ns)
		return fail_msg(err, errlen, spec, k->name,
				"N and DURATION are both zero or neither");
	return 0;
}

/* iops=READ:WRITE, both counts per second; or 0:0 for none */
static int set_iops(struct sim_params *p, const struct sim_key *k,
		    const char *val, const char *spec, char *err,
		    size_t errlen)
{
	char rd[32];
	const char *wr = split_pair(val, rd, sizeof(rd));
	int bad = !wr || parse_u64(rd, &p->iops_read) ||
		  parse_u64(wr, &p->iops_write);

	if (bad || !p->iops_read != !p->iops_write)
		return fail_msg(err, errlen, spec, k->name,
				"expected READ:WRITE I/Os per second, both "
				"zero or neither (e.g. 2000:600)");
	return 0;
}

/* A class the SD Status register can state, as the field's code. */
static const struct {
	char letter;
	unsigned value, code;
	size_t off;
} ssr_classes[] = {
	{ 'C', 2, 1, offsetof(struct sim_params, ssr_speed) },
	{ 'C', 4, 2, offsetof(struct sim_params, ssr_speed) },
	{ 'C', 6, 3, offsetof(struct sim_params, ssr_speed) },
	{ 'C', 10, 4, offsetof(struct sim_params, ssr_speed) },
	{ 'U', 1, 1, offsetof(struct sim_params, ssr_uhs) },
	{ 'U', 3, 3, offsetof(struct sim_params, ssr_uhs) },
	{ 'V', 6, 6, offsetof(struct sim_params, ssr_video) },
	{ 'V', 10, 10, offsetof(struct sim_params, ssr_video) },
	{ 'V', 30, 30, offsetof(struct sim_params, ssr_video) },
	{ 'V', 60, 60, offsetof(struct sim_params, ssr_video) },
	{ 'V', 90, 90, offsetof(struct sim_params, ssr_video) },
	{ 'A', 1, 1, offsetof(struct sim_params, ssr_app) },
	{ 'A', 2, 2, offsetof(struct sim_params, ssr_app) },
};

/* One class of class=, such as "V30"; 0, or -EINVAL. */
static int set_class(struct sim_params *p, const char *name)
{
	uint64_t v;
	size_t i;

	if (!*name || parse_u64(name + 1, &v))
		return -EINVAL;
	for (i = 0; i < sizeof(ssr_classes) / sizeof(ssr_classes[0]); i++) {
		if (ssr_classes[i].letter != *name ||
		    ssr_classes[i].value != v)
			continue;
		*(unsigned *)((char *)p + ssr_classes[i].off) =
			ssr_classes[i].code;
		return 0;
	}
	return -EINVAL;
}

/* class=A1:U3:V30 (a comma would end the item); empty: states none. */
static int parse_classes(struct sim_params *p, const char *val)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(val) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, val);
	p->has_class = 1;
	for (tok = strtok_r(buf, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save))
		if (set_class(p, tok))
			return -EINVAL;
	return 0;
}

/*
 * cache=SIZE:RATE[:RECOVER], all sizes; or 0:0 for none.  RECOVER, the
 * bytes/s idle time frees, is optional: two-field specs mean as before.
 */
static int set_cache(struct sim_params *p, const struct sim_key *k,
		     const char *val, const char *spec, char *err,
		     size_t errlen)
{
	char size[32], rate[32];
	const char *rest = split_pair(val, size, sizeof(size));
	const char *recover = rest ? split_pair(rest, rate, sizeof(rate)) :
			      NULL;

	if (!rest)
		return fail_msg(err, errlen, spec, k->name,
				"expected SIZE:RATE[:RECOVER] (e.g. 1G:14M)");
	if (!recover && strlen(rest) < sizeof(rate))
		strcpy(rate, rest);
	else if (!recover)
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a rate in bytes/s (e.g. 14M)", rest);
	if (parse_size(size, &p->cache_size))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a size", size);
	if (parse_size(rate, &p->cache_rate))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a rate in bytes/s (e.g. 14M)", rate);
	if (recover && (parse_size(recover, &p->cache_recover) ||
			!p->cache_recover))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a nonzero rate in bytes/s (e.g. 20M)",
				recover);
	if (!p->cache_size != !p->cache_rate)
		return fail_msg(err, errlen, spec, k->name,
				"SIZE and RATE are both zero or neither");
	if (p->cache_recover && !p->cache_size)
		return fail_msg(err, errlen, spec, k->name,
				"RECOVER needs a cache (SIZE and RATE)");
	return 0;
}

/* fake=SIZE[:wrap|:zero]; fake=0 is an honest card */
static int set_fake(struct sim_params *p, const struct sim_key *k,
		    const char *val, const char *spec, char *err,
		    size_t errlen)
{
	char size[32];
	const char *mode = split_pair(val, size, sizeof(size));

	if (!mode && strlen(val) >= sizeof(size))
		return fail_msg(err, errlen, spec, k->name, "not a size");
	if (!mode)
		snprintf(size, sizeof(size), "%s", val);
	if (parse_size(size, &p->fake_size))
		return fail_msg(err, errlen, spec, k->name,
				"%s: not a size", size);
	if (mode && strcmp(mode, "wrap") && strcmp(mode, "zero"))
		return fail_msg(err, errlen, spec, k->name,
				"%s: expected wrap or zero after the size",
				mode);
	p->fake_wrap = !mode || strcmp(mode, "wrap") == 0;
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
	case KEY_STALL:
		return set_stall(p, k, val, spec, err, errlen);
	case KEY_CLASS:
		if (parse_classes(p, val))
			return fail_msg(err, errlen, spec, k->name,
					"not classes such as A1:U3:V30 (C2 C4 "
					"C6 C10 U1 U3 V6 V10 V30 V60 V90 A1 "
					"A2)");
		return 0;
	case KEY_CACHE:
		return set_cache(p, k, val, spec, err, errlen);
	case KEY_FAKE:
		return set_fake(p, k, val, spec, err, errlen);
	case KEY_IOPS:
		return set_iops(p, k, val, spec, err, errlen);
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
		p->zone = sim_find_profile(p->profile)->r.zone_aus * p->au;
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
	if (!p->planes || p->planes > SIM_MAX_PLANES ||
	    (p->planes & (p->planes - 1)))
		return fail_msg(err, errlen, spec, "planes",
				"must be 1, 2, 4 or 8");
	if (p->au % (p->page * p->planes))
		return fail_msg(err, errlen, spec, "au",
				"%s is not a multiple of planes x page (%s)",
				fmt_size(a, p->au),
				fmt_size(b, p->page * p->planes));
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
	if (p->fake_size % SIM_SECTOR)
		return fail_msg(err, errlen, spec, "fake",
				"not a multiple of 512");
	if (p->fake_size >= p->size)
		return fail_msg(err, errlen, spec, "fake",
				"not less than size (a fake stores less than "
				"it claims)");
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
	load_profile(p, &sim_profiles[0]);
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
		const struct sim_profile *pr = sim_find_profile(item);

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
		"(virtual time; only the data of writes up to 64KiB is kept;\n"
		"\"sim:\" alone is "
		"sim:%s)\n\nProfiles:\n", sim_profiles[0].name);
	for (i = 0; i < sim_nprofiles; i++) {
		const struct sim_profile *pr = &sim_profiles[i];

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
	fprintf(f, "\nMulti-plane reads as seed 000's SanDisk SD04G: "
		"sim:evo32,page=4k,planes=2\n");
	fprintf(f, "A 64GB-claiming fake holding 8GiB: "
		"sim:size=64G,fake=8G:wrap\n");
}
