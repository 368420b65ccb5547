#!/usr/bin/env python3
"""Fit a sim: card to each real report of tests/real/.

For every tests/real/NNN-*.txt, reads the report's tables with
./flashbench --analyze=FILE --json, runs the same command lines on a
sim: card and searches the card's keys (profile, au, page, open, random,
merge, level, small, rcost, rmerge, rmw, planes) for the rows closest to the
report's.  The sim's absolute speeds are its profile's, so rows are
compared by shape, in units of the report's own scale:

  -a rows         diff / the table's largest diff
  -O, --findfat   rate / the report's best write rate

and a row's error is the distance between the real and the sim's value
(0.10: a tenth of the full step or of the best rate).  The search is a
coordinate descent from a start read off the tables (each key in turn
takes its best candidate, until a pass changes nothing), on noise=0
cards, so the same report always gives the same fit.

  tests/fit_real.py [--write]   fit all (-j2; results cached in
                                tests/tmp/fit-cache.json); --write
                                rewrites tests/real/CALIBRATION
  tests/fit_real.py [NNN-slug...] fit only those, replacing their
                                lines of CALIBRATION with --write
  tests/fit_real.py --check [NNN-slug...]
                                each CALIBRATION spec opens, and its
                                rows (of only those, if named) are as
                                close as the table says
"""

import argparse
import itertools
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "real")
CALIBRATION = os.path.join(REAL, "CALIBRATION")
CACHE = os.path.join(HERE, "tmp", "fit-cache.json")
PROFILES = ["sd08g", "su04g", "evo32", "samsung16", "xporter", "rage"]
# the keys that shape what reads cost; the rest only shape writes
READ_KEYS = ("profile", "size", "au", "page", "planes")
# what --check tolerates above the stated error: the fit's own rounding
CHECK_SLACK = 0.005
# rows smaller than the erase size over this are left out: a 64 MiB
# --findfat down to 1 KiB writes 650 000 times per run, most of the
# search's time, for rows the larger ones already shape
MAX_WRITES_PER_AU = 4096
# coordinate descent stops after this many passes even if still moving
MAX_PASSES = 2


