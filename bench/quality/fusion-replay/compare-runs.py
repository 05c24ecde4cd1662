#!/usr/bin/env python3
# Compares quality-bench runs (node dist/bench/quality/run.js --out X.md writes X.json) without a dump:
# per set, the hybrid NDCG@10 ("hit" / "file", mean over repos), its gain over lexical mode, the repos where
# hybrid is below lexical ("hit"), and the change against a control hybrid run with its paired bootstrap
# error (queries resampled within repos, 1,000 draws, seed 1).
# Usage: python3 compare-runs.py LEXICAL.json[,MORE.json] CONTROL.json[,MORE.json] RUN.json[,MORE.json]...
import json, random, sys

def sets(arg):
    return {s['id']: s for f in arg.split(',') for s in json.load(open(f))['sets']}

def ndcg(s, method, protocol):
    return s['summaries'][method][protocol]['overall']['ndcg']

lexical, control = sets(sys.argv[1]), sets(sys.argv[2])
for arg in sys.argv[3:]:
    for sid, s in sets(arg).items():
        L, C = lexical[sid]['summaries']['simgrep-lexical'], control[sid]
        H = s['summaries']['simgrep-hybrid']
        below = sorted(r for r, v in H['hit']['byRepo'].items() if v['ndcg'] < L['hit']['byRepo'][r]['ndcg'] - 1e-9)
        base = {(q['repo'], q['index']): q['methods']['simgrep-hybrid']['hit']['ndcg'] for q in C['queries']}
        by = {}
        for q in s['queries']:
            by.setdefault(q['repo'], []).append(q['methods']['simgrep-hybrid']['hit']['ndcg'] - base[(q['repo'], q['index'])])
        rng = random.Random(1)
        draws = [sum(sum(rng.choice(v) for _ in v) / len(v) for v in by.values()) / len(by) for _ in range(1000)]
        mean = sum(draws) / len(draws)
        err = (sum((x - mean) ** 2 for x in draws) / len(draws)) ** 0.5
        delta = sum(sum(v) / len(v) for v in by.values()) / len(by)
        t = next(m for m in s['methods'] if m['id'] == 'simgrep-hybrid')['timing']
        print(f"{arg.split('/')[-1]:40s} {sid:12s} hybrid {ndcg(s, 'simgrep-hybrid', 'hit'):.4f} / {ndcg(s, 'simgrep-hybrid', 'file'):.4f}"
              f"  - lexical {H['hit']['overall']['ndcg'] - L['hit']['overall']['ndcg']:+.4f}  below {len(below)} ({', '.join(below)})"
              f"  vs control {delta:+.4f} +- {err:.4f}  {t['wallMs'] / 1000:.0f} s")
