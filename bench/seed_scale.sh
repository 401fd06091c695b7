#!/usr/bin/env bash
# Seed-scale benchmark (issue 28; not a test): the figures of docs/benchmarks.md "At the seeds'
# scale", on synthetic Pajé traces of 768 ranks (4 sites › 8 cabinets › 12 hosts › 2 ranks) written
# by org.ocelotl.testing.SeedTrace (a slowed host over [4, 5.5) s, a cabinet's slowed collective
# over [7, 7.5) s), at each state count of STATES. For each trace:
#   - import into a fresh workspace on 1 core and on 2 cores (taskset): wall, CPU, peak RSS, records/s;
#   - the first temporal overview after the import (N = 100), and the first exact spatiotemporal
#     overview at N = 100 with every rank a leaf (--depth 0), on 1 and 2 cores: wall, CPU, peak RSS;
#   - through the web UI's API (`ocelotl view` on the imported workspace), as the page asks: the
#     first exact spatiotemporal overview (the default p and its partition, progressive=1), then
#     its curves, a new p, a zoom, the Gantt chart's first call, an events page and the
#     statistics of a 1 s window.
# Every command runs through the launcher (./ocelotl), so under its default heap policy.
#
#   bench/seed_scale.sh                                  # 2×10⁷ and 2×10⁸ states (6.4 GB), in $SEED_DIR
#   STATES=20000000 SEED_DIR=/data/seed bench/seed_scale.sh
#   TRACE=/work/large/smpi_large.trace bench/seed_scale.sh   # any other trace, e.g. the large SimGrid one
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${SEED_DIR:-$here/../seed}
ocelotl="$here/ocelotl"
port=${PORT:-8791}
mkdir -p "$dir"
if [ ! -f "$here/ocelotl-trace/target/test-classes/org/ocelotl/testing/SeedTrace.class" ]; then
  (cd "$here" && mvn -q -B -DskipTests -pl ocelotl-app -am package) >&2
fi
"$ocelotl" --version > /dev/null # builds the jar now, not inside the first measurement

# timed LABEL CORES COMMAND…: one line of wall, CPU and peak RSS (GNU time), the command's output hidden.
timed() {
  local label=$1 cores=$2; shift 2
  local log; log=$(mktemp)
  /usr/bin/time -f '%e %U %S %M' -o "$log" taskset -c "$cores" "$@" > /dev/null 2> "$log.err" \
    || { cat "$log.err" >&2; rm -f "$log" "$log.err"; return 1; }
  read -r wall user sys rss < <(tail -1 "$log")
  printf '%-52s cores %-4s wall %7.2f s  CPU %7.2f s  peak RSS %6.0f MB\n' "$label" "$cores" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
  rm -f "$log" "$log.err"
  last_wall=$wall
}

run() { # TRACE RECORDS(or empty)
  local trace=$1 records=$2 work; work=$(mktemp -d)
  echo "== $trace ($(du -h "$trace" | cut -f1)); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for cores in 0 0,1; do
    rm -rf "$work/ws"
    timed "import" "$cores" "$ocelotl" import --workspace "$work/ws" "$trace"
    [ -n "$records" ] && printf '%52s %.1f M records/s\n' "" "$(echo "$records / $last_wall / 1000000" | bc -l)"
  done
  timed "first temporal overview, N = 100" 0,1 "$ocelotl" overview --workspace "$work/ws" "$trace" \
    --mode temporal --slices 100 --out "$work/t.png"
  for cores in 0 0,1; do
    # A model cached by an earlier run would hide the scan: each run gets its own copy of the import.
    rm -rf "$work/ws$cores"; cp -r "$work/ws" "$work/ws$cores"
    timed "first exact spatiotemporal overview, N = 100, depth 0" "$cores" "$ocelotl" overview \
      --workspace "$work/ws$cores" "$trace" --mode spatiotemporal --slices 100 --depth 0 --out "$work/s.png" \
      --json "$work/s.json"
    rm -rf "$work/ws$cores"
  done
  api_figures "$trace" "$work/ws"
  rm -rf "$work"
}

