#!/usr/bin/env bash
# Model file benchmark (not a test): the seeded random model of lpaggreg's comparison
# (700 producers × 100 slices × 10 types, uniform values; 700,000 lines), read and written by
# ModelCsv (MB/s, median of 7 in one JVM), then written and read as a binary .ocm the same way
# (builds that have it); `ocelotl aggregate --mode temporal` on each file end to end (median of 5
# runs, JVM start included) beside the JVM start alone (`ocelotl --version`, which builds every
# subcommand, and `ocelotl aggregate --help`, which builds one).
#
#   bench/model_io.sh                  # this build
#   JAR=/tmp/other.jar bench/model_io.sh   # another build, for a before/after pair
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=${JAR:-$here/ocelotl-app/target/ocelotl.jar}
[ -f "$jar" ] || (cd "$here" && mvn -q -B -DskipTests package) >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/model.csv" <<'PY'
import random, sys
rnd = random.Random(2024)
with open(sys.argv[1], "w") as f:
    f.write("producer,slice,type,value\n")
    for p in range(700):
        for s in range(100):
            for t in range(10):
                f.write(f"p{p},{s},u{t},{rnd.random()!r}\n")
PY
echo "model: $(wc -l < "$work/model.csv") lines, $(( $(stat -c %s "$work/model.csv") / 1000000 )) MB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g -cp "$jar" "$here/bench/ModelIo.java" "$work/model.csv" "$work/model.ocm"
# Wall and CPU (user + system) seconds of each command, medians of 5, the commands taken in turn.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # label command…
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > /dev/null 2>&1
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/time" >> "$work/$label.times"
}
for _ in 1 2 3 4 5; do
  timed version java -jar "$jar" --version
  timed help java -jar "$jar" aggregate --help
  timed csv java -Xmx2g -jar "$jar" aggregate --mode temporal --model "$work/model.csv"
  [ ! -f "$work/model.ocm" ] || timed ocm java -Xmx2g -jar "$jar" aggregate --mode temporal --model "$work/model.ocm"
done
for label in version help csv ocm; do
  [ -f "$work/$label.times" ] || continue
  echo "$label: wall $(cut -d' ' -f1 "$work/$label.times" | median) s, cpu $(cut -d' ' -f2 "$work/$label.times" | median) s"
done
echo "(version = ocelotl --version, help = ocelotl aggregate --help: JVM start; csv, ocm = aggregate --mode temporal"
echo " on the model file, end to end; medians of 5, in turn); load average after $(cut -d' ' -f1-3 /proc/loadavg)"
