#!/usr/bin/env python3
# One set and mode of dumps scored by score-modes.py, by language: "hit" NDCG@10, mean over the language's
# repos, one column per dump (the tables of fixtures/train-model/measurements/README.md).
# Usage: python3 by-language.py SET MODE DUMP...   (each DUMP.eval.json must exist)
import json, os, sys
from collections import defaultdict
import numpy as np
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'shared', 'eval')

def main(dev_set, mode, dumps):
    repos = json.load(open(os.path.join(SHARED, dev_set, 'repos.json')))
    lang = {r['name']: r['language'] for r in repos}
    cols = []
    for d in dumps:
        per = defaultdict(list)
        for r in json.load(open(d + '.eval.json'))[mode]:
            if r[0] == dev_set: per[r[1]].append(r[3])
        cols.append({k: float(np.mean(v)) for k, v in per.items()})
    names = [os.path.basename(d).removesuffix('.tsv') for d in dumps]
    print(f'| language ({dev_set} repos) | ' + ' | '.join(names) + ' |\n|---|' + '---:|' * len(dumps))
    for lg in sorted(set(lang.values())):
        rs = sorted(r for r in cols[0] if lang.get(r) == lg)
        if rs: print(f'| {lg} ({", ".join(rs)}) | ' + ' | '.join(f'{np.mean([c[r] for r in rs]):.3f}' for c in cols) + ' |')
    print('| mean over repos | ' + ' | '.join(f'{np.mean(list(c.values())):.4f}' for c in cols) + ' |')

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
