#!/usr/bin/env python3
"""Cost of the survey's linear open-AU search against its minimal proof.

For each sim profile and, with --cards, randomized cards (the generator
of tests/survey_check.py, realism on, a fixed seed), with both binaries:
  search  the survey's linear open-AU steps from the first write after
          the N=1 reference run to the verdict (the ramp, the probes, the
          full runs; the reference and its repeat excluded): device time
          and bytes written, from --survey --json
  proof   the minimal proof of the card's limit L: N=L+1 up to its
          collapse (its fewest leading rows that --analyze, read with a
          run at N=L, calls collapsed) and N=L over one row more, or as
          many as the two need to give L; device time and bytes of -O
          runs whose sizes end at those rows.  Where no rows of N=L+1
          give L there is no proof: both full runs stand in, and the
          card is marked and left out of the medians and the bound
  survey  the whole survey: device time and bytes written
Prints search/proof per profile and the median and max over the cards,
the new binary beside the old one (issue 24: at most 2 per profile and
at the median, 3 on any card).
usage: bench/survey_linear.py [--fb ./flashbench] [--base FB] [--cards N]
                              [--seed S] [-j J] [--no-profiles]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
sys.path.insert(0, os.path.dirname(__file__))
from profiles import profiles  # noqa: E402
from survey_check import random_card  # noqa: E402
from survey_cost import fits, run  # noqa: E402

MAX_NR = 64     # the survey's largest N
TMP = tempfile.mkdtemp(prefix="survey_linear.")


def is_reference(step, order="linear"):
    return step["what"].startswith("open-AU limit, %s, full run at N=1" %
                                   order)


def search_cost(doc):
    """Device time and bytes of the linear search after its reference."""
    ns = w = 0
    for st in doc["steps"]:
        if st["what"].startswith("open-AU limit, linear") and \
                not is_reference(st):
            ns += st["device_ns"]
            w += st["bytes_written"]
    return ns, w


def block_size(doc):
    for st in doc["steps"]:
        if is_reference(st):
            for word in st["command"].split():
                if word.startswith("--blocksize="):
                    return int(word.split("=")[1])
    return 4096


def proof_text(ref, runs):
    """A report of ref and the proof's runs, each (command, rows)."""
    return ref + "".join("# step %d (proof): flashbench %s\n%s\n" % (
        9 + i, " ".join(cmd), "\n".join(rows))
        for i, (cmd, rows) in enumerate(runs))


def proves(fb, text, limit, key, order):
    """Whether --analyze of text gives limit, exactly or as the top of a
    bound (at any confidence)."""
    path = os.path.join(TMP, "%s.txt" % key)
    with open(path, "w") as f:
        f.write(text)
    a = run(fb, ["--analyze=" + path])["reports"][0]["sections"][0]
    v = a["analysis"]["open_au_" + order]
    return v["value"] == limit and not v["at_least"]


def report_ref(ctx, dev, doc):
    """What the proof's runs are read after: ctx, else the disk line."""
    return ctx or "# Disk %s: %d bytes\n" % (dev, doc["device"]["size"])


def collapse_rows(fb, cmd, rows, ref, limit, key, order="linear"):
    """Fewest leading rows of the run at limit+1 that, read after ref,
    give limit; 0: none do (all its rows leave the count open)."""
    for i in range(1, len(rows) + 1):
        if proves(fb, proof_text(ref, [(cmd, rows[:i])]), limit, key, order):
            return i
    return 0


def zero_proof(fb, base, au, bs, key, order, ctx):
    """A card keeping no AU open in this order: N=1 to its collapse."""
    cmd = base + ["--blocksize=%d" % bs, "--open-au-nr=1"]
    doc, rows = run_rows(fb, cmd)
    ref = report_ref(ctx, base[1], doc)
    k = collapse_rows(fb, cmd, rows, ref, 0, key, order)
    return rows_run(fb, base, 1, au, k or len(rows)) + (k > 0,)


def run_rows(fb, cmd):
    doc = run(fb, cmd)
    return doc, run(fb, cmd, text=True).splitlines()


