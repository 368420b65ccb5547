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
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

/*
 * Pages of a FAT-optimized AU cost this many times a normal page: seed
 * 002 writes its 2nd AU at 3.35 M/s against 8 M/s elsewhere.
 */
#define SIM_FAT_COST	3

/* An AU the card keeps open for writing. */
struct au_slot {
	uint64_t au;		/* its index */
	uint64_t wp;		/* write pointer, bytes from its start */
	uint64_t written;	/* bytes written to it since it opened */
	uint64_t used;		/* LRU stamp; 0 while the slot is free */
	int random;		/* accepts writes in any order */
};

/* The size iops= prices: what the A1/A2 classes count in. */
#define SIM_IOPS_IO	(4ull << 10)

/* The SD Status register: 512 bits. */
#define SSR_BYTES 64
/* Room for a profile's registers and an ssr line. */
#define SIM_REGS_MAX 2048

struct sim {
	struct sim_params p;
	struct sim_timing t;
	uint64_t au_pages;
	uint64_t prog, fat_prog;	/* one page */
	uint64_t copy;		/* moving one page inside the card */
	uint64_t plane_rd;	/* a further page of a multi-plane group */
	double fold;		/* ns per byte a card that levels off adds */
	uint64_t clock;		/* LRU stamps */
	uint64_t ios;		/* calls so far, for vanish */
	uint64_t writes;	/* writes so far, for stall */
	uint64_t cached;	/* bytes written so far, for cache */
	uint64_t next_off;	/* 1 + where the last I/O ended, for iops */
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
	char regs[SIM_REGS_MAX];	/* the profile's and class='s ssr */
	struct sim_store store;	/* the data of small writes */
	struct au_slot slot[];	/* p.open of them */
};

/* Set the field of width bits at bit lsb of a 512-bit register. */
static void ssr_field(unsigned char *r, unsigned lsb, unsigned width,
		      unsigned v)
{
	unsigned i, bit;

	for (i = 0; i < width; i++) {
		bit = lsb + i;
		if (v >> i & 1)
			r[SSR_BYTES - 1 - bit / 8] |= (unsigned char)(1u << bit % 8);
	}
}

/* class=: an SD Status register stating those classes, as hex. */
static void ssr_hex(const struct sim_params *p, char *hex)
{
	unsigned char r[SSR_BYTES] = { 0 };
	unsigned i;

	/* the field positions of the SD Physical Layer's SD Status */
	ssr_field(r, 440, 8, p->ssr_speed);
	ssr_field(r, 396, 4, p->ssr_uhs);
	ssr_field(r, 384, 8, p->ssr_video);
	ssr_field(r, 336, 4, p->ssr_app);
	for (i = 0; i < SSR_BYTES; i++)
		sprintf(hex + 2 * i, "%02x", r[i]);
}

/* The registers of the seed card the profile models; class=: an ssr. */
static const char *sim_registers(const struct dev *d, char *source,
				 size_t len)
{
	const struct sim_params *p = sim_get_params(d);
	struct sim *s = d->priv;
	char hex[2 * SSR_BYTES + 1];

	snprintf(source, len, "the sim profile %s (registers of the seed "
		 "card)%s", p->profile, p->has_class ? ", its ssr from class=" :
		 "");
	if (!p->has_class)
		return sim_profile_of(p)->regs;
	ssr_hex(p, hex);
	snprintf(s->regs, sizeof(s->regs), "%sssr=%s\n",
		 sim_profile_of(p)->regs, hex);
	return s->regs;
}

