#!/usr/bin/env python3
"""Verdict accuracy on the real reports of tests/real/.

Runs ./flashbench --analyze=FILE --json on every tests/real/NNN-*.txt, reads
the readings of NNN-*.labels (format in tests/real/README) and sorts each
reading:

  right         the verdict agrees with the label: the same value, an
                exact verdict inside a labelled range or bound, a bound
                verdict that holds the label's value (or meets its range)
  abstain       the verdict is unknown or inconclusive
  wrong-low     the verdict contradicts the label, said with low confidence
  wrong-medium  ... with medium confidence
  wrong-high    ... with high confidence

Prints one line per kind and a total; -v adds one line per reading.
--check only proves the corpus well formed: every report has its labels
and a "# source:" line and gives flashbench at least one table, every
label line reads as the README says.  It prints one line per problem and
exits 1 on any.
"""

import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

KINDS = ("erase", "page", "open_linear", "open_random", "min_write", "fat")
VERDICT_KEY = {
	"erase": "erase_size",
	"page": "page_size",
	"open_linear": "open_au_linear",
	"open_random": "open_au_random",
	"min_write": "min_full_speed_write",
	"fat": "fat_aus",
}
OUTCOMES = ("right", "abstain", "wrong-low", "wrong-medium", "wrong-high")
# the columns of tests/accuracy.py shown beside ours, after its right
SIM_CLASSES = ("right-low", "abstain", "wrong-low", "wrong-confident")
UNITS = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
CONFIDENCES = ("high", "medium", "low")
WHO = re.compile(r"ours|expert:[A-Z][A-Za-z_.-]*")
COUNT_KINDS = ("open_linear", "open_random")
# a bound or range word and the number of ends that follow it
BOUNDS = {"at_least": 1, "at_most": 1, "between": 2}


def number(text):
	"""A size (16KiB, 4MiB) or a plain count, as a number."""
	m = re.fullmatch(r"(\d+(?:\.\d+)?)(B|KiB|MiB|GiB)?", text)
	if not m:
		raise ValueError("not a size or count: %r" % text)
	return float(m.group(1)) * UNITS[m.group(2) or ""]


def label_range(value):
	"""A label VALUE as (low, high), ends included; None for "none"."""
	if value == "none":
		return None
	parts = value.split(":")
	if parts[0] == "at_least":
		return (number(parts[1]), math.inf)
	if parts[0] == "at_most":
		return (0.0, number(parts[1]))
	if parts[0] == "between":
		return (number(parts[1]), number(parts[2]))
	v = number(value)
	return (v, v)


def value_problem(kind, value):
	"""Why VALUE is no well-formed reading of KIND, or None."""
	try:
		span = label_range(value)
	except (ValueError, IndexError):
		return "value %r is no size, count, bound or range" % value
	if span is None:
		return None
	if span[0] > span[1]:
		return "range %r ends below its start" % value
	ends = [p for p in value.split(":") if p not in BOUNDS]
	if len(ends) != BOUNDS.get(value.split(":")[0], 1):
		return "value %r has the wrong number of parts" % value
	sized = [bool(re.search(r"(B|[KMG]iB)$", p)) for p in ends]
	if kind in COUNT_KINDS and any(sized):
		return "%s is a count, not a size: %r" % (kind, value)
	if kind not in COUNT_KINDS and not all(sized):
		return "%s is a size with a unit: %r" % (kind, value)
	return None


def line_problem(body):
	"""Why the fields of one label line are malformed, or None."""
	if len(body) != 4:
		return "expected KIND VALUE CONFIDENCE WHO"
	kind, value, confidence, who = body
	if kind not in KINDS:
		return "unknown kind %r" % kind
	if confidence not in CONFIDENCES:
		return "confidence %r is not one of %s" % (
			confidence, ", ".join(CONFIDENCES))
	if not WHO.fullmatch(who):
		return "who %r is neither ours nor expert:Name" % who
	return value_problem(kind, value)


def read_labels(path, problems=None):
	"""The readings of a .labels file.  A malformed line ends the run,
	or with PROBLEMS (a list) is added to it and skipped."""
	labels = []
	with open(path, encoding="utf-8") as f:
		for n, line in enumerate(f, 1):
			body = line.split("#", 1)[0].split()
			if not body:
				continue
			why = line_problem(body)
			if why and problems is None:
				sys.exit("%s:%d: %s" % (path, n, why))
			if why:
				problems.append("%s:%d: %s" % (path, n, why))
				continue
			kind, value, confidence, who = body
			labels.append({"kind": kind, "value": value,
				       "confidence": confidence, "who": who})
	return labels


