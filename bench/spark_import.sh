#!/usr/bin/env bash
# Spark import benchmark (not a test): a Pajé trace ($TRACE, default the large SimGrid trace
# $LARGE_DIR/smpi_large.trace) imported by ocelotl (store, then Parquet export) and by
# ocelotl-spark import in local[1] and local[2], in one run; files under $BENCH_DIR. $RANGE_BYTES,
# if set, is the import's --range-bytes (default 128 MiB). Wall and process CPU times; each run on
# as many cores as it uses (taskset).
#
#   LARGE_DIR=/work/large bench/spark_import.sh
#   java bench/GenPaje.java /tmp/synthetic.trace 100000000 && TRACE=/tmp/synthetic.trace bench/spark_import.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${BENCH_DIR:-/tmp/ocelotl-spark-import-bench}
trace=${TRACE:-${LARGE_DIR:-/work/large}/smpi_large.trace}
cd "$here"
mvn -B -q -pl ocelotl-spark -am -DskipTests package
cp=$(cd ocelotl-spark && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
cp=ocelotl-spark/target/classes:ocelotl-trace/target/classes:ocelotl-core/target/classes:$cp
opens=$(sed -n '/<argLine>/,/<\/argLine>/p' ocelotl-spark/pom.xml | grep -o -- '--add-opens=[^ <]*\|-D[A-Za-z.]*=[a-z]\+' | tr '\n' ' ')
rm -rf "$dir" && mkdir -p "$dir"
echo "trace: $trace ($(du -h "$trace" | cut -f1)); load average before: $(cut -d" " -f1-3 /proc/loadavg)"
# Each run is given as many cores as it names (taskset): a JVM's own threads (JIT, GC, Spark's
# driver, the store's writer thread) would otherwise take the second core in every run, and
# local[1] would be measured on two.
for cores in 1 2; do
  echo -n "local path on $cores core(s): "
  taskset -c 0-$((cores - 1)) java -Xmx6g -cp "$cp" bench/SparkBench.java import-local "$trace" "$dir/local$cores"
  # shellcheck disable=SC2086
  taskset -c 0-$((cores - 1)) java -Xmx6g $opens -cp "$cp" bench/SparkBench.java import-spark "$trace" \
    "$dir/spark$cores" $cores ${RANGE_BYTES:-} 2>&1 | grep -v ' WARN \| INFO '
done
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
