#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Robustness corpus for the report parser: real runs of flashbench on
simulated cards, rendered the ways people paste them (mail archives,
markdown, pastebins, gists, wrapper scripts, cut pastes, terminal logs).

    paste_corpus.py --fb ./flashbench --dir tests/tmp/paste [--profiles=...]

writes every rendering with the plain report it must read like (the
commands and profiles that made them are the labels), reads them all back
with --analyze, and prints one line per style: renderings read right, that is, whose
tables (kind, N, order, rows, values) and verdict lines equal those of the
plain report, itself read as the labels say.
Exit status 1 if any rendering or plain report reads wrong.
"""
import argparse
import json
import os
import re
import subprocess
import sys

DEV = "/dev/sdb"
# profile: erase block and open-AU limit (flashbench sim:help)
PROFILES = {
    "sd08g": ("4M", 6), "su04g": ("4M", 2), "evo32": ("16M", 7),
    "samsung16": ("8M", 32), "xporter": ("8M", 8), "rage": ("12M", 12),
}


def run(fb, args, prof, seed=None, merge=False):
    key = "sim:%s" % prof + (",seed=%d" % seed if seed else "")
    p = subprocess.run([fb] + args + [key], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merge else
                       subprocess.DEVNULL, check=True)
    return p.stdout.decode()


class Run:
    """One flashbench command on one card, with what it must read as."""

    def __init__(self, fb, prof, args, seed=None):
        self.prof, self.args, self.seed = prof, args, seed
        self.analyzed = run(fb, args + ["--analyze"], prof, seed)
        self.out = "".join(l for l in self.analyzed.splitlines(True)
                           if not l.startswith("# "))
        self.merged = run(fb, args, prof, seed, merge=True)
        self.test = args[0]
        nr = [a.split("=", 1)[1] for a in args if a.startswith("--open-au-nr")]
        self.nr = nr[0] if nr else "2"
        self.random = "--random" in args
        self.sweep = "-" in self.nr
        self.kind = {"-a": "align", "-f": "find_fat"}.get(
            self.test, "open_au_sweep" if self.sweep else "open_au")

    def cmdline(self):
        return "flashbench %s %s" % (" ".join(self.args), DEV)

    def lines(self):
        return self.out.splitlines()

    def mode(self):
        return "random" if self.random else "linear"


def cases(fb, profiles):
    """Lists of runs on one card each."""
    out = []
    for prof in profiles:
        au, nopen = PROFILES[prof]
        e = "--erasesize=%s" % au
        out.append([Run(fb, prof, ["-a", "--blocksize=1024"])])
        out.append([Run(fb, prof, ["-O", e])])
        out.append([Run(fb, prof, ["-O", e, "--open-au-nr=%d" %
                                   min(nopen + 1, 9)])])
        out.append([Run(fb, prof, ["-O", e, "--open-au-nr=3", "--random"])])
        out.append([Run(fb, prof, ["-O", e, "--open-au-nr=1-4"])])
        out.append([Run(fb, prof, ["-f", e, "--fat-nr=4"])])
        out.append([Run(fb, prof, ["-f", e, "--fat-nr=4", "--random"])])
        # a loop over N, and the same test twice
        out.append([Run(fb, prof, ["-O", e, "--open-au-nr=%d" % n])
                    for n in (1, 2, 3)])
        out.append([Run(fb, prof, ["-O", e, "--open-au-nr=2"], seed=s)
                    for s in (1, 2)])
    return out


# ---- renderings: each returns (text, plain text it must read like) ----

def plain(case):
    return "".join("$ %s\n%s" % (r.cmdline(), r.out) for r in case)


def with_prompt(case, fmt, end=""):
    return "".join(fmt % r.cmdline() + "\n" + r.out for r in case) + end


def r_root(case, i):
    return with_prompt(case, ["# %s", "root@pi:~# ./%s"][i % 2]), plain(case)


def r_sudo(case, i):
    return (with_prompt(case, "andrew@brick:~/git/flashbench$ sudo ./%s",
                        "andrew@brick:~/git/flashbench$ \n"), plain(case))


def fields(line, kind):
    """The printed fields: align rows are tab-separated, the rest padded."""
    return line.split("\t") if kind == "align" else line.split()


def r_tabs(case, i):
    """Fields joined by tabs (this tool's earlier layout, paste(1))."""
    text = ""
    for r in case:
        text += "$ sudo %s\n" % r.cmdline()
        text += "".join("\t".join(fields(l, r.kind)) + "\n"
                        for l in r.lines())
    return text, plain(case)


INTRO = "On Fri, 8 Jul 2011, Peter wrote:\nhi arnd and list, here are my " \
        "values for the card\n"
OUTRO = "\nThanks, the card seems to do fine.\n"


def collapse(text):
    return " ".join(text.split()) + "\n"


def r_mail_line(case, i):
    return INTRO + collapse(plain(case)) + OUTRO, plain(case)


def quote(text, marks):
    return "".join(marks + l + "\n" for l in text.splitlines())


def r_mail_quoted(case, i):
    marks = ["> ", ">> ", "> > "][i % 3]
    return INTRO + quote(plain(case), marks) + OUTRO, plain(case)


def r_mail_quoted_line(case, i):
    return collapse(INTRO + quote(plain(case), "> ") + OUTRO), plain(case)


def r_md_fence(case, i):
    text = "## Results\n\nI ran:\n\n"
    for r in case:
        text += "`%s`\n\n```%s\n%s```\n\n" % (r.cmdline(), ["", "text"][i % 2],
                                             r.out)
    return text, plain(case)


def md_header(r):
    first = fields(r.lines()[0], r.kind)
    if r.kind == "align":
        return ["align", "pre", "on", "post", "diff"]
    if r.kind == "open_au_sweep":
        return None
    if r.kind == "find_fat":
        return ["size"] + ["AU %d" % j for j in range(len(first) - 1)]
    return ["size", "rate"]


def md_table(r, cell, pad):
    head = md_header(r)
    rows = [fields(l, r.kind) for l in r.lines()]
    if head is None:
        head, rows = rows[0], rows[1:]

    def line(cells):
        return "|" + "|".join(pad + x + pad for x in cells) + "|\n"
    return line(head) + line("---:" for _ in head) + \
        "".join(line(cell(r, x) for x in f) for f in rows)


def r_md_table(case, i):
    """Markdown table of the printed fields."""
    text = ""
    for r in case:
        text += "**%s**\n\n%s\n" % (r.cmdline(),
                                    md_table(r, lambda r, x: x, " "))
    return text, plain(case)


def bare(r, x):
    # gist tables give the align columns their names in the header
    return x.split(" ", 1)[1] if r.kind == "align" else x


def r_gist_table(case, i):
    text = ""
    for r in case:
        text += "%s\n%s\n" % (r.cmdline(), md_table(r, bare, ""))
    return text, plain(case)


def r_bullets(case, i):
    mark = ["- ", "* ", "  * "][i % 3]
    return quote(plain(case), mark), plain(case)


def banner(r, i):
    if r.kind == "align":
        return "=== alignment test ==="
    if r.kind == "find_fat":
        return "=== find-fat, %s ===" % r.mode()
    if r.kind == "open_au_sweep":
        return "=== open AU sweep, %s ===" % r.mode()
    n, m = r.nr, r.mode()
    return ["Trying %s open AUs%s:" % (n, ", random" if r.random else ""),
            "%s AUs, %s access" % (n, m),
            "=== %s open, %s ===" % (n, m),
            "##### %s open AUs (%s) #####" % (n, m)][i % 4]


def r_banner(case, i):
    """A wrapper script that prints banners, not the commands."""
    text = "$ ./sdtest.sh %s\nsdtest 0.3: testing %s\n" % (DEV, DEV)
    for k, r in enumerate(case):
        text += "%s\n%s\n" % (banner(r, i + k), r.out)
    return text, plain(case)


def r_loop(case, i):
    """for i in ...; do echo banner; flashbench ... --open-au-nr=$i; done"""
    if len(case) < 2 or case[0].nr == case[1].nr:
        return None
    r = case[0]
    args = [a if not a.startswith("--open-au-nr") else "--open-au-nr=$i"
            for a in r.args]
    ns = " ".join(x.nr for x in case)
    text = "$ for i in %s; do echo \"Trying $i open AUs:\"; sudo ./flashbench" \
           " %s %s; done\n" % (ns, " ".join(args), DEV)
    for r in case:
        text += "Trying %s open AUs:\n%s" % (r.nr, r.out)
    return text, plain(case)


def r_trace(case, i):
    """sh -x log of a wrapper script."""
    text = "### card 1: %s ###\n" % DEV
    for r in case:
        text += "+ %s\n%s" % (r.cmdline(), r.out)
    return text, plain(case)


def r_stderr(case, i):
    """2>&1: warnings and verdicts among the rows."""
    return "".join("$ %s 2>&1\n%s" % (r.cmdline(), r.merged)
                   for r in case), plain(case)


def r_analyze(case, i):
    """--analyze: verdict lines after each table."""
    return "".join("$ %s --analyze\n%s" % (r.cmdline(), r.analyzed)
                   for r in case), plain(case)


TIME = {"ns": 1, "n": 1, "µs": 1e3, "µ": 1e3, "ms": 1e6, "m": 1e6, "s": 1e9}


def ns(s):
    m = re.fullmatch(r"(-?[0-9.e+]+)(\D*)", s)
    return float(m.group(1)) * TIME[m.group(2)]


def cut_last(r, k):
    """The output cut in its last row; and that row as it must read."""
    lines = r.lines()
    last = lines[-1].rstrip()
    f = fields(last, r.kind)
    if r.kind == "align":
        pre, on, post = (ns(x.split(" ")[1]) for x in f[1:4])
        whole = "%s\tdiff %.17gns" % ("\t".join(f[:4]),
                                      on - (pre + post) / 2)
        # in the diff value or before it: diff from pre/on/post
        cuts = [(len(last) - 3, whole), (len(last) - len(f[4]) - 1, whole),
                (len(last) - len(f[4]) - 4, None)]
    else:
        # in a rate: a row that cannot be completed
        cuts = [(len(last) - 4, None), (last.index(f[1], len(f[0])) + 2,
                                        None)]
    at, done = cuts[k % len(cuts)]
    head = "\n".join(lines[:-1]) + "\n"
    return head + last[:at], head + (done + "\n" if done else "")


def r_truncated(case, i):
    """The last row cut mid-field (then end of text, ^C or prose)."""
    head = "".join("$ %s\n%s" % (r.cmdline(), r.out) for r in case[:-1])
    r = case[-1]
    text, want = cut_last(r, i)
    tail = ["", "^C\n", "\n(it hung here)\n"][i % 3]
    cmd = "$ %s\n" % r.cmdline()
    return head + cmd + text + tail, head + cmd + want


ESC = "\x1b"


def r_control(case, i):
    """Terminal log: colours, a typo fixed with backspace, CRLF, NULs."""
    text = ""
    for r in case:
        cmd = r.cmdline().replace("flashbench", "flashbenhc\b\bch", 1)
        text += "%s[01;32muser@box%s[00m:%s[01;34m~%s[00m$ %s\r\n" % (
            ESC, ESC, ESC, ESC, cmd)
        for k, l in enumerate(r.lines()):
            l = "\t".join(fields(l, r.kind))
            l = l.replace("\t", "\t\t" if k % 2 else "\t \t")
            text += l + [ESC + "[K", "\0", "", " \b"][k % 4] + "\r\n"
    return text, plain(case)


STYLES = [
    ("root prompt", r_root), ("sudo prompt", r_sudo),
    ("tab separated", r_tabs), ("mail one line", r_mail_line),
    ("mail quoted", r_mail_quoted), ("mail quoted one line",
                                     r_mail_quoted_line),
    ("markdown fence", r_md_fence), ("markdown table", r_md_table),
    ("gist table", r_gist_table), ("pastebin bullets", r_bullets),
    ("wrapper banner", r_banner), ("loop banner", r_loop),
    ("sh -x trace", r_trace), ("2>&1", r_stderr),
    ("--analyze output", r_analyze), ("truncated", r_truncated),
    ("control chars", r_control),
]


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def analyze(fb, paths):
    """Tables and verdict lines of each report, read in one run each."""
    j = subprocess.run([fb, "--json", "--analyze=" + paths[0]] + paths[1:],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    t = subprocess.run([fb, "--analyze=" + paths[0]] + paths[1:],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tables = {p: [] for p in paths}
    for rep in json.loads(j.stdout.decode())["reports"]:
        for s in rep["sections"]:
            tables[rep["path"]] += s["tables"]
    verdicts = {p: [] for p in paths}
    cur = None
    for line in t.stdout.decode().splitlines():
        head = [p for p in paths if line.startswith("# " + p + ":") or
                line.startswith("# " + p + " ")]
        if head:
            cur = head[0]
        elif cur:
            verdicts[cur].append(line)
    return tables, verdicts


def label_errors(case, tables):
    """What the plain report says against how it was made."""
    errs = []
    if len(tables) != len(case):
        return ["%d tables for %d runs" % (len(tables), len(case))]
    for r, t in zip(case, tables):
        nrows = len(r.lines()) - (r.kind == "open_au_sweep")
        if t["kind"] != r.kind or len(t["rows"]) != nrows:
            errs.append("%s: %s with %d rows" % (r.cmdline(), t["kind"],
                                                 len(t["rows"])))
        elif r.kind in ("open_au", "find_fat", "open_au_sweep") and \
                t["random"] != r.random:
            errs.append("%s: random=%s" % (r.cmdline(), t["random"]))
        elif r.kind == "open_au" and str(t["open_au_nr"]) != r.nr:
            errs.append("%s: N=%s" % (r.cmdline(), t["open_au_nr"]))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--dir", default="tests/tmp/paste")
    ap.add_argument("--profiles", default=",".join(sorted(PROFILES)),
                    help="comma-separated sim profiles (default: all)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    all_cases = cases(a.fb, a.profiles.split(","))
    items = []  # (style, case index, rendering path, plain path)
    for c, case in enumerate(all_cases):
        ref = os.path.join(a.dir, "%03d_plain.txt" % c)
        write(ref, plain(case))
        for s, (name, fn) in enumerate(STYLES):
            got = fn(case, c)
            if got is None:
                continue
            text, want = got
            path = os.path.join(a.dir, "%03d_%02d.txt" % (c, s))
            write(path, text)
            wpath = ref
            if want != plain(case):
                wpath = os.path.join(a.dir, "%03d_%02d_want.txt" % (c, s))
                write(wpath, want)
            items.append((name, c, path, wpath))
    paths = sorted({p for it in items for p in it[2:]})
    tables, verdicts = analyze(a.fb, paths)
    bad = set()
    for c, case in enumerate(all_cases):
        ref = os.path.join(a.dir, "%03d_plain.txt" % c)
        for e in label_errors(case, tables[ref]):
            print("error: plain %s (%s): %s" % (ref, case[0].prof, e))
            bad.add(c)
    score = {}
    for name, c, path, want in items:
        ok = c not in bad and tables[path] == tables[want] and \
            verdicts[path] == verdicts[want]
        score.setdefault(name, [0, 0])
        score[name][0] += ok
        score[name][1] += 1
        if not ok and a.verbose:
            print("wrong: %s %s (want %s)" % (name, path, want))
    right = sum(v[0] for v in score.values())
    total = sum(v[1] for v in score.values())
    for name, _ in STYLES:
        if name in score:
            print("%s\t%d/%d" % (name, score[name][0], score[name][1]))
    print("plain\t%d/%d" % (len(all_cases) - len(bad), len(all_cases)))
    print("all\t%d/%d\t%.1f%%" % (right, total, 100.0 * right / total))
    return 1 if right != total else 0


if __name__ == "__main__":
    sys.exit(main())
