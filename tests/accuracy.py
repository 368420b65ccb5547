#!/usr/bin/env python3
"""Verdict accuracy on random simulated cards with known geometry.

Every card is drawn from a fixed seed over the whole parameter space (AU
512KiB-32MiB including 3x2^n, page 2KiB-64KiB, open 1-16, random 0-6, a
FAT area of 1-2 AUs at AU 0-3 or none, multi-plane reads (a card in four
reads 2 or 4 pages at once, each further page of a group at 10-40 % of a
page read), noise 0-15 %, device sizes that are
often not a multiple of the AU, the timings of any profile, and the ways a
collapse past the open limit looks: a copy of the whole rest of an AU per
write or a part of it (merge), a fixed share of the rate (level), small
writes that skip the slots (small); random-order writes that cost more
(rcost) or, with --rmerge, that run flat at 25-70 % of the linear rate
on three cards in ten of those with random slots (rmerge); with --rmw,
three cards in ten reading back a page written in part (rmw, 30-100 %
of a page copy); pauses as often as the noise says).  After those, --fitted N more cards (none by default) are drawn
near the cards fitted to the real reports (tests/real/
CALIBRATION, doc/sim.md): a fitted card's keys with the AU
halved, doubled or kept, open and random moved by up to 2 and 1, rmerge
by up to 10, a fresh seed and noise; --fitted 0 is the random deck
alone.  On each card the suite runs what people run:

  align1k   -a --blocksize=1024                       erase, page
  align3k   -a --blocksize=3072                       erase, page
  align     both -a tables read together (--analyze)  erase, page
  sweep     -O --erasesize=AU --open-au-nr=1-<open+3> linear, min write,
                                                      page (writes)
  rsweep    the same with --random                    random, min write
  single    -O --erasesize=AU --open-au-nr=N (one N)  linear, min write
  wrong2x   -O --erasesize=2*AU sweep, linear or --random
  wrong2x+a the same read together with the -a tables linear or random
  fat       -f --fat-nr=4 --erasesize=AU              fat
  rfat      the same with --random                    fat
  fat+r     both -f runs read together (--analyze)    fat

and sorts each verdict it is meant to give against the ground truth:

  right            the true value (or a bound that holds: "at least 8",
                   "fewer than 7") at medium or high confidence
  right-abstain    unknown or inconclusive where the run cannot show the
                   truth: the honest answer, counted as right
  right-low        the true value at low confidence
  abstain          unknown or inconclusive where the run could show it
  wrong-low        false, but said with low confidence
  wrong-confident  false at medium or high confidence: the worst bug

What a run can show is what an ideal expert could tell from its output
(observable()), whatever the analysis does with it:

  erase_size  align1k: yes.  A 2^n unit E steps at every place of the 2^n
              rows >= E, a 3E unit only at the places that are multiples
              of 3E; a live run keeps each place's samples (the JSON
              rows' "places"), so the pattern tells E from 3E.
              align3k: no.  Every place of a 3x2^n row >= 3E is a boundary
              of a unit of E and of one of 3E alike, so the rows are the
              same for both.
              align: yes.  Pasted tables have only the averages, but the
              2^n step of a 3E unit is about a third of its 3x2^n step
              while a unit of E gives both tables the same step.
  page_size   as erase_size, and only where the 2^n table has a floor: a
              row below the page's power-of-two part (2 KiB, the smallest
              1 KiB-table row, is a boundary of every page), or, for a
              3x2^n page in a live run, places at other offsets than its
              multiples at each row.  Without either the expert can say
              "at most" the page.  A multi-plane card's page steps the
              diff by the cost of a further page of its group, the group
              by a whole page read: the page shows only where its own
              step does, noise-free, by PLANE_STEP_MIN (5us) or more;
              else the table is that of a card with pages of the group's
              size, and either the page or the group is a right reading.
              sweep (write times): only on an rmw= card, at a 2^n page
              whose half is one of its rows (16 KiB and up): a write of
              half a page then takes longer than one of a whole page.

A truth the run cannot show is unresolved: an abstention is right
(right-abstain), a bound that holds ("at most 12KiB", "fewer than 7"
against the card's own count of open AUs or random slots) is right, and
a plain value is a guess, wrong even where it happens to be the truth.
right% counts right and right-abstain; seen% is right over the verdicts
whose truth the run can show.

What an -O run can show, as an ideal expert reads its output (the
"noise-free" runs below are the same command on the same card at
noise=0, run by the suite to decide this, never shown to the analysis):

  open AUs     N AUs collapse visibly when, noise-free, some size writes
               at half the rate or less of the same card without a
               limit.  A sweep shows the count when the first N past it
               collapses visibly and the N up to it hold; if that
               collapse is hidden, nothing can be told.  A sweep's first
               columns pay for the AUs the last ones of the row before
               left behind: a column within the limit still holds with a
               dip smaller writes recover from, or where a larger N
               within the limit is not slow (more AUs are never faster).
               A single run with N within the limit shows "at least N";
               past it, "fewer than N" only where its own curve shows it:
               at some size from 64KiB (a whole number of pages on any
               card) to half the erase size, noise-free, at half the rate
               or less of the card within its limit.  A sweep whose N=1
               collapses has no column to compare with either.  Otherwise
               nothing.
  linear count a run with --erasesize a multiple of the AU (or a part of
               it) still counts the AUs the card keeps open: each test AU
               is written in order, one real AU after the other.
  random count --random with --erasesize k x AU needs k random slots per
               test AU, so it counts random/k.  Without an -a table in the
               same analysis the erase size is not confirmed: the run
               shows a bound ("at least" what it counted), not the count,
               even where the erase size was right.  Read with the -a
               tables that show the AU, the count can be scaled by k into
               bounds.
  min write    the smallest measured size from which up every size writes
               at 80 % or more of the rate the same card reaches when no
               write programs more than it carries (the same card with a
               512-byte page), noise-free, in the test's order (linear, or
               random for a --random run).  A run that collapsed (N past
               the limit, or every N of a --random run on a card without
               random slots) cannot show it.

The FAT AUs are those of the first four the card treats as a FAT area,
"none" when there are none.  A reader who knows how cards behave, but not
this card, tells them by this: a FAT area is one run of AUs whose writes
differ from the other AUs' by about the same factor at every size where
the order of the writes does not matter (every size in linear order, one
and one half AU with --random); in random order, AUs the card has no
random-capable slot for collapse, and the first AUs written take the
slots, so a collapse marks an AU as ordinary; and most AUs are ordinary.
The direction of the difference is not assumed.  So a run cannot show
which AUs are special when two halves of them differ and each half is a
run of AUs (AUs 0-1 against 2-3) unless, with --random, an AU of the
ordinary half collapses in the same run without noise (its rate against
its rate at the largest size falls below half that of the column keeping
its rate best): then the truth is None and only an abstention is right.
Read together, the two runs show what either shows.

usage: accuracy.py [--cards 300] [--seed 1] [--fb ./flashbench] [-j 2]
                   [--max-wrong PCT] [--min-right PCT] [--by-run] [-v]
                   [--align-only | --fat-only] [--unsure] [--no-planes]
Prints the per-verdict table and the wrong-confident verdicts with their
cards; exits 1 when more than --max-wrong percent of the verdicts are
wrong-confident or fewer than --min-right percent are right.
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
CLASSES = ["right", "right-abstain", "right-low", "abstain", "wrong-low",
           "wrong-confident"]
FAMILIES = ["erase_size", "page_size", "open_au_linear", "open_au_random",
            "min_full_speed_write", "fat_aus"]
PROFILES = ["sd08g", "su04g", "evo32", "samsung16", "xporter", "rage"]


def draw_card(rng):
    """One card: the sim's keys, drawn over the whole parameter space."""
    au = rng.choice([512 * KIB << k for k in range(7)] +
                    [768 * KIB << k for k in range(6)])
    pages = [2 * KIB << k for k in range(6)]
    if au % 3 == 0 and rng.random() < 0.5:
        pages = [6 * KIB << k for k in range(4)]
    page = rng.choice([p for p in pages if au % p == 0 and p <= au // 8])
    opn = rng.randint(1, 16)
    rnd = rng.randint(0, min(6, opn))
    fat, fatstart = 0, 0
    if rng.random() < 0.6:
        fat, fatstart = rng.randint(1, 2), rng.randint(0, 3)
    noise = 0 if rng.random() < 0.15 else rng.randint(1, 15)
    merge = 100 if rng.random() < 0.5 else rng.randint(10, 90)
    level = 0 if rng.random() < 0.75 else rng.randint(10, 40)
    smalls = [16 * KIB << k for k in range(5) if 16 * KIB << k <= au // 16]
    small = rng.choice(smalls) if smalls and rng.random() < 0.4 else 0
    rcost = 0 if rng.random() < 0.5 else rng.randint(10, 100)
    # room for the sweeps' AUs, spaced as the open-AU test spaces them
    nau = max(rng.randint(1 * GIB, 32 * GIB) // au, 64 + 40 * (opn + 3))
    size = nau * au
    if rng.random() < 0.6:
        size += rng.randrange(1, au // (64 * KIB)) * 64 * KIB
    return {"profile": rng.choice(PROFILES), "size": size, "au": au,
            "page": page, "open": opn, "random": rnd, "fat": fat,
            "fatstart": fatstart, "noise": noise, "merge": merge,
            "level": level, "small": small, "rcost": rcost,
            "seed": rng.randrange(1, 1 << 31), "single": 0,
            "wrong_random": rng.random() < 0.5}


# A multi-plane page step smaller than this (ns) hides in the floor: real
# floors stray by up to 4us (seed 002's 0.8, -2.6 and -3.65us).
PLANE_STEP_MIN = 5000


def draw_planes(c):
    """Multi-plane reads for a card in four: from a generator of the
    card's own, so the rest of the deck stays as it was."""
    rng = random.Random(c["seed"] ^ 0x9e3779b9)
    planes = rng.choice([2, 2, 4]) if rng.random() < 0.25 else 1
    # a group of more than 64 KiB would read as an erase block
    while planes > 1 and (c["au"] % (planes * c["page"]) or
                          planes * c["page"] > min(c["au"] // 4, 64 * KIB)):
        planes //= 2
    c["planes"], c["planecost"] = planes, rng.randint(10, 40)


# A card with random slots whose random-mode AUs merge as rewritten
# (rmerge=, issue 23) in this share of those cards, at this range of
# percent of the linear rate: 013's Kingston is near 30, an independent
# model near 50-60.
RMERGE_SHARE = 0.3
RMERGE_RANGE = (25, 70)


def draw_rmerge(c):
    """rmerge= for a card with random slots, from a generator of the
    card's own, so the rest of the deck stays as it was."""
    rng = random.Random(c["seed"] ^ 0x5bd1e995)
    if c["random"] and rng.random() < RMERGE_SHARE:
        c["rmerge"] = rng.randint(*RMERGE_RANGE)


# A card that reads back a page written in part and programs it whole
# (rmw=, issue 23: tests/real/007's USB stick, whose -a table shows no
# page), in this share of the cards, at this range of percent of a page
# copy; the page verdict may then come from write times alone.
RMW_SHARE = 0.3
RMW_RANGE = (30, 100)


def draw_rmw(c):
    """rmw= from a generator of the card's own, as draw_rmerge()."""
    rng = random.Random(c["seed"] ^ 0x27d4eb2f)
    if rng.random() < RMW_SHARE:
        c["rmw"] = rng.randint(*RMW_RANGE)


def rmw_seen(c):
    """Can an -O sweep (rows of 2^n down to 16 KiB) show the page by its
    write times?  Only on an rmw= card, at a 2^n page whose half is a
    row."""
    p = c["page"]
    return bool(c.get("rmw")) and p & (p - 1) == 0 and p // 2 >= 16 * KIB


def draw_fitted(rng, fitted):
    """A card near one fitted to a real report (tests/real/CALIBRATION):
    its keys jittered, a fresh seed and noise."""
    c = dict(rng.choice(fitted), fat=0, fatstart=0, planecost=20)
    k = rng.choice([0.5, 1, 2])
    if c["page"] <= c["au"] * k // 8 and (c["au"] * k) % c["page"] == 0 \
            and 512 * KIB <= c["au"] * k <= 32 * MIB:
        c["au"] = int(c["au"] * k)
    while c["au"] % (c["page"] * c["planes"]):
        c["planes"] //= 2
    c["open"] = max(1, min(16, c["open"] + rng.randint(-2, 2)))
    c["random"] = max(0, min(c["open"], c["random"] + rng.randint(-1, 1)))
    if c.get("rmerge"):
        c["rmerge"] = max(10, min(90, c["rmerge"] + rng.randint(-10, 10)))
    c["noise"] = 0 if rng.random() < 0.15 else rng.randint(1, 15)
    nau = max(c["size"] // c["au"], 64 + 40 * (c["open"] + 3))
    c.update(size=nau * c["au"], seed=rng.randrange(1, 1 << 31),
             wrong_random=rng.random() < 0.5,
             single=rng.randint(1, c["open"] + 3))
    return c


def fitted_cards(n, seed):
    """n cards near the fitted ones, from a generator of their own."""
    if n <= 0:
        return []
    import fit_real
    fitted = [fit_real.card_of(spec)
              for _, _, _, _, spec in fit_real.parse_calibration()]
    rng = random.Random(seed ^ 0xf17ed)
    return [draw_fitted(rng, fitted) for _ in range(n)]


KEYS = ["size", "au", "page", "open", "random", "fat", "fatstart", "noise",
        "merge", "level", "small", "rcost", "seed", "planes", "planecost"]


def dev_name(c, **change):
    """The card's sim: name; one reading a page at a time has no plane
    keys, and one without rmerge no rmerge key, so that a build without
    them runs it too."""
    c = dict(c, **change)
    keys = KEYS if c.get("planes", 1) > 1 else KEYS[:-2]
    keys = keys + [k for k in ("rmerge", "rmw") if c.get(k)]
    return "sim:%s,%s" % (c["profile"], ",".join(
        "%s=%d" % (k, c[k]) for k in keys))


class Runner:
    def __init__(self, fb, tmp):
        self.fb, self.tmp = fb, tmp

    def doc(self, args):
        """One live run's --json document."""
        cmd = [self.fb, "--json"] + args
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd),
                                                    p.returncode,
                                                    p.stderr.strip()))
        return json.loads(p.stdout)

    def run(self, args, save=None):
        """One live run; its analysis (and the report saved to save)."""
        a = self.doc(args)["analysis"]
        if save:
            t = subprocess.run([self.fb] + args + ["-o", save],
                               capture_output=True, text=True)
            if t.returncode != 0:
                raise RuntimeError("%s -o: %s" % (" ".join(args),
                                                  t.stderr.strip()))
        return a

    def rates(self, args):
        """An -O run's rates: {N: {size: rate}}, 0 where not measured."""
        p = subprocess.run([self.fb, "--json"] + args, capture_output=True,
                           text=True)
        if p.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(args), p.stderr))
        t = json.loads(p.stdout)["tables"][0]
        nrs = t["open_au_nr"]
        if not isinstance(nrs, list):
            return {nrs: {r["size"]: r.get("rate_bps") or 0.0
                          for r in t["rows"]}}
        return {n: {r["size"]: r["rates_bps"][i] or 0.0 for r in t["rows"]}
                for i, n in enumerate(nrs)}

    def offline(self, files, name):
        """Saved reports read together, as one pasted report."""
        path = os.path.join(self.tmp, name)
        with open(path, "w") as out:
            for f in files:
                with open(f) as inp:
                    out.write(inp.read())
        p = subprocess.run([self.fb, "--json", "--analyze=" + path],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("--analyze=%s: %s" % (path, p.stderr))
        return json.loads(p.stdout)["reports"][0]["sections"][0]["analysis"]


class Truth:
    """What the -O runs on one card can show, from the same runs at
    noise=0 (the same I/O, so the same state: a sweep's columns change
    the card for the next ones) against the card without a limit on open
    AUs."""

    def __init__(self, r, c):
        self.r, self.c, self.memo = r, c, {}

    def run(self, nrs, rnd=False, erasesize=None, **change):
        """Noise-free rates of -O --open-au-nr=nrs; change: sim keys."""
        dev = dev_name(self.c, noise=0, **change)
        args = ["-O", dev, "--erasesize=%d" % (erasesize or self.c["au"]),
                "--open-au-nr=%s" % nrs] + (["--random"] if rnd else [])
        key = tuple(args)
        if key not in self.memo:
            self.memo[key] = self.r.rates(args)
        return self.memo[key]

    def free(self, rnd, erasesize):
        """One AU on the card with every AU open in either order."""
        return self.run(1, rnd, erasesize, open=64, random=64)[1]

    def collapsed(self, rates, rnd, erasesize, own=False, dip=False):
        """Some size at half the rate of the card without a limit, or
        less.  own: only sizes a run's own curve can show it at (64KiB,
        a whole number of pages on any card, to half the erase size:
        whole AUs never collapse).  dip: not if smaller sizes are back
        at 90 % of that rate (a dip, not a collapse)."""
        free = self.free(rnd, erasesize)
        sizes = sorted(rates, reverse=True)
        for i, size in enumerate(sizes):
            if own and not 64 * KIB <= size <= erasesize // 2:
                continue
            if rates[size] > 0.5 * free[size]:
                continue
            if not dip or all(rates[t] < 0.9 * free[t] for t in sizes[i:]):
                return True
        return False

    def sweep(self, limit, hi, rnd=False, erasesize=None):
        """A sweep 1-hi shows limit if every column up to it holds and
        the next collapses visibly (on its own curve, where no column
        holds to compare it with); None if it cannot be told.  In a
        sweep, the first columns of a row pay for the AUs the last ones
        of the row before left behind: a column up to the limit holds
        with a dip that smaller writes recover from, or with sizes slow
        where a larger N (more AUs can only be slower) is not."""
        e = erasesize or self.c["au"]
        cols = self.run("1-%d" % hi, rnd, e)
        free = self.free(rnd, e)
        ok = not self.collapsed(cols[limit], rnd, e, dip=True) \
            if limit else True
        for n in range(1, limit):
            slow = {z: r for z, r in cols[n].items()
                    if all(cols[m][z] <= 0.5 * free[z]
                           for m in range(n + 1, limit + 1))}
            ok = ok and not self.collapsed(slow, rnd, e, dip=True)
        if ok and (limit >= hi or self.collapsed(cols[limit + 1], rnd, e,
                                                 own=not limit)):
            return limit
        return None

    def single(self, n):
        """A linear run with N=n: past the limit it shows "fewer than n"
        only where its own curve collapses visibly."""
        au = self.c["au"]
        return n <= self.c["open"] or \
            self.collapsed(self.run(n, False, au)[n], False, au, own=True)

    def min_write(self, rnd=False):
        """The smallest size from which up every size writes at 80 % of
        the rate of the same card with 512-byte pages (no write programs
        more than it carries), noise-free, one AU in the test's order."""
        au = self.c["au"]
        real = self.run(1, rnd, au)[1]
        ideal = self.run(1, rnd, au, page=512)[1]
        best = None
        for size in sorted(real, reverse=True):
            if not real[size] >= 0.8 * ideal[size]:
                break
            best = size
        return best


def odd_part(n):
    while n and n % 2 == 0:
        n //= 2
    return n


def plane_step_seen(r, c):
    """A multi-plane card's page steps the noise-free -a table's diff (1
    KiB blocks, 3 KiB for a 3x2^n page) by PLANE_STEP_MIN or more."""
    if c["planes"] == 1:
        return True
    bs = 3072 if odd_part(c["page"]) == 3 else 1024
    t = r.doc(["-a", dev_name(c, noise=0),
               "--blocksize=%d" % bs])["tables"][0]
    return any(row["align"] == c["page"] and
               row["diff_ns"] >= PLANE_STEP_MIN for row in t["rows"])


def observable(run, value):
    """Can the run's output show value (an erase or page size)?  See the
    docstring: align1k and align by the 2^n table's places or steps,
    align3k never; a page needs a 2^n row below its power-of-two part,
    or (align1k) places at other offsets than its multiples."""
    if run == "align3k":
        return False
    if run == "align1k" and odd_part(value) == 3:
        return True
    return value // odd_part(value) >= 4 * KIB


def collapsing(table):
    """Columns whose rate, against their rate at the largest size, falls
    below half that of the column that keeps its rate best, at some size."""
    rows = [r["rates_bps"] for r in table["rows"]]
    keep = [[v / top for v, top in zip(r, rows[0])] for r in rows]
    return {j for j in range(len(rows[0]))
            if any(k[j] < max(k) / 2 for k in keep)}


def fat_truth(c, collapse=frozenset(), nr=4):
    """The FAT AUs among the first nr, or None where the run cannot show
    which AUs are special: two halves of the AUs that differ, each a run
    of AUs (a FAT area is one), and no AU of the non-FAT half collapsing
    in random order (collapse: the columns that do in the run without
    noise)."""
    fat = [a for a in range(c["fatstart"], c["fatstart"] + c["fat"])
           if a < nr]
    rest = [a for a in range(nr) if a not in fat]
    mirror = 2 * len(fat) == nr and rest == list(range(rest[0],
                                                       rest[-1] + 1))
    if mirror and not collapse.intersection(rest):
        return None
    return fat


def judge(v, truth, seen=True):
    """Sort one verdict; truth None: the run cannot show it; seen False:
    it cannot tell truth from other values, so only a bound may stand."""
    value, conf = v.get("value"), v.get("confidence")
    sure = conf in ("medium", "high")
    if value is None or conf == "inconclusive":
        return "right-abstain" if truth is None or not seen else "abstain"
    if truth is None:
        ok = False
    elif v.get("at_least"):
        ok = truth >= value and (v.get("max") is None or truth <= v["max"])
    elif v.get("at_most"):
        ok = truth <= value
    else:
        ok = seen and value == truth
    if ok:
        return "right" if sure else "right-low"
    return "wrong-confident" if sure else "wrong-low"


def card_runs(r, c, idx, only):
    """Every run on one card (only: "align" or "fat", those runs alone):
    (run, family, verdict, truth, seen)."""
    dev, au, out, tmp = dev_name(c), c["au"], [], r.tmp
    tr = Truth(r, c)

    def add(run, fam, a, truth, seen=True, real=None):
        # a truth the run cannot show: a bound is judged against the
        # card's real value, a plain value is a guess
        if truth is None and real is not None:
            truth, seen = real, False
        out.append((run, fam, a[fam], truth, seen))

    def add_page(run, a, plane_seen):
        # a page step hidden in the floor: the table is that of a card
        # with pages of the group's size, and either reading is right
        truth, v = c["page"], a["page_size"]
        if not plane_seen and v.get("value") != truth:
            truth *= c["planes"]
        add(run, "page_size", a, truth, observable(run, truth))

    if only == "fat":
        fat_runs(r, c, idx, add, tr)
        return out
    files, plane_seen = [], plane_step_seen(r, c)
    for bs, run in ((1024, "align1k"), (3072, "align3k")):
        f = os.path.join(tmp, "a%d-%d.txt" % (idx, bs))
        a = r.run(["-a", dev, "--blocksize=%d" % bs], save=f)
        files.append(f)
        add(run, "erase_size", a, au, run != "align3k")
        add_page(run, a, plane_seen)
    a = r.offline(files, "a%d.txt" % idx)
    add("align", "erase_size", a, au)
    add_page("align", a, plane_seen)
    if only == "align":
        return out

    hi = c["open"] + 3
    rhi = min(c["random"] + 3, hi)
    w = ["-O", dev, "--erasesize=%d" % au]
    a = r.run(w + ["--open-au-nr=1-%d" % hi])
    add("sweep", "open_au_linear", a, tr.sweep(c["open"], hi),
        real=c["open"])
    add("sweep", "min_full_speed_write", a, tr.min_write())
    # scored on rmw= cards, and wherever a page comes from writes
    if c.get("rmw") or a["page_size"].get("value") is not None:
        add("sweep", "page_size", a, c["page"] if rmw_seen(c) else None)
    a = r.run(w + ["--open-au-nr=1-%d" % rhi, "--random"])
    # the erase size is not confirmed: a bound, not the count
    add("rsweep", "open_au_random", a, tr.sweep(c["random"], rhi, True),
        False, real=c["random"])
    add("rsweep", "min_full_speed_write", a,
        tr.min_write(True) if c["random"] else None)
    n = c["single"]
    a = r.run(w + ["--open-au-nr=%d" % n])
    add("single", "open_au_linear", a, c["open"] if tr.single(n) else None,
        real=c["open"])
    add("single", "min_full_speed_write", a,
        tr.min_write() if n <= c["open"] else None)

    rnd = c["wrong_random"]
    fam = "open_au_random" if rnd else "open_au_linear"
    if rnd:
        # two random slots per test AU of two AUs: alone, a bound
        shown = tr.sweep(c["random"] // 2, rhi, True, 2 * au) is not None
        alone = paired = c["random"] if shown else None
    else:
        alone = paired = tr.sweep(c["open"], hi, False, 2 * au)
    f = os.path.join(tmp, "o%d.txt" % idx)
    args = ["-O", dev, "--erasesize=%d" % (2 * au),
            "--open-au-nr=1-%d" % (rhi if rnd else hi)]
    a = r.run(args + (["--random"] if rnd else []), save=f)
    real = c["random"] if rnd else c["open"]
    add("wrong2x", fam, a, alone, not rnd, real=real)
    a = r.offline(files + [f], "ao%d.txt" % idx)
    add("wrong2x+a", fam, a, paired, real=real)
    fat_runs(r, c, idx, add, tr)
    return out


def fat_runs(r, c, idx, add, tr):
    """The -f runs of one card, alone and read together."""
    dev, au, tmp = dev_name(c), c["au"], r.tmp
    files, truths = [], []
    for run, extra in (("fat", []), ("rfat", ["--random"])):
        f = os.path.join(tmp, "%s%d.txt" % (run, idx))
        args = ["-f", dev, "--fat-nr=4", "--erasesize=%d" % au] + extra
        a = r.run(args, save=f)
        with open(f) as inp:
            table = inp.read()
        with open(f, "w") as dst:   # the command above it, as pasted
            dst.write("$ sudo flashbench %s\n%s" % (" ".join(args), table))
        files.append(f)
        coll = set()
        if extra:
            quiet = dev_name(dict(c, noise=0))
            t = r.doc(["-f", quiet] + args[2:])["tables"][0]
            coll = collapsing(t)
        truths.append(fat_truth(c, coll))
        add(run, "fat_aus", a, truths[-1])
        if not extra:
            # each AU written linearly, one at a time: as -O N=1
            add(run, "min_full_speed_write", a, tr.min_write())
    a = r.offline(files, "f%d.txt" % idx)
    add("fat+r", "fat_aus", a, next((t for t in truths if t is not None),
                                    None))


def cards(n, seed, planes=True, rmerge=False, rmw=False):
    rng = random.Random(seed)
    res = []
    for _ in range(n):
        c = draw_card(rng)
        c["single"] = rng.randint(1, c["open"] + 3)
        draw_planes(c)
        if rmerge:
            draw_rmerge(c)
        if rmw:
            draw_rmw(c)
        if not planes:
            c["planes"] = 1
        res.append(c)
    return res


def show(v):
    val = v.get("value")
    if v.get("at_least") and v.get("max") is not None:
        val = "between %s and %s" % (val, v["max"])
    elif v.get("at_least"):
        val = "at least %s" % val
    elif v.get("at_most"):
        val = "at most %s" % val
    return "%s (%s) -- %s" % (val, v.get("confidence"), v.get("evidence"))


def print_table(tally, rows):
    print("verdict\t" + "\t".join(CLASSES) + "\tright%\tseen%\twrong%")
    for key in rows:
        t = tally.get(key)
        if not t:
            continue
        n = sum(t[k] for k in CLASSES)
        seen = n - t["unseen"]
        print("%s\t%s\t%.1f\t%s\t%.1f" % (
            key, "\t".join(str(t[k]) for k in CLASSES),
            100.0 * (t["right"] + t["right-abstain"]) / n,
            "%.1f" % (100.0 * t["right-seen"] / seen) if seen else "-",
            100.0 * t["wrong-confident"] / n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--max-wrong", type=float, default=None,
                    help="percent wrong-confident allowed")
    ap.add_argument("--min-right", type=float, default=None,
                    help="percent right required")
    ap.add_argument("--by-run", action="store_true",
                    help="also one row per verdict and run")
    ap.add_argument("-v", action="store_true",
                    help="also list wrong-low verdicts")
    ap.add_argument("--align-only", action="store_true",
                    help="only the -a runs")
    ap.add_argument("--fat-only", action="store_true",
                    help="only the -f runs")
    ap.add_argument("--unsure", action="store_true",
                    help="also list right-low and abstain verdicts")
    ap.add_argument("--noise", type=int, default=None,
                    help="the same cards at this noise (percent): at 0, "
                    "what is not right is the analysis's, not the "
                    "noise's")
    ap.add_argument("--no-planes", action="store_true",
                    help="the same cards, each reading one page at a time")
    ap.add_argument("--rmerge", action="store_true",
                    help="rmerge= on 3 in 10 cards with random slots")
    ap.add_argument("--rmw", action="store_true",
                    help="rmw= on 3 in 10 cards (the page then shows in "
                    "write times)")
    ap.add_argument("--fitted", type=int, default=0,
                    help="this many more cards near those fitted to the "
                    "real reports (tests/real/CALIBRATION) [0]")
    args = ap.parse_args()
    deck = cards(args.cards, args.seed, not args.no_planes, args.rmerge,
                 args.rmw)
    deck += fitted_cards(args.fitted, args.seed)
    if args.noise is not None:
        for c in deck:
            c["noise"] = args.noise
    only = "align" if args.align_only else "fat" if args.fat_only else None
    with tempfile.TemporaryDirectory(prefix="fb-accuracy-") as tmp:
        r = Runner(args.fb, tmp)
        with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
            results = list(ex.map(
                lambda ic: card_runs(r, ic[1], ic[0], only),
                enumerate(deck)))
    tally, bad = {}, []
    for i, (c, res) in enumerate(zip(deck, results)):
        for run, fam, v, truth, seen in res:
            k = judge(v, truth, seen)
            keys = [fam, "all"] + ([fam + "/" + run] if args.by_run else [])
            for key in keys:
                t = tally.setdefault(key, dict.fromkeys(
                    CLASSES + ["unseen", "right-seen"], 0))
                t[k] += 1
                t["unseen"] += truth is None or not seen
                t["right-seen"] += k == "right" and truth is not None and \
                    seen
            if k == "wrong-confident" or (args.v and k == "wrong-low") or \
                    (args.unsure and k in ("right-low", "abstain")):
                bad.append("%s: card %d %s %s: %s; truth %s: %s"
                           % (k, i, dev_name(c), run, fam, truth, show(v)))
    rows = sorted(k for k in tally if "/" in k) + FAMILIES + ["all"]
    print_table(tally, rows)
    for b in bad:
        print(b)
    t = tally["all"]
    n = sum(t[k] for k in CLASSES)
    if args.max_wrong is not None and \
            100.0 * t["wrong-confident"] / n > args.max_wrong:
        return 1
    if args.min_right is not None and \
            100.0 * (t["right"] + t["right-abstain"]) / n < args.min_right:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
