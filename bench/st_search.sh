#!/usr/bin/env bash
# The spatiotemporal breakpoint search of the 720-leaf × 100-slice `phases` benchmark model
# (issue 18 item 1; AggregationBenchmark's st-720x100 without JMH): `Qualities.of` and
# `breakpoints()` timed apart, wall and process CPU, by the SpatiotemporalSearch driver of
# ocelotl-bench, in a fresh JVM per run (-Xmx2g, the goal's heap), two runs per JVM, the second one
# (warm) kept. With BEFORE (another build's ocelotl-core jar or classes) the two builds alternate,
# the same driver and model for both: only the core classes differ.
#
#   mvn -B -q -Pbench -pl ocelotl-bench -am package -DskipTests
#   bench/st_search.sh                                        # this build, 3 rounds
#   BEFORE=/tmp/before-core.jar ROUNDS=5 bench/st_search.sh   # alternated with another build
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=$here/ocelotl-bench/target/benchmarks.jar
after=$(ls "$here"/ocelotl-core/target/ocelotl-core-*.jar | head -1)
rounds=${ROUNDS:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for round in $(seq "$rounds"); do
  for build in ${BEFORE:+before} after; do
    core=$after
    [ "$build" = before ] && core=$BEFORE
    echo "round $round, $build, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    java -Xmx2g -cp "$core:$bench" org.ocelotl.bench.SpatiotemporalSearch --runs 2 --label "$build " \
      | tail -1 | tee -a "$out"
  done
done
# Medians of the qualities' and the search's wall and CPU seconds, per build.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for build in ${BEFORE:+before} after; do
  fields=$(grep "^$build " "$out" \
    | sed -E 's/.*qualities ([0-9.]+) s wall ([0-9.]+) s CPU.*search ([0-9.]+) s wall ([0-9.]+) s CPU.*/\1 \2 \3 \4/')
  m=()
  for i in 1 2 3 4; do
    m+=("$(cut -d' ' -f$i <<< "$fields" | median)")
  done
  echo "$build: medians of $(wc -l <<< "$fields") runs: qualities ${m[0]} s wall ${m[1]} s CPU," \
    "search ${m[2]} s wall ${m[3]} s CPU ($(awk -v c="${m[3]}" -v w="${m[2]}" 'BEGIN { printf "%.2f", c / w }') cores)"
done
