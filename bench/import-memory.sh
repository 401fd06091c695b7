#!/usr/bin/env bash
# Peak memory of the CTF and OTF2 imports (issue 28, item 2; not a test): the peak resident set
# (/usr/bin/time's maximum RSS) of `java -jar ocelotl.jar import` on a recorded LTTng trace of
# 4 threads × CALLS calls (2.4 M records at 100,000), a Score-P-style OTF2 archive of ITERATIONS
# iterations (990,000 records at 22,000) and the largest shared traces, beside the JVM doing nothing
# (the floor) and babeltrace2 / otf2-print reading the same traces, at each heap of HEAPS ("" is
# the JVM's default: a quarter of the machine's memory).
#
#   bench/import-memory.sh                            # this worktree's jar
#   JAR=/tmp/before.jar bench/import-memory.sh        # another build
#   HEAPS="-Xmx64m" CALLS=1000000 bench/import-memory.sh
#
# The generated traces go to $WORK (default /tmp/ocelotl-import-memory) and are kept; they need
# lttng-tools, liblttng-ust-dev, gcc and python3-otf2 (scripts/install-test-deps installs them).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=${JAR:-$here/ocelotl-app/target/ocelotl.jar}
work=${WORK:-/tmp/ocelotl-import-memory}
calls=${CALLS:-100000}
iterations=${ITERATIONS:-22000}
traces=${OCELOTL_TRACES:-$(cd "$here/../shared/traces" 2>/dev/null && pwd || echo /work/shared/traces)}
read -r -a heaps <<< "${HEAPS:-"default -Xmx128m -Xmx64m"}"
[ -f "$jar" ] || (cd "$here" && mvn -B -q -pl ocelotl-app -am package -DskipTests)
mkdir -p "$work"
lttng_dir=$work/lttng-4x$calls
[ -d "$lttng_dir" ] || "$here/scripts/gen-lttng-trace" "$lttng_dir" "$calls" 4 >/dev/null
otf2_dir=$work/otf2-$iterations
[ -d "$otf2_dir" ] || "$here/scripts/gen-otf2-trace" "$otf2_dir" "$iterations"
ctf_big=$(find "$lttng_dir" -name metadata | head -1)

rss() { # label command...: prints the peak RSS in MB, or the failure
  local out=$work/time.txt
  if /usr/bin/time -f "%M" -o "$out" "${@:2}" >/dev/null 2>"$work/out.txt"; then
    printf '%-60s %5d MB\n' "$1" $(( $(tail -1 "$out") / 1024 ))
  else
    printf '%-60s failed: %s\n' "$1" "$(grep -v '^Command exited' "$work/out.txt" | tail -1)"
  fi
}

echo "load: $(uptime)"
cat > "$work/Idle.java" <<'JAVA'
public class Idle { public static void main(String[] a) throws Exception { Thread.sleep(1000); } }
JAVA
javac -d "$work" "$work/Idle.java"
for heap in "${heaps[@]}"; do
  opt=(); [ "$heap" = default ] || opt=("$heap")
  rss "JVM doing nothing, $heap" java "${opt[@]}" -cp "$work" Idle
  for trace in "$ctf_big" "$otf2_dir/traces.otf2" "$traces/ctf/ust-trace/ust/uid/0/64-bit/metadata" \
      "$traces/otf2/ez_mpi4/eztrace_log.otf2"; do
    rm -rf "$work/ws"
    rss "import ${trace#"$work/"}, $heap" java "${opt[@]}" -jar "$jar" import --workspace "$work/ws" "$trace"
  done
done
command -v babeltrace2 >/dev/null && rss "babeltrace2 ${ctf_big#"$work/"}" babeltrace2 "$(dirname "$ctf_big")"
command -v otf2-print >/dev/null && rss "otf2-print ${otf2_dir#"$work/"}" otf2-print "$otf2_dir/traces.otf2"
rm -rf "$work/ws"
