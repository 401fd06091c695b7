#!/usr/bin/env bash
# Import benchmark (not a test): imports the large SimGrid SMPI traces (~1e7 events, ~300 MB
# each) with `ocelotl import` under -Xmx1g and runs `pj_dump -q` on the flat one in the same
# run, printing events/s, MB/s and peak memory (/usr/bin/time -v) side by side.
#
#   LARGE_DIR=/work/large bench/import.sh
#   JAR=/tmp/before.jar LARGE_DIR=/work/large bench/import.sh   # another build, e.g. to compare two
#
# LARGE_DIR holds smpi_large.trace and smpi_large_flat.trace; when they are missing they are
# generated there (LARGE=1 gen_simgrid_smpi.sh, ~2 min and ~10 GB of memory for SimGrid),
# installing the Debian packages libsimgrid-dev and pajeng first if needed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${LARGE_DIR:-/work/large}
gen=${GEN_SCRIPT:-$here/../shared/traces/gen/simgrid-smpi/gen_simgrid_smpi.sh}
[ -f "$gen" ] || gen=/work/shared/traces/gen/simgrid-smpi/gen_simgrid_smpi.sh
heap=${OCELOTL_HEAP:--Xmx1g}

need_package() { # command package
  command -v "$1" >/dev/null 2>&1 && return
  echo "installing $2 (for $1)…" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y "$2" >&2; else sudo apt-get install -y "$2" >&2; fi
}
need_package pj_dump pajeng
[ -x /usr/bin/time ] || need_package /usr/bin/time time
if [ ! -f "$dir/smpi_large.trace" ] || [ ! -f "$dir/smpi_large_flat.trace" ]; then
  need_package smpicc libsimgrid-dev
  mkdir -p "$dir"
  echo "generating the large traces into $dir (a few minutes)…" >&2
  LARGE=1 OUT="$dir" sh "$gen" >&2
fi

jar=${JAR:-$here/ocelotl-app/target/ocelotl.jar}
if [ -z "${JAR:-}" ] && [ ! -f "$jar" ]; then
  (cd "$here" && mvn -q -B -DskipTests package) >&2
fi
[ -f "$jar" ] || { echo "no jar at $jar" >&2; exit 1; }
echo "jar: $jar" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME COMMAND…: prints "NAME seconds peak_kB"
measure() {
  local name=$1; shift
  /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" || {
    echo "$name failed:" >&2; cat "$work/err.txt" >&2; exit 1; }
  local wall peak
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt" \
    | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
  peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
  echo "$wall $peak"
}

records_of() { # total records of the store, from info --json
  java -jar "$jar" info --workspace "$work/ws" "$1" --json \
    | awk -F': ' '/"(states|events|variables|links)"/ {gsub(",", "", $2); s += $2} END {print s}'
}

lines_of() { grep -vc '^[%#]' "$1" || true; }

printf '%-46s %10s %12s %10s %12s\n' "run" "seconds" "events/s" "MB/s" "peak MB"
row() { # label seconds peak_kB events bytes
  awk -v l="$1" -v s="$2" -v p="$3" -v e="$4" -v b="$5" \
    'BEGIN { printf "%-46s %10.2f %12.0f %10.1f %12.0f\n", l, s, e / s, b / s / 1e6, p / 1024 }'
}

for trace in smpi_large_flat.trace smpi_large.trace; do
  file="$dir/$trace"
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null # same page-cache state for every run
  read -r secs peak < <(measure "ocelotl import" java $heap -jar "$jar" import --workspace "$work/ws" "$file")
  events=$(lines_of "$file")
  row "ocelotl import $trace ($heap)" "$secs" "$peak" "$events" "$bytes"
  echo "  ($events event lines in, $(records_of "$file") records stored)"
  if [ "$trace" = smpi_large_flat.trace ]; then
    read -r psecs ppeak < <(measure "pj_dump" pj_dump -q "$file")
    row "pj_dump -q $trace" "$psecs" "$ppeak" "$events" "$bytes"
    awk -v a="$psecs" -v b="$secs" 'BEGIN { printf "throughput ratio ocelotl / pj_dump: %.2f×\n", a / b }'
  fi
done
echo "(events/s: the trace's event lines per second for both tools; a state is two lines, push and pop, one record)"
