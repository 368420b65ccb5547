#!/usr/bin/env python3
"""Cost of --survey against the runs an expert would make, per sim profile.

For each profile (ground truth from --help-sim), in the same run:
  survey    flashbench --survey --json: device time and bytes written
  proof     the runs that prove the open-AU answers: the survey's read
            tests, N = limit with all rows, N = limit+1 up to its
            collapse (the first row at half the rate of the N = limit
            run), linear and random, at the survey's block size
  sweep     -O --open-au-nr=1-(limit+2), linear and random
  loop      the classic one-N-per-run loop, N = 1 .. limit+1, linear
Prints device time and bytes per profile and the survey's ratios to each.
usage: bench/survey_cost.py [--fb ./flashbench] [--profiles a,b]
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..",
                                "tests"))
from profiles import profiles  # noqa: E402


def run(fb, args):
    p = subprocess.run([fb, "--json"] + args, capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args),
                                                p.returncode,
                                                p.stderr.strip()))
    return json.loads(p.stdout)


def rows(doc):
    return doc["tables"][0]["rows"]


def upto_collapse(fb, base, nr, ref, au):
    """Time and bytes of the run at nr up to its collapse."""
    doc = run(fb, base + ["--open-au-nr=%d" % nr])
    good = {r["size"]: r["rate_bps"] for r in rows(ref)} if ref else {}
    ns = written = 0
    for i, r in enumerate(rows(doc)):
        ns += nr * au * 1e9 / r["rate_bps"]
        written += nr * au
        g = good.get(r["size"])
        if i >= 1 and (g is None or r["rate_bps"] < 0.5 * g):
            break
    return ns, written


def proof(fb, dev, au, bs, limit, nmax, random):
    base = ["-O", dev, "--erasesize=%d" % au, "--blocksize=%d" % bs]
    if random:
        base.append("--random")
    ns = written = 0
    ref = None
    if limit:
        ref = run(fb, base + ["--open-au-nr=%d" % min(limit, nmax)])
        ns += ref["io"]["device_ns"]
        written += ref["io"]["bytes_written"]
    if limit < nmax:
        n, w = upto_collapse(fb, base, limit + 1, ref, au)
        ns += n
        written += w
    return ns, written


def io(doc):
    return doc["io"]["device_ns"], doc["io"]["bytes_written"]


def profile(fb, p):
    dev = "sim:" + p["name"]
    sv = run(fb, ["--survey", dev])
    sv_ns, sv_w = io(sv)
    reads = sum(s["device_ns"] for s in sv["steps"]
                if s["command"].startswith("flashbench -a"))
    full = [s for s in sv["steps"] if "full run" in s["what"]]
    bs = int(re.search(r"--blocksize=(\d+)", full[0]["command"]).group(1)) \
        if full else 4096
    au = p["au"]
    ln, lw = proof(fb, dev, au, bs, p["open"], 64, 0)
    rn, rw = proof(fb, dev, au, bs, p["random"], 64, 1)
    pr_ns, pr_w = reads + ln + rn, lw + rw
    base = ["-O", dev, "--erasesize=%d" % au, "--blocksize=%d" % bs]
    hi = min(p["open"] + 2, 64)
    a = run(fb, base + ["--open-au-nr=1-%d" % hi])
    b = run(fb, base + ["--random",
                        "--open-au-nr=1-%d" % min(p["random"] + 2, 64)])
    sw_ns, sw_w = io(a)[0] + io(b)[0], io(a)[1] + io(b)[1]
    lp_ns = lp_w = 0
    for n in range(1, min(p["open"] + 1, 64) + 1):
        d = run(fb, base + ["--open-au-nr=%d" % n])
        lp_ns += io(d)[0]
        lp_w += io(d)[1]
    return (p["name"], sv_ns, sv_w, pr_ns, pr_w, sw_ns, sw_w, lp_ns, lp_w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--profiles", default="")
    args = ap.parse_args()
    want = args.profiles.split(",") if args.profiles else None
    print("profile\tsurvey\t\tproof runs\t\tsweep\t\tclassic loop\t\t"
          "survey/proof\tsurvey/sweep\tsurvey/loop")
    print("\ttime\twritten\ttime\twritten\ttime\twritten\ttime\twritten\t"
          "time bytes\ttime bytes\ttime bytes")
    worst = 0
    for p in profiles(args.fb):
        if want and p["name"] not in want:
            continue
        r = profile(args.fb, p)
        n, s_ns, s_w, p_ns, p_w, w_ns, w_w, l_ns, l_w = r
        worst = max(worst, s_ns / p_ns, s_w / p_w)
        print("%s\t%.0fs\t%.0fMiB\t%.0fs\t%.0fMiB\t%.0fs\t%.0fMiB\t%.0fs\t"
              "%.0fMiB\t%.2f %.2f\t%.2f %.2f\t%.3f %.2f" %
              (n, s_ns / 1e9, s_w / 2**20, p_ns / 1e9, p_w / 2**20,
               w_ns / 1e9, w_w / 2**20, l_ns / 1e9, l_w / 2**20,
               s_ns / p_ns, s_w / p_w, s_ns / w_ns, s_w / w_w,
               s_ns / l_ns, s_w / l_w))
    print("worst survey/proof ratio: %.2f" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
