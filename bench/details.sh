#!/usr/bin/env bash
# Details-on-demand benchmark (not a test): the Gantt chart, the event table and the statistics
# of a trace served by `ocelotl view`, asked over HTTP as the web UI asks for them. The first
# request of each kind in a fresh server is timed on its own ("first"), then each request is sent
# 2 times to warm up and 7 times measured: the median and slowest wall time (`curl`), and the
# server's CPU time per request (its utime + stime over the 7, from /proc), which the load of a
# shared machine does not inflate as it does the wall time.
#
#   TRACE=/work/gen/seed.trace WORKSPACE=/work/gen/ws bench/details.sh   # a workspace that has it
#   LARGE_DIR=/work/large bench/details.sh      # the large SimGrid trace (bench/import.sh makes it)
#   JAR=/tmp/before.jar … bench/details.sh      # another build, for a paired run
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${TRACE:-${LARGE_DIR:-/work/large}/smpi_large.trace}
[ -f "$trace" ] || { echo "no $trace: give TRACE, or run bench/import.sh (it generates the large traces)" >&2; exit 1; }
port=${PORT:-8777}
. "$here/bench/serve.sh"
hz=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; } # the server's user + system ticks
get() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o "$work/answer" -w '%{time_total}\n'; }
ms() { awk '{printf "%.0f", $1 * 1000}'; }
measure() { # NAME QUERY
  local first c0 c1 times
  first=$(get "$2" | ms)
  for _ in 1 2; do get "$2" > /dev/null; done
  c0=$(cpu)
  times=$(for _ in $(seq 7); do get "$2"; done | sort -n)
  c1=$(cpu)
  printf '%-46s first %6s ms  median %6s ms  max %6s ms  CPU %5.0f ms  %s bytes\n' "$1" "$first" \
    "$(echo "$times" | sed -n 4p | ms)" "$(echo "$times" | tail -1 | ms)" \
    "$(echo "$c0 $c1" | awk -v hz="$hz" '{print ($2 - $1) * 1000 / hz / 7}')" "$(stat -c %s "$work/answer")"
}
curl -sf -H "X-Ocelotl-Token: $token" "$base/traces/$id" > "$work/trace.json"
curl -sf -H "X-Ocelotl-Token: $token" "$base/traces/$id/producers" > "$work/producers.json"
read -r start end leaves ranks <<< "$(python3 -c '
import json
t = json.load(open("'"$work/trace.json"'"))
ps = json.load(open("'"$work/producers.json"'"))["producers"]
parents = {p["parent"] for p in ps}
leaves = [p["path"] for p in ps if p["id"] not in parents]
print(t["start"], t["end"], len(leaves), "%7C".join(leaves[:16]))')"
mid=$(python3 -c "print(round(($start + $end) / 2, 3))")
to1=$(python3 -c "print($mid + 1)")
echo "trace $(basename "$trace"): [$start, $end), $leaves leaves; 1 s window [$mid, $to1)"
# The page's Gantt chart: an SVG of the details box's width and 420 pixels.
w1=$(python3 -c "print('from=$mid&to=$to1')")
measure "Gantt SVG 1200×420, 1 s × all producers" "gantt?trace=$id&$w1&format=svg&width=1200&height=420"
measure "Gantt JSON 1600×900, 1 s × all producers" "gantt?trace=$id&$w1&width=1600&height=900"
measure "Gantt SVG 1200×420, whole run × 16 leaves" "gantt?trace=$id&producers=$ranks&format=svg&width=1200&height=420"
measure "events, 100 longest of 1 s" "events?trace=$id&$w1&kind=state&sort=-duration&limit=100"
measure "events, 100 longest of the whole run" "events?trace=$id&kind=state&sort=-duration&limit=100"
measure "events, page 3 of the whole run by start" "events?trace=$id&kind=state&sort=start&offset=200&limit=100"
measure "stats of 1 s, by producer, top 10 (the page)" "stats?trace=$id&$w1&by=producer&top=10"
measure "stats of 1 s, by type" "stats?trace=$id&$w1&by=type"
echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
