#!/usr/bin/env bash
# Runs Ocelotl's Spark jobs without a Spark distribution (docs/scale-out.md, "Running it"):
#   ./ocelotl-spark.sh import TRACE --out DATASET --master 'local[N]'
#   ./ocelotl-spark.sh model DATASET --slices N --out model.ocm --master 'local[N]'
# (ocelotl-spark, without .sh, is the module's directory.) Builds ocelotl-spark.jar when it is missing
# or older than the sources, and runs it with Spark's jars as Maven resolves them (the spark-sql
# dependency that a cluster provides). The same jar is what spark-submit takes on a cluster.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$here/ocelotl-spark/target/ocelotl-spark.jar"
classpath="$here/ocelotl-spark/target/spark-classpath.txt"
if [ ! -f "$jar" ] || [ ! -f "$classpath" ] || [ -n "$(find "$here" -path "$here/.git" -prune -o \( -name pom.xml -o -path '*/src/main/*' \) -newer "$jar" -print -quit)" ]; then
  echo "ocelotl-spark: building (first use or sources changed; the first build downloads Spark's jars)…" >&2
  log=$(mktemp)
  # The Spark module and what it needs, and its dependencies' class path (compile and provided
  # scopes: Spark, Hadoop, Parquet, Jackson) written beside the jar. -DskipTests, not
  # -Dmaven.test.skip: ./ocelotl says why.
  if ! (cd "$here" && mvn -q -B -DskipTests -pl ocelotl-spark -am package dependency:build-classpath \
      -Dmdep.includeScope=compile -Dmdep.outputFile=target/spark-classpath.txt) >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"; exit 1
  fi
  rm -f "$log"
  touch "$jar" # newer than the class path file of every module, so the next run does not build
fi
# What Spark's own launcher adds on JDK 17+ (its JavaModuleOptions), kept once, in the module's
# surefire argLine: Spark reaches into these JDK packages by reflection.
opens=$(sed -n '/<argLine>/,/<\/argLine>/p' "$here/ocelotl-spark/pom.xml" | grep -o -- '--add-opens=[^ <]*\|-D[A-Za-z.]*=[a-z]\+' | tr '\n' ' ')
# Plug-ins (docs/plugins.md): OCELOTL_PLUGINS, jars separated by ':', as for ./ocelotl; with
# --master local[N] the executors share this class path.
# shellcheck disable=SC2086
exec java $opens ${OCELOTL_JAVA_OPTS:-} -cp "$jar:$(cat "$classpath")${OCELOTL_PLUGINS:+:$OCELOTL_PLUGINS}" \
  org.ocelotl.spark.SparkMain "$@"
