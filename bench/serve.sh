# Sourced by the API benchmarks: starts `ocelotl view` on $trace with the jar $JAR (default: this
# build) on $PORT, and sets work (a temporary directory, removed at exit), server (its pid), token,
# id (the trace's) and base (the API's URL). WORKSPACE: a workspace to reuse (default: a fresh one).
jar=${JAR:-$here/ocelotl-app/target/ocelotl.jar}
[ -f "$jar" ] || (cd "$here" && mvn -q -B -DskipTests package) >&2
work=$(mktemp -d)
echo "load average before: $(cut -d" " -f1-3 /proc/loadavg)"
java -Xmx4g ${JAVA_OPTS:-} -jar "$jar" view --workspace "${WORKSPACE:-$work/ws}" --port "$port" "$trace" > "$work/out" 2> "$work/err" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
# the first start imports the trace: up to 10 minutes for a large one
for _ in $(seq 1200); do grep -q '^http' "$work/out" 2>/dev/null && break; sleep 0.5; done
url=$(grep -m1 "^http" "$work/out")
token=${url#*token=}; token=${token%%&*}
id=${url##*trace=}
base="http://127.0.0.1:$port/api"
