#!/usr/bin/env python3
"""Cost of --survey against the runs an expert would make, in one run.

For each sim profile (ground truth from --help-sim) and, with --cards,
randomized cards (tests/survey_check.py's generator):
  survey  flashbench --survey --json: device time and bytes written,
          the FAT steps included
  proof   what proves the answers: the read tests (-a at 1 KiB and at
          3 KiB, --count=8, as an expert runs them once) and, linear
          and random, the run at N = limit with all rows and the run at
          N = limit+1 up to its collapse: its fewest leading rows that
          --analyze, read with the N = limit run, calls collapsed
  sweep   -O --open-au-nr=1-(limit+2), linear and random
  loop    the classic one-N-per-run loop, N = 1 .. limit+1, linear and
          random (loop-lin: the linear loop alone)
All write runs use the block size of the survey's full runs.  Prints
device time and bytes per card and the survey's ratios to each; the
issue's bound is survey/proof <= 2 in both.
usage: bench/survey_cost.py [--fb ./flashbench] [--profiles a,b]
                            [--cards N] [--seed S] [--no-profiles]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..",
                                "tests"))
from profiles import profiles  # noqa: E402
from survey_check import random_card  # noqa: E402

MAX_NR = 64     # the survey's largest N
TMP = tempfile.mkdtemp(prefix="survey_cost.")


def run(fb, args, text=False):
    p = subprocess.run([fb] + ([] if text else ["--json"]) + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args),
                                                p.returncode,
                                                p.stderr.strip()[-300:]))
    return p.stdout if text else json.loads(p.stdout)


def fits(fb, args):
    return subprocess.run([fb, "--dry-run"] + args, capture_output=True
                          ).returncode == 0


def io(doc):
    return doc["io"]["device_ns"], doc["io"]["bytes_written"]


def step_text(n, cmd, rows):
    return "# step %d (proof): flashbench %s\n%s" % (
        n, " ".join(cmd), "".join(line + "\n" for line in rows))


def verdict(fb, report, random_order):
    path = os.path.join(TMP, "proof.txt")
    with open(path, "w") as f:
        f.write(report)
    doc = run(fb, ["--analyze=" + path])
    a = doc["reports"][0]["sections"][0]["analysis"]
    return a["open_au_random" if random_order else "open_au_linear"]


def upto_collapse(fb, base, limit, ref_text, au, random_order):
    """Time and bytes of the N = limit+1 run up to its collapse."""
    nr = limit + 1
    cmd = base + ["--open-au-nr=%d" % nr]
    doc = run(fb, cmd)
    rows = run(fb, cmd, text=True).splitlines()
    rates = [r["rate_bps"] for r in doc["tables"][0]["rows"]]
    k = len(rows)
    for i in range(1, len(rows) + 1):
        v = verdict(fb, ref_text + step_text(4, cmd, rows[:i]),
                    random_order)
        if v["value"] == limit and not v["at_least"]:
            k = i
            break
    return sum(nr * au * 1e9 / r for r in rates[:k]), k * nr * au


def proof(fb, dev, au, bs, limit, random_order, read_text):
    base = ["-O", dev, "--erasesize=%d" % au, "--blocksize=%d" % bs]
    if random_order:
        base.append("--random")
    ns = written = 0
    ref_text = read_text
    # on a small card the largest N that fits stands in for the limit
    limit = min(limit, MAX_NR)
    while limit > 1 and not fits(fb, base + ["--open-au-nr=%d" % limit]):
        limit -= 1
    if limit:
        cmd = base + ["--open-au-nr=%d" % limit]
        ns, written = io(run(fb, cmd))
        ref_text += step_text(3, cmd, run(fb, cmd, text=True).splitlines())
    if limit < MAX_NR and fits(fb, base + ["--open-au-nr=%d" % (limit + 1)]):
        n, w = upto_collapse(fb, base, limit, ref_text, au, random_order)
        ns += n
        written += w
    return ns, written


def reads(fb, dev):
    """Device time of the read tests, and their tables as a report: a
    --random count is exact only where an -a table confirms the erase
    size, so the proof's verdicts are read with them."""
    ns, text = 0, ""
    for k, bs in enumerate((1024, 3072)):
        cmd = ["-a", dev, "--blocksize=%d" % bs, "--count=8"]
        doc = run(fb, cmd)
        if not text:
            text = "# Disk %s: %d bytes\n" % (dev, doc["device"]["size"])
        ns += doc["io"]["device_ns"]
        text += step_text(k + 1, cmd, run(fb, cmd, text=True).splitlines())
    return ns, text


