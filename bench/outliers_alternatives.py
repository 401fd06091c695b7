#!/usr/bin/env python3
"""Rankings of hidden cells under alternative scores (issue 29, decision 041; not a test).

The one-part partition (the whole model, as at p = 0.3 on the bundled trace). Every (subtree g
below the root, interval [a, b)) is scored, with the split score of docs/aggregation.md:
  who   = score(g over [a, b) | the root over [a, b))   how g departs from the others then
  when  = score(g over [a, b) | g over the whole run)   how g departs from itself at other times
  chain = score(root over [a, b) | whole) + who        what the three-way split loses (chain rule)
  min   = min(who, when)
Each is ranked over its local maxima (no one-slice move of an end raises it), greedily keeping
cells that share no leaf and slice with a kept one (simpler than Outliers' greedy choice).
Also: who over given slices, for every subtree.

  java -jar ocelotl-app/target/ocelotl.jar model examples/smpi_perturbed.trace.gz --slices 50 \
      --out /tmp/m.csv --tree-out /tmp/t.csv
  python3 bench/outliers_alternatives.py /tmp/m.csv /tmp/t.csv 30 32
"""
import csv
import sys

import numpy as np

model, tree_file = sys.argv[1], sys.argv[2]
probe = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else None
rows = list(csv.DictReader(open(model)))
parent = {r['producer']: r['parent'] for r in csv.DictReader(open(tree_file))}
root = next(n for n, p in parent.items() if not p)
types = sorted({r['type'] for r in rows})
slices = 1 + max(int(r['slice']) for r in rows)
leaves = sorted({r['producer'] for r in rows})


def ancestors(n):
    out = [n]
    while parent[out[-1]]:
        out.append(parent[out[-1]])
    return out


def path(n):
    return '/'.join(reversed(ancestors(n)[:-1])) or n


node_sum = {n: np.zeros((slices, len(types))) for n in parent}
leaf_count = {n: 0 for n in parent}
leaf_set = {n: set() for n in parent}
for r in rows:
    node_sum[r['producer']][int(r['slice']), types.index(r['type'])] += float(r['value'])
for leaf in leaves:
    for a in ancestors(leaf)[1:]:
        node_sum[a] += node_sum[leaf]
    for a in ancestors(leaf):
        leaf_count[a] += 1
        leaf_set[a].add(leaf)
prefix = {n: np.vstack([np.zeros(len(types)), np.cumsum(s, 0)]) for n, s in node_sum.items()}


def xlog2x(x):
    x = np.maximum(x, 0)
    return np.where(x > 0, x * np.log2(np.where(x > 0, x, 1)), 0)


def split(c, s, m, n):
    """score(C | A): C of m cells with per-type sums c, in A of n cells with sums s."""
    if m >= n:
        return 0.0
    c = np.minimum(c, s)
    r = s - c
    return max(0.0, float((xlog2x(c) + xlog2x(r) - xlog2x(s)).sum() + c.sum() * np.log2(n / m)
                          + r.sum() * np.log2(n / (n - m))))


def total(n, a, b):
    return prefix[n][b] - prefix[n][a]


stretch = {(a, b): split(total(root, a, b), total(root, 0, slices), b - a, slices)
           for a in range(slices) for b in range(a + 1, slices + 1)}
scores = {}
for g in parent:
    if g == root:
        continue
    for a in range(slices):
        for b in range(a + 1, slices + 1):
            c = total(g, a, b)
            who = split(c, total(root, a, b), leaf_count[g], leaf_count[root])
            when = split(c, total(g, 0, slices), b - a, slices)
            scores[(g, a, b)] = {'who': who, 'when': when, 'chain': stretch[(a, b)] + who, 'min': min(who, when)}

for name in ('who', 'min', 'chain'):
    s = {k: v[name] for k, v in scores.items()}
    local = [k for k, v in s.items() if v > 1e-9 and all(
        s.get(q, -1) <= v for q in ((k[0], k[1] - 1, k[2]), (k[0], k[1] + 1, k[2]), (k[0], k[1], k[2] - 1),
                                    (k[0], k[1], k[2] + 1)))]
    kept = []
    for k in sorted(local, key=lambda k: -s[k]):
        if not any(leaf_set[k[0]] & leaf_set[q[0]] and k[1] < q[2] and q[1] < k[2] for q in kept):
            kept.append(k)
        if len(kept) == 15:
            break
    print(f'ranked by {name}:')
    for i, k in enumerate(kept):
        v = scores[k]
        print(f'  {i + 1:2} {path(k[0])} slices {k[1]}-{k[2] - 1}: {v[name]:.3f} '
              f'(who {v["who"]:.3f}, when {v["when"]:.3f}, stretch {stretch[(k[1], k[2])]:.3f})')
if probe:
    who = sorted(((v['who'], path(k[0])) for k, v in scores.items() if (k[1], k[2]) == probe), reverse=True)
    print(f'who over slices {probe[0]}-{probe[1] - 1}:', ', '.join(f'{n} {w:.3f}' for w, n in who[:10]))
