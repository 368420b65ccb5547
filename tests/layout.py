#!/usr/bin/env python3
# Print the layout of flashbench output, one line per line read: the
# literal words (labels, keys), "V" for each measured value, and after
# each field its separator -- "\t", "_" for one space between words, or
# the width of a space-padded field as <N> (text and padding together, in
# characters: padding is two or more spaces, or the spaces ending a
# line).  Two tools' outputs have the same layout when these lines are
# identical, whatever was measured.
import re
import sys

VALUE = re.compile(r'^-?(nan|inf|[0-9.]+(e[+-]?[0-9]+)?)'
                   r'(ns|µs|us|ms|s|B/s|[KMG]/s|[KMG]/|n|µ|m)?([:,]?)$')
MEASURED_AFTER = ('time', 'overhead', 'min', 'avg', 'max', 'pre', 'on',
                  'post', 'diff')
# a rate or time before these words is measured whatever its form: "409600",
# "69423.7" and the "inf" of a flat fit are all the same field
MEASURED_BEFORE = ('MB/s', 'MB/s,', 'access')


def layout(line):
    out = []
    prev = ''
    fields = re.findall(r'([^ \t]+)([ \t]*)', line)
    for i, (text, sep) in enumerate(fields):
        m = VALUE.match(text)
        after = fields[i + 1][0] if i + 1 < len(fields) else ''
        # keys (align 4194304, 512 bytes) are the same in both tools
        if m and ('.' in text or m.group(3) or prev in MEASURED_AFTER
                  or after in MEASURED_BEFORE or m.group(1).isalpha()):
            word = 'V' + m.group(4)
        else:
            word = text
        if '\t' in sep:
            out.append(word + repr(sep))
        elif sep == ' ' and i + 1 < len(fields):
            out.append(word + '_')
        elif sep:
            out.append('%s<%d>' % (word, len(text) + len(sep)))
        else:
            out.append(word)
        prev = text
    return ' '.join(out)


for path in sys.argv[1:]:
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            print(layout(line.rstrip('\n')))
