#!/usr/bin/env bash
# Statistics benchmark (not a test): `ocelotl stats` of the whole large SimGrid trace and of a
# 1 s window, by type and by producer, warm (StatsBench). The trace is $LARGE_DIR/smpi_large.trace
# (generate it with LARGE=1 shared/traces/gen/simgrid-smpi/gen_simgrid_smpi.sh, or bench/import.sh),
# imported into a workspace under $BENCH_DIR on first use.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${BENCH_DIR:-/tmp/ocelotl-stats-bench}
large=${LARGE_DIR:-/work/large}/smpi_large.trace
cd "$here"
mvn -B -q -pl ocelotl-app -am package -DskipTests # builds the test classes too
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
java -Xmx2g -cp ocelotl-app/target/ocelotl.jar:ocelotl-app/target/test-classes org.ocelotl.analysis.StatsBench \
  "$large" "$dir/workspace"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
