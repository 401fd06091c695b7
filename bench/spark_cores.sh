#!/usr/bin/env bash
# local[1] against local[2] (benchmark, not a test): ocelotl-spark import of a Pajé trace ($TRACE,
# default the large SimGrid trace $LARGE_DIR/smpi_large.trace) with the default ranges, and with
# Spark's fixed 128 MiB ranges of before (local[2] only), then the state-duration model of the
# dataset at 1000 slices (ocelotl-spark model, default split). Each run is pinned to as many cores
# as it names (taskset), run as ./ocelotl-spark.sh runs it, wall and CPU time by /usr/bin/time;
# the load average before each. Files under $BENCH_DIR.
#
#   LARGE_DIR=/work/large bench/spark_cores.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${BENCH_DIR:-/tmp/ocelotl-spark-cores-bench}
trace=${TRACE:-${LARGE_DIR:-/work/large}/smpi_large.trace}
cd "$here"
./ocelotl-spark.sh --version >/dev/null # builds the jar and its class path if needed
jar=ocelotl-spark/target/ocelotl-spark.jar
cp=$jar:$(cat ocelotl-spark/target/spark-classpath.txt)
opens=$(sed -n '/<argLine>/,/<\/argLine>/p' ocelotl-spark/pom.xml | grep -o -- '--add-opens=[^ <]*\|-D[A-Za-z.]*=[a-z]\+' | tr '\n' ' ')
rm -rf "$dir" && mkdir -p "$dir"
echo "trace: $trace ($(du -h "$trace" | cut -f1))"
run() { # label cores args...
  local label=$1 cores=$2; shift 2
  local load; load=$(cut -d" " -f1-3 /proc/loadavg)
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %U %S" -o "$dir/time" taskset -c 0-$((cores - 1)) java $opens -cp "$cp" \
    org.ocelotl.spark.SparkMain "$@" --master "local[$cores]" 2>&1 | grep -v ' WARN \| INFO ' | grep -v '^\s*$' | tail -1
  read -r wall user sys < "$dir/time"
  printf '%-34s wall %6.1f s  cpu %6.1f s  (load before: %s)\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" "$load"
}
for round in 1 2; do
  echo "round $round"
  run "import local[1]" 1 import "$trace" --out "$dir/d1" --force
  run "import local[2]" 2 import "$trace" --out "$dir/d2" --force
  run "import local[2], 128 MiB ranges" 2 import "$trace" --out "$dir/d128" --force --range-bytes 134217728
  run "model local[1]" 1 model "$dir/d2" --slices 1000 --out "$dir/m1.ocm"
  run "model local[2]" 2 model "$dir/d2" --slices 1000 --out "$dir/m2.ocm"
done
ls -l "$dir"/d2/states | head -20