def rows_run(fb, base, nr, au, k):
    """Device time and bytes of the first k rows of -O at nr: the run
    whose sizes end at the k-th (the survey's runs stop there)."""
    doc = run(fb, base + ["--open-au-nr=%d" % nr,
                          "--blocksize=%d" % (au >> (k - 1))])
    return doc["io"]["device_ns"], doc["io"]["bytes_written"]


def minimal_proof(fb, dev, au, bs, limit, key, order="linear", ctx=None):
    """Device time and bytes of what proves limit in this order; ctx: a
    report the proof's runs are read after (random order: the survey's
    before its random search, whose linear count and -a tables tell
    the random count exactly), not counted; and whether those runs
    prove it.  Where no rows of N=L+1 do (a card that copies a tenth of
    an AU it closes early can hold there down to the last size, as near
    as at N=L), the full runs at L and L+1 stand in, as the nearest -O
    runs come, and the card is flagged: the bound on the search is
    against a proof, and there is none."""
    base = ["-O", dev, "--erasesize=%d" % au] + \
        (["--random"] if order == "random" else [])
    if not limit:
        return zero_proof(fb, base, au, bs, key, order, ctx)
    limit = min(limit, MAX_NR)
    while limit > 1 and not fits(fb, base + ["--open-au-nr=%d" % limit]):
        limit -= 1
    cmd_l = base + ["--blocksize=%d" % bs, "--open-au-nr=%d" % limit]
    doc_l, rows_l = run_rows(fb, cmd_l)
    cmd_h = base + ["--blocksize=%d" % bs, "--open-au-nr=%d" % (limit + 1)]
    if limit >= MAX_NR or not fits(fb, cmd_h):
        return doc_l["io"]["device_ns"], doc_l["io"]["bytes_written"], True
    rows_h = run(fb, cmd_h, text=True).splitlines()
    ref = report_ref(ctx, dev, doc_l)
    k = collapse_rows(fb, cmd_h, rows_h, proof_text(ref, [(cmd_l, rows_l)]),
                      limit, key, order)
    # N=L as deep as, with the run above cut at its collapse, it proves L
    j = min(k + 1, len(rows_l)) if k else len(rows_l)
    while j < len(rows_l) and not proves(
            fb, proof_text(ref, [(cmd_l, rows_l[:j]), (cmd_h, rows_h[:k])]),
            limit, key, order):
        j += 1
    hn, hw = rows_run(fb, base, limit + 1, au, k or len(rows_h))
    ln, lw = rows_run(fb, base, limit, au, j)
    return hn + ln, hw + lw, k > 0


def measure(args, card, key):
    got = {}
    for name, fb in (("new", args.fb), ("old", args.base or args.fb)):
        doc = run(fb, ["--survey", card["dev"]])
        got[name] = search_cost(doc)
        got[name + "-survey"] = (doc["io"]["device_ns"],
                                 doc["io"]["bytes_written"])
        got[name + "-verdict"] = doc["analysis"]["open_au_linear"]
        if name == "new":
            bs = block_size(doc)
    got["proof"] = minimal_proof(args.fb, card["dev"], card["au"], bs,
                                 card["open"], key)
    return got


def ratios(r, name):
    s, p = r[name], r["proof"]
    return s[0] / p[0], s[1] / p[1]


def has_proof(r):
    """Whether the card has a minimal proof (see minimal_proof())."""
    return r["proof"][2]


def proof_mark(r):
    """What a card's line ends with: the mark of a card with no proof."""
    return "" if has_proof(r) else "  no -O proof"


def no_proof(res, labels):
    """The cards no -O runs prove: named, and the worst of their searches
    against the stand-in, outside the bound."""
    bare = [(max(ratios(r, "new")), l) for l, r in zip(labels, res)
            if not has_proof(r)]
    if bare:
        print("no -O proof (outside the bound): %d: %s; worst against the "
              "full runs at L and L+1 %.2f (%s)" % (
                  len(bare), ", ".join(l for _, l in bare), *max(bare)))


