#!/usr/bin/env python3
"""The open-AU ramp (-O --ramp) against a classic -O proof, on sim cards.

For each sim profile (its erase size and open count from --help-sim)
and --cards random cards (tests/accuracy.py's generator, --seed), with
--erasesize at the card's AU:
  ramp   flashbench -O --ramp: its open_au_linear verdict, bytes
         written and device time (the JSON "io")
  proof  -O --open-au-nr=L and -O --open-au-nr=L+1, L the card's open
         count: what proves the count the classic way, both runs' io
Each ramp verdict is sorted against the truth: right (the count, or a
bound that holds, at medium or high), low (right at low confidence),
abstain (inconclusive), wrong-low, wrong (false at medium or high).
Prints a line per card, then the tally and the medians of the ratios
ramp/proof in bytes and in device time; exits 1 on any wrong verdict.
usage: bench/ramp_cost.py [--fb ./flashbench] [--cards 30] [--seed 1]
                          [--no-profiles] [-j 2]
"""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from accuracy import cards, dev_name  # noqa: E402

UNIT = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def run(fb, args):
    p = subprocess.run([fb, "--json"] + args, capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args),
                                                p.returncode, p.stderr))
    return json.loads(p.stdout)


def profile_cards(fb):
    """(name, device, AU, open) of each profile, from --help-sim."""
    text = subprocess.run([fb, "--help-sim"], capture_output=True,
                          text=True).stdout
    res = []
    for name, au, au_unit, opn in re.findall(
            r"^  (\w+) .*\n +size=\S+ au=(\d+)(KiB|MiB) \S+ open=(\d+)",
            text, re.M):
        res.append((name, "sim:" + name, int(au) * UNIT[au_unit],
                    int(opn)))
    return res


def sort(v, truth):
    conf, val = v["confidence"], v["value"]
    if val is None:
        return "abstain"
    holds = val <= truth if v["at_least"] else (
        val >= truth if v["at_most"] else val == truth)
    if conf == "low":
        return "low" if holds else "wrong-low"
    return "right" if holds else "wrong"


def measure(fb, card):
    name, dev, au, opn = card
    e = "--erasesize=%d" % au
    ramp = run(fb, ["-O", "--ramp", e, dev])
    proof = [run(fb, ["-O", e, "--open-au-nr=%d" % n, dev])["io"]
             for n in (opn, opn + 1)]
    v = ramp["analysis"]["open_au_linear"]
    return {"name": name, "truth": opn, "verdict": v,
            "class": sort(v, opn),
            "bytes": (ramp["io"]["bytes_written"],
                      sum(p["bytes_written"] for p in proof)),
            "ns": (ramp["io"]["device_ns"],
                   sum(p["device_ns"] for p in proof))}


def shown(v):
    if v["value"] is None:
        return "inconclusive"
    pre = "at least " if v["at_least"] else "at most " if v["at_most"] \
        else ""
    return "%s%d (%s)" % (pre, v["value"], v["confidence"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--cards", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-profiles", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    todo = [] if a.no_profiles else profile_cards(a.fb)
    for i, c in enumerate(cards(a.cards, a.seed)):
        todo.append(("card%d" % i, dev_name(c), c["au"], c["open"]))
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        res = list(ex.map(lambda c: measure(a.fb, c), todo))
    tally = {}
    for r in res:
        tally[r["class"]] = tally.get(r["class"], 0) + 1
        print("%-10s open=%-3d ramp: %-24s bytes %6.3fx  time %6.3fx" % (
            r["name"], r["truth"], shown(r["verdict"]),
            r["bytes"][0] / r["bytes"][1], r["ns"][0] / r["ns"][1]))
    print("verdicts: %s" % ", ".join("%s %d" % kv
                                    for kv in sorted(tally.items())))
    print("median ramp/proof: bytes %.3fx, device time %.3fx (%d cards)" % (
        statistics.median(r["bytes"][0] / r["bytes"][1] for r in res),
        statistics.median(r["ns"][0] / r["ns"][1] for r in res), len(res)))
    return 1 if tally.get("wrong") else 0


if __name__ == "__main__":
    sys.exit(main())
