#!/usr/bin/env python3
"""--survey against ground truth: every sim profile and randomized cards.

Each verdict of the survey is sorted as
  right     the true value (an open-AU "at least N" with N <= the truth)
  abstain   low confidence, inconclusive, or not reached
  wrong     a false value at medium or high confidence
min_full_speed_write is left to the verdict tests (its truth is not the
page alone: per-command overhead slows small writes too).
usage: survey_check.py [--cards N] [--seed S] [--noise 0,5] [--pow2]
                       [--realism] [--no-profiles] [--fb PATH]
Prints one line per card and a tally; exits 1 when any verdict is wrong.
"""
import argparse
import json
import random
import subprocess
import sys

from profiles import profiles

FAT_NR = 6


def random_card(rng, noise, pow2, realism=False):
    au = rng.choice([1, 2, 4, 4, 8, 8, 16] + ([] if pow2 else [6, 12])) << 20
    page = rng.choice([4, 8, 16, 16, 32]) << 10
    op = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24])
    rnd = min(op, rng.choice([0, 0, 1, 2, op, rng.randint(0, op)]))
    fat = rng.choice([0, 0, 1, 2])
    fatstart = rng.randint(0, 2) if fat else 0
    gib = rng.choice([1, 2, 4, 8, 16, 32])
    sz = gib * (1 << 30) - rng.choice([0, 0, 1, 37]) * (1 << 20)
    sz -= sz % au if rng.random() < 0.5 else sz % 512
    seed = rng.randint(1, 10**6)
    dev = ("sim:size=%d,au=%d,page=%d,open=%d,random=%d,fat=%d,"
           "fatstart=%d,noise=%d,seed=%d" % (sz, au, page, op, rnd, fat,
                                             fatstart, noise, seed))
    if realism:
        # how a collapse looks: copies of part of an AU closed early, a
        # rate it levels off at, small writes that take no slot, dear
        # random order
        dev += ",merge=%d,level=%d,small=%d,rcost=%d" % (
            rng.choice([100, 100, 50, 25, 10]),
            rng.choice([0, 0, 0, 25, 40]),
            rng.choice([0, 16, 128]) << 10, rng.choice([0, 0, 100]))
    return {"dev": dev, "au": au, "page": page, "open": op, "random": rnd,
            "fat": fat, "fatstart": fatstart}


def judge(v, truth, count=False):
    value = v["value"]
    if value == truth:
        return "right"
    if count and v.get("at_least") and value is not None and value <= truth \
            and (v.get("max") is None or truth <= v["max"]):
        return "right"
    if count and v.get("at_most") and value is not None and value >= truth:
        return "right"
    if value is None or v["confidence"] in ("low", "inconclusive"):
        return "abstain"
    return "wrong"


def survey(fb, card):
    p = subprocess.run([fb, "--survey", "--json", card["dev"]],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (card["dev"], p.returncode,
                                                p.stderr.strip()[-300:]))
    doc = json.loads(p.stdout)
    a = doc["analysis"]
    fat = [i for i in range(card["fatstart"], card["fatstart"] + card["fat"])
           if i < FAT_NR]
    out = [("erase_size", judge(a["erase_size"], card["au"])),
           ("page_size", judge(a["page_size"], card["page"])),
           ("open_au_linear", judge(a["open_au_linear"], card["open"], 1)),
           ("open_au_random", judge(a["open_au_random"], card["random"], 1)),
           ("fat_aus", judge(a["fat_aus"], fat))]
    return out, a, doc["io"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", default="0,5")
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--no-profiles", action="store_true")
    ap.add_argument("--writes-only", action="store_true",
                    help="fail only on the write tests' verdicts (the "
                    "alignment verdicts have their own accuracy suite)")
    ap.add_argument("--pow2", action="store_true",
                    help="power-of-two AUs only (no 3x2^n)")
    ap.add_argument("--realism", action="store_true",
                    help="random merge=, level=, small= and rcost= too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    noises = [int(x) for x in args.noise.split(",")]
    cards = [] if args.no_profiles else [dict(p, dev="sim:" + p["name"])
                                         for p in profiles(args.fb)]
    cards += [random_card(rng, noises[i % len(noises)], args.pow2,
                          args.realism)
              for i in range(args.cards)]
    tally = {"right": 0, "abstain": 0, "wrong": 0}
    wrong = 0
    for c in cards:
        res, a, io = survey(args.fb, c)
        marks = []
        for key, verdict in res:
            tally[verdict] += 1
            if verdict == "wrong":
                if not (args.writes_only and key in ("erase_size",
                                                     "page_size")):
                    wrong += 1
                marks.append("WRONG %s=%r (%s) -- %s" % (
                    key, a[key]["value"], a[key]["confidence"],
                    a[key]["evidence"]))
        print("%s\t%s\t%.0fs\t%dMiB\t%s" % (
            c["dev"], " ".join(v[0] for _, v in res),
            io["device_ns"] / 1e9, io["bytes_written"] >> 20,
            "; ".join(marks)))
    print("right %d, abstain %d, wrong %d" % (tally["right"],
                                              tally["abstain"],
                                              tally["wrong"]))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
