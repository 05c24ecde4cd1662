#!/usr/bin/env python3
# Two-granularity cosine: the coarse dump's chunks keep their lexical signals; the semantic term mixes the
# chunk's own cosine with the best cosine of the fine chunks that start inside it (from a second dump).
# ("hit" protocol). Usage: python3 two-granularity.py COARSE_DUMP FINE_DUMP
import sys, os
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay import load, finish, ndcg
coarse, fine = load(sys.argv[1]), load(sys.argv[2])
for q, f in zip(coarse, fine):
    assert q['query'] == f['query']
    best = {}
    for p, l, c in zip(f['path'], f['line'], f['cos']):
        best.setdefault(p, []).append((l, c))
    sub = np.full(len(q['path']), np.nan)
    # fine chunks of a file sorted by line; a coarse chunk [L, next L) takes the max of fine chunks starting inside it
    starts = {}
    for i, (p, l) in enumerate(zip(q['path'], q['line'])): starts.setdefault(p, []).append((l, i))
    for p, lst in starts.items():
        lst.sort(); fl = sorted(best.get(p, []))
        j = 0
        for k, (l, i) in enumerate(lst):
            end = lst[k + 1][0] if k + 1 < len(lst) else float('inf')
            while j < len(fl) and fl[j][0] < l: j += 1
            vals = []
            jj = j
            while jj < len(fl) and fl[jj][0] < end:
                if not np.isnan(fl[jj][1]): vals.append(fl[jj][1])
                jj += 1
            if vals: sub[i] = max(vals)
    q['sub'] = np.nan_to_num(sub, nan=0.0)

def sem_term(q, a):
    return (1 - a) * q['cos0'] + a * np.maximum(q['sub'], q['cos0'])

def hybrid(a, w=0.25):
    def f(q):
        ww = 0 if q['nameid'] else w
        r = (ww * sem_term(q, a).clip(0) + (1 - ww) * q['lex'] + q['sym'] + 0.5 * q['pm']) * q['prior']
        return np.where(q['has'], r, 0)
    return f

def semantic(a):
    return lambda q: np.where(~np.isnan(q['cos']), np.maximum(sem_term(q, a), 1e-9), 0)

def lexical(q):
    return np.where(q['has'], (q['lex'] + q['sym'] + 0.5 * q['pm']) * q['prior'], 0)

def evaluate(fuse):
    per = {}
    for q in coarse:
        per.setdefault((q['set'], q['repo']), []).append(ndcg([q['prefix'] + p for p in finish(q, fuse(q))], q['targets']))
    return {s: {r: np.mean(v) for (ss, r), v in per.items() if ss == s} for s in ('semble-dev', 'semble-dev2')}

lex = evaluate(lexical)
def show(label, res):
    print(f'| {label} | ' + ' | '.join(f'{np.mean(list(res[s].values())):.4f} ({sum(res[s][r] < lex[s][r] - 1e-9 for r in res[s])} below lexical)' for s in res) + ' |', flush=True)
print(f'coarse {sys.argv[1]}, fine {sys.argv[2]}\n| formula | semble-dev hit | semble-dev2 hit |\n|---|---:|---:|')
show('lexical', lex)
for a in (0, 0.5, 1):
    show(f'semantic, share of best sub-chunk {a}', evaluate(semantic(a)))
for a in (0, 0.5, 1):
    for w in (0.25, 0.35):
        show(f'hybrid w {w}, share of best sub-chunk {a}', evaluate(hybrid(a, w)))
