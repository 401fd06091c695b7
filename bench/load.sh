#!/usr/bin/env bash
# The server under load (docs/reliability.md, "Load and memory"): starts `./ocelotl view` on the
# bundled trace through the launcher (so with its default heap policy), runs bench/Load.java with
# CLIENTS clients × REQUESTS requests each, and prints the server's resident memory (VmRSS) before,
# right after the load, and after IDLE seconds idle. PLAIN=1 starts the jar with the JVM's defaults
# instead (the launcher before its heap policy), for comparison; JAR=FILE then runs another build.
# Usage: [PLAIN=1] bench/load.sh [CLIENTS] [REQUESTS] [IDLE]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
clients=${1:-100}; requests=${2:-20}; idle=${3:-30}
work=$(mktemp -d)
if [ "${PLAIN:-0}" = 1 ]; then start=(java -jar "${JAR:-$here/ocelotl-app/target/ocelotl.jar}"); else start=("$here/ocelotl"); fi
"${start[@]}" view --workspace "$work/ws" --port 0 "$here/examples/smpi_perturbed.trace.gz" > "$work/out" 2> "$work/err" &
launcher=$!
trap 'kill $launcher 2>/dev/null; wait $launcher 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do grep -q '^http' "$work/out" 2>/dev/null && break; sleep 0.5; done
url=$(grep -m1 "^http" "$work/out")
token=${url#*token=}; token=${token%%&*}
id=${url##*trace=}
port=${url#http://127.0.0.1:}; port=${port%%/*}
rss() { awk '/VmRSS/ {printf "%.0f MB", $2 / 1024}' "/proc/$launcher/status"; }
echo "RSS after start: $(rss)"
java "$here/bench/Load.java" "http://127.0.0.1:$port/api" "$token" "$id" "$clients" "$requests"
echo "RSS right after the load: $(rss)"
sleep "$idle"
echo "RSS after ${idle} s idle: $(rss)"
