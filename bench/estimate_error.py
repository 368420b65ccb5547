#!/usr/bin/env python3
"""How far the survey's estimates are from what it then did.

For the six sim profiles and --cards random cards (tests/survey_check.py's
generator, fixed --seed), one flashbench --survey --json each:
  plan   the first plan line's "writes B in T", the figures a user plans
         with before anything is written, against the survey's own I/O
         totals (JSON "io": bytes_written, device_ns; on the sim device
         time is the sim's clock, not the wall clock)
  rate   "# plan: after step K (the reference run ...)": the rest of the
         survey once the card's write rate is measured, against the
         I/O totals less steps 1..K (resets between steps included)
  count  the same after the ramp, once its open-AU count is known
  random the same after the random N=1 reference (random slots or none)
  rcount the same after the random ramp
  step   each step's "(about T)" on stderr against that step's device_ns
         in the JSON, by kind of step (ramp, probe, full run, ...)
A plan's figure is "about X", or a span "X to Y" where the counts no run
has told yet leave it more than 1.5x from end to end.  For each plan and
figure: the abouts' ratio estimate/actual (p10, median, p90) and the
share within 1.5x either way (the issue's target: 80 %), and how many
spans hold the actual.  Then every about pooled, and the first about
each card got (the figure a user can first plan with), also by the
card's true count.  Prints one line per card first.
usage: bench/estimate_error.py [--fb ./flashbench] [--cards 40] [--seed 1]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from budget import (FIGURE, PLAN, cards_args, duration,  # noqa: E402
                    figure, quantiles, size, survey)
from survey_check import random_card  # noqa: E402

PROFILES = ("sd08g", "su04g", "evo32", "samsung16", "xporter", "rage")
STEP = re.compile(r"survey step \d+: (.*) \(about (\S+)\)$", re.M)
REPLAN = re.compile(r"^# plan: after step (\d+) \((the reference run|the "
                    r"ramp|the random reference run|the random ramp)[^)]*"
                    r"\): the rest writes %s in %s$" % (FIGURE, FIGURE),
                    re.M)
REPLAN_KEY = {"the reference run": "rate", "the ramp": "count",
              "the random reference run": "random",
              "the random ramp": "rcount"}
PLANS = ("plan", "rate", "count", "random", "rcount")
WHATS = ("bytes", "time")
KINDS = (("ramp", "ramp"), ("probe", "probe"), ("full", "full run"),
         ("collapse", "to its collapse"), ("fat", "FAT"),
         ("align", "alignment"))
NEAR = 1.5      # the "within 1.5x of the actual"


def judge(out, key, text, parse, actual, first):
    """One plan figure against the actual: an about's ratio, a span's
    hold; the first about of a card and figure also as its first."""
    lo, hi, about = figure(text, parse)
    what = key.split()[-1]
    if about:
        r = lo / actual
        out[key].append(r)
        out["about " + what].append(r)
        if what not in first:
            first[what] = r
        return "%.2f" % r
    out["spans " + key].append((lo / actual, hi / actual))
    return "[%.2f, %.2f]" % (lo / actual, hi / actual)


def replans(err, doc, out, first):
    """The updated plans against what the survey did after them."""
    io, steps = doc["io"], doc["steps"]
    for m in REPLAN.finditer(err):
        k = int(m.group(1))
        key = REPLAN_KEY[m.group(2)]
        b = io["bytes_written"] - sum(x["bytes_written"] for x in steps[:k])
        t = io["device_ns"] - sum(x["device_ns"] for x in steps[:k])
        # a rest under a few seconds shows "0s" to "5s": no ratio to judge
        if t < 5e9 or b <= 0:
            continue
        judge(out, key + " bytes", m.group(3), size, b, first)
        judge(out, key + " time", m.group(4),
              lambda x: duration(x) * 1e9, t, first)


def kind(label):
    return next((k for k, word in KINDS if word in label), "other")


def card(fb, dev, out):
    st, doc, err = survey(fb, dev)
    plan = PLAN.search(err)
    if doc is None:
        print("%s: exit %d, no JSON" % (dev, st))
        out["broken"] += 1
        return
    if not plan:
        print("%s: exit %d, stopped before its plan" % (dev, st))
        out["unplanned"] += 1
        return
    io = doc["io"]
    if not io["bytes_written"] or not io["device_ns"]:
        print("%s: exit %d, wrote nothing" % (dev, st))
        out["unplanned"] += 1
        return
    first = {}
    rb = judge(out, "plan bytes", plan.group(1), size, io["bytes_written"],
               first)
    rt = judge(out, "plan time", plan.group(2), lambda x: duration(x) * 1e9,
               io["device_ns"], first)
    replans(err, doc, out, first)
    opened = re.search(r"open=(\d+)", dev)
    for what in WHATS:
        if what not in first:
            out["no about " + what] += 1
            continue
        out["first " + what].append(first[what])
        if opened:
            out["by count"].setdefault(int(opened.group(1)),
                                       []).append(first[what])
    for (label, est), step in zip(STEP.findall(err), doc["steps"]):
        # a step under a second shows "0s" or "1s": no ratio to judge
        if step["device_ns"] >= 5e9:
            r = duration(est) * 1e9 / step["device_ns"]
            out["step"].append(r)
            k = kind(label)
            if step.get("stopped_collapsing"):
                k += ", stopped collapsing"
            out["steps"].setdefault(k, []).append(r)
    print("%s: plan %s in %s, did %.0fMiB in %.0fs: bytes %s time %s" % (
        dev, plan.group(1), plan.group(2), io["bytes_written"] / 2 ** 20,
        io["device_ns"] / 1e9, rb, rt), flush=True)


def show(what, xs):
    near = sum(1 for x in xs if 1 / NEAR <= x <= NEAR)
    print("%s estimate/actual: %s; within %.1fx: %d of %d (%.0f%%)" % (
        what, quantiles(xs), NEAR, near, len(xs),
        100.0 * near / max(1, len(xs))))


def show_spans(what, spans):
    if not spans:
        return
    held = sum(1 for lo, hi in spans if lo <= 1 <= hi)
    near = sum(1 for lo, hi in spans if lo / NEAR <= 1 <= hi * NEAR)
    widths = sorted(hi / lo for lo, hi in spans)
    print("%s spans: %d; the actual within %d, within %.1fx of an end %d; "
          "width median %.1fx, max %.1fx" % (
              what, len(spans), held, NEAR, near,
              widths[len(widths) // 2], widths[-1]))


def main():
    a, rng = cards_args()
    out = {"step": [], "steps": {}, "by count": {}, "broken": 0,
           "unplanned": 0}
    for what in WHATS:
        out["about " + what] = []
        out["first " + what] = []
        out["no about " + what] = 0
        for p in PLANS:
            out[p + " " + what] = []
            out["spans " + p + " " + what] = []
    for p in PROFILES:
        card(a.fb, "sim:" + p, out)
    for _ in range(a.cards):
        card(a.fb, random_card(rng, rng.choice([0, 3, 8]), False,
                               True)["dev"], out)
    for p in PLANS:
        for what in WHATS:
            show(p + " " + what + ", about", out[p + " " + what])
            show_spans(p + " " + what, out["spans " + p + " " + what])
    for what in WHATS:
        show("every about, " + what, out["about " + what])
        show("the first about of a card, " + what, out["first " + what])
        print("cards with no about for %s: %d" % (what,
                                                 out["no about " + what]))
    show("step", out["step"])
    for k, xs in sorted(out["steps"].items()):
        show("step " + k, xs)
    for n, xs in sorted(out["by count"].items()):
        show("first about, both figures, cards keeping %d" % n, xs)
    print("stopped before a plan or a write: %d, broken: %d" % (
        out["unplanned"], out["broken"]))


if __name__ == "__main__":
    main()
