#!/usr/bin/env python3
"""--iops class verdicts on random sim cards with known random IOPS.

Each card gets a profile (SD ones, whose registers state class= claims,
and USB-reader ones, which get a "qualifies for" line), a seed, iops=R:W
drawn around the A1 (1500/500) and A2 (4000/2000) floors, and on half of
them cache=4KiB:RATE with RATE around A1/A2's 10MB/s sequential floor.
The truth: R, W, and the sequential rate the same card writes at noise=0
(the cache's RATE caps it).  A claim's "meets"/"below" and a "qualifies
for" listing must agree with it, and none may stand on a card within
NEAR of a floor.  Prints PASS/FAIL lines and the tally of right / low /
inconclusive / wrong; argv[1] is the flashbench, argv[2] the card count;
argv[3] "survey" judges the same lines in --survey's summary instead
(its IOPS step, its sequential rate from the N=1 run).
"""
import json
import random
import re
import subprocess
import sys

FB = sys.argv[1] if len(sys.argv) > 1 else './flashbench'
CARDS = int(sys.argv[2]) if len(sys.argv) > 2 else 120
SURVEY = len(sys.argv) > 3 and sys.argv[3] == 'survey'
# Profiles with an SD register set (claims) and behind USB (qualifies).
SD = ('samsung16', 'sd08g', 'su04g')
USB = ('evo32', 'xporter', 'rage')
FLOORS = {'A1': (1500, 500, 10.0), 'A2': (4000, 2000, 10.0)}
# A truth this close to a floor is within the run's noise: no side of it
# may be stated at medium or high confidence.
NEAR = 0.03
CLAIM_RE = re.compile(r'^claims (A[12]): .*: (.*) \((\w+)\)$')


def run(spec, *extra):
    return subprocess.run([FB, '--iops', *extra, spec], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)


def judged(spec):
    """The run whose class lines are judged, and those lines."""
    if not SURVEY:
        r = run(spec)
        return r, r.stdout
    r = subprocess.run([FB, '--survey', spec], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    return r, '\n'.join(l[2:] for l in r.stdout.splitlines()
                        if l.startswith('# '))


def seq_truth(profile, cache_rate):
    r = run('sim:%s,noise=0' % profile, '--json', '--count=16')
    bps = re.search(r'"seq_bps": ([0-9.]+)', r.stdout).group(1)
    bps = float(bps)
    return min(bps, cache_rate) / 1e6 if cache_rate else bps / 1e6


def truth(t, cls):
    """'meets', 'below' or 'near' for class cls on a card of truth t."""
    near = below = False
    for v, floor in zip(t, FLOORS[cls]):
        if abs(v - floor) <= floor * NEAR:
            near = True
        elif v < floor:
            below = True
    return 'below' if below else 'near' if near else 'meets'


def grade(state, said, conf):
    """right / low / inconclusive / wrong of one verdict."""
    if said is None:
        return 'inconclusive'
    if conf not in ('medium', 'high'):
        return 'low'
    if state == 'near':
        return 'wrong'
    return 'right' if said == state else 'wrong'


def claim_verdicts(out):
    for line in out.splitlines():
        m = CLAIM_RE.match(line)
        if not m:
            continue
        text, conf = m.group(2), m.group(3)
        said = ('meets' if text.startswith('meets') else
                'below' if ' below ' in text else None)
        yield m.group(1), said, conf


def qualify_verdicts(out):
    line = next((l for l in out.splitlines()
                 if l.startswith('qualifies for ')), '')
    for cls in FLOORS:
        # not listed is no promise that the card misses the class
        listed = re.search(r'\b%s\b' % cls, line.split('(')[0])
        yield cls, 'meets' if listed else None, 'medium'


def main():
    rng = random.Random(26)
    seqs = {}
    tally = {'right': 0, 'low': 0, 'inconclusive': 0, 'wrong': 0}
    fails = 0
    for i in range(CARDS):
        profile = rng.choice(SD + USB)
        cls = rng.choice(('A1', 'A2', ''))
        base = FLOORS[rng.choice(('A1', 'A2'))]
        rd = int(base[0] * rng.uniform(0.7, 1.4))
        wr = int(base[1] * rng.uniform(0.7, 1.4))
        cache = int(rng.uniform(7e6, 14e6)) if rng.random() < 0.5 else 0
        key = (profile, cache)
        if key not in seqs:
            seqs[key] = seq_truth(profile, cache)
        t = (rd, wr, seqs[key])
        spec = 'sim:%s,seed=%d,iops=%d:%d' % (profile, i + 1, rd, wr)
        if cache:
            spec += ',cache=4096:%d' % cache
        if cls and profile in SD:
            spec += ',class=' + cls
        r, out = judged(spec)
        if r.returncode:
            print('FAIL: %s: exit %d: %s' % (spec, r.returncode,
                                              r.stderr.strip()))
            fails += 1
            continue
        verdicts = (qualify_verdicts(out)
                    if 'qualifies for ' in out
                    else claim_verdicts(out))
        for c, said, conf in verdicts:
            state = truth(t, c)
            if said is None and state == 'below' and \
                    'qualifies for' in out:
                g = 'right'
            else:
                g = grade(state, said, conf)
            tally[g] += 1
            line = '%s: %s truth %s (%d/%d/%.1fMB/s), said %s (%s)' % (
                spec, c, state, rd, wr, t[2], said, conf)
            if g == 'wrong':
                fails += 1
                print('FAIL: ' + line)
            else:
                print('PASS: ' + line)
    print('verdicts: %(right)d right, %(low)d low, %(inconclusive)d '
          'inconclusive, %(wrong)d wrong' % tally)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
