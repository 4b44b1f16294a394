#!/usr/bin/env python3
"""Offline replay of the planner's inference cost model over the emulated continuum's job CSV
(CONTINUUM_BENCH_JOBS_CSV, docs/benchmarks.md "Planner: emulated continuum"). Prints numbers, asserts nothing.

Each planner job is predicted again, in placement order, from what the planner had been told before it was placed
(input moves at the end of their fetch, completions at their result), as InferencePlacer / CostModel do for the
site the planner chose (one worker per site, as in the bench): link wait behind the planner's own inputs + latency +
bytes x learnt time per byte + learnt overhead; queue (ahead - 1/2) x compute less transfer and overhead, + learnt
wait beyond (since 2026-11-29 apart for jobs with tasks ahead and without); learnt compute. Since 2026-11-29's second
sitting an edge gateway's overhead is learnt apart for jobs placed behind other tasks there. Estimators: the planner's running mean then EWMA 0.2, or alternatives to compare.
A CSV without the job/placed_at columns (before 2026-11-28 08:30) is matched to the bench's stream (Random(13),
--jobs, --rate): each (site, holder) group completes in placement order; the matching is checked against `ahead`.

    python3 bench/scripts/continuum-cost-replay.py jobs.csv [--jobs 200] [--rate 8]
"""
import argparse, bisect, csv, math, statistics as st, sys
from collections import defaultdict, deque

MASK = (1 << 48) - 1; A = 0x5DEECE66D; C = 0xB
BYTES = 293_000                                   # the bench's input (~293 kB tensor document)
CONFIGURED_BYTES_PER_MS = {('gw-fast', 'dc-pool'): 1e9 / 8 / 1000, ('gw-slow', 'dc-pool'): 1e7 / 8 / 1000,
                           ('gw-fast', 'gw-slow'): 1e7 / 8 / 1000, ('gw-slow', 'gw-fast'): 1e7 / 8 / 1000}
LINK_LATENCY_MS = 1


def stream(n, rate):
    """The bench's jobs (index, at ms, holder): java.util.Random(13) as ContinuumBench.jobs() draws it."""
    s = (13 ^ A) & MASK
    def nxt(bits):
        nonlocal s
        s = (s * A + C) & MASK
        return s >> (48 - bits)
    a, c = 1, 0; ba, bc = A, C; k = 3 * 48 * 192   # the floats of each input: skipped in one jump
    while k:
        if k & 1: a, c = (a * ba) & MASK, (c * ba + bc) & MASK
        ba, bc = (ba * ba) & MASK, (bc * ba + bc) & MASK; k >>= 1
    t, out = 0.0, []
    for i in range(n):
        t += -math.log(1 - ((nxt(26) << 27) + nxt(27)) * 2.0 ** -53) / rate * 1000
        holder = ['gw-fast', 'gw-slow'][(2 * nxt(31)) >> 31]
        s = (a * s + c) & MASK
        out.append((i, round(t), holder))
    return out


def load(path):
    rows = [r for r in csv.DictReader(open(path)) if r['policy'] == 'planner']
    for r in rows:
        for k in list(r):
            if k not in ('policy', 'site', 'holder'):
                r[k] = int(r[k])
    return rows


