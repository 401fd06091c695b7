#!/usr/bin/env python3
"""A Chrome Trace Event JSON file of N events (default 1,200,000) for the reader benchmark.

Shaped like a Node or Chrome trace: 4 processes × 16 threads, complete (X) slices nested two
deep, begin/end (B/E) pairs, instants, counters and async (b/e) pairs; seeded, unsorted within
each thread batch as real traces are. Usage: gen_chrome.py OUT.json [N]
"""
import json
import random
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_200_000
rng = random.Random(42)
names = [f"fn{i}" for i in range(40)]
written = 0
with open(out, "w") as f:
    f.write('{"traceEvents":[\n')
    first = True

    def emit(event):
        global first, written
        if not first:
            f.write(",\n")
        f.write(json.dumps(event, separators=(",", ":")))
        first = False
        written += 1

    for pid in range(4):
        emit({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": f"proc{pid}"}})
    t = 1_000_000.0
    while written < n:
        pid = rng.randrange(4)
        tid = rng.randrange(16)
        t += rng.random() * 20
        kind = rng.random()
        name = rng.choice(names)
        if kind < 0.5:
            dur = rng.random() * 50 + 1
            emit({"pid": pid, "tid": tid, "ph": "X", "cat": "v8", "name": name, "ts": round(t, 3), "dur": round(dur, 3)})
            emit({"pid": pid, "tid": tid, "ph": "X", "cat": "v8", "name": name + ".inner", "ts": round(t + dur / 4, 3),
                  "dur": round(dur / 2, 3), "args": {"size": rng.randrange(1000)}})
        elif kind < 0.75:
            emit({"pid": pid, "tid": tid, "ph": "B", "cat": "node", "name": name, "ts": round(t, 3)})
            emit({"pid": pid, "tid": tid, "ph": "E", "cat": "node", "name": name, "ts": round(t + rng.random() * 30, 3)})
        elif kind < 0.85:
            emit({"pid": pid, "tid": tid, "ph": "i", "cat": "node", "name": "tick", "ts": round(t, 3), "s": "t"})
        elif kind < 0.93:
            emit({"pid": pid, "tid": tid, "ph": "C", "name": "heap", "ts": round(t, 3),
                  "args": {"used": rng.randrange(10**8), "total": 2 * 10**8}})
        else:
            aid = rng.randrange(10**6)
            emit({"pid": pid, "tid": tid, "ph": "b", "cat": "async", "name": "req", "id": aid, "ts": round(t, 3)})
            emit({"pid": pid, "tid": tid, "ph": "e", "cat": "async", "name": "req", "id": aid,
                  "ts": round(t + rng.random() * 500, 3)})
    f.write("\n]}\n")
print(f"{out}: {written} events")