def candidates(key, card, start):
	"""The values key may take in the search, given the rest of card
	and the card the search started from (the AU stays within a factor
	of 4 of the start's: the tables fix its order of magnitude)."""
	au = card["au"]
	if key == "profile":
		return PROFILES
	if key == "au":
		return sorted({start["au"] * m // d for m, d in
			       ((1, 4), (1, 2), (3, 4), (1, 1), (3, 2), (2, 1),
				(4, 1)) if 512 * KIB <= start["au"] * m // d
			       <= 32 * MIB})
	if key == "page":
		return [p for p in [2 * KIB << k for k in range(6)] +
			[6 * KIB << k for k in range(4)]
			if au % p == 0 and p <= au // 8]
	if key == "open":
		return list(range(1, 9)) + [10, 12, 16]
	if key == "random":
		return list(range(0, min(card["open"], 4) + 1))
	if key == "merge":
		return [25, 50, 100]
	if key == "level":
		return [0, 25]
	if key == "small":
		return [0] + [s for s in (64 * KIB,) if s <= au // 16]
	if key == "rcost":
		return [0, 50, 100]
	if key == "rmerge":
		return [0, 30, 50, 70]
	if key == "rmw":
		return [0, 50, 100]
	if key == "planes":
		return [p for p in (1, 2, 4)
			if au % (p * card["page"]) == 0 and
			p * card["page"] <= 64 * KIB]
	raise KeyError(key)


# The keys searched, in turn; a tuple moves together (random slots show
# only with what they cost: alone, a random count past 0 with no cost
# would run --random rows at full speed, no nearer a slow real row).
SEARCH = ["profile", "au", "page", "planes", "open", ("random", "rmerge"),
	  "rcost", "merge", "level", "small", "rmw"]


def spec(card, keys=None):
	"""The sim: name of card (only keys, if given: a read-only run)."""
	keys = keys or [k for k in card if k != "profile"]
	parts = ["%s=%d" % (k, card[k]) for k in keys if k != "profile"
		 and (k not in ("rmerge", "rmw") or card[k])]
	return "sim:%s,noise=0,seed=1,%s" % (card["profile"], ",".join(parts))


class Report:
	"""One real report: its tables and the sim command line of each."""

	def __init__(self, fb, path):
		self.fb, self.path = fb, path
		self.name = os.path.basename(path)[:-4]
		p = subprocess.run([fb, "--json", "--analyze=" + path],
				   capture_output=True, text=True)
		doc = json.loads(p.stdout)
		self.tables, self.size, self.verdicts = [], 0, {}
		for sec in doc["reports"][0]["sections"]:
			self.size = max(self.size, sec.get("size") or 0)
			self.tables += [t for t in sec["tables"] if t["rows"]]
			for k, v in (sec.get("analysis") or {}).items():
				if isinstance(v, dict) and v.get("value"):
					self.verdicts.setdefault(k, v["value"])
		self.runs = [self.command(t) for t in self.tables]

	def command(self, t):
		"""The flashbench arguments that make a table like t."""
		rows = t["rows"]
		if t["kind"] == "align":
			least = min(r["align"] for r in rows)
			return ["-a", "--blocksize=%d" % max(least // 2, 512)]
		sizes = [r["size"] for r in rows]
		least = max(min(sizes), max(sizes) // MAX_WRITES_PER_AU)
		args = ["--erasesize=%d" % max(sizes), "--blocksize=%d" % least]
		if t["kind"] == "find_fat":
			return ["--findfat", "--fat-nr=%d" %
				max(len(r["rates_bps"]) for r in rows)] + args
		args = ["-O", "--open-au-nr=%d" % t["open_au_nr"]] + args
		return args + (["--random"] if t["random"] else [])

	def runnable(self, sim):
		"""Drop the tables the start card cannot run at all (an N past
		the sim's 64 open AUs): no card of the search could."""
		c = self.sized(self.start())
		keep = [i for i, a in enumerate(self.runs)
			if sim.table(a, c) is not None]
		self.tables = [self.tables[i] for i in keep]
		self.runs = [self.runs[i] for i in keep]

	def start(self):
		"""A first card: the tool's own verdicts on the report where it
		gives one, else the -O runs' erase size and largest N."""
		writes = [t for t in self.tables if t["kind"] != "align"]
		au = max((t["rows"][0]["size"] for t in writes), default=4 * MIB)
		nrs = [t.get("open_au_nr", 1) for t in writes] or [1]
		v = self.verdicts
		card = {"profile": "sd08g", "size": 0,
			"au": v.get("erase_size", au), "planes": 1,
			"page": v.get("page_size", 16 * KIB),
			"open": min(v.get("open_au_linear", max(nrs)), 16),
			"random": v.get("open_au_random", 0), "merge": 100,
			"level": 0, "small": 0, "rcost": 0, "rmerge": 0,
			"rmw": 0}
		card["random"] = min(card["random"], card["open"])
		if not 512 * KIB <= card["au"] <= 32 * MIB:
			card["au"] = 4 * MIB
		if card["page"] not in candidates("page", card, card):
			card["page"] = 16 * KIB
		return card

	def sized(self, card):
		"""card with a size: the report's, else room for its runs."""
		c = dict(card)
		aligns = [r["align"] for t in self.tables if t["kind"] == "align"
			  for r in t["rows"]]
		room = [(t["open_au_nr"] * 12 + 20) * t["rows"][0]["size"]
			for t in self.tables if t["kind"] == "open_au"]
		size = self.size or max([2 * a for a in aligns] + room +
					[4 * GIB])
		c["size"] = size // c["au"] * c["au"]
		return c


class Sim:
	"""Runs a report's command lines on sim cards, remembering each."""

	def __init__(self, fb, cache):
		self.fb, self.cache = fb, cache

	def table(self, args, card):
		keys = READ_KEYS if args[0] == "-a" else None
		name = spec(card, keys)
		key = " ".join(args + [name])
		if key not in self.cache:
			p = subprocess.run([self.fb, "--json"] + args + [name],
					   capture_output=True, text=True)
			if p.returncode != 0:
				self.cache[key] = None
			else:
				self.cache[key] = json.loads(p.stdout)["tables"][0]
		return self.cache[key]


def align_shape(t):
	"""{align: diff / the largest diff} of an -a table."""
	top = max(abs(r["diff_ns"]) for r in t["rows"]) or 1
	return {r["align"]: r["diff_ns"] / top for r in t["rows"]}


def write_cells(t):
	"""{(size, column): rate} of an -O or --findfat table."""
	if t["kind"] == "find_fat":
		return {(r["size"], i): v or 0.0 for r in t["rows"]
			for i, v in enumerate(r["rates_bps"])}
	return {(r["size"], 0): r.get("rate_bps") or 0.0 for r in t["rows"]}


def row_errors(report, sim_tables):
	"""Per-row errors ([(error, what)]) of the sim's tables against the
	report's; None when a run failed."""
	if any(s is None for s in sim_tables):
		return None
	real_best = max([v for t in report.tables if t["kind"] != "align"
			 for v in write_cells(t).values()] + [1.0])
	sim_best = max([v for t in sim_tables if t["kind"] != "align"
			for v in write_cells(t).values()] + [1.0])
	errs = []
	for t, s, args in zip(report.tables, sim_tables, report.runs):
		what = " ".join(a for a in args if not a.startswith("--b"))
		if t["kind"] == "align":
			rs, ss = align_shape(t), align_shape(s)
			errs += [(abs(rs[a] - ss[a]), "%s %d" % (what, a))
				 for a in rs if a in ss]
			continue
		rc, sc = write_cells(t), write_cells(s)
		errs += [(abs(rc[k] / real_best - sc[k] / sim_best),
			  "%s %d#%d" % (what, k[0], k[1])) for k in rc if k in sc]
	return errs


def score(report, sim, card):
	"""The mean row error of card on report (inf if a run fails)."""
	c = report.sized(card)
	errs = row_errors(report, [sim.table(a, c) for a in report.runs])
	if not errs:
		return float("inf"), []
	return sum(e for e, _ in errs) / len(errs), errs


def valid(card):
	return (card["random"] <= card["open"] and
		card["page"] in candidates("page", card, card) and
		card["planes"] in candidates("planes", card, card) and
		card["small"] in candidates("small", card, card))


def moves(key, card, start):
	"""The cards one step of the search tries for key (or keys)."""
	if isinstance(key, str):
		return [{key: v} for v in candidates(key, card, start)]
	return [dict(zip(key, vs)) for vs in
		itertools.product(*(candidates(k, card, start) for k in key))]


def fit(report, sim, keys):
	"""Coordinate descent from report.start() over keys."""
	card = start = report.start()
	best, _ = score(report, sim, card)
	for _ in range(MAX_PASSES):
		moved = False
		for key in keys:
			for change in moves(key, card, start):
				trial = dict(card, **change)
				if trial == card or not valid(trial):
					continue
				e, _ = score(report, sim, trial)
				if e < best - 1e-9:
					best, card, moved = e, trial, True
		if not moved:
			break
	return report.sized(card)


def has_rmerge(fb):
	p = subprocess.run([fb, "--help-sim"], capture_output=True, text=True)
	return re.search(r"^  rmerge ", p.stdout + p.stderr, re.M) is not None


def fit_one(args):
	fb, path, keys, cache = args
	report = Report(fb, path)
	sim = Sim(fb, cache)
	report.runnable(sim)
	card = fit(report, sim, keys)
	_, errs = score(report, sim, card)
	return report.name, card, errs, sim.cache


def summary(name, card, errs):
	"""The CALIBRATION lines of one fitted report."""
	es = [e for e, _ in errs]
	worst = sorted(errs, reverse=True)[:3]
	lines = ["%s median=%.3f max=%.3f rows=%d %s" %
		 (name, statistics.median(es), max(es), len(es), spec(card))]
	lines += ["#   worst %.2f: %s" % w for w in worst]
	return lines


def load_cache():
	try:
		with open(CACHE) as f:
			return json.load(f)
	except (OSError, ValueError):
		return {}


def fit_all(opts):
	keys = SEARCH if has_rmerge(opts.fb) else [
		k for k in SEARCH if "rmerge" not in k]
	paths = sorted(os.path.join(REAL, f) for f in os.listdir(REAL)
		       if re.match(r"\d{3}-.*\.txt$", f) and
		       (not opts.reports or f[:-4] in opts.reports))
	cache = load_cache()
	jobs = [(opts.fb, p, keys, cache) for p in paths]
	out = []
	with multiprocessing.Pool(opts.j) as pool:
		for name, card, errs, c in pool.imap(fit_one, jobs):
			cache.update(c)
			out += summary(name, card, errs)
			print("\n".join(summary(name, card, errs)), flush=True,
			      file=sys.stderr)
	os.makedirs(os.path.dirname(CACHE), exist_ok=True)
	with open(CACHE, "w") as f:
		json.dump(cache, f)
	print("\n".join(out))
	if opts.write:
		write_calibration(out)


def write_calibration(lines):
	"""CALIBRATION with the lines of the reports just fitted, the
	others' as they were, in report order."""
	blocks = {}
	try:
		with open(CALIBRATION) as f:
			for line in f:
				m = re.match(r"(\d{3}-\S+) median=", line)
				if m:
					name = m.group(1)
				if m or line.startswith("#   "):
					blocks.setdefault(name, []).append(
						line.rstrip("\n"))
	except OSError:
		pass
	for line in lines:
		if not line.startswith("#"):
			name = line.split()[0]
			blocks[name] = []
		blocks[name].append(line)
	with open(CALIBRATION, "w") as f:
		f.write(HEADER + "".join("\n".join(blocks[n]) + "\n"
					 for n in sorted(blocks)))


HEADER = """\
# The sim: card fitted to each real report (tests/fit_real.py --write;
# doc/sim.md reads it).  A line: report, the median and largest
# row error of the fitted card (shape: -a diff over the table's largest,
# -O and --findfat rate over the report's best write rate), the rows
# compared, the spec.  "#   worst" lines: the rows it fits least.
"""


def parse_calibration(path=CALIBRATION):
	"""[(name, median, max, rows, spec)] of the calibration table."""
	out = []
	pat = re.compile(r"(\d{3}-\S+) median=([\d.]+) max=([\d.]+) "
			 r"rows=(\d+) (sim:\S+)$")
	with open(path) as f:
		for n, line in enumerate(f, 1):
			line = line.rstrip("\n")
			if not line or line.startswith("#"):
				continue
			m = pat.match(line)
			if not m:
				raise ValueError("%s:%d: not a calibration line: %r"
						 % (path, n, line))
			out.append((m.group(1), float(m.group(2)),
				    float(m.group(3)), int(m.group(4)),
				    m.group(5)))
	return out


def card_of(name):
	"""The keys of a calibration spec, as a card."""
	head, _, rest = name[4:].partition(",")
	card = {"profile": head, "rmerge": 0, "rmw": 0}
	for kv in rest.split(","):
		k, _, v = kv.partition("=")
		if k not in ("noise", "seed"):
			card[k] = int(v)
	return card


def opens(fb, name, name_spec):
	"""0 and a PASS line if flashbench opens the spec, else 1."""
	p = subprocess.run([fb, "--info", name_spec], capture_output=True,
			   text=True)
	if p.returncode:
		print("FAIL: %s: %s: %s" % (name, name_spec, p.stderr.strip()))
		return 1
	print("PASS: %s: the spec opens" % name)
	return 0


def check(opts):
	"""Every line's spec opens and its rows are as close as it says."""
	bad = 0
	rows = parse_calibration()
	only = set(opts.reports)
	for name, med, top, n, name_spec in rows:
		if only and name not in only:
			bad += opens(opts.fb, name, name_spec)
			continue
		report = Report(opts.fb, os.path.join(REAL, name + ".txt"))
		report.runnable(Sim(opts.fb, {}))
		_, errs = score(report, Sim(opts.fb, {}), card_of(name_spec))
		es = [e for e, _ in errs]
		if not es:
			print("FAIL: %s: %s does not run" % (name, name_spec))
			bad += 1
		elif (len(es) != n or statistics.median(es) > med + CHECK_SLACK
		      or max(es) > top + CHECK_SLACK):
			print("FAIL: %s: rows=%d median=%.3f max=%.3f, the table "
			      "says rows=%d median=%.3f max=%.3f" %
			      (name, len(es), statistics.median(es), max(es), n,
			       med, top))
			bad += 1
		else:
			print("PASS: %s: %d rows, median %.3f max %.3f" %
			      (name, n, statistics.median(es), max(es)))
	if len(rows) != len([f for f in os.listdir(REAL)
			     if re.match(r"\d{3}-.*\.txt$", f)]):
		print("FAIL: CALIBRATION: %d lines, not one per report" %
		      len(rows))
		bad += 1
	return 1 if bad else 0


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument("--fb", default="./flashbench")
	ap.add_argument("-j", type=int, default=2)
	ap.add_argument("--write", action="store_true")
	ap.add_argument("--check", action="store_true")
	ap.add_argument("reports", nargs="*",
			help="fit or --check only these (NNN-slug)")
	opts = ap.parse_args()
	if opts.check:
		return check(opts)
	fit_all(opts)
	return 0


if __name__ == "__main__":
	sys.exit(main())