def run_analyze(flashbench, report):
	"""flashbench's JSON reading of REPORT, or (None, why)."""
	run = subprocess.run([flashbench, "--analyze=" + report, "--json"],
			     capture_output=True, text=True)
	if run.returncode != 0:
		return None, "flashbench exit %d: %s" % (run.returncode,
							  run.stderr.strip())
	try:
		return json.loads(run.stdout), None
	except ValueError as e:
		return None, "flashbench printed no JSON: %s" % e


def sections(data):
	return [section for rep in data.get("reports", [])
		for section in rep.get("sections", [])]


def analyze(flashbench, report):
	data, why = run_analyze(flashbench, report)
	if data is None:
		sys.stderr.write("%s: %s\n" % (report, why))
		return {}
	for section in sections(data):
		if section.get("analysis"):
			return section["analysis"]
	return {}


def report_problems(flashbench, report):
	"""Why REPORT is no usable corpus file: no source line, no labels,
	no table flashbench reads, or malformed label lines."""
	problems = []
	with open(report, encoding="utf-8") as f:
		if not f.readline().startswith("# source: "):
			problems.append("%s:1: no \"# source: \" line first" % report)
	labels = report[:-len(".txt")] + ".labels"
	if os.path.exists(labels):
		read_labels(labels, problems)
	else:
		problems.append("%s: no labels file" % labels)
	data, why = run_analyze(flashbench, report)
	if data is None:
		problems.append("%s: %s" % (report, why))
	elif not any(s.get("tables") for s in sections(data)):
		problems.append("%s: flashbench reads no table in it" % report)
	return problems


def check(flashbench, directory, reports):
	"""Print every problem of the corpus; the number of them."""
	problems = []
	for report in reports:
		problems += report_problems(flashbench, report)
	for labels in glob.glob(os.path.join(directory, "[0-9]*.labels")):
		if not os.path.exists(labels[:-len(".labels")] + ".txt"):
			problems.append("%s: no report for these labels" % labels)
	for line in problems:
		print(line)
	if not problems:
		print("ok: %d reports, every one read and labelled" % len(reports))
	return len(problems)


def verdict_range(kind, verdict, analysis, labelled_erase):
	"""The verdict as (low, high), None for "none"; "?" when it says nothing.

	Special AUs become bytes by the verdict's erase size, or by the
	labelled one when the verdict has none: an AU list against a "none"
	label is wrong whatever the size.
	"""
	value = verdict.get("value")
	if kind == "fat":
		if value is None:
			return "?"
		if not value:
			return None
		erase = (analysis.get("erase_size") or {}).get("value") or labelled_erase
		if not erase:
			return (0.0, math.inf)
		return (min(value) * erase, (max(value) + 1) * erase)
	if value is None:
		return "?"
	if verdict.get("at_least"):
		top = verdict.get("max")
		return (float(value), math.inf if top is None else float(top))
	if verdict.get("at_most"):
		return (0.0, float(value))
	return (float(value), float(value))


def agrees(label, verdict):
	if label is None or verdict is None:
		return label is verdict
	if verdict[0] == verdict[1]:
		return label[0] <= verdict[0] <= label[1]
	return label[0] <= verdict[1] and verdict[0] <= label[1]


def labelled_erase(labels):
	"""The exact erase size the labels give, or None."""
	for reading in labels:
		if reading["kind"] == "erase":
			r = label_range(reading["value"])
			if r and r[0] == r[1]:
				return r[0]
	return None


def judge(reading, analysis, erase):
	kind = reading["kind"]
	verdict = analysis.get(VERDICT_KEY[kind]) or {}
	confidence = verdict.get("confidence", "inconclusive")
	shown = verdict_range(kind, verdict, analysis, erase)
	if confidence == "inconclusive" or shown == "?":
		return "abstain", "inconclusive"
	if agrees(label_range(reading["value"]), shown):
		return "right", confidence
	return "wrong-" + confidence, confidence


def show(kind, verdict):
	value = verdict.get("value")
	if value is None:
		return "-"
	if kind == "fat":
		return "au:" + ",".join(str(v) for v in value) if value else "none"
	if verdict.get("at_least") and verdict.get("max") is not None:
		return "between:%s:%s" % (value, verdict["max"])
	prefix = "at_least:" if verdict.get("at_least") else \
		 "at_most:" if verdict.get("at_most") else ""
	return prefix + str(value)