# The web UI's requests, each sent once cold (the first call) and then 5 more times (median).
api_figures() {
  local trace=$1 ws=$2 out; out=$(mktemp)
  "$ocelotl" view --workspace "$ws" --port "$port" "$trace" > "$out" 2> "$out.err" &
  local server=$!
  for _ in $(seq 1200); do grep -q '^http' "$out" 2>/dev/null && break; sleep 0.5; done
  local url; url=$(grep -m1 '^http' "$out")
  local token=${url#*token=}; token=${token%%&*}
  local id=${url##*trace=}
  local base="http://127.0.0.1:$port/api"
  api() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o "$out.answer" -w '%{time_total}\n'; }
  read -r start end < <(curl -sf -H "X-Ocelotl-Token: $token" "$base/traces" | python3 -c '
import json,sys
t=[t for t in json.load(sys.stdin)["traces"] if t["id"]=="'"$id"'"][0]
print(t["start"], t["end"])')
  local mid; mid=$(python3 -c "print(round(($start + $end) / 2, 6))")
  local to1; to1=$(python3 -c "print($mid + 1)")
  local q="trace=$id&aggregation=spatiotemporal&view=mode&slices=100&depth=0"
  # As the page asks: first the exact default p and its partition (progressive=1), then the curves.
  printf '%-52s %6.0f ms\n' "first exact spatiotemporal overview, as the page asks" \
    "$(api "overview?$q&progressive=1" | awk '{print $1*1000}')"
  printf '%-52s %6.0f ms\n' "then its breakpoints and curves (the full answer)" "$(api "overview?$q" | awk '{print $1*1000}')"
  # New p: the breakpoints of the answer just computed, as the page's p slider moves through them.
  local ps; ps=$(python3 -c "
import json; a=json.load(open('$out.answer')); b=[x['p'] for x in a['breakpoints']]
print(' '.join(str(b[i]) for i in range(0, len(b), max(1, len(b)//6))[:6]))")
  local times=""
  for p in $ps; do times="$times$(api "overview?$q&p=$p" | awk '{print $1*1000}')"$'\n'; done
  printf '%-52s %6.0f ms (median of %d)\n' "a new p" "$(echo -n "$times" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" "$(echo -n "$times" | wc -l)"
  local z0; z0=$(python3 -c "print(round($start + ($end - $start) * 0.35, 6))")
  local z1; z1=$(python3 -c "print(round($start + ($end - $start) * 0.6, 6))")
  printf '%-52s %6.0f ms\n' "a zoom on [35 %, 60 %) of the run, as the page asks" \
    "$(api "overview?$q&start=$z0&end=$z1&progressive=1" | awk '{print $1*1000}')"
  details "the Gantt chart of 1 s × all ranks (1600×900)" "gantt?trace=$id&from=$mid&to=$to1&width=1600&height=900"
  details "an events page (100 longest of 1 s)" "events?trace=$id&from=$mid&to=$to1&sort=-duration&limit=100"
  details "the statistics of 1 s" "stats?trace=$id&from=$mid&to=$to1"
  echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
  kill $server 2>/dev/null; wait $server 2>/dev/null || true
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -f "$out" "$out.err" "$out.answer"
}

details() { # LABEL QUERY: the first call, then the median of 5
  local first; first=$(api "$2" | awk '{print $1*1000}')
  local times; times=$(for _ in 1 2 3 4 5; do api "$2"; done | sort -n | sed -n 3p | awk '{print $1*1000}')
  printf '%-52s first %6.0f ms, then median %6.0f ms\n' "$1" "$first" "$times"
}

if [ -n "${TRACE:-}" ]; then
  run "$TRACE" ""
  exit
fi
for states in ${STATES:-20000000 200000000}; do
  trace="$dir/seed-$states.trace"
  if [ ! -f "$trace" ]; then
    echo "writing $trace…" >&2
    java -cp "$here/ocelotl-trace/target/test-classes" org.ocelotl.testing.SeedTrace "$trace" "$states" >&2
  fi
  run "$trace" "$((states / 2304 * 2304))" # whole iterations of 3 states × 768 ranks
done
