#!/usr/bin/env bash
# Spatiotemporal first view benchmark (not a test): serves TRACE with `ocelotl view` and asks the
# API what the web UI asks when the spatiotemporal view is chosen at N = 100 — the provisional
# answer (`progressive=1`: the partition at a provisional p, one dynamic programme) and then the
# full answer (every breakpoint, the default p) — then the same for two zooms. Model caches start
# empty (a fresh workspace), so the first request includes the import and the first the scan.
# Prints each time and the server's peak RSS.
#
#   bench/first_view.sh                                   # the bundled trace
#   TRACE=/work/large/smpi_large.trace bench/first_view.sh
#   JAR=/tmp/before.jar bench/first_view.sh               # another build, for a paired run
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${TRACE:-$here/examples/smpi_perturbed.trace.gz}
port=${PORT:-8779}
. "$here/bench/serve.sh"
api() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o "$work/answer" -w '%{time_total}\n' | awk '{printf "%.2f s", $1}'; }
range=$(curl -sf -H "X-Ocelotl-Token: $token" "$base/traces" | python3 -c '
import json,sys
t=[t for t in json.load(sys.stdin)["traces"] if t["id"]=="'"$id"'"][0]
print(t["start"], t["end"])')
read -r start end <<< "$range"
q="trace=$id&aggregation=spatiotemporal&view=mode&slices=100"
show() { # what, query
  printf '%-34s provisional %s' "$1" "$(api "overview?$2&progressive=1")"
  printf ', full %s' "$(api "overview?$2")"
  python3 -c 'import json; a=json.load(open("'"$work/answer"'")); print(", %d breakpoints, %d parts" % (len(a["breakpoints"]), a["partCount"]))'
}
show "whole run (first view)" "$q"
for window in "0.25 0.55" "0.6 0.9"; do
  read -r a b <<< "$window"
  from=$(python3 -c "print(round($start + ($end - $start) * $a, 3))")
  to=$(python3 -c "print(round($start + ($end - $start) * $b, 3))")
  show "zoom [$from, $to)" "$q&start=$from&end=$to"
done
echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