def score(flashbench, reports, verbose):
	"""{kind: {outcome: count}} over every labelled reading; VERBOSE
	prints one line per reading."""
	counts = {k: dict.fromkeys(OUTCOMES, 0) for k in KINDS}
	for report in reports:
		labels_path = report[:-len(".txt")] + ".labels"
		if not os.path.exists(labels_path):
			continue
		analysis = analyze(flashbench, report)
		labels = read_labels(labels_path)
		erase = labelled_erase(labels)
		for reading in labels:
			outcome, confidence = judge(reading, analysis, erase)
			counts[reading["kind"]][outcome] += 1
			if verbose:
				verdict = analysis.get(VERDICT_KEY[reading["kind"]]) or {}
				print("%-32s %-11s %-20s %-18s %-12s %s" % (
					os.path.basename(report)[:-4], reading["kind"],
					reading["value"], show(reading["kind"], verdict),
					confidence, outcome))
	if verbose:
		print()
	return counts


def print_counts(counts):
	print("%-12s %6s %8s %10s %13s %11s %6s" % (("kind",) + OUTCOMES + ("total",)))
	total = dict.fromkeys(OUTCOMES, 0)
	for kind in KINDS:
		row = counts[kind]
		for o in OUTCOMES:
			total[o] += row[o]
		print("%-12s %6d %8d %10d %13d %11d %6d" % ((kind,) +
		      tuple(row[o] for o in OUTCOMES) + (sum(row.values()),)))
	print("%-12s %6d %8d %10d %13d %11d %6d" % (("total",) +
	      tuple(total[o] for o in OUTCOMES) + (sum(total.values()),)))


def sim_rows(path):
	"""The per-verdict rows of a tests/accuracy.py table, by our kind:
	{kind: {class: count}}."""
	kind_of = {key: kind for kind, key in VERDICT_KEY.items()}
	kind_of["all"] = "total"
	rows, header = {}, None
	with open(path, encoding="utf-8") as f:
		for line in f:
			cells = line.rstrip("\n").split("\t")
			if cells[0] == "verdict":
				header = cells
			elif header and cells[0] in kind_of:
				rows[kind_of[cells[0]]] = dict(zip(header[1:], cells[1:]))
	return rows


def print_beside(counts, sim):
	"""Each kind's real figures beside its simulated ones; the sim's
	right holds its right-abstain (an honest "cannot tell")."""
	print("%-12s %-29s %s" % ("", "real reports", "random sim cards"))
	print("%-12s %5s %4s %4s %4s %4s   %5s %5s %5s %5s %5s" % (
		"kind", "right", "abst", "w-lo", "w-md", "w-hi",
		"right", "r-low", "abst", "w-lo", "w-cf"))
	total = {o: sum(counts[k][o] for k in KINDS) for o in OUTCOMES}
	for kind in KINDS + ("total",):
		row, s = counts.get(kind, total), sim.get(kind, {})
		right = int(s.get("right", 0)) + int(s.get("right-abstain", 0))
		print("%-12s %5d %4d %4d %4d %4d   %5s %5s %5s %5s %5s" % (
			(kind,) + tuple(row[o] for o in OUTCOMES) +
			((right,) + tuple(s.get(c, "-") for c in SIM_CLASSES)
			 if s else ("-",) * 5)))


def main():
	here = os.path.dirname(os.path.abspath(__file__))
	ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	ap.add_argument("-v", "--verbose", action="store_true",
			help="one line per reading")
	ap.add_argument("--flashbench", default=os.environ.get("FB", "./flashbench"),
			help="the build to judge (default: $FB, else ./flashbench)")
	ap.add_argument("--dir", default=os.path.join(here, "real"))
	ap.add_argument("--check", action="store_true",
			help="only check that every report and label reads")
	ap.add_argument("--sim", metavar="FILE",
			help="also print each kind beside its row in this "
			"output of tests/accuracy.py")
	args = ap.parse_args()

	reports = sorted(glob.glob(os.path.join(args.dir, "[0-9]*.txt")))
	if not reports:
		sys.exit("no reports in %s" % args.dir)
	if args.check:
		sys.exit(1 if check(args.flashbench, args.dir, reports) else 0)
	counts = score(args.flashbench, reports, args.verbose)
	print_counts(counts)
	if args.sim:
		print()
		print_beside(counts, sim_rows(args.sim))

if __name__ == "__main__":
	main()
