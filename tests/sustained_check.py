#!/usr/bin/env python3
"""--sustained on random sim cards with known write caches.

Each card gets a random profile, seed, cache=SIZE:RATE (RATE well under the
card's own rate) and --max-write; a verdict at medium or high confidence
must be right: the cache within one window (64MiB) or 5 %, whichever is
more, and the rate past it within 15 %.  Prints PASS/FAIL lines; argv[1]
is the flashbench to run, argv[2] the number of cards.
"""
import random
import re
import subprocess
import sys

FB = sys.argv[1] if len(sys.argv) > 1 else './flashbench'
CARDS = int(sys.argv[2]) if len(sys.argv) > 2 else 40
MIB = 1 << 20
# The default profile writes 4MiB at about 8MB/s: the caches' rates stay
# under half of it, where a cliff is a cliff.
RATES = (0.5, 3.8)
SIZE_RE = re.compile(r'^([0-9.]+)(B|KiB|MiB|GiB|TiB)$')
UNIT = {'B': 1, 'KiB': 1 << 10, 'MiB': MIB, 'GiB': 1 << 30, 'TiB': 1 << 40}
RATE_UNIT = {'B/s': 1, 'K/s': 1e3, 'M/s': 1e6, 'G/s': 1e9}


def size_of(s):
    m = SIZE_RE.match(s)
    return float(m.group(1)) * UNIT[m.group(2)] if m else None


def rate_of(s):
    for u, f in RATE_UNIT.items():
        if s.endswith(u):
            return float(s[:-len(u)]) * f
    return None


def verdicts(err):
    out = {}
    for line in err.splitlines():
        m = re.match(r'^flashbench: (\w+): (.*) \((\w+)\) -- ', line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3))
    return out


def no_cache(k):
    """Without cache=: no cliff, "none within" at low or medium."""
    spec = 'sim:seed=%d' % (k + 1)
    p = subprocess.run([FB, '--sustained', '--max-write=1G', spec],
                       capture_output=True, text=True)
    val, conf = verdicts(p.stderr).get('write_cache', ('?', '?'))
    if p.returncode or not val.startswith('none within') or \
            conf not in ('low', 'medium'):
        return 'FAIL: %s: write_cache %s (%s)' % (spec, val, conf)
    return 'PASS: %s: %s (%s)' % (spec, val, conf)


def one(rng, k):
    if k % 8 == 7:
        return no_cache(k)
    size = rng.randrange(96, 2048) * MIB
    rate = rng.uniform(*RATES) * MIB
    spec = 'sim:seed=%d,cache=%d:%d' % (k + 1, size, int(rate))
    cap = size + rng.randrange(0, 3) * (512 * MIB) + 256 * MIB
    p = subprocess.run([FB, '--sustained', '--max-write=%d' % cap, spec],
                       capture_output=True, text=True)
    v = verdicts(p.stderr)
    name = '%s --max-write=%d' % (spec, cap)
    if p.returncode or 'write_cache' not in v:
        return 'FAIL: %s: exit %d, %s' % (name, p.returncode,
                                         p.stderr[-300:])
    cval, cconf = v['write_cache']
    rval, rconf = v.get('sustained_write', ('?', 'inconclusive'))
    if cconf in ('medium', 'high'):
        got = size_of(cval)
        if got is None or abs(got - size) > max(64 * MIB, 0.05 * size):
            return 'FAIL: %s: write_cache %s (%s)' % (name, cval, cconf)
    if rconf in ('medium', 'high'):
        got = rate_of(rval)
        if got is None or abs(got / rate - 1) > 0.15:
            return 'FAIL: %s: sustained_write %s (%s), truth %.0f' % (
                name, rval, rconf, rate)
    return 'PASS: %s: %s (%s), %s (%s)' % (name, cval, cconf, rval, rconf)


def main():
    rng = random.Random(2026)
    confident = 0
    for k in range(CARDS):
        line = one(rng, k)
        print(line)
        confident += '(high)' in line or '(medium)' in line
    print('%s: %d of %d cards told at medium or high' % (
        'PASS' if confident >= CARDS * 3 // 4 else 'FAIL', confident,
        CARDS))


main()