def full_bs(sv):
    for s in sv["steps"]:
        if s["command"].startswith("flashbench -O") and "probe" not in \
                s["what"]:
            for w in s["command"].split():
                if w.startswith("--blocksize="):
                    return int(w.split("=")[1])
    return 4096


def sweep(fb, base, limit):
    hi = min(limit + 2, MAX_NR)
    while hi > 1 and not fits(fb, base + ["--open-au-nr=1-%d" % hi]):
        hi -= 1
    return io(run(fb, base + ["--open-au-nr=1-%d" % hi]))


def loop(fb, base, limit):
    ns = w = 0
    for n in range(1, min(limit + 1, MAX_NR) + 1):
        if not fits(fb, base + ["--open-au-nr=%d" % n]):
            break
        a, b = io(run(fb, base + ["--open-au-nr=%d" % n]))
        ns += a
        w += b
    return ns, w


def measure(fb, card, baselines):
    dev = card["dev"]
    sv = run(fb, ["--survey", dev])
    bs, au = full_bs(sv), card["au"]
    r = {"survey": io(sv)}
    an, text = reads(fb, dev)
    ln, lw = proof(fb, dev, au, bs, card["open"], 0, text)
    rn, rw = proof(fb, dev, au, bs, card["random"], 1, text)
    r["proof"] = (an + ln + rn, lw + rw)
    if baselines:
        base = ["-O", dev, "--erasesize=%d" % au, "--blocksize=%d" % bs]
        a, b = sweep(fb, base, card["open"]), \
            sweep(fb, base + ["--random"], card["random"])
        r["sweep"] = (a[0] + b[0], a[1] + b[1])
        a, b = loop(fb, base, card["open"]), \
            loop(fb, base + ["--random"], card["random"])
        r["loop"] = (a[0] + b[0], a[1] + b[1])
        r["loop-lin"] = a
    return r


def ratio(r, key):
    s, b = r["survey"], r[key]
    return s[0] / b[0], s[1] / b[1]


def profile_table(fb, want):
    print("profile\tsurvey\t\tproof\t\tsweep\t\tloop\t\t"
          "survey/proof\tsurvey/sweep\tsurvey/loop\tsurvey/loop-lin")
    print("\ttime\twritten\ttime\twritten\ttime\twritten\ttime\twritten\t"
          "time bytes\ttime bytes\ttime bytes\ttime bytes")
    worst = 0
    for p in profiles(fb):
        if want and p["name"] not in want:
            continue
        r = measure(fb, dict(p, dev="sim:" + p["name"]), True)
        cells = ["%.0fs\t%.0fMiB" % (r[k][0] / 1e9, r[k][1] / 2**20)
                 for k in ("survey", "proof", "sweep", "loop")]
        rats = [ratio(r, k) for k in ("proof", "sweep", "loop", "loop-lin")]
        worst = max(worst, *rats[0])
        print("%s\t%s\t%s" % (p["name"], "\t".join(cells), "\t".join(
            "%.2f %.2f" % x for x in rats)))
    print("profiles: worst survey/proof ratio %.2f" % worst)
    return worst


def card_table(fb, n, seed):
    rng = random.Random(seed)
    print("card\tsurvey\t\tproof\t\tsurvey/proof\tsurvey/loop")
    got = []
    for i in range(n):
        c = random_card(rng, (0, 5)[i % 2], False)
        r = measure(fb, c, True)
        got.append((ratio(r, "proof"), ratio(r, "loop")))
        print("%s\t%.0fs\t%.0fMiB\t%.0fs\t%.0fMiB\t%.2f %.2f\t%.2f %.2f" % (
            c["dev"], r["survey"][0] / 1e9, r["survey"][1] / 2**20,
            r["proof"][0] / 1e9, r["proof"][1] / 2**20, *got[-1][0],
            *got[-1][1]))
    for k, name in ((0, "survey/proof"), (1, "survey/loop")):
        t = [g[k][0] for g in got]
        b = [g[k][1] for g in got]
        print("%d cards, %s: time median %.2f max %.2f; bytes median %.2f "
              "max %.2f" % (n, name, statistics.median(t), max(t),
                            statistics.median(b), max(b)))
    return max(max(g[0]) for g in got)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--profiles", default="")
    ap.add_argument("--no-profiles", action="store_true")
    ap.add_argument("--cards", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    worst = 0
    if not args.no_profiles:
        worst = profile_table(args.fb, args.profiles.split(",")
                              if args.profiles else None)
    if args.cards:
        worst = max(worst, card_table(args.fb, args.cards, args.seed))
    print("worst survey/proof ratio: %.2f (bound: 2)" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
