#!/usr/bin/env python3
# Scores one fusion dump in the three ranked modes (hybrid with the shipped rule, lexical, semantic), "hit"
# and "file" protocols (file: top 100 hits, then distinct files); prints the means over repos and writes
# each query's NDCG@10 to DUMP.eval.json for compare-dumps.py. Usage: python3 score-modes.py DUMP
import json, sys, os
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay import load, finish, ndcg, linear

def semantic(q):
    return np.where(~np.isnan(q['cos']), np.maximum(q['cos0'], 1e-9), 0)

MODES = {'hybrid': linear(0.25, 0.0, by='identifier'), 'lexical': linear(0, 0), 'semantic': semantic}

def file_list(paths, k=10):
    out = []
    for p in paths:
        if p not in out:
            out.append(p)
            if len(out) == k: break
    return out

def main():
    dump = sys.argv[1]
    qs = load(dump)
    res = {}
    for mode, fuse in MODES.items():
        for q in qs:
            rel = fuse(q)
            hit = [q['prefix'] + p for p in finish(q, rel)]
            fil = file_list([q['prefix'] + p for p in finish(q, rel, k=100)])
            res.setdefault(mode, []).append((q['set'], q['repo'], q['index'], ndcg(hit, q['targets']), ndcg(fil, q['targets']), q['nameid']))
    json.dump(res, open(dump + '.eval.json', 'w'))
    for mode, rows in res.items():
        for s in ('semble-dev', 'semble-dev2'):
            for pi, proto in ((3, 'hit'), (4, 'file')):
                repos = {}
                for r in rows:
                    if r[0] == s: repos.setdefault(r[1], []).append(r[pi])
                print(f'{mode:8} {s:11} {proto:4} {np.mean([np.mean(v) for v in repos.values()]):.4f}  ({len(repos)} repos, {sum(len(v) for v in repos.values())} queries)')

main()