def place_in_time(rows, n, rate):
    """Sets each row's job, t0 (placed) and t1 (result); from the CSV when it has them, else matched to the stream."""
    if 'placed_at' in rows[0]:
        for r in rows:
            r['t0'] = r['placed_at']; r['t1'] = r['t0'] + r['latency']
        return
    jobs = stream(n, rate)
    pos = {id(r): p for p, r in enumerate(rows)}  # rows are in completion order
    groups = defaultdict(list)
    for r in rows:
        groups[r['holder']].append(r)
    anchors = None
    for holder in sorted(groups, key=lambda h: len({r['site'] for r in groups[h]})):
        own = [j for j in jobs if j[2] == holder]
        by_site = defaultdict(list)
        for r in groups[holder]:
            by_site[r['site']].append(r)
        if len(by_site) == 1:                      # one site: completions in placement order
            for r, j in zip(groups[holder], own):
                r['job'], r['t0'] = j[0], j[1]; r['t1'] = r['t0'] + r['latency']
            anchors = sorted((pos[id(r)], r['t1']) for r in groups[holder])
            continue
        # two sites: which jobs went where, by the fewest ms out of completion order against the anchors
        (s1, r1), (s2, r2) = sorted(by_site.items())
        ap = [x[0] for x in anchors]
        def cost(r, at):
            done, k = at + r['latency'], bisect.bisect(ap, pos[id(r)])
            return (max(0, anchors[k - 1][1] - done) if k > 0 else 0) + (max(0, done - anchors[k][1]) if k < len(anchors) else 0)
        best = {0: (0, [])}                        # jobs sent to s1 so far -> (cost, choices)
        for i, j in enumerate(own):
            nb = {}
            for k1, (cst, ch) in best.items():
                k2 = i - k1
                if k1 < len(r1):
                    v = cst + cost(r1[k1], j[1])
                    if v < nb.get(k1 + 1, (math.inf,))[0]: nb[k1 + 1] = (v, ch + [1])
                if k2 < len(r2):
                    v = cst + cost(r2[k2], j[1])
                    if v < nb.get(k1, (math.inf,))[0]: nb[k1] = (v, ch + [2])
            best = nb
        total, choices = best[len(r1)]
        it = {1: iter(r1), 2: iter(r2)}
        for j, c in zip(own, choices):
            r = next(it[c]); r['job'], r['t0'] = j[0], j[1]; r['t1'] = r['t0'] + r['latency']
        print(f'matched to the stream: {total} ms out of completion order in all', file=sys.stderr)
    wrong = sum(1 for r in rows if r['ahead'] != sum(1 for o in rows if o is not r and o['site'] == r['site']
                                                     and o['t0'] < r['t0'] <= o['t1']))
    print(f'tasks in flight at placement (`ahead`) reproduced for {len(rows) - wrong} of {len(rows)} jobs', file=sys.stderr)


class Learnt:
    """CostModel: a prior counting as one sample (if any), a running mean, then an EWMA with rate 0.2."""
    def __init__(self, prior=None): self.v, self.n, self.w = prior, 0, 1 if prior is not None else 0
    def add(self, x):
        if self.v is None: self.v, self.n = x, 1; return
        self.n += 1; self.v += max(0.2, 1 / (self.n + self.w)) * (x - self.v)
    def value(self): return self.v


class WindowMedian:
    """An alternative: the median of the last k samples."""
    k = 25
    def __init__(self, prior=None): self.d, self.prior = deque(maxlen=self.k), prior
    def add(self, x): self.d.append(x)
    def value(self): return st.median(self.d) if self.d else self.prior


