#!/usr/bin/env bash
# Ocelotl against lpaggreg (the original tool's C++ library), end to end, paired in one run
# (issue 18, item 3; not a test). lpaggreg is not part of this repository: build it at c652bfe, the
# commit the original Ocelotl pinned, with the driver bench/lpaggreg/driver-c652bfe.cpp (its
# comment says how), which reads a model CSV (and a tree CSV), computes the qualities and searches
# p by bisection to 0.001 as the original did, and prints "N partitions …", then:
#
#   LPAGGREG="/work/lpaggreg-c652bfe/driver-O1 /work/lpaggreg-c652bfe/driver-O2" bench/lpaggreg.sh
#   RUNS=5 CASES="t100x700" LPAGGREG=… bench/lpaggreg.sh   # fewer cases, other run count
#
# Cases (seeded uniform values, as the issue's): t1000x100 = temporal, 1000 slices × 100
# producers × 10 types; st720x30 = spatiotemporal, 720 leaves (3 clusters × 30 machines × 8
# cores) × 30 slices × 10 types; t100x700 = temporal, 100 slices × 700 producers × 10 types.
# Each run alternates the tools in turn: ocelotl on the CSV, ocelotl on the binary .ocm, then
# each lpaggreg driver; medians of RUNS wall-clock and CPU (user + system) seconds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=${JAR:-$here/ocelotl-app/target/ocelotl.jar}
[ -f "$jar" ] || (cd "$here" && mvn -q -B -DskipTests -pl ocelotl-app -am package) >&2
: "${LPAGGREG:?set LPAGGREG to one or more lpaggreg driver executables}"
runs=${RUNS:-5}
cases=${CASES:-t1000x100 st720x30 t100x700}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() { # name slices leaves tree?
  python3 - "$work/$1" "$2" "$3" "$4" <<'PY'
import random, sys
out, slices, leaves, tree = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "tree"
rnd = random.Random(2024)
names = [f"c{c}m{m}k{k}" for c in range(3) for m in range(30) for k in range(8)] if tree else [f"p{p}" for p in range(leaves)]
with open(out + ".csv", "w") as f:
    f.write("producer,slice,type,value\n")
    for p in names:
        for s in range(slices):
            for t in range(10):
                f.write(f"{p},{s},u{t},{rnd.random()!r}\n")
if tree:
    with open(out + ".tree.csv", "w") as f:
        f.write("producer,parent\nroot,\n")
        for c in range(3):
            f.write(f"c{c},root\n")
            for m in range(30):
                f.write(f"c{c}m{m},c{c}\n")
                for k in range(8):
                    f.write(f"c{c}m{m}k{k},c{c}m{m}\n")
PY
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # label command…: appends "wall cpu" to $work/label.times and keeps the output
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > "$work/$label.out" 2>/dev/null
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/time" >> "$work/$label.times"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs; jar $jar"
for c in $cases; do
  case $c in
    t1000x100) generate "$c" 1000 100 flat; mode=temporal; tree=() ;;
    st720x30) generate "$c" 30 720 tree; mode=spatiotemporal; tree=("$work/$c.tree.csv") ;;
    t100x700) generate "$c" 100 700 flat; mode=temporal; tree=() ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  java -cp "$jar" "$here/bench/ToBinary.java" "$work/$c.csv" "${tree[@]}" "$work/$c.ocm"
  treeopt=(); [ ${#tree[@]} -eq 0 ] || treeopt=(--tree "${tree[0]}")
  rm -f "$work"/*.times
  for _ in $(seq "$runs"); do
    timed csv java -Xmx2g -jar "$jar" aggregate --mode "$mode" --model "$work/$c.csv" "${treeopt[@]}"
    timed ocm java -Xmx2g -jar "$jar" aggregate --mode "$mode" --model "$work/$c.ocm"
    i=0
    for driver in $LPAGGREG; do
      timed "lp$i" "$driver" "$mode" "$work/$c.csv" "${tree[@]}"
      i=$((i + 1))
    done
  done
  parts=$(grep -c '^[0-9]' "$work/ocm.out" || true)
  echo "$c ($mode), load $(cut -d' ' -f1-3 /proc/loadavg): ocelotl finds $parts partitions (exact breakpoints)"
  for label in csv ocm; do
    echo "  ocelotl $label: wall $(cut -d' ' -f1 "$work/$label.times" | median) s, cpu $(cut -d' ' -f2 "$work/$label.times" | median) s"
  done
  i=0
  for driver in $LPAGGREG; do
    echo "  lpaggreg $(basename "$driver"): wall $(cut -d' ' -f1 "$work/lp$i.times" | median) s, cpu $(cut -d' ' -f2 "$work/lp$i.times" | median) s; $(grep -o '[0-9]* partitions.*' "$work/lp$i.out")"
    i=$((i + 1))
  done
done
