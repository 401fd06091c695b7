#!/usr/bin/env bash
# The first Gantt chart a user asks of a running server (issue 28, decision 063; not a test). For
# each build given, in turn and ROUNDS times alternated, a fresh `ocelotl view` on an imported
# workspace, then:
#   chart   — after the requests the page makes as it loads (session, vocabulary, traces; not its
#             overview, which would warm some of the chart's code: the figure is the harder one), and
#             WAIT seconds (the page loading, the overview looked at), the page's Gantt SVG of
#             [FROM, TO) (kinds state|event|link, 1200 × 420 px, as details.js asks it): the first
#             call's wall time (curl) and the server's CPU during it (/proc, 10 ms ticks), then the
#             median of 5 more; and the server's CPU while it waited (the warm-up's cost);
#   answers — right after the start (the warm-up under way), the server's first answers: the page's
#             first three requests, then the statistics of [FROM, TO) by producer (the page's),
#             START_DELAY seconds after the URL is printed (default 0; 1 lands in the warm-up's
#             first step, its longest).
# ONLY=answers skips the charts, ONLY=chart the answers.
#
#   bench/gantt_first.sh WORKSPACE TRACE FROM TO LABEL=JAR[:JAVA_OPTIONS] …
#   ROUNDS=3 WAIT=5 bench/gantt_first.sh /tmp/ganttsummary-ws /work/seed/seed-2e8.paje 5 6 \
#     main=/tmp/main.jar off=ocelotl-app/target/ocelotl.jar:-Docelotl.warmUp=false on=ocelotl-app/target/ocelotl.jar
set -euo pipefail
workspace=$1 trace=$2 from=$3 to=$4
shift 4
hz=$(getconf CLK_TCK)
wait_s=${WAIT:-5}
start_server() { # JAR OPTIONS: sets server, base, token, id
  port=$((18000 + RANDOM % 1000)) out=$(mktemp)
  java -Xmx4g $2 -jar "$1" view --workspace "$workspace" --port $port "$trace" > "$out" 2> "$out.err" &
  server=$!
  for _ in $(seq 1200); do grep -q '^http' "$out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -m1 '^http' "$out"); token=${url#*token=}; token=${token%%&*}; id=${url##*trace=}
  base="http://127.0.0.1:$port/api"
  rm -f "$out" "$out.err"
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; }
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
# One request: "wall_ms cpu_ms bytes".
timed() {
  local c0 c1 wall
  c0=$(ticks)
  wall=$(curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o /tmp/gantt_first.answer -w '%{time_total}')
  c1=$(ticks)
  echo "$wall $c0 $c1 $(stat -c %s /tmp/gantt_first.answer)" | awk -v hz="$hz" '{printf "%.0f %.0f %d", $1 * 1000, ($3 - $2) * 1000 / hz, $4}'
}
# What the page asks as it loads before its overview (main.js), summed: "wall_ms cpu_ms bytes".
prelude() {
  local a b c
  a=$(timed session); b=$(timed vocabulary); c=$(timed traces)
  echo "$a $b $c" | awk '{print $1 + $4 + $7, $2 + $5 + $8, $9}'
}
chart="gantt?trace=ID&from=$from&to=$to&format=svg&kind=state%7Cevent%7Clink&width=1200&height=420"
stats="stats?trace=ID&from=$from&to=$to&by=producer&top=10"
for round in $(seq "${ROUNDS:-3}"); do
  for build in "$@"; do
    label=${build%%=*} spec=${build#*=}
    jar=${spec%%:*} opts=""
    [[ $spec == *:* ]] && opts=${spec#*:}
    if [ "${ONLY:-}" != answers ]; then
    start_server "$jar" "$opts"
    prelude >/dev/null
    c0=$(ticks); sleep "$wait_s"; c1=$(ticks)
    first=$(timed "${chart//ID/$id}")
    more=$(for _ in 1 2 3 4 5; do timed "${chart//ID/$id}"; echo; done)
    times=$(echo "$more" | sort -n -k1 | sed -n 3p) cpus=$(echo "$more" | sort -n -k2 | sed -n 3p)
    stop_server
    printf '%-6s round %d chart: first %s ms wall, %s ms CPU (%s bytes); median of 5: %s ms wall, %s ms CPU; idle %.0f ms CPU in %ss; load %s\n' \
      "$label" "$round" $(echo "$first" | cut -d' ' -f1-3) "$(echo "$times" | cut -d' ' -f1)" "$(echo "$cpus" | cut -d' ' -f2)" \
      "$(echo "$c0 $c1" | awk -v hz="$hz" '{print ($2 - $1) * 1000 / hz}')" "$wait_s" "$(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    [ "${ONLY:-}" = chart ] && continue
    start_server "$jar" "$opts"
    sleep "${START_DELAY:-0}"
    list=$(prelude); st=$(timed "${stats//ID/$id}")
    stop_server
    printf '%-6s round %d answers at the start: the page'"'"'s first three %s ms wall, %s ms CPU; stats %s ms wall, %s ms CPU; load %s\n' \
      "$label" "$round" $(echo "$list" | cut -d' ' -f1-2) $(echo "$st" | cut -d' ' -f1-2) "$(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
