#!/usr/bin/env bash
# Model file benchmark (not a test): the seeded random model of lpaggreg's comparison
# (700 producers × 100 slices × 10 types, uniform values; 700,000 lines), read and written by
# ModelCsv (MB/s, median of 7 in one JVM), and `ocelotl aggregate --mode temporal` on it end to
# end (median of 5 runs, JVM start included) beside the JVM start alone (`ocelotl --version`).
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
java -Xmx2g -cp "$jar" "$here/bench/ModelIo.java" "$work/model.csv"
median() { sort -n | sed -n 3p; }
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
start=$(for _ in 1 2 3 4 5; do seconds java -jar "$jar" --version; done | median)
whole=$(for _ in 1 2 3 4 5; do seconds java -Xmx2g -jar "$jar" aggregate --mode temporal --model "$work/model.csv"; done | median)
echo "JVM start (ocelotl --version): $start s; aggregate --mode temporal, end to end: $whole s (medians of 5)"
