#!/usr/bin/env python3
# The layering check: every call between the built objects (a symbol one
# object leaves undefined and another defines) and every #include between
# the sources goes down the layers, and no files call each other round a
# cycle.  Prints PASS/FAIL lines like the other tests.
#
#   layers.py OBJ...       check the build (run from the top of the tree)
#   layers.py --self-test  prove that an upward call, an upward include,
#                          a cycle and a shared basename are each caught
import fnmatch
import os
import re
import subprocess
import sys

# The layers, top to bottom, with what each may use besides itself.  The
# order follows who needs whom: the front end chains procedures, a
# procedure chains tests, a test is a program the engine runs on a device.
# Analysis sees only tables and the report parser only text, and the
# parser fills the analysis' own input, so offline and live verdicts come
# from the same code and cannot drift apart; the register decoding is pure
# too, so the parser can use it without reaching sysfs or a device.
# Output formats what the layers below hold and is called only from
# above; safety guards a device before any test touches it, so it needs
# neither tests nor output.
LAYERS = [
    ('front end', ['procedures', 'output', 'safety', 'tests', 'identity',
                   'engine', 'device', 'analysis', 'report',
                   'identity decoding', 'lib']),
    ('procedures', ['output', 'safety', 'tests', 'identity', 'engine',
                    'device', 'analysis', 'report', 'identity decoding',
                    'lib']),
    ('output', ['tests', 'identity', 'engine', 'device', 'analysis',
                'identity decoding', 'lib']),
    ('safety', ['identity', 'engine', 'device', 'identity decoding', 'lib']),
    ('tests', ['engine', 'device', 'lib']),
    ('identity', ['device', 'identity decoding', 'lib']),
    ('engine', ['device', 'lib']),
    ('device', ['lib']),
    ('analysis', ['lib']),
    ('report', ['analysis', 'identity decoding', 'lib']),
    ('identity decoding', ['lib']),
    ('lib', []),
]
MAY_USE = {name: set(below) for name, below in LAYERS}

# Each source or header to its layer: the first pattern that matches.
# A header without a .c of its own sits with the files that share it.
PLACES = [
    ('flashbench.[ch]', 'front end'), ('options.[ch]', 'front end'),
    ('info.[ch]', 'front end'), ('offline.[ch]', 'front end'),
    ('flashbench_erase.c', 'front end'),
    ('survey/*', 'procedures'),
    ('output/*', 'output'),
    ('safety/*', 'safety'),
    ('align.c', 'tests'), ('erase.c', 'tests'), ('fat.c', 'tests'),
    ('openau.c', 'tests'), ('ramp.c', 'tests'), ('erasew.c', 'tests'), ('scatter.c', 'tests'),
    ('interval.c', 'tests'), ('iops.c', 'tests'), ('capacity.c', 'tests'),
    ('sustained.c', 'tests'),
    ('prog.c', 'tests'), ('run.[ch]', 'tests'), ('testdesc.h', 'tests'),
    ('identity/sd_regs.[ch]', 'identity decoding'),
    ('identity/decode.[ch]', 'identity decoding'),
    ('identity/*', 'identity'),
    ('vm.[ch]', 'engine'),
    ('dev.[ch]', 'device'), ('real.c', 'device'), ('sim/*', 'device'),
    ('analysis/*', 'analysis'),
    ('report/*', 'report'),
    ('lib/*', 'lib'),
]


def layer_of(path):
    for pattern, layer in PLACES:
        if fnmatch.fnmatchcase(path, pattern):
            return layer
    return None


def call_edges(symbols):
    """symbols: {source: (defined, undefined)} -> [(from, to, symbol)]"""
    owner = {}
    for src, (defined, _) in symbols.items():
        for sym in defined:
            owner[sym] = src
    edges = []
    for src, (_, undefined) in sorted(symbols.items()):
        for sym in sorted(undefined):
            if sym in owner and owner[sym] != src:
                edges.append((src, owner[sym], sym))
    return edges


