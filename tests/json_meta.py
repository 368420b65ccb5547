#!/usr/bin/env python3
"""Check the metadata and number format of a --json document.

usage: json_meta.py FILE ARG...   (ARG...: the command line that made it)
Exits 1 with a reason when the document is not valid JSON, lacks the
tool, version, command_line (as typed) or a UTC timestamp from the last
ten minutes, or prints a number with more digits than was measured.
"""
import datetime
import json
import re
import sys

text = open(sys.argv[1]).read()
floats = []
doc = json.loads(text, parse_float=lambda f: floats.append(f) or float(f))
why = []
if doc.get("tool") != "flashbench":
    why.append("tool is %r" % doc.get("tool"))
if not re.fullmatch(r"[0-9][0-9.]*", str(doc.get("version", ""))):
    why.append("version is %r" % doc.get("version"))
if doc.get("command_line") != sys.argv[2:]:
    why.append("command_line %r, typed %r" % (doc.get("command_line"),
                                            sys.argv[2:]))
stamp = doc.get("timestamp") or ""
try:
    t = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")
    age = datetime.datetime.utcnow() - t
    if abs(age.total_seconds()) > 600:
        why.append("timestamp %s is not now (UTC)" % stamp)
except ValueError:
    why.append("timestamp %r is not YYYY-MM-DDTHH:MM:SSZ" % stamp)
# base units: integers, or at most 3 significant digits below one
for num in floats:
    if abs(float(num)) >= 1 or len(num.lstrip("-0.").split("e")[0]) > 3:
        why.append("number %s claims more precision than measured" % num)
        break
if why:
    print("; ".join(why))
    sys.exit(1)
