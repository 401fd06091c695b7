#!/usr/bin/env bash
# ocelotl compare against one overview of each run (issue 32: a comparison ≤ 2× one overview).
# Runs of the bundled trace's size, from examples/gen/simgrid-compare/gen_compare.sh with BIG=1:
#   BASE=out/big_base.trace.gz OTHER=out/big_slow.trace.gz bench/compare.sh
# Each round runs the three commands in turn (imports and model caches warm after the first
# use); one line per command: round | command | wall seconds | load averages.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ws=${WORKSPACE:-$(mktemp -d)}
for i in $(seq "${ROUNDS:-3}"); do
  for c in "overview $BASE --out /tmp/compare-bench-1.png" "overview $OTHER --out /tmp/compare-bench-2.png" \
      "compare $BASE $OTHER --out /tmp/compare-bench-3.png"; do
    s=$(date +%s.%N); "$here/ocelotl" $c --workspace "$ws" > /dev/null; e=$(date +%s.%N)
    echo "$i | ${c%% --out*} | $(echo "$e - $s" | bc) | $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
