# semble-dev2 NDCG@10 ("hit") per repo of quality-bench runs beside semble's published figures.
# Usage: vs-published.py LABEL:RUN.json:METHOD... (METHOD: simgrep-hybrid, simgrep-lexical, simgrep-semantic, bm25)
import json, os, sys
pub = json.load(open(os.path.join(os.environ.get('SIMGREP_SHARED_DIR', '../shared'), 'eval/semble-dev2/published.json')))
def load(f, method):
    s = {x['id']: x for x in json.load(open(f))['sets']}['semble-dev2']
    return {r: v['ndcg'] for r, v in s['summaries'][method]['hit']['byRepo'].items()}
cols = []
for a in sys.argv[1:]:
    label, f, m = a.split(':')
    cols.append((label, load(f, m)))
repos = sorted(cols[0][1])
print('repo'.ljust(20), ' '.join(l.rjust(9) for l, _ in cols), 'semble'.rjust(7), 'pot-raw'.rjust(7), 'bm25raw'.rjust(7))
for r in repos:
    print(r.ljust(20), ' '.join(f"{c.get(r, float('nan')):9.3f}" for _, c in cols), f"{pub[r]['semble']:7.3f} {pub[r]['potion-raw']:7.3f} {pub[r]['BM25-raw']:7.3f}")
print('mean'.ljust(20), ' '.join(f"{sum(c[r] for r in repos)/len(repos):9.3f}" for _, c in cols), f"{sum(pub[r]['semble'] for r in repos)/len(repos):7.3f}")