def show(label, r):
    n, o = ratios(r, "new"), ratios(r, "old")
    print("%-10s %7.0fs %6.0fMiB  %7.0fs %6.0fMiB  %5.2f %5.2f  "
          "%5.2f %5.2f  %5.0fs %6.0fMiB -> %5.0fs %6.0fMiB" % (
              label, r["proof"][0] / 1e9, r["proof"][1] / 2**20,
              r["new"][0] / 1e9, r["new"][1] / 2**20, *n, *o,
              r["old-survey"][0] / 1e9, r["old-survey"][1] / 2**20,
              r["new-survey"][0] / 1e9, r["new-survey"][1] / 2**20) +
          proof_mark(r))
    return n, o


HEAD = ("%-10s %8s %9s  %8s %9s  %-11s  %-11s  %s\n%-10s %8s %9s  %8s %9s  "
        "%5s %5s  %5s %5s  %s" % (
            "card", "proof", "", "search", "", "new/proof", "old/proof",
            "survey old -> new", "", "time", "bytes", "time", "bytes",
            "time", "bytes", "time", "bytes", "time bytes"))


def cards_measured(args, pool, measure, show, key):
    """The randomized cards measured, each shown, then the ratios' median
    and max, new and old."""
    rng = random.Random(args.seed)
    cards = [random_card(rng, (0, 5)[i % 2], False, True)
             for i in range(args.cards)]
    res = list(pool.map(lambda ic: measure(args, ic[1], key + str(ic[0])),
                        enumerate(cards)))
    labels = ["card %d" % i for i in range(len(res))]
    for label, r in zip(labels, res):
        show(label, r)
    no_proof(res, labels)
    summary(res, "%d cards (seed %d)" % (args.cards, args.seed))
    worst_card(res, cards)


def summary(res, label):
    """Medians and maxima of the ratios over the cards with a proof."""
    res = [r for r in res if has_proof(r)]
    if not res:
        return
    for name in ("new", "old"):
        t = [ratios(r, name)[0] for r in res]
        b = [ratios(r, name)[1] for r in res]
        print("%s, %s search/proof: time median %.2f max %.2f; bytes "
              "median %.2f max %.2f" % (label, name, statistics.median(t),
                                        max(t), statistics.median(b),
                                        max(b)))


def worst_card(res, cards):
    """The card whose new search costs most against its proof (the larger
    of its time and bytes ratios), with its geometry, so a bound broken
    names the card to rerun; and how many of the cards with a proof break
    the bound of 3."""
    weighed = [i for i, r in enumerate(res) if has_proof(r)]
    if not weighed:
        return
    worst = {i: max(ratios(res[i], "new")) for i in weighed}
    i = max(weighed, key=worst.__getitem__)
    c = cards[i]
    print("worst card %d: new search/proof %.2f (time %.2f bytes %.2f), "
          "old %.2f; %s; %d of %d cards over 3" % (
              i, worst[i], *ratios(res[i], "new"), max(ratios(res[i], "old")),
              c["dev"], sum(w > 3 for w in worst.values()),
              len(weighed)))


def arguments(base):
    """The command line of this bench and of survey_random.py."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--base", default=base)
    ap.add_argument("--cards", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--no-profiles", action="store_true")
    args = ap.parse_args()
    if not os.access(args.base, os.X_OK):
        print("%s: not there: the old columns repeat the new" % args.base)
        args.base = None
    return args


def main():
    args = arguments("/work/base10/flashbench")
    print(HEAD)
    worst, name = 0, "-"
    pool = ThreadPoolExecutor(args.j)
    if not args.no_profiles:
        cards = [dict(p, dev="sim:" + p["name"]) for p in profiles(args.fb)]
        res = pool.map(lambda c: measure(args, c, c["name"]), cards)
        res = list(res)
        for c, r in zip(cards, res):
            n, _ = show(c["name"], r)
            if has_proof(r) and max(n) > worst:
                worst, name = max(n), c["name"]
        no_proof(res, [c["name"] for c in cards])
        print("profiles: worst new search/proof %.2f on %s (bound 2)" % (
            worst, name))
    if args.cards:
        cards_measured(args, pool, measure, show, "c")
    return 0


if __name__ == "__main__":
    sys.exit(main())
