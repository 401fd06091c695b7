#!/usr/bin/env bash
# Spark model benchmark (not a test): the state-duration model (N = 1000) of a synthetic store of
# $STATES states (700 leaves, 10 types; default 20 M), built by the local scan with 1 and 2
# threads and by the Spark job in local[1] and local[2] from the store's Parquet dataset, in one
# run; cold (first build in the JVM) and median of 3, wall and process CPU time, each run on as many
# cores as it names (taskset). Files under $BENCH_DIR.
#
#   bench/spark_model.sh              # STATES=5000000 bench/spark_model.sh for a quick run
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${BENCH_DIR:-/tmp/ocelotl-spark-bench}
states=${STATES:-20000000}
cd "$here"
mvn -B -q -pl ocelotl-spark -am -DskipTests package
mvn -B -q -pl ocelotl-trace test-compile
cp=$(cd ocelotl-spark && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
cp=ocelotl-spark/target/classes:ocelotl-trace/target/classes:ocelotl-trace/target/test-classes:ocelotl-core/target/classes:$cp
# What Spark's launcher adds on JDK 17+ (as the surefire configuration of ocelotl-spark does).
opens=$(sed -n '/<argLine>/,/<\/argLine>/p' ocelotl-spark/pom.xml | grep -o -- '--add-opens=[^ <]*\|-D[A-Za-z.]*=[a-z]\+' | tr '\n' ' ')
mkdir -p "$dir"
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
java -Xmx6g -cp "$cp" org.ocelotl.scan.ScanBench synthetic "$dir/store" "$states"
java -Xmx6g -cp "$cp" bench/SparkBench.java export "$dir/store" "$dir/dataset"
echo "dataset: $(du -sh "$dir/dataset" | cut -f1), $(ls "$dir/dataset/states" | wc -l) state files"
# Each run is given as many cores as it names (taskset): a JVM's own threads (JIT, GC, Spark's
# driver) would otherwise take the second core in every run, and local[1] would be measured on two.
for cores in 1 2; do
  taskset -c 0-$((cores - 1)) java -Xmx6g -cp "$cp" bench/SparkBench.java local "$dir/store" 1000
done
for cores in 1 2; do
  # shellcheck disable=SC2086
  taskset -c 0-$((cores - 1)) java -Xmx6g $opens -cp "$cp" bench/SparkBench.java spark "$dir/dataset" 1000 $cores 2>/dev/null
done
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
