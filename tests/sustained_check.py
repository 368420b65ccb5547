#!/usr/bin/env python3
"""--sustained on random sim cards with known write caches.

Each card gets a random profile (every one --help-sim lists), seed,
cache=SIZE:RATE[:RECOVER] (RATE well under the profile's own rate, RECOVER
idle recovery on some) and --max-write; a verdict at medium or high confidence
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
# The caches' rates, as a fraction of the profile's own 4MiB rate: under
# half of it, where a cliff is a cliff.
RATES = (0.06, 0.47)
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


def profiles():
    p = subprocess.run([FB, '--help-sim'], capture_output=True, text=True)
    body = p.stdout.split('Profiles:')[1].split('Keys')[0]
    return re.findall(r'^  ([a-z0-9]+) ', body, re.M)


def own_rate(profile, known={}):
    """The profile's sequential 4MiB write rate, bytes/s, at noise=0."""
    if profile not in known:
        p = subprocess.run([FB, '--iops', '--json', '--count=16',
                            'sim:%s,noise=0' % profile],
                           capture_output=True, text=True)
        known[profile] = float(re.search(r'"seq_bps": ([0-9.]+)',
                                         p.stdout).group(1))
    return known[profile]


def verdicts(err):
    out = {}
    for line in err.splitlines():
        m = re.match(r'^flashbench: (\w+): (.*) \((\w+)\) -- ', line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3))
    return out


def no_cache(profile, k):
    """Without cache=: no cliff, "none within" at low or medium."""
    spec = 'sim:%s,seed=%d' % (profile, k + 1)
    p = subprocess.run([FB, '--sustained', '--max-write=1G', spec],
                       capture_output=True, text=True)
    val, conf = verdicts(p.stderr).get('write_cache', ('?', '?'))
    if p.returncode or not val.startswith('none within') or \
            conf not in ('low', 'medium'):
        return 'FAIL: %s: write_cache %s (%s)' % (spec, val, conf)
    return 'PASS: %s: %s (%s)' % (spec, val, conf)


def one(rng, k, names):
    profile = rng.choice(names)
    if k % 8 == 7:
        return no_cache(profile, k)
    size = rng.randrange(96, 2048) * MIB
    rate = rng.uniform(*RATES) * own_rate(profile)
    spec = 'sim:%s,seed=%d,cache=%d:%d' % (profile, k + 1, size, int(rate))
    if rng.random() < 0.5:
        spec += ':%d' % int(rng.uniform(0.1, 2) * rate)
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
    names = profiles()
    confident = wrong = 0
    for k in range(CARDS):
        line = one(rng, k, names)
        print(line)
        confident += '(high)' in line or '(medium)' in line
        wrong += line.startswith('FAIL')
    print('%s: %d of %d cards told at medium or high' % (
        'PASS' if confident >= CARDS * 3 // 4 else 'FAIL', confident,
        CARDS))
    print('cards: %d confident, %d at low/inconclusive only, %d wrong' % (
        confident - wrong, CARDS - confident, wrong))


main()
