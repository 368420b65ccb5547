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
UNITS = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


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


def read_labels(path):
	labels = []
	with open(path, encoding="utf-8") as f:
		for n, line in enumerate(f, 1):
			body = line.split("#", 1)[0].split()
			if not body:
				continue
			if len(body) != 4 or body[0] not in KINDS:
				sys.exit("%s:%d: expected KIND VALUE CONFIDENCE WHO" % (path, n))
			kind, value, confidence, who = body
			labels.append({"kind": kind, "value": value,
				       "confidence": confidence, "who": who})
	return labels


def analyze(flashbench, report):
	run = subprocess.run([flashbench, "--analyze=" + report, "--json"],
			     capture_output=True, text=True)
	if run.returncode != 0:
		sys.stderr.write("%s: flashbench exit %d: %s" %
				 (report, run.returncode, run.stderr))
		return {}
	data = json.loads(run.stdout)
	for rep in data.get("reports", []):
		for section in rep.get("sections", []):
			if section.get("analysis"):
				return section["analysis"]
	return {}


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
		return (float(value), math.inf)
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
	prefix = "at_least:" if verdict.get("at_least") else \
		 "at_most:" if verdict.get("at_most") else ""
	return prefix + str(value)


def main():
	here = os.path.dirname(os.path.abspath(__file__))
	ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	ap.add_argument("-v", "--verbose", action="store_true",
			help="one line per reading")
	ap.add_argument("--flashbench", default="./flashbench")
	ap.add_argument("--dir", default=os.path.join(here, "real"))
	args = ap.parse_args()

	counts = {k: dict.fromkeys(OUTCOMES, 0) for k in KINDS}
	reports = sorted(glob.glob(os.path.join(args.dir, "[0-9]*.txt")))
	if not reports:
		sys.exit("no reports in %s" % args.dir)
	for report in reports:
		labels_path = report[:-len(".txt")] + ".labels"
		if not os.path.exists(labels_path):
			continue
		analysis = analyze(args.flashbench, report)
		labels = read_labels(labels_path)
		erase = labelled_erase(labels)
		for reading in labels:
			outcome, confidence = judge(reading, analysis, erase)
			counts[reading["kind"]][outcome] += 1
			if args.verbose:
				verdict = analysis.get(VERDICT_KEY[reading["kind"]]) or {}
				print("%-32s %-11s %-20s %-18s %-12s %s" % (
					os.path.basename(report)[:-4], reading["kind"],
					reading["value"], show(reading["kind"], verdict),
					confidence, outcome))
	if args.verbose:
		print()
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


if __name__ == "__main__":
	main()
