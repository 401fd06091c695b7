#!/usr/bin/env bash
# A new p as the web page asks it (issue 28; not a test): serves TRACE with `ocelotl view`, asks
# for the spatiotemporal overview at N = 100 once (the breakpoints are then kept), then for
# ROUNDS × 12 breakpoints spread over the list, each as the page does: `progressive=1` first, then
# — only if that answer was provisional, or with TWICE=1 as the page did before issue 28 — the
# full request. Prints the median time per new p (all its requests), the server's CPU time per
# new p (from /proc, all threads), the answer's size, and an md5 of every answer (two builds must
# give the same bytes).
#
#   bench/new_p.sh                                    # the bundled trace, this build; 12 breakpoints spread over
#                                                     # the list: each far from the others (a click on the curves),
#                                                     # so its parts are not built ahead (issue 28's far p)
#   JAR=/tmp/before.jar TWICE=1 bench/new_p.sh        # another build, as its page asked
#   TRACE=/work/large/smpi_large.trace bench/new_p.sh
#   DEPTH=0 … bench/new_p.sh                          # every rank a leaf (the page: depth auto)
#   EACH=1 … bench/new_p.sh                           # also one line per new p asked
#   STEPS=6 PAUSE=1 bench/new_p.sh                    # as → and ← step, PAUSE s apart: up to STEPS breakpoints
#                                                     # above the default p one by one and back, then below and back
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${TRACE:-$here/examples/smpi_perturbed.trace.gz}
port=${PORT:-8781}
. "$here/bench/serve.sh"
q="trace=$id&aggregation=spatiotemporal&view=mode&slices=100&height=${HEIGHT:-600}${DEPTH:+&depth=$DEPTH}"
fetch() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o "$2" -w '%{time_total}'; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
fetch "overview?$q" "$work/full" > /dev/null
if [ -n "${STEPS:-}" ]; then # the breakpoints after the default one, one step at a time, then back
  ps=$(python3 -c 'import json; r=json.load(open("'"$work/full"'")); b=[x["p"] for x in r["breakpoints"]]
k=max(i for i in range(len(b)) if b[i] <= r["p"]); up=min('"$STEPS"', len(b) - 1 - k); down=min('"$STEPS"', k)
walk=list(range(k + 1, k + up + 1)) + list(range(k + up - 1, k - 1, -1)) + list(range(k - 1, k - down - 1, -1)) + list(range(k - down + 1, k + 1))
print(" ".join(repr(b[i]) for i in walk))')
else
  ps=$(python3 -c 'import json; b=json.load(open("'"$work/full"'"))["breakpoints"]
print(" ".join(repr(b[i]["p"]) for i in range(0, len(b), max(1, len(b) // 12))))')
fi
: > "$work/times"
for round in $(seq "${ROUNDS:-1}"); do
  for p in $ps; do
    sleep "${PAUSE:-0}"
    before=$(cpu)
    t=$(fetch "overview?$q&p=$p&progressive=1" "$work/a")
    if [ -n "${TWICE:-}" ] || grep -q '"provisional":true' "$work/a"; then
      t=$(awk -v a="$t" -v b="$(fetch "overview?$q&p=$p" "$work/a")" 'BEGIN { print a + b }')
    fi
    echo "$t $(( $(cpu) - before )) $(stat -c %s "$work/a") $(md5sum < "$work/a" | cut -c1-8)" >> "$work/times"
  done
done
[ -n "${EACH:-}" ] && cat "$work/times" # one line per new p: seconds, server CPU ticks, bytes, md5
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "new p ($(wc -l < "$work/times") asked): median $(cut -d' ' -f1 "$work/times" | median) s," \
  "server CPU median $(( $(cut -d' ' -f2 "$work/times" | median) * 1000 / $(getconf CLK_TCK) )) ms," \
  "answer median $(cut -d' ' -f3 "$work/times" | median) bytes, answers $(cut -d' ' -f4 "$work/times" | tr '\n' ' ' | md5sum | cut -c1-8)"
echo "breakpoints in the list: $(python3 -c 'import json; print(len(json.load(open("'"$work/full"'"))["breakpoints"]))')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
