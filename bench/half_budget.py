#!/usr/bin/env python3
"""Surveys stopped at half their budget: bounds, never unproven counts.

For each sim profile and --cards random cards (tests/survey_check.py's
generator, realism on, a fixed --seed), a full flashbench --survey
--json, then the same with --max-write at half its bytes written and,
separately, --max-time at half its device time.  Each stopped survey
must end within its budget, and its open-AU verdicts (linear and
random) must hold on the card's true counts: an exact count must be the
count, "at least N" at most it, "at most N" at least it (issue 24: no
exact verdict the runs do not prove).  Prints each run that breaks one,
then the tally; exits 1 if any did.
usage: bench/half_budget.py [--fb ./flashbench] [--cards 100] [--seed 1]
"""
import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from survey_check import judge, profiles, random_card  # noqa: E402

COUNTS = (("open_au_linear", "open"), ("open_au_random", "random"))


def survey(fb, args):
    p = subprocess.run([fb, "--survey", "--json"] + args,
                       capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    try:
        return json.loads(p.stdout), p.returncode
    except ValueError:
        return None, p.returncode


def budgets(io):
    half_bytes = io["bytes_written"] // 2
    half_s = max(1, io["device_ns"] // 2 // 10 ** 9)
    return (("--max-write=%d" % half_bytes, "bytes_written", half_bytes),
            ("--max-time=%ds" % half_s, "device_ns", half_s * 10 ** 9))


def check(fb, card, tally):
    full, _ = survey(fb, [card["dev"]])
    if not full:
        tally["broken"] += 1
        return
    for opt, field, limit in budgets(full["io"]):
        doc, st = survey(fb, [opt, card["dev"]])
        if not doc:
            tally["broken"] += 1
            print("BROKEN %s %s: exit %d" % (opt, card["dev"], st))
            continue
        tally["runs"] += 1
        if doc["io"][field] > limit:
            tally["over"] += 1
            print("OVER %s %s: %s" % (opt, card["dev"], doc["io"][field]))
        for key, truth in COUNTS:
            v = doc["analysis"][key]
            got = judge(v, card[truth], True)
            tally[got] += 1
            if got == "wrong" or (got == "abstain" and v["value"] is not
                                  None and not v.get("at_least") and
                                  not v.get("at_most") and
                                  v["confidence"] == "low"):
                tally["unproven"] += got != "wrong"
                print("%s %s %s: %s, truth %d: %s (%s)" % (
                    got.upper(), opt, card["dev"], key, card[truth],
                    v["value"], v["confidence"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--cards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cards = [dict(p, dev="sim:" + p["name"]) for p in profiles(a.fb)]
    cards += [random_card(rng, (0, 5)[i % 2], False, True)
              for i in range(a.cards)]
    tally = {"runs": 0, "over": 0, "right": 0, "abstain": 0, "wrong": 0,
             "unproven": 0, "broken": 0}
    for c in cards:
        check(a.fb, c, tally)
    print("%(runs)d stopped surveys: %(over)d over budget; open-AU verdicts "
          "%(right)d right, %(abstain)d abstain (%(unproven)d exact at low "
          "and wrong), %(wrong)d wrong; %(broken)d broken" % tally)
    sys.exit(1 if tally["over"] or tally["wrong"] or tally["broken"] else 0)


if __name__ == "__main__":
    main()
