#!/usr/bin/env python3
# Reads a --json document (or an array of them) of a write test and checks
# the rows' "latency" members against what the sim injected.
#
#   latency_check.py JSON present     every row that wrote has latency,
#                                     with every field, counting every
#                                     write the run made
#   latency_check.py JSON monotone    p50 <= p99 <= p99.9 <= max
#   latency_check.py JSON stalls N SEED STALL_US
#                                     stalls and max as stall=N:STALL
#                                     injected (write k stalls where
#                                     k mod N = SEED mod N; N=0: none)
# Prints one line and exits 0 when it holds, 1 when not.
import json
import sys

FIELDS = ('writes', 'p50_us', 'p99_us', 'p999_us', 'max_us', 'stall_us',
          'stalls')
# The slowest write the test's card makes without the stall key: a 4MiB
# write at 8MB/s is 0.52s, and the sim's jitter can make a write up to
# five times slower now and then (seed 953119 made one over 1s).
NORMAL_MAX_US = 3e6


def docs(path):
    with open(path) as f:
        d = json.load(f)
    return d if isinstance(d, list) else [d]


def lats(doc):
    return [r['latency'] for t in doc['tables'] for r in t['rows']
            if 'latency' in r]


def present(doc):
    rows = [r for t in doc['tables'] for r in t['rows']]
    if not rows:
        return 'no rows'
    missing = [r for r in rows if 'latency' not in r and
               any(v is not None for k, v in r.items() if k != 'size')]
    if missing:
        return 'a measured row without latency: %s' % missing[0]
    for l in lats(doc):
        if any(k not in l for k in FIELDS):
            return 'a field missing: %s' % l
    got = sum(l['writes'] for l in lats(doc))
    if got != doc['io']['writes']:
        return 'latency counts %d writes, the run made %d' % (
            got, doc['io']['writes'])
    return None


def monotone(doc):
    for l in lats(doc):
        if not l['p50_us'] <= l['p99_us'] <= l['p999_us'] <= l['max_us']:
            return 'not monotone: %s' % l
    return None


def stalls(doc, every, seed, stall_us):
    writes = doc['io']['writes']
    want = every and sum(1 for k in range(1, writes + 1)
                         if k % every == seed % every)
    got = sum(l['stalls'] for l in lats(doc))
    worst = max(l['max_us'] for l in lats(doc))
    if got != want:
        return '%d stalls, %d injected in %d writes' % (got, want, writes)
    if want and not stall_us <= worst < stall_us + NORMAL_MAX_US:
        return 'slowest %gus, injected %gus' % (worst, stall_us)
    if not want and worst >= NORMAL_MAX_US:
        return 'slowest %gus with nothing injected' % worst
    return None


def main():
    path, what = sys.argv[1], sys.argv[2]
    for doc in docs(path):
        if what == 'present':
            why = present(doc)
        elif what == 'monotone':
            why = monotone(doc)
        else:
            why = stalls(doc, int(sys.argv[3]), int(sys.argv[4]),
                         float(sys.argv[5]))
        if why:
            print(why)
            return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