def upward(edges):
    fails = []
    for edge in edges:
        src, dst, sym = edge
        a, b = layer_of(src), layer_of(dst)
        if a is None or b is None:
            fails.append('%s: no layer for it' % (dst if a else src))
        elif a != b and b not in MAY_USE[a]:
            what = 'includes' if sym == '#include' else 'calls %s() in' % sym
            fails.append('%s (%s) %s %s (%s), a layer it may not use'
                         % (src, a, what, dst, b))
    return fails


def cycles(edges):
    """Tarjan's strongly connected components of more than one file."""
    graph = {}
    for edge in edges:
        if edge[0] != edge[1]:
            graph.setdefault(edge[0], set()).add(edge[1])
            graph.setdefault(edge[1], set())
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return ['cycle between %s' % ', '.join(c) for c in sorted(found)]


def shared_basenames(objects):
    seen, fails = {}, []
    for obj in objects:
        base = os.path.basename(obj)
        if base in seen:
            fails.append('%s and %s share a name in the archive'
                         % (seen[base], obj))
        seen.setdefault(base, obj)
    return fails


def source_of(obj):
    return obj[:-2] + '.c'


def unplaced(objects):
    return ['%s: no layer for it' % source_of(o) for o in objects
            if layer_of(source_of(o)) is None]


def check(objects, symbols, includes):
    """Every failure of the build described, as text lines."""
    calls = call_edges(symbols)
    return (shared_basenames(objects) + unplaced(objects) + upward(calls)
            + upward(includes) + cycles(calls))


def read_symbols(obj):
    out = subprocess.run(['nm', '-P', obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] in 'Uw':
            undefined.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return defined, undefined


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_includes(sources):
    """The direct includes of the sources and the headers they reach."""
    edges, todo, done = [], list(sources), set()
    while todo:
        path = todo.pop()
        if path in done or not os.path.exists(path):
            continue
        done.add(path)
        with open(path, encoding='utf-8') as f:
            for name in INCLUDE.findall(f.read()):
                if os.path.exists(name):
                    edges.append((path, name, '#include'))
                    todo.append(name)
    return edges


def report(name, fails):
    for line in fails:
        print('FAIL: %s: %s' % (name, line))
    if not fails:
        print('PASS: %s' % name)


def self_test():
    objects = ['lib/units.o', 'dev.o', 'vm.o', 'flashbench.o', 'info.o',
               'sim/dev.o', 'new/thing.o']
    symbols = {
        'lib/units.c': ({'parse_size'}, {'main_loop'}),
        'dev.c': ({'dev_open'}, {'vm_run'}),
        'vm.c': ({'vm_run'}, {'dev_open'}),
        'flashbench.c': ({'main_loop'}, set()),
        'info.c': (set(), {'vm_run', 'parse_size'}),
    }
    includes = [('analysis/stats.c', 'survey/survey.h', '#include'),
                ('dev.c', 'lib/units.h', '#include')]
    fails = check(objects, symbols, includes)
    want = [('an upward call', 'lib/units.c (lib) calls main_loop()'),
            ('an upward include', 'analysis/stats.c (analysis) includes'),
            ('a cycle', 'cycle between dev.c, vm.c'),
            ('a shared basename', 'dev.o and sim/dev.o share'),
            ('a file of no layer', 'new/thing.c: no layer')]
    for what, text in want:
        if any(text in f for f in fails):
            print('PASS: self-check: %s is flagged' % what)
        else:
            print('FAIL: self-check: %s is not flagged: %s' % (what, fails))
    allowed = [f for f in fails if f.startswith('info.c')]
    report('self-check: a downward call passes', allowed)


def main(argv):
    if argv[1:] == ['--self-test']:
        self_test()
        return 0
    objects = argv[1:]
    sources = [source_of(o) for o in objects]
    symbols = {s: read_symbols(o) for o, s in zip(objects, sources)}
    fails = check(objects, symbols, read_includes(sources))
    report('layers: %d objects, calls and includes go down' % len(objects),
           [f for f in fails if not f.startswith('cycle')
            and 'share a name' not in f])
    report('layers: no cycle between files',
           [f for f in fails if f.startswith('cycle')])
    report('layers: no two objects share a basename',
           [f for f in fails if 'share a name' in f])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
