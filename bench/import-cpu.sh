#!/usr/bin/env bash
# CPU of `ocelotl import` on one core, per thread, for builds compared on a shared machine (not a
# test): wall time there follows the other jobs, CPU seconds much less. Imports the large flat
# SimGrid trace with each jar in turn, RUNS times, all pinned to core 0, then `pj_dump -q`, and
# prints for each: wall, process CPU (user + sys), the CPU of the reading thread ("main", whose
# Linux name is "java"), of the file's read-ahead thread (0 for builds without one), of the store
# writer and of the JIT compilers, read from /proc/PID/task/*/stat every 20 ms (the last 20 ms are
# missed), and the 1-minute load average.
#
#   bench/import-cpu.sh RUNS before.jar after.jar …
#
# LARGE_DIR holds smpi_large_flat.trace (bench/import.sh generates it when missing).
set -euo pipefail
runs=$1; shift
trace=${LARGE_DIR:-/work/large}/smpi_large_flat.trace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tick=$(getconf CLK_TCK)

# import JAR: one pinned import, its figures on one line
import() {
  rm -rf "$work/ws"; : > "$work/stat"
  /usr/bin/time -o "$work/time" -f "%e %U %S" taskset -c 0 java -Xmx1g -jar "$1" import \
    --workspace "$work/ws" "$trace" >/dev/null 2>"$work/err" &
  local timer=$! java=""
  while [ -z "$java" ] && kill -0 $timer 2>/dev/null; do java=$(pgrep -P $timer || true); done
  while [ -n "$java" ] && kill -0 "$java" 2>/dev/null; do
    for task in /proc/"$java"/task/*; do
      stat=$(cat "$task/stat" 2>/dev/null) && echo "${task##*/} $stat" >> "$work/stat"
    done
    sleep 0.02
  done
  wait $timer || { cat "$work/err" >&2; exit 1; }
  read -r wall user sys < "$work/time"
  # Last sample per thread: utime and stime are fields 14 and 15, counted after the "(name)".
  threads=$(sed -E 's/^([0-9]+) [0-9]+ \((.*)\) /\1|\2|/' "$work/stat" | awk -F'|' -v tick="$tick" '
    { split($3, f, " "); cpu[$1] = (f[12] + f[13]) / tick; name[$1] = $2 }
    END {
      for (t in cpu) {
        n = name[t] == "java" ? "reader" : name[t] ~ /^C2 / ? "C2" : name[t] ~ /^C1 / ? "C1" \
          : name[t] ~ /^ocelotl-store/ ? "writer" : name[t] ~ /^ocelotl-read/ ? "ahead" : "other"
        sum[n] += cpu[t]
      }
      printf "reader %.2f ahead %.2f writer %.2f C2 %.2f C1 %.2f", sum["reader"], sum["ahead"], sum["writer"], \
        sum["C2"], sum["C1"]
    }')
  awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "wall %5.2f cpu %5.2f", w, u + s }'
  echo "  $threads"
}

for run in $(seq "$runs"); do
  for jar in "$@"; do
    printf '%-28s ' "$(basename "$jar")"
    line=$(import "$jar")
    echo "$line  load $(cut -d' ' -f1 /proc/loadavg)"
  done
  /usr/bin/time -o "$work/time" -f "%e %U %S" taskset -c 0 pj_dump -q "$trace" >/dev/null
  read -r wall user sys < "$work/time"
  printf '%-28s ' "pj_dump -q"
  awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "wall %5.2f cpu %5.2f", w, u + s }'
  echo "  load $(cut -d' ' -f1 /proc/loadavg)"
done
