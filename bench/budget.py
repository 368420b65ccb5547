#!/usr/bin/env python3
"""Budgets and estimates of --survey on random sim cards, in one run.

For each card (tests/survey_check.py's generator, realistic collapses):
  full    flashbench --survey --json with no budget: the actual bytes
          written and device time, and the first plan's "writes B in T"
          (on stderr with --json; each "about X" or a span "X to Y",
          taken at its geometric middle); ratio estimate/actual
  budget  the same with --max-write at a share of the actual bytes and,
          separately, --max-time at a share of the actual device time:
          whether it ended over its budget (JSON "io") and its exit status
Prints one line per card, then the distribution of the ratios and the
count of runs over budget.  Run it on two binaries to compare.
usage: bench/budget.py [--fb ./flashbench] [--cards 40] [--seed 1]
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..",
                                "tests"))
from survey_check import random_card  # noqa: E402

SHARES = (0.3, 0.7)     # budgets as a share of what the full survey took
UNIT = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
        "TiB": 1 << 40}
# a plan's figure: "about X", or "X to Y" where the counts no run has
# told yet leave it that open
FIGURE = r"(about \S+|\S+ to \S+)"
PLAN = re.compile(r"# plan: writes %s in %s \(" % (FIGURE, FIGURE))


def size(text):
    m = re.fullmatch(r"([0-9.]+)([KMGT]iB|B?)", text)
    return float(m.group(1)) * UNIT[m.group(2)]


def duration(text):
    """Seconds of 2h03m, 11m, 19s, 1m05s, 250ms, 0s."""
    secs = 0.0
    for num, unit in re.findall(r"([0-9.]+)(ms|us|ns|h|m|s)", text):
        secs += float(num) * {"h": 3600, "m": 60, "s": 1, "ms": 1e-3,
                              "us": 1e-6, "ns": 1e-9}[unit]
    return secs


def figure(text, parse):
    """(low, high, about) of a plan's figure; low == high for "about"."""
    if text.startswith("about "):
        x = parse(text[len("about "):])
        return x, x, True
    lo, hi = text.split(" to ")
    return parse(lo), parse(hi), False


def middle(text, parse):
    lo, hi, _ = figure(text, parse)
    return (lo * hi) ** 0.5


def survey(fb, dev, extra=()):
    p = subprocess.run([fb, "--survey", "--yes", "--json"] + list(extra) +
                       [dev], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p.returncode, doc, p.stderr


def quantiles(xs):
    xs = sorted(xs)
    if not xs:
        return "none"
    pick = [xs[int(q * (len(xs) - 1))] for q in (0, .1, .25, .5, .75, .9,
                                                 1)]
    return "min %.2f p10 %.2f p25 %.2f median %.2f p75 %.2f p90 %.2f " \
           "max %.2f" % tuple(pick)


def card(fb, c, out):
    st, doc, err = survey(fb, c["dev"])
    if doc is None:
        out["broken"] += 1
        return
    io = doc["io"]
    plan = PLAN.search(err)
    if plan and io["bytes_written"] and io["device_ns"]:
        out["bytes"].append(middle(plan.group(1), size) /
                            io["bytes_written"])
        out["time"].append(middle(plan.group(2), duration) * 1e9 /
                           io["device_ns"])
    line = "%s exit %d" % (c["dev"], st)
    for share in SHARES:
        wb = max(1 << 20, int(io["bytes_written"] * share))
        wt = max(1, int(io["device_ns"] * share / 1e9))
        for opt, key, cap in (("--max-write=%d" % wb, "bytes_written", wb),
                              ("--max-time=%ds" % wt, "device_ns",
                               wt * 1e9)):
            bst, bdoc, _ = survey(fb, c["dev"], [opt])
            out["budgeted"] += 1
            if bdoc is None:
                out["broken"] += 1
                continue
            over = bdoc["io"][key] / cap
            out["status"][bst] = out["status"].get(bst, 0) + 1
            if over > 1:
                out["over"].append(over)
            line += " | %s: %.2f of it, exit %d" % (opt, over, bst)
    print(line, flush=True)


def cards_args():
    """The options both estimate benches take: binary, cards, seed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--cards", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    return a, random.Random(a.seed)


def main():
    a, rng = cards_args()
    out = {"bytes": [], "time": [], "over": [], "budgeted": 0,
           "broken": 0, "status": {}}
    for _ in range(a.cards):
        card(a.fb, random_card(rng, rng.choice([0, 3, 8]), False, True),
             out)
    for what in ("bytes", "time"):
        xs = out[what]
        near = sum(1 for x in xs if 1 / 1.5 <= x <= 1.5)
        print("estimate/actual %s: %s; within 1.5x: %d of %d" % (
            what, quantiles(xs), near, len(xs)))
    print("budgeted surveys: %d, over budget: %d (worst %.2fx), exit "
          "statuses %s, broken %d" % (
              out["budgeted"], len(out["over"]), max(out["over"] or [0]),
              out["status"], out["broken"]))


if __name__ == "__main__":
    main()
