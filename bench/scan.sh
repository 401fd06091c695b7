#!/usr/bin/env bash
# Scan benchmark (not a test): states/s of state-duration model builds for N = 100, 1000,
# 10 000, cold (first scan after import) and warm (median of 5), and model cache rebuild
# times, on
#   1. a generated store of 50 M states (700 leaves, 10 types), written to $BENCH_DIR;
#   2. the large SimGrid trace $LARGE_DIR/smpi_large.trace, when present (imported into a
#      workspace under $BENCH_DIR on first use; generate it with bench/import.sh).
#
#   bench/scan.sh                      # STATES=5000000 bench/scan.sh for a quick run
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${BENCH_DIR:-/tmp/ocelotl-scan-bench}
large=${LARGE_DIR:-/work/large}/smpi_large.trace
states=${STATES:-50000000}
cd "$here"
mvn -B -q -pl ocelotl-trace -am test-compile
cp=ocelotl-trace/target/classes:ocelotl-trace/target/test-classes:ocelotl-core/target/classes
mkdir -p "$dir"
# The machine may be shared: the load average says how much of it the figures had.
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
java -Xmx6g -cp "$cp" org.ocelotl.scan.ScanBench synthetic "$dir/synthetic" "$states"
sync # the scans should not share the machine with the writing back of the new store
java -Xmx6g -cp "$cp" org.ocelotl.scan.ScanBench store "$dir/synthetic"
if [ -f "$large" ]; then
  java -Xmx6g -cp "$cp" org.ocelotl.scan.ScanBench trace "$large" "$dir/workspace"
else
  echo "($large not found: skipping the SimGrid trace)"
fi
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
