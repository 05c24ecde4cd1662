#!/usr/bin/env python3
# fusion-replay, step 3: replays fusion formulas over the dumped chunk signals and prints NDCG@10
# ("hit" protocol, mean over repos) per dev set, with the number of repos where the formula is below
# lexical. It re-implements the ranker's last steps (candidate pool of 4k + 10, file coherence 0.2,
# file decay 0.5) and reproduces the bench's hybrid, lexical and semantic means to 0.001 (adjacent
# hits are not merged into one hunk here). Usage: python3 replay.py DUMP [--pickle CACHE]
import json, math, pickle, re, sys
from collections import defaultdict
import numpy as np

SYMBOL_QUERY = re.compile(r'^(?:[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\\|->|\.)[A-Za-z_][A-Za-z0-9_]*)+|_[A-Za-z0-9_]*|[A-Za-z][A-Za-z0-9]*[A-Z_][A-Za-z0-9_]*|[A-Z][A-Za-z0-9]*)$')
EMB_CAMEL = re.compile(r'\b(?:[A-Z][a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]+)\b')
EMB_SNAKE = re.compile(r'\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b')


def names_identifier(query):  # src/rank/plan.ts namesIdentifier
    t = query.strip()
    return bool(SYMBOL_QUERY.match(t) or EMB_CAMEL.search(t) or EMB_SNAKE.search(t))


def load(dump):
    qs = [json.loads(l) for l in open(dump + '.queries.jsonl')]
    blocks, rows = [], None
    for line in open(dump):
        if line.startswith('#Q'):
            if rows is not None: blocks.append(rows)
            rows = []
        else:
            rows.append(line.rstrip('\n').split('\t'))
    if rows is not None: blocks.append(rows)
    for q, rows in zip(qs, blocks):
        root = q['root'].rstrip('/') + '/'
        q['path'] = [r[0][len(root):] if r[0].startswith(root) else r[0] for r in rows]
        a = np.array([[float(r[1])] + [float(x) if x != 'nan' else np.nan for x in r[3:9]] for r in rows]).reshape(-1, 7)
        q['line'], q['cos'], q['bm25'], q['lex'], q['sym'], q['pm'], q['prior'] = a.T
        q['cos0'] = np.nan_to_num(q['cos'], nan=0.0)
        # A chunk without tokens and without a lexical signal is never a result.
        q['has'] = ~(np.isnan(q['cos']) & (q['bm25'] == 0) & (q['sym'] == 0))
        q['symq'] = bool(SYMBOL_QUERY.match(q['query'].strip()))
        q['nameid'] = names_identifier(q['query'])
    return qs


def match(a, b):
    return a == b or a.endswith('/' + b) or b.endswith('/' + a)


def ndcg(files, targets, k=10):
    rels = [0] * k
    for t in targets:
        for i, f in enumerate(files[:k]):
            if match(f, t): rels[i] = 1; break
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(targets))))
    return sum(r / math.log2(i + 2) for i, r in enumerate(rels)) / ideal


def finish(q, rel, k=10, decay=0.5, coherence=0.2):
    """src/pipeline.ts candidateLimit + src/rank/diversify.ts spreadAcrossFiles."""
    idx = np.nonzero(rel > 0)[0]
    if len(idx) == 0: return []
    cands = [(rel[i], q['path'][i], q['line'][i]) for i in sorted(idx, key=lambda i: (-rel[i], q['path'][i], q['line'][i]))[: k * 4 + 10]]
    sums, best = defaultdict(float), {}
    top = max(c[0] for c in cands)
    for c in cands:
        sums[c[1]] += c[0]
        best.setdefault(c[1], c)
    most = max(sums.values())
    boosted = sorted(((c[0] + (coherence * top * sums[c[1]] / most if best[c[1]] is c and most > 0 else 0), c[1], c[2]) for c in cands), key=lambda c: (-c[0], c[1], c[2]))
    seen, picked = defaultdict(int), []
    for r, p, l in boosted:
        picked.append((r * decay ** seen[p], p, l)); seen[p] += 1
    picked.sort(key=lambda c: (-c[0], c[1], c[2]))
    return [p for _, p, _ in picked[:k]]


def evaluate(qs, fuse):
    per = defaultdict(list)
    for q in qs:
        per[(q['set'], q['repo'])].append(ndcg([q['prefix'] + p for p in finish(q, fuse(q))], q['targets']))
    out = {}
    for s in ('semble-dev', 'semble-dev2'):
        repos = {r: float(np.mean(v)) for (ss, r), v in per.items() if ss == s}
        if repos: out[s] = (float(np.mean(list(repos.values()))), repos)
    return out


def linear(w_nl, w_id, by='symbol'):
    """The shipped formula (src/rank/chunk-scorer.ts relevance) with per-query semantic weights."""
    def f(q):
        ident = q['symq'] if by == 'symbol' else q['nameid']
        w = w_id if ident else w_nl
        r = (w * q['cos0'].clip(0) + (1 - w) * q['lex'] + q['sym'] + 0.5 * q['pm']) * q['prior']
        return np.where(q['has'], r, 0)
    return f


