#!/usr/bin/env bash
# The statistics and the Gantt chart of one window through the web UI's API (issue 28; not a test):
# a server on an imported workspace (`java -jar JAR view`), then each request's first call and the
# median of 5 more, its answer kept in OUT (to compare two builds' bytes with cmp).
#
#   bench/window_details.sh JAR LABEL WORKSPACE TRACE [FROM TO] [OUT]
#   bench/window_details.sh ocelotl-app/target/ocelotl.jar after /work/seedme/ws2e8 /work/seed/seed-2e8.paje 5 6
set -euo pipefail
jar=$1 label=$2 workspace=$3 trace=$4 from=${5:-5} to=${6:-6} keep=${7:-/tmp}
port=$((18000 + RANDOM % 1000)) out=$(mktemp)
java -jar "$jar" view --workspace "$workspace" --port $port "$trace" > "$out" 2> "$out.err" &
server=$!
for _ in $(seq 600); do grep -q '^http' "$out" 2>/dev/null && break; sleep 0.5; done
url=$(grep -m1 '^http' "$out"); token=${url#*token=}; token=${token%%&*}; id=${url##*trace=}
api() { curl -sf -H "X-Ocelotl-Token: $token" "http://127.0.0.1:$port/api/$1" -o "$2" -w '%{time_total}\n'; }
i=0
for q in "stats?trace=$id&from=$from&to=$to" "gantt?trace=$id&from=$from&to=$to&width=1600&height=900" \
    "stats?trace=$id&from=$from&to=$to&by=producer&top=10"; do
  i=$((i + 1))
  first=$(api "$q" "$keep/$label.$i.json" | awk '{print $1 * 1000}')
  median=$(for _ in 1 2 3 4 5; do api "$q" "$keep/$label.$i.again.json"; done | sort -n | sed -n 3p | awk '{print $1 * 1000}')
  cmp -s "$keep/$label.$i.json" "$keep/$label.$i.again.json" || echo "$label: answer $i differs between calls"
  echo "$label ${q%%\?*} $(echo "$q" | grep -o 'by=producer' || true) first $first ms, median $median ms (load $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "$label server peak RSS $(grep VmHWM /proc/$server/status | awk '{print $2 / 1024}') MB"
kill $server; wait $server 2>/dev/null || true; rm -f "$out" "$out.err"
