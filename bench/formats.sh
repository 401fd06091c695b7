#!/usr/bin/env bash
# Import throughput (records/s) of the OTF2, Chrome JSON, JFR and pj_dump readers on the
# largest samples of shared/traces (or $OCELOTL_TRACES). Not a test: timings depend on the machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
traces=${OCELOTL_TRACES:-$(cd "$here/../shared/traces" 2>/dev/null && pwd || true)}
[ -d "$traces" ] || { echo "shared/traces not found; set OCELOTL_TRACES" >&2; exit 1; }
cd "$here"
mvn -B -q -pl ocelotl-trace -am test-compile
cp=ocelotl-trace/target/classes:ocelotl-trace/target/test-classes:ocelotl-core/target/classes
java -Xmx2g -cp "$cp" org.ocelotl.format.FormatsBench \
  otf2 "$traces/otf2/ez_mpi4/eztrace_log.otf2" \
  otf2 "$traces/otf2/ez_hybrid/eztrace_log.otf2" \
  chrome "$traces/chrome/node_trace.json" \
  jfr "$traces/jfr/workload.jfr" \
  pjdump "$traces/paje/simgrid/s4u_mw_perturbed.pjdump.csv" \
  pjdump "$traces/paje/pajeng/g5k.trace.dump"