def normalised(w, kind, shift=0.0):
    """Oracle: the cosine standardised over the query's whole corpus (not available in a one-pass scan)."""
    def f(q):
        c = q['cos'][~np.isnan(q['cos'])]
        mu, sd, mx = c.mean(), c.std() + 1e-6, c.max()
        s = (q['cos0'] - mu) / sd if kind == 'z' else (q['cos0'] - mu) / (mx - mu + 1e-6)
        r = (w * np.maximum(0, s - shift) + q['lex'] + q['sym'] + 0.5 * q['pm']) * q['prior']
        return np.where(q['has'], r, 0)
    return f


def rrf(k, w):
    """Oracle: reciprocal-rank fusion of the lexical and the semantic ranking over the whole corpus."""
    def ranks(x):
        o = np.argsort(-x, kind='stable'); r = np.empty(len(x)); r[o] = np.arange(len(x)); return r
    def f(q):
        lexs = np.where(q['has'], (q['lex'] + q['sym'] + 0.5 * q['pm']) * q['prior'], 0)
        sem = np.where(~np.isnan(q['cos']), q['cos0'], -1)
        r = 1 / (k + ranks(lexs)) + (w / 2 if q['symq'] else w) / (k + ranks(sem))
        return np.where(q['has'], r, 0)
    return f


def gated(w, t=0.0):
    """Agreement: the cosine counts in proportion to the chunk's own lexical score (lexical score x (1 + w cos))."""
    def f(q):
        lp = q['lex'] + q['sym'] + 0.5 * q['pm']
        r = lp * (1 + w * np.maximum(0, q['cos0'] - t)) * q['prior']
        return np.where(q['has'], r, 0)
    return f


def per_query(qs, fuse):
    return np.array([ndcg([q['prefix'] + p for p in finish(q, fuse(q))], q['targets']) for q in qs])


def by_query_kind(qs):
    """Hybrid (before) minus lexical, mean over queries, by the kind of query and dev set."""
    lex, hyb = per_query(qs, linear(0, 0)), per_query(qs, linear(0.25, 0.15))
    hyb5 = per_query(qs, linear(0.5, 0.5))
    kinds = [('whole-query symbol', lambda q: q['symq']), ('sentence naming an identifier', lambda q: not q['symq'] and q['nameid']),
             ('sentence without identifiers', lambda q: not q['nameid'])]
    print('\n| query kind | set | queries | hybrid (0.25/0.15) - lexical | hybrid (0.5) - lexical |\n|---|---|---:|---:|---:|')
    for name, test in kinds:
        for s in ('semble-dev', 'semble-dev2'):
            m = np.array([test(q) and q['set'] == s for q in qs])
            print(f'| {name} | {s} | {m.sum()} | {(hyb - lex)[m].mean():+.3f} | {(hyb5 - lex)[m].mean():+.3f} |')
    sets, repos = np.array([q['set'] for q in qs]), np.array([q['repo'] for q in qs])
    best = np.maximum(lex, hyb)
    cells = [f"{np.mean([best[(sets == s) & (repos == r)].mean() for r in sorted(set(repos[sets == s]))]):.4f}" for s in ('semble-dev', 'semble-dev2')]
    print(f'\nOracle, per query the better of lexical and hybrid (0.25/0.15): semble-dev {cells[0]}, semble-dev2 {cells[1]}')


def main():
    dump = sys.argv[1]
    qs = load(dump)
    lex = evaluate(qs, linear(0, 0))
    def report(label, res):
        cells = []
        for s in ('semble-dev', 'semble-dev2'):
            m, repos = res[s]
            below = sum(1 for r in repos if repos[r] < lex[s][1][r] - 1e-9)
            cells.append(f'{m:.4f} ({below} below lexical)')
        print(f'| {label} | ' + ' | '.join(cells) + ' |', flush=True)
    print('| formula | semble-dev | semble-dev2 |\n|---|---:|---:|')
    report('lexical (semantic weight 0)', lex)
    report('semantic alone', evaluate(qs, lambda q: np.where(~np.isnan(q['cos']), np.maximum(q['cos0'], 1e-9), 0)))
    report('before: 0.25 NL / 0.15 whole-query symbol', evaluate(qs, linear(0.25, 0.15)))
    for w_nl in (0.15, 0.25, 0.35, 0.5):
        for w_id in (0.0, 0.15):
            report(f'linear {w_nl} NL / {w_id} whole-query symbol', evaluate(qs, linear(w_nl, w_id)))
    for w_nl in (0.2, 0.25, 0.3, 0.35):
        report(f'after: {w_nl} NL / 0 when the query names an identifier', evaluate(qs, linear(w_nl, 0.0, by='identifier')))
    for w in (0.02, 0.05, 0.1):
        report(f'oracle z-scored cosine, weight {w}', evaluate(qs, normalised(w, 'z')))
    for w in (0.1, 0.2):
        report(f'oracle (cos - mean)/(max - mean), weight {w}', evaluate(qs, normalised(w, 'mm')))
    for k, w in ((10, 0.3), (60, 0.3), (60, 1.0)):
        report(f'oracle RRF k {k}, semantic weight {w}', evaluate(qs, rrf(k, w)))
    for w in (0.5, 1.0):
        report(f'lexical x (1 + {w} cos)', evaluate(qs, gated(w)))
    by_query_kind(qs)


if __name__ == '__main__':
    main()
