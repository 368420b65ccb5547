#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every option of options.c's table given hostile values.

usage: hostile.py FLASHBENCH OPTIONS_C FILE

The options come from the table (so a new row is covered without a
change here), checked against --help.  Each value that is bad for the
option's kind must give exit 2, exactly one line on stderr naming the
option, nothing on stdout, and no I/O (FILE's mtime, size and content
unchanged), on sim: and on FILE.  A value the kind allows (0 for
--offset, a name for --out) is not run: only no bad value may pass.
Prints PASS/FAIL lines for tests/lib.sh's reader.
"""
import hashlib
import os
import re
import subprocess
import sys

HUGE_DIGITS = "9" * 8192
HUGE_NAME = "x" * 8192
# Hostile in every kind but where the kind says otherwise (VALID below).
VALUES = ["0", "-1", "9223372036854775808", "18446744073709551615",
          "18446744073709551616", "2^64", "4Q", "4MiBB", "1.5.2", "",
          " 4M", HUGE_DIGITS, HUGE_NAME]
# Each run is a process and the suite must stay fast: an option taking
# no value needs two to show it refuses one, and the short form of an
# option reaches the same parser as the long one.  The values are
# parsed before the device is opened, so the file, there to show that
# nothing reaches it, gets a few of each kind.
FLAG_VALUES = {"0", ""}
SHORT_VALUES = {"", "0", "-1", "4Q"}
FILE_VALUES = {"0", "-1", "9223372036854775808", "18446744073709551616",
               "4Q", ""}

# Values a kind accepts; those are not run, as they may run a test.
# Sizes near 2^64 are run: no device here (sim: of 7.4 GiB, a 128 MiB
# file) holds a block, an erase block or an offset that large.
NAME_OK = set(VALUES) - {"", HUGE_NAME, HUGE_DIGITS}
VALID = {
    "name": NAME_OK,
    "offset": {"0"},
}
# A size that is a budget, not a place or a length on the device.
VALID_BY_NAME = {
    "max-write": {"9223372036854775808", "18446744073709551615"},
}

# The tests an option goes with, so that it is judged where it applies;
# the rest go with -a (an option new to the table included).
CONTEXTS = {
    "yes": [["--survey"]], "max-write": [["--survey"]],
    "max-time": [["--survey"]],
    "blocksize": [["-a"], ["-O"]], "erasesize": [["-a"], ["-O"]],
    "offset": [["-O"]], "open-au-nr": [["-O"]], "stall": [["-O"]],
    "random": [["-O"]], "ramp": [["-O"]], "preserve": [["-O"]],
    "fat-nr": [["-f"]], "scatter-order": [["-s"]],
    "scatter-span": [["-s"]], "interval-order": [["-i"]],
    "restore": [[]], "discard": [[]], "analyze": [[]], "analyse": [[]],
}
NO_DEVICE = {"analyze", "analyse"}

ROW = re.compile(r'\{\s*"([a-z-]+)",\s*(\'.\'|0),\s*(\w+),\s*(K_\w+)'
                 r'(?:[^{}]*?\.arg\s*=\s*"([^"]*)")?')
ALIAS = re.compile(r'\{\s*"([a-z-]+)",\s*\.kind\s*=\s*K_ALIAS')


def table(path):
    """(name, short, has_arg, kind, arg, canonical name) per row, aliases
    included: a message may name an alias by the name it stands for."""
    rows, last = [], None
    src = open(path).read()
    for m in re.finditer(r'\{\s*"[a-z-]+",[^\n]*', src):
        alias = ALIAS.match(src, m.start())
        if alias and last:
            rows.append((alias.group(1),) + last[1:5] + (last[0],))
            continue
        row = ROW.match(src, m.start())
        if not row or row.group(4) == "K_DOC":
            continue
        short = row.group(2)[1] if row.group(2) != "0" else None
        last = (row.group(1), short, row.group(3), row.group(4),
                row.group(5) or "", row.group(1))
        rows.append(last)
    return rows


def kind_of(name, has_arg, kind, arg):
    """The value kind that says which values are valid."""
    if has_arg == "no_argument":
        return "none"
    if kind == "K_NAME" or name in NO_DEVICE:
        return "name"
    if kind == "K_SIZE":
        return "size"
    if kind == "K_CALL" and arg == "=N":
        return "offset"
    return "strict"


def file_state(path):
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size)


def digest(path):
    return hashlib.sha1(open(path, "rb").read()).hexdigest()


def check(fb, names, argv, dev, path):
    """'' when argv was refused as promised, else why not."""
    before = file_state(path)
    cmd = [fb] + argv + ([] if names[0] in NO_DEVICE else [dev])
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=60)
    err = p.stderr.decode(errors="replace")
    lines = err.splitlines()
    shown = repr(argv[-1][:40])
    if p.returncode != 2:
        return "%s: exit %d, want 2" % (shown, p.returncode)
    if len(lines) != 1:
        return "%s: %d lines on stderr: %r" % (shown, len(lines), err[:200])
    if not any("--" + n in lines[0] for n in names):
        return "%s: the line does not name --%s: %r" % (shown, names[0],
                                                       lines[0][:200])
    if p.stdout:
        return "%s: output on stdout: %r" % (shown, p.stdout[:100])
    if file_state(path) != before:
        return "%s: %s changed" % (shown, path)
    return ""


def forms(name, short, value):
    """The option as typed: --name=V, and -x V for a short option."""
    yield ["--%s=%s" % (name, value)]
    if short and value in SHORT_VALUES:
        yield ["-" + short, value]


def values_for(value_kind, on_file):
    """The values run for an option of value_kind on sim: or the file."""
    values = [v for v in VALUES if value_kind != "none" or v in FLAG_VALUES]
    return [v for v in values if not on_file or v in FILE_VALUES]


def run_option(fb, row, dev, path):
    name, short, has_arg, kind, arg, canonical = row
    value_kind = kind_of(name, has_arg, kind, arg)
    valid = VALID.get(value_kind, set()) | VALID_BY_NAME.get(canonical, set())
    on_file = not dev.startswith("sim:")
    if value_kind == "none" or on_file:
        short = None
    fails, n = [], 0
    for value in values_for(value_kind, on_file):
        if value in valid:
            continue
        for ctx in CONTEXTS.get(name, [["-a"]]):
            for typed in forms(name, short, value):
                n += 1
                why = check(fb, (name, canonical), ctx + typed, dev, path)
                if why:
                    fails.append("%s: %s" % (" ".join(ctx), why))
    where = "a file" if on_file else "sim:"
    if fails:
        print("FAIL: hostile: --%s on %s: %d of %d bad values: %s" %
              (name, where, len(fails), n, "; ".join(fails[:3])))
    else:
        print("PASS: hostile: --%s on %s: %d bad values refused" %
              (name, where, n))


def main():
    fb, options_c, path = sys.argv[1:4]
    rows = table(options_c)
    names = {r[0] for r in rows}
    helped = set(re.findall(r"--([a-z][a-z-]*)",
                            subprocess.run([fb, "--help"],
                                           capture_output=True,
                                           text=True).stdout))
    missing = sorted(n for n in helped if n not in names)
    if missing or len(rows) < 20:
        print("FAIL: hostile: the table parse lost options: %s (%d rows)" %
              (", ".join("--" + m for m in missing), len(rows)))
    else:
        print("PASS: hostile: all %d options of --help are in the table" %
              len(helped))
    content = digest(path)
    for dev in ("sim:", path):
        for row in rows:
            run_option(fb, row, dev, path)
    if digest(path) == content:
        print("PASS: hostile: %s unchanged" % path)
    else:
        print("FAIL: hostile: %s changed" % path)


if __name__ == "__main__":
    main()