def replay(rows, estimator=Learnt, behind_apart=False, closed_loop=False, site_busy_apart=False, beyond_apart=False,
           edge_overhead_apart=False):
    """Predictions per job. behind_apart: an input sent behind others on its link learns and uses its own time per
    byte (the idle link's standing in until measured). closed_loop: each measured move shifts the inputs reserved
    behind it on the link by what it took beyond its reservation. site_busy_apart: overhead and compute learnt apart
    for jobs placed with tasks in flight at the site (not landed; compared only). beyond_apart: the wait beyond the
    queue term learnt apart for jobs placed with tasks ahead at the site and jobs with none (landed 2026-11-29).
    edge_overhead_apart: an edge gateway's overhead (not the pool's) learnt apart for jobs placed behind other tasks
    there (landed 2026-11-29, second sitting)."""
    events = []
    for r in rows:
        events.append((r['t0'], 1, r))
        if r['site'] != r['holder'] and r['fetch'] > 0:
            events.append((r['t0'] + r['transfer'], 0, r))
        events.append((r['t1'], 0, r, 'done'))
    events.sort(key=lambda e: (e[0], e[1]))
    per_byte, overhead, compute, beyond = {}, {}, {}, {}
    busy_until = defaultdict(float)
    behind_others, modelled, predicted, reserved = {}, {}, {}, {}
    shift = defaultdict(float)                                 # per link queue: how far reported moves moved it
    def get(d, *keys):
        for k in keys:
            if k in d: return d[k]
        return None
    for e in events:
        t, r = e[0], e[2]
        site, moved = r['site'], r['site'] != r['holder']
        busy = min(r['ahead'], 1) if site_busy_apart else 0
        obusy = min(r['ahead'], 1) if edge_overhead_apart and site != 'dc-pool' else busy
        if e[1] == 1:                                          # placed
            transfer = 0
            if moved:
                h = r['holder']; wait = max(0, busy_until[h] - t); behind = behind_apart and wait > 0
                behind_others[r['job']] = behind
                est = get(per_byte, (h, site, behind), (h, site, False))
                ms = BYTES * (est.value() if est else 1 / CONFIGURED_BYTES_PER_MS[h, site])
                transfer = wait + LINK_LATENCY_MS + ms
                busy_until[h] = max(t, busy_until[h]) + ms
                reserved[r['job']] = (busy_until[h], ms, shift[h])
            o = get(overhead, (site, moved, obusy), (site, moved, 0), (site, not moved, obusy), (site, not moved, 0))
            ov = o.value() if o else 0
            c = get(compute, (site, busy), (site, 0)); cm = c.value() if c else 100
            wait_model = 0 if r['ahead'] < 1 else (r['ahead'] - 0.5) * cm
            modelled[r['job']] = max(0, round(wait_model - transfer - ov))
            b = get(beyond, (site, beyond_apart and r['ahead'] > 0), (site, not (beyond_apart and r['ahead'] > 0)))
            queue = max(0, round(modelled[r['job']] + (b.value() if b else 0)))
            predicted[r['job']] = round(transfer + ov) + queue + round(cm)
        elif len(e) == 3:                                      # the input's move measured
            key = (r['holder'], site, behind_others[r['job']])
            if key not in per_byte:
                idle = per_byte.get((r['holder'], site, False))
                per_byte[key] = estimator(idle.value() if idle else 1 / CONFIGURED_BYTES_PER_MS[r['holder'], site])
            took = max(1, r['fetch'] - LINK_LATENCY_MS)
            per_byte[key].add(took / BYTES)
            if closed_loop:                                    # through by start + took, and by the report at the latest
                h = r['holder']; end0, ms, shift0 = reserved[r['job']]; end = end0 + shift[h] - shift0
                delta = min(t, end - ms + took) - end
                busy_until[h] += delta; shift[h] += delta
        else:                                                  # completed
            compute.setdefault((site, busy), estimator()).add(max(1, round(r['compute'] / max(1, r['batch']))))
            overhead.setdefault((site, moved, obusy), estimator()).add(r['overhead'])
            beyond.setdefault((site, beyond_apart and r['ahead'] > 0), estimator()).add(r['queue'] - modelled[r['job']])
    return predicted


def report(name, rows, predicted):
    groups, every = defaultdict(list), []
    for r in rows:
        e = abs(predicted[r['job']] - r['latency']) / r['latency']
        groups[r['site'] + (', local' if r['site'] == r['holder'] else ', from ' + r['holder'])].append(e); every.append(e)
    print(f"{name:58s} {100 * st.median(every):5.1f} % | " + " | ".join(
        f"{k} ({len(v)}) {100 * st.median(v):5.1f} %" for k, v in sorted(groups.items())))


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('csv'); ap.add_argument('--jobs', type=int, default=200); ap.add_argument('--rate', type=float, default=8)
    a = ap.parse_args()
    rows = load(a.csv)
    place_in_time(rows, a.jobs, a.rate)
    print('median |predicted - actual| / actual, all planner jobs | per site and input')
    report('as run (the CSV\'s predictions)', rows, {r['job']: r['predicted'] for r in rows})
    report('replay: one time per byte per link (before)', rows, replay(rows))
    report('replay: idle link / behind other inputs apart', rows, replay(rows, behind_apart=True))
    report('replay: link queue moved by each measured move', rows, replay(rows, closed_loop=True))
    report('replay: both (2026-11-28)', rows, replay(rows, behind_apart=True, closed_loop=True))
    report('replay: both + wait beyond apart with tasks ahead', rows,
           replay(rows, behind_apart=True, closed_loop=True, beyond_apart=True))
    report('replay: + edge overhead apart behind other tasks (after)', rows,
           replay(rows, behind_apart=True, closed_loop=True, beyond_apart=True, edge_overhead_apart=True))
    report('alternative: after + median of the last 25 samples for every term', rows,
           replay(rows, WindowMedian, behind_apart=True, closed_loop=True, beyond_apart=True, edge_overhead_apart=True))
    report('alternative: overhead and compute apart with tasks in flight, every site', rows,
           replay(rows, behind_apart=True, closed_loop=True, site_busy_apart=True, beyond_apart=True))
