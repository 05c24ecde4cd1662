#!/usr/bin/env python3
# Compares dumps scored by score-modes.py against the first (the control): means per mode and protocol with
# the paired bootstrap error of each difference (queries resampled within repos), repos where hybrid is below
# lexical, and differences by language and by kind of query.
# Usage: python3 compare-dumps.py CONTROL_DUMP DUMP...   (each DUMP.eval.json must exist)
import json, os, sys
import numpy as np
from collections import defaultdict
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'shared', 'eval')
LANG = {}
for s in ('semble-dev', 'semble-dev2'):
    for r in json.load(open(os.path.join(SHARED, s, 'repos.json'))): LANG[(s, r['name'])] = r['language']
SETS = ('semble-dev', 'semble-dev2')
names = [os.path.basename(p).removesuffix('.tsv') for p in sys.argv[1:]]
ctrl = names[0]
E = {n: json.load(open(p + '.eval.json')) for n, p in zip(names, sys.argv[1:])}

def repo_means(rows, s, pi):
    d = defaultdict(list)
    for r in rows:
        if r[0] == s: d[r[1]].append(r[pi])
    return {k: float(np.mean(v)) for k, v in d.items()}

def boot(rows_a, rows_b, s, pi, n=2000, seed=0):
    """Bootstrap SE of (mean over repos of a) - (same of b), resampling queries within repos."""
    rng = np.random.default_rng(seed)
    d = defaultdict(list)
    for a, b in zip(rows_a, rows_b):
        assert a[:3] == b[:3]
        if a[0] == s: d[a[1]].append(a[pi] - b[pi])
    arrs = [np.array(v) for v in d.values()]
    samples = [np.mean([v[rng.integers(0, len(v), len(v))].mean() for v in arrs]) for _ in range(n)]
    return float(np.std(samples))

print('| config | mode | semble-dev hit | semble-dev file | semble-dev2 hit | semble-dev2 file |\n|---|---|---:|---:|---:|---:|')
for n in names:
    for mode in ('hybrid', 'lexical', 'semantic'):
        cells = []
        for s in SETS:
            for pi in (3, 4):
                m = np.mean(list(repo_means(E[n][mode], s, pi).values()))
                if n != ctrl:
                    dm = m - np.mean(list(repo_means(E[ctrl][mode], s, pi).values()))
                    cells.append(f'{m:.4f} ({dm:+.4f} ± {boot(E[n][mode], E[ctrl][mode], s, pi, 300):.4f})')
                else: cells.append(f'{m:.4f}')
        print(f'| {n} | {mode} | ' + ' | '.join(cells) + ' |')

print('\n| config | set | hybrid - lexical hit | repos hybrid < lexical hit | hybrid - lexical file | repos below file | hybrid - lexical(f48) hit | repos hybrid < lexical(f48) hit |\n|---|---|---:|---:|---:|---:|---:|---:|')
for n in names:
    for s in SETS:
        out = []
        for pi in (3, 4):
            h, l = repo_means(E[n]['hybrid'], s, pi), repo_means(E[n]['lexical'], s, pi)
            out += [f'{np.mean(list(h.values())) - np.mean(list(l.values())):+.4f}', str(sum(h[r] < l[r] - 1e-9 for r in h))]
        h, l = repo_means(E[n]['hybrid'], s, 3), repo_means(E[ctrl]['lexical'], s, 3)
        out += [f'{np.mean(list(h.values())) - np.mean(list(l.values())):+.4f}', str(sum(h[r] < l[r] - 1e-9 for r in h))]
        print(f'| {n} | {s} | ' + ' | '.join(out) + ' |')

print('\nPer language, "hit", config minus control (mean over repos of the language):')
langs = sorted(set(LANG.values()))
for mode in ('hybrid', 'lexical', 'semantic'):
    print(f'\n| language (repos) | ' + ' | '.join(names[1:]) + f' |   ({mode})\n|---|' + '---:|' * (len(names) - 1))
    for lg in langs:
        cells, cnt = [], 0
        for n in names[1:]:
            ds = []
            for s in SETS:
                a, b = repo_means(E[n][mode], s, 3), repo_means(E[ctrl][mode], s, 3)
                ds += [a[r] - b[r] for r in a if LANG[(s, r)] == lg]
            cnt = len(ds); cells.append(f'{np.mean(ds):+.3f}' if ds else '-')
        if cnt: print(f'| {lg} ({cnt}) | ' + ' | '.join(cells) + ' |')

print('\nBy kind of query, "hit", config minus control, mean over queries (n):')
print('| config | set | hybrid, names identifier | hybrid, no identifier | semantic, names identifier | semantic, no identifier |\n|---|---|---:|---:|---:|---:|')
for n in names[1:]:
    for s in SETS:
        cells = []
        for mode in ('hybrid', 'semantic'):
            for want in (True, False):
                d = [a[3] - b[3] for a, b in zip(E[n][mode], E[ctrl][mode]) if a[0] == s and a[5] == want]
                cells.append(f'{np.mean(d):+.4f} ({len(d)})')
        print(f'| {n} | {s} | ' + ' | '.join(cells) + ' |')
