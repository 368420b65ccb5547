#!/usr/bin/env python3
"""Verdict accuracy on the simulated profiles as noise grows.

For every profile, noise level and seed, run the alignment test, a linear
and a random open-AU sweep (read together with alignment tables at 1 KiB
and 3 KiB, which confirm the erase size a random count needs) and (where the profile has
one) the find-FAT test, and sort each verdict against the profile's
ground truth:
  right           the true value
  lower           not the true value, but said with low confidence or
                  inconclusive (the tool admits it is unsure)
  wrong           a false value claimed with medium or high confidence

usage: profiles.py [--noise 0,5,15] [--seeds 1,2,3] [--fb ./flashbench]
Prints a table; exits 1 when any verdict is wrong.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SIZE = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def size(s):
    m = re.fullmatch(r"([0-9.]+)(B|KiB|MiB|GiB)", s)
    return int(float(m.group(1)) * SIZE[m.group(2)])


def profiles(fb):
    out = subprocess.run([fb, "--help-sim"], capture_output=True,
                         text=True, check=True).stdout
    res, name, on = [], None, False
    for line in out.splitlines():
        if line.startswith("Profiles:"):
            on = True
        elif line.startswith("Keys"):
            on = False
        elif on and re.match(r"^  [a-z0-9]+ ", line):
            name = line.split()[0]
        elif on and name and "size=" in line:
            kv = dict(w.split("=") for w in line.split())
            res.append({"name": name, "au": size(kv["au"]),
                        "page": size(kv["page"]), "open": int(kv["open"]),
                        "random": int(kv["random"]),
                        "fat": int(kv.get("fat", 0)),
                        "fatstart": int(kv.get("fatstart", 0))})
            name = None
    return res


def run(fb, args, save=None):
    """A live run's analysis; with save, its report saved there too."""
    p = subprocess.run([fb, "--json"] + args, capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                p.stderr.strip()))
    if save:
        subprocess.run([fb] + args + ["-o", save], capture_output=True,
                       check=True)
    return json.loads(p.stdout)["analysis"]


def together(fb, files, tmp):
    """Saved reports read as one pasted report."""
    path = os.path.join(tmp, "together.txt")
    with open(path, "w") as out:
        for f in files:
            with open(f) as inp:
                out.write(inp.read())
    p = subprocess.run([fb, "--json", "--analyze=" + path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("--analyze: %s" % p.stderr.strip())
    return json.loads(p.stdout)["reports"][0]["sections"][0]["analysis"]


def judge(v, truth, at_least=None):
    value = v["value"]
    if value == truth or (at_least and v.get("at_least") and
                          value == at_least):
        return "right"
    if v["confidence"] in ("low", "inconclusive"):
        return "lower"
    return "wrong"


def card(fb, p, noise, seed, tmp):
    dev = "sim:%s,noise=%d,seed=%d" % (p["name"], noise, seed)
    au, page = p["au"], p["page"]
    w = ["-O", dev, "--erasesize=%d" % au, "--blocksize=%d" % page]
    hi = min(p["open"] + 2, 10)
    out = []
    # 2^n blocks: their places tell a 3x2^n unit (rage) from a 2^n one,
    # which a 3x2^n table alone cannot
    two = page & -page
    fa, fr = os.path.join(tmp, "a.txt"), os.path.join(tmp, "r.txt")
    a = run(fb, ["-a", dev, "--blocksize=%d" % (two // 8), "--count=4"],
            save=fa)
    out.append(("erase_size", judge(a["erase_size"], au), a["erase_size"]))
    out.append(("page_size", judge(a["page_size"], page), a["page_size"]))
    s = run(fb, w + ["--open-au-nr=1-%d" % hi])
    lin = p["open"] if p["open"] < hi else None
    out.append(("open_au_linear", judge(s["open_au_linear"], lin, hi),
                s["open_au_linear"]))
    # a random count needs the erase size confirmed: read with -a tables
    # of both families (2^n and 3x2^n), as the survey runs them
    files = [fa]
    for bs in (1024, 3072):
        files.append(os.path.join(tmp, "a%d.txt" % bs))
        run(fb, ["-a", dev, "--blocksize=%d" % bs, "--count=4"],
            save=files[-1])
    rhi = min(p["random"] + 2, hi)
    run(fb, w + ["--open-au-nr=1-%d" % rhi, "--random"], save=fr)
    s = together(fb, files[1:] + [fr], tmp)
    rnd = p["random"] if p["random"] < rhi else None
    out.append(("open_au_random", judge(s["open_au_random"], rnd, rhi),
                s["open_au_random"]))
    if p["fat"]:
        f = run(fb, ["-f", dev, "--erasesize=%d" % au,
                     "--blocksize=%d" % page])
        truth = list(range(p["fatstart"], p["fatstart"] + p["fat"]))
        out.append(("fat_aus", judge(f["fat_aus"], truth), f["fat_aus"]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--noise", default="0,5,15")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--fb", default="./flashbench")
    args = ap.parse_args()
    noises = [int(x) for x in args.noise.split(",")]
    seeds = [int(x) for x in args.seeds.split(",")]
    tally = {n: {"right": 0, "lower": 0, "wrong": 0} for n in noises}
    wrong = []
    for p in profiles(args.fb):
        for n in noises:
            for s in seeds:
                with tempfile.TemporaryDirectory(prefix="fb-prof-") as tmp:
                    res = card(args.fb, p, n, s, tmp)
                for key, verdict, v in res:
                    tally[n][verdict] += 1
                    if verdict == "wrong":
                        wrong.append("%s noise=%d seed=%d %s: %r (%s) -- %s"
                                     % (p["name"], n, s, key, v["value"],
                                        v["confidence"], v["evidence"]))
    print("noise\tright\tlower-confidence\twrong")
    for n in noises:
        t = tally[n]
        print("%d%%\t%d\t%d\t%d" % (n, t["right"], t["lower"], t["wrong"]))
    for w in wrong:
        print("wrong: " + w)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