const struct sim_params *sim_get_params(const struct dev *d)
{
	const struct sim *s;

	if (d->ops != &sim_ops || !d->priv)
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

/*
 * Sensing the pages [from, to) touches: a multi-plane card senses a
 * group of planes pages at once, so crossing a page boundary inside a
 * group costs a little, crossing into the next group a whole page read
 * (the -a diff steps at the page, and again, larger, at planes pages).
 */
static uint64_t sense_cost(const struct sim *s, uint64_t from, uint64_t to)
{
	uint64_t group = s->p.page * s->p.planes;
	uint64_t groups = (to - 1) / group - from / group + 1;

	return groups * s->t.page_rd +
	       (pages_in(s, from, to) - groups) * s->plane_rd;
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
	pr = sim_profile_of(&p);
	s->p = p;
	s->t = pr->t;
	s->t.au_cross = (uint64_t)((double)s->t.au_cross * p.xcost / 100 + 0.5);
	s->au_pages = p.au / p.page;
	s->prog = s->t.prog_kib * p.page / 1024;
	s->fat_prog = s->prog * SIM_FAT_COST;
	s->copy = s->t.page_rd + s->prog;
	s->plane_rd = (uint64_t)((double)s->t.page_rd * p.planecost / 100 +
				 0.5);
	/* level% of the rate: each byte costs 100/level times its due */
	if (p.level > 0)
		s->fold = ((double)s->t.xfer_ps / 1000 +
			   (double)s->t.prog_kib / 1024) * (100 / p.level - 1);
	s->rng = p.seed;
	s->edge = pr->r.edge;
	d->size = p.size;
	d->sector = SIM_SECTOR;
	d->priv = s;
	return 0;
}

static void sim_close(struct dev *d)
{
	struct sim *s = d->priv;

	store_free(&s->store);
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
 * Whether iops= prices this I/O: small, and not where the one before
 * ended (a sequential stream of small I/Os keeps the generic model).
 */
static int iops_priced(struct sim *s, uint64_t off, uint64_t len)
{
	int priced = s->p.iops_read && len <= SIM_IOPS_IO &&
		     off + 1 != s->next_off;

	s->next_off = off + len + 1;
	return priced;
}

/* ns of one I/O at per_s I/Os per second. */
static uint64_t per_io(uint64_t per_s)
{
	return (uint64_t)(1e9 / (double)per_s + 0.5);
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

	if (ret)
		return ret;
	store_read(&s->store, &s->p, buf, off, len);
	if (!s->rd_started) {
		s->rd_rng = mix64(s->p.seed ^ mix64(off ^ mix64(len)));
		s->rd_started = 1;
	}
	if (iops_priced(s, off, len)) {
		/*
		 * A page or AU boundary costs what it costs any read, so -a
		 * still sees the geometry; an aligned read costs the rate.
		 */
		t = (double)per_io(s->p.iops_read) +
		    (double)sense_cost(s, off, off + len) -
		    (double)sense_cost(s, 0, len) +
		    (double)cross_cost(s, off, last);
		*ns = jitter(s, read_rand, (uint64_t)(t + 0.5));
		return 0;
	}
	t = (double)(s->t.rd_cmd + xfer(s, len) +
		     sense_cost(s, off, off + len) +
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
 * rmerge=P: a random-capable AU that merges as it is rewritten makes
 * every write into it, in order or not, cost 100/P times its in-order
 * due: random runs sit flat at P percent of the linear rate up to the
 * random limit (tests/real/013's Kingston: a third, N=1 to 3), where
 * rcost= only charges the out-of-order pages.
 */
static uint64_t rmerge_cost(const struct sim *s, uint64_t from, uint64_t to)
{
	double due;

	if (s->p.rmerge <= 0)
		return 0;
	due = (double)(s->t.wr_cmd + xfer(s, to - from) +
		       pages_in(s, from, to) * s->prog);
	return (uint64_t)(due * (100 / s->p.rmerge - 1) + 0.5);
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

/*
 * rmw=P: a page the write [from, to) covers only in part is read back
 * and programmed whole: P percent of a copy more for each (the first and
 * the last page), so a write of half a page takes longer than a write of
 * a whole one (tests/real/007's USB stick: 16KiB writes 5.2ms, 32KiB
 * ones 3.0ms).
 */
static uint64_t rmw_cost(const struct sim *s, uint64_t from, uint64_t to)
{
	uint64_t page = s->p.page;
	unsigned part;

	if (s->p.rmw <= 0)
		return 0;
	part = from % page != 0;
	if (to % page && (!part || (to - 1) / page != from / page))
		part++;
	return (uint64_t)((double)(part * s->copy) * s->p.rmw / 100 + 0.5);
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
		cost += rmerge_cost(s, from, to);
	} else if (from >= a->wp) {
		done = div_up(a->wp, s->p.page);
		cost += head > done ? move_pages(s, head - done) : 0;
	} else if (a->wp < s->p.au && s->p.random &&
		   (s->nrandom < s->p.random || free_random(s, &cost))) {
		a->random = 1;
		s->nrandom++;
		cost += random_cost(s, pages) + rmerge_cost(s, from, to);
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

/* The injected stall of this write (stall=N:DURATION), drawing nothing. */
static uint64_t stall(struct sim *s)
{
	if (!s->p.stall_every)
		return 0;
	s->writes++;
	return s->writes % s->p.stall_every == s->p.seed % s->p.stall_every ?
	       s->p.stall_ns : 0;
}

/*
 * The least a write of len bytes can take with the cache full: the part
 * past cache_size goes at cache_rate, however fast the flash is.  A full
 * cache holds cache_size bytes, however much more went past it: idle
 * time frees what it holds, not what went by.
 */
static uint64_t cache_floor(struct sim *s, uint64_t len)
{
	uint64_t before = s->cached, past;

	if (!s->p.cache_rate)
		return 0;
	s->cached += len;
	if (s->cached <= s->p.cache_size)
		return 0;
	past = before >= s->p.cache_size ? len : s->cached - s->p.cache_size;
	s->cached = s->p.cache_size;
	return (uint64_t)((double)past * 1e9 / (double)s->p.cache_rate);
}

/* ns of device time with no I/O: the cache drains at cache_recover. */
static void sim_idle(struct dev *d, uint64_t ns)
{
	struct sim *s = d->priv;
	double freed = (double)s->p.cache_recover * (double)ns / 1e9;

	s->cached = freed >= (double)s->cached ? 0 :
		    s->cached - (uint64_t)freed;
}

static int sim_write(struct dev *d, const void *buf, uint64_t len,
		     uint64_t off, uint64_t *ns)
{
	struct sim *s = d->priv;
	int ret = admit(s, len, off, ns);
	uint64_t t, au, rel, n, total = len, floor_ns;

	if (ret)
		return ret;
	store_write(&s->store, &s->p, buf, off, len);
	t = s->t.wr_cmd + xfer(s, len);
	if (iops_priced(s, off, len)) {
		t = per_io(s->p.iops_write);
		len = 0;
	}
	while (len) {
		au = off / s->p.au;
		rel = off - au * s->p.au;
		n = s->p.au - rel < len ? s->p.au - rel : len;
		t += write_au(s, au, rel, rel + n) + rmw_cost(s, rel, rel + n);
		off += n;
		len -= n;
	}
	floor_ns = cache_floor(s, total);
	t = t > floor_ns ? t : floor_ns;
	*ns = jitter(s, unit_rand, t) + pauses(s, total) + stall(s);
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
	store_write(&s->store, &s->p, NULL, off, len);
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

static int sim_fault(const struct dev *d, uint64_t *off, char *name,
		     size_t len)
{
	const struct sim *s = d->priv;

	if (!s->p.has_fail)
		return -ENOENT;
	*off = s->p.fail;
	snprintf(name, len, "sim fail=%llu", (unsigned long long)s->p.fail);
	return 0;
}

const struct dev_ops sim_ops = {
	.name = "sim",
	.caps = DEV_CAP_NO_CONSENT | DEV_CAP_NO_BACKING | DEV_CAP_MEDIUM_SIZE,
	.open = sim_open,
	.read = sim_read,
	.write = sim_write,
	.discard = sim_discard,
	.close = sim_close,
	.registers = sim_registers,
	.fault = sim_fault,
	.idle = sim_idle,
};
