#!/usr/bin/env python3
"""Cost of the survey's random open-AU search against its minimal proof.

As bench/survey_linear.py, for the random order:
  search  the survey's random open-AU steps after the random N=1
          reference run (on a card keeping no AU open for random writes
          that run is the whole search and its proof, and is counted):
          device time and bytes written, from --survey --json
  proof   the minimal proof of the card's random limit L: -O --random at
          N=L+1 up to its collapse (its fewest leading rows that
          --analyze, read with a run at N=L, calls collapsed) and N=L
          over one row more (or as many as the two need); L=0: N=1 up
          to its collapse; each read after the survey's report before
          its random search (its -a tables and linear count tell the
          random count exactly); as survey_linear.py, a card no rows
          prove is marked and left out of the medians and the bound
Prints search/proof per profile and the median and max over the cards,
and the worst card (the larger of its time and bytes ratios), the new
binary beside the old one (issue 24: at most 2 per profile and
at the median, 3 on any card).
usage: bench/survey_random.py [--fb ./flashbench] [--base FB] [--cards N]
                              [--seed S] [-j J] [--no-profiles]
"""
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from survey_linear import arguments, block_size, cards_measured, \
    has_proof, is_reference, minimal_proof, no_proof, proof_mark, \
    profiles, ratios, run, summary  # noqa

STEP = "open-AU limit, random"


def search_cost(doc, limit):
    """Device time and bytes of the random search after its reference."""
    ns = w = 0
    for st in doc["steps"]:
        if st["what"].startswith(STEP) and \
                not (limit and is_reference(st, "random")):
            ns += st["device_ns"]
            w += st["bytes_written"]
    return ns, w


def context(fb, dev):
    """The survey's report before its random search."""
    text = run(fb, ["--survey", dev], text=True)
    return text[:text.index(re.search(r"^# step \d+ \(" + STEP, text,
                                      re.M).group(0))]


def measure(args, card, key):
    got = {}
    for name, fb in (("new", args.fb), ("old", args.base or args.fb)):
        doc = run(fb, ["--survey", card["dev"]])
        got[name] = search_cost(doc, card["random"])
        got[name + "-verdict"] = doc["analysis"]["open_au_random"]
        if name == "new":
            bs = block_size(doc)
    got["proof"] = minimal_proof(args.fb, card["dev"], card["au"], bs,
                                 card["random"], key, "random",
                                 context(args.fb, card["dev"]))
    return got


WORST = {}     # new, old: (the larger of time and bytes ratio, card)


def worst(label, name, ratio):
    WORST[name] = max(WORST.get(name, (0, "")), (max(ratio), label))


def show(label, r):
    n, o = ratios(r, "new"), ratios(r, "old")
    if label.startswith("card ") and has_proof(r):
        worst(label, "new", n)
        worst(label, "old", o)
    print("%-10s %7.1fs %6.0fMiB  %7.1fs %6.0fMiB  %5.2f %5.2f  "
          "%5.2f %5.2f  %s" % (
              label, r["proof"][0] / 1e9, r["proof"][1] / 2**20,
              r["new"][0] / 1e9, r["new"][1] / 2**20, *n, *o,
              verdict(r["new-verdict"])) +
          proof_mark(r))
    return n


def verdict(v):
    return "%s%s %s" % (v["value"], "+" if v["at_least"] else
                        "-" if v["at_most"] else "", v["confidence"])


HEAD = ("%-10s %8s %9s  %8s %9s  %-11s  %-11s  %s\n%-10s %8s %9s  %8s %9s  "
        "%5s %5s  %5s %5s" % (
            "card", "proof", "", "search", "", "new/proof", "old/proof",
            "new verdict", "", "time", "bytes", "time", "bytes",
            "time", "bytes", "time", "bytes"))


def main():
    args = arguments("/work/base9/flashbench")
    print(HEAD)
    pool = ThreadPoolExecutor(args.j)
    if not args.no_profiles:
        cards = [dict(p, dev="sim:" + p["name"]) for p in profiles(args.fb)]
        res = list(pool.map(lambda c: measure(args, c, "r" + c["name"]),
                            cards))
        for c, r in zip(cards, res):
            show(c["name"], r)
        no_proof(res, [c["name"] for c in cards])
        summary(res, "profiles")
    if args.cards:
        cards_measured(args, pool, measure, show, "rc")
        for name in WORST:
            print("worst card, %s: %s, search/proof %.2f (bound 3)" % (
                name, WORST[name][1], WORST[name][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
