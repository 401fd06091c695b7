#!/usr/bin/env bash
# Import throughput (records/s) of the OTF2, Chrome JSON, JFR, pj_dump, CTF and Perfetto readers on the
# largest samples of shared/traces (or $OCELOTL_TRACES). Not a test: timings depend on the machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
traces=${OCELOTL_TRACES:-$(cd "$here/../shared/traces" 2>/dev/null && pwd || true)}
[ -d "$traces" ] || { echo "shared/traces not found; set OCELOTL_TRACES" >&2; exit 1; }
cd "$here"
mvn -B -q -pl ocelotl-trace -am test-compile
cp=ocelotl-trace/target/classes:ocelotl-trace/target/test-classes:ocelotl-core/target/classes
cp="$cp:$(mvn -B -q -pl ocelotl-trace dependency:build-classpath -Dmdep.outputFile=/dev/stdout)"
# A generated Chrome trace of 1.2 M events (the sample has 28 k): the reader's throughput at scale.
chrome_big=${TMPDIR:-/tmp}/ocelotl-bench-chrome-1.2m.json
[ -f "$chrome_big" ] || python3 "$here/bench/gen_chrome.py" "$chrome_big" 1200000
# The shared LTTng trace (3,837 events) repeated 300 times: each stream file's packets one after
# the other, 1.15 M events; times go back at each repeat, which the reader does not check.
ctf_big=${TMPDIR:-/tmp}/ocelotl-bench-ctf-300x
ctf=$traces/ctf/ust-trace/ust/uid/0/64-bit
if [ ! -f "$ctf_big/metadata" ]; then
  mkdir -p "$ctf_big"
  for stream in channel0_0 channel0_1; do
    for _ in $(seq 300); do cat "$ctf/$stream"; done > "$ctf_big/$stream"
  done
  cp "$ctf/metadata" "$ctf_big/metadata"
fi
# A trace LTTng records now (4 threads × 100,000 calls of 3 functions: about 3.6 M events), when
# LTTng and gcc are installed (Debian: lttng-tools, liblttng-ust-dev).
ctf_lttng=${TMPDIR:-/tmp}/ocelotl-bench-lttng-4x100k
if [ ! -d "$ctf_lttng" ] && command -v lttng >/dev/null && command -v gcc >/dev/null; then
  "$here/scripts/gen-lttng-trace" "$ctf_lttng" 100000 4 >/dev/null
fi
# A generated Perfetto trace of 1.2 M records (8 threads' track events on SDK-like sequences, 4 CPUs'
# compact sched_switch bundles), written with the classes generated from our schema subset.
perfetto_big=${TMPDIR:-/tmp}/ocelotl-bench-perfetto-1.2m.pftrace
[ -f "$perfetto_big" ] || java -cp "$cp" org.ocelotl.format.perfetto.PerfettoTraces "$perfetto_big" 1200000
lttng_args=()
[ -d "$ctf_lttng" ] && lttng_args=(ctf "$(find "$ctf_lttng" -name metadata | head -1)")
# A Score-P-style OTF2 archive (local id mappings, clock offsets, messages, metrics) of 22,000
# iterations, about 1 M records, when the OTF2 Python bindings are installed (Debian: python3-otf2).
otf2_big=${TMPDIR:-/tmp}/ocelotl-bench-otf2-22k
if [ ! -d "$otf2_big" ] && [ -d /usr/lib/python3/dist-packages/_otf2 ]; then
  "$here/scripts/gen-otf2-trace" "$otf2_big" 22000
fi
otf2_args=()
[ -d "$otf2_big" ] && otf2_args=(otf2 "$otf2_big/traces.otf2")
java -Xmx2g -cp "$cp" org.ocelotl.format.FormatsBench \
  perfetto "$perfetto_big" \
  chrome "$chrome_big" \
  "${lttng_args[@]}" \
  ctf "$ctf_big/metadata" \
  ctf "$ctf/metadata" \
  "${otf2_args[@]}" \
  otf2 "$traces/otf2/ez_mpi4/eztrace_log.otf2" \
  otf2 "$traces/otf2/ez_hybrid/eztrace_log.otf2" \
  chrome "$traces/chrome/node_trace.json" \
  jfr "$traces/jfr/workload.jfr" \
  pjdump "$traces/paje/simgrid/s4u_mw_perturbed.pjdump.csv" \
  pjdump "$traces/paje/pajeng/g5k.trace.dump"
