#!/usr/bin/env bash
# Zoom benchmark (not a test): temporal overviews at N = 1000 of the large SimGrid trace
# (256 ranks, ~7 M records) served by `ocelotl view` over HTTP, as the web UI asks for them:
# the whole run once, then 9 zooms onto different windows (each a new model and a new analysis,
# as a user's zooms are; exact models, scanned from the store). Prints each zoom's time, their
# median, and the server's peak RSS.
#
#   LARGE_DIR=/work/large bench/zoom.sh          # generate the trace first with bench/import.sh
#   JAR=/tmp/other.jar WORKSPACE=/work/ws bench/zoom.sh   # another build; a workspace with the trace imported
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${LARGE_DIR:-/work/large}/smpi_large.trace
[ -f "$trace" ] || { echo "no $trace: run bench/import.sh first (it generates the large traces)" >&2; exit 1; }
port=${PORT:-8778}
. "$here/bench/serve.sh"
api() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o /dev/null -w '%{time_total}\n'; }
range=$(curl -sf -H "X-Ocelotl-Token: $token" "$base/traces" | python3 -c '
import json,sys
t=[t for t in json.load(sys.stdin)["traces"] if t["id"]=="'"$id"'"][0]
print(t["start"], t["end"])')
read -r start end <<< "$range"
q="trace=$id&aggregation=temporal&view=stacked&slices=1000"
printf 'whole run, N = 1000 (first view)   %6.0f ms\n' "$(api "overview?$q" | awk '{print $1*1000}')"
times=""
for i in $(seq 0 8); do
  from=$(python3 -c "print(round($start + ($end - $start) * (0.1 + 0.07 * $i), 3))")
  to=$(python3 -c "print(round($from + ($end - $start) * 0.2, 3))")
  t=$(api "overview?$q&start=$from&end=$to" | awk '{print $1*1000}')
  printf 'zoom [%s, %s), N = 1000          %6.0f ms\n' "$from" "$to" "$t"
  times="$times$t"$'\n'
done
echo "zoom median: $(echo -n "$times" | sort -n | sed -n 5p) ms"
echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
