#!/usr/bin/env bash
# Details-on-demand benchmark (not a test): the Gantt chart and the event table of the large
# SimGrid trace (256 ranks, ~7 M records), served by `ocelotl view` over HTTP as the web UI
# asks for them. Each request is sent 3 times to warm up, then 9 times; prints the median and
# the slowest of the 9 in ms, and the server's peak RSS.
#
#   LARGE_DIR=/work/large bench/details.sh     # generate the trace first with bench/import.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${LARGE_DIR:-/work/large}/smpi_large.trace
[ -f "$trace" ] || { echo "no $trace: run bench/import.sh first (it generates the large traces)" >&2; exit 1; }
jar="$here/ocelotl-app/target/ocelotl.jar"
[ -f "$jar" ] || (cd "$here" && mvn -q -B -DskipTests package) >&2
work=$(mktemp -d)
port=${PORT:-8777}
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
java -Xmx2g -jar "$jar" view --workspace "$work/ws" --port "$port" "$trace" > "$work/out" 2> "$work/err" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do grep -q '^http' "$work/out" 2>/dev/null && break; sleep 0.5; done
url=$(head -1 "$work/out")
token=${url#*token=}; token=${token%%&*}
id=${url##*trace=}
base="http://127.0.0.1:$port/api"
api() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o /dev/null -w '%{time_total}\n'; }
# Ranks 0–15 (the first 16 of 256): names as the store holds them.
ranks=$(seq -s '%7C' -f 'rank-%g' 0 15) # '|' URL-encoded
measure() { # NAME QUERY
  for _ in 1 2 3; do api "$2" > /dev/null; done
  times=$(for _ in $(seq 9); do api "$2"; done | sort -n)
  printf '%-48s median %6.0f ms  max %6.0f ms\n' "$1" "$(echo "$times" | sed -n 5p | awk '{print $1*1000}')" \
    "$(echo "$times" | tail -1 | awk '{print $1*1000}')"
}
range=$(curl -sf -H "X-Ocelotl-Token: $token" "$base/traces" | python3 -c '
import json,sys
t=[t for t in json.load(sys.stdin)["traces"] if t["id"]=="'"$id"'"][0]
print(t["start"], t["end"])')
read -r start end <<< "$range"
mid=$(python3 -c "print(($start + $end) / 2)")
to1=$(python3 -c "print($mid + 1)")
measure "gantt, 1 s × all ranks (1600×900)" "gantt?trace=$id&from=$mid&to=$to1&width=1600&height=900"
measure "gantt, whole run × 16 ranks (1600×900)" "gantt?trace=$id&producers=$ranks&width=1600&height=900"
measure "events, 100 longest of the whole run" "events?trace=$id&sort=-duration&limit=100"
measure "events, 100 longest of 1 s" "events?trace=$id&from=$mid&to=$to1&sort=-duration&limit=100"
echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
