#!/usr/bin/env bash
# A new p as the web page asks it (issue 28; not a test): serves TRACE with `ocelotl view`, asks
# for the spatiotemporal overview at N = 100 once (the breakpoints are then kept), then for
# ROUNDS × 12 breakpoints spread over the list, each as the page does: `progressive=1` first, then
# — only if that answer was provisional, or with TWICE=1 as the page did before issue 28 — the
# full request; each with `answer=view` (the page holds the model's breakpoints and curves,
# decision 068), or the full answer with FULL=1 (as the page asked before it). Prints the median
# time per new p (all its requests), the server's CPU time per new p (from /proc, all threads),
# the answer's size, and an md5 of every answer's fields but parts, breakpoints and curves (the
# same for either way and for two builds that give the same answers).
#
#   bench/new_p.sh                                    # the bundled trace, this build; 12 breakpoints spread over
#                                                     # the list: each far from the others (a click on the curves),
#                                                     # so its parts are not built ahead (issue 28's far p)
#   JAR=/tmp/before.jar TWICE=1 bench/new_p.sh        # another build, as its page asked
#   JAR=/tmp/before.jar FULL=1 bench/new_p.sh         # a build before decision 068: full answers
#   CHECK=1 bench/new_p.sh                            # also the full answer of each p (not timed): the view
#                                                     # answer's fields must be its own
#   TRACE=/work/large/smpi_large.trace bench/new_p.sh
#   DEPTH=0 … bench/new_p.sh                          # every rank a leaf (the page: depth auto)
#   EACH=1 … bench/new_p.sh                           # also one line per new p asked
#   STEPS=6 PAUSE=1 bench/new_p.sh                    # as → and ← step, PAUSE s apart: up to STEPS breakpoints
#                                                     # above the default p one by one and back, then below and back
#   IDLE=1 bench/new_p.sh                             # after the full answer, wait until the server is idle (under
#                                                     # 10 ticks of CPU in 2 s: every breakpoint's parts built
#                                                     # ahead, decision 072), print how long and its CPU, then ask
#   IDLE=1 PROBE=10 bench/new_p.sh                    # meanwhile, every PROBE s, the page's first events page (a
#                                                     # request of another kind, as a user's click would come while
#                                                     # the chain is built): its time, median and largest (decision 078)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
trace=${TRACE:-$here/examples/smpi_perturbed.trace.gz}
port=${PORT:-8781}
. "$here/bench/serve.sh"
q="trace=$id&aggregation=spatiotemporal&view=mode&slices=100&height=${HEIGHT:-600}${DEPTH:+&depth=$DEPTH}"
fetch() { curl -sf -H "X-Ocelotl-Token: $token" "$base/$1" -o "$2" -w '%{time_total}'; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
fetch "overview?$q" "$work/full" > /dev/null
if [ -n "${IDLE:-}" ]; then
  started=$(date +%s.%N); first=$(cpu); last=$first; : > "$work/probes"
  while sleep 2; now=$(cpu); [ $((now - last)) -ge 10 ]; do
    last=$now
    if [ -n "${PROBE:-}" ] && [ "$(awk -v a="$started" -v b="$(date +%s.%N)" -v p="$PROBE" -v n="$(wc -l < "$work/probes")" \
        'BEGIN { print (b - a >= p * (n + 1)) }')" = 1 ]; then
      fetch "events?trace=$id&kind=state&sort=-duration&offset=0&limit=100" /dev/null >> "$work/probes"; echo >> "$work/probes"
    fi
  done
  echo "idle after $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s," \
    "server CPU meanwhile $(( (now - first) * 1000 / $(getconf CLK_TCK) )) ms"
  if [ -n "${PROBE:-}" ]; then
    median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    echo "events page meanwhile ($(wc -l < "$work/probes") asked): median $(median < "$work/probes") s," \
      "largest $(sort -n "$work/probes" | tail -1) s"
  fi
fi
if [ -n "${STEPS:-}" ]; then # the breakpoints after the default one, one step at a time, then back
  ps=$(python3 -c 'import json; r=json.load(open("'"$work/full"'")); b=[x["p"] for x in r["breakpoints"]]
k=max(i for i in range(len(b)) if b[i] <= r["p"]); up=min('"$STEPS"', len(b) - 1 - k); down=min('"$STEPS"', k)
walk=list(range(k + 1, k + up + 1)) + list(range(k + up - 1, k - 1, -1)) + list(range(k - 1, k - down - 1, -1)) + list(range(k - down + 1, k + 1))
print(" ".join(repr(b[i]) for i in walk))')
else
  ps=$(python3 -c 'import json; b=json.load(open("'"$work/full"'"))["breakpoints"]
print(" ".join(repr(b[i]["p"]) for i in range(0, len(b), max(1, len(b) // 12))))')
fi
# FULL=1: the full answer, as the page asked before decision 068
answer=$([ -n "${FULL:-}" ] || echo "&answer=view")
# The answer's fields but those a view answer leaves out, parsed: the same numbers give the same digest.
view_md5() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(json.dumps({k: v for k, v in r.items() if k not in ("parts", "breakpoints", "curves")}, sort_keys=True))' "$1" \
  | md5sum | cut -c1-8; }
: > "$work/times"
for round in $(seq "${ROUNDS:-1}"); do
  for p in $ps; do
    sleep "${PAUSE:-0}"
    before=$(cpu)
    t=$(fetch "overview?$q&p=$p&progressive=1$answer" "$work/a")
    if [ -n "${TWICE:-}" ] || grep -q '"provisional":true' "$work/a"; then
      t=$(awk -v a="$t" -v b="$(fetch "overview?$q&p=$p$answer" "$work/a")" 'BEGIN { print a + b }')
    fi
    echo "$t $(( $(cpu) - before )) $(stat -c %s "$work/a") $(view_md5 "$work/a")" >> "$work/times"
    if [ -n "${CHECK:-}" ]; then
      fetch "overview?$q&p=$p" "$work/b" > /dev/null
      [ "$(view_md5 "$work/a")" = "$(view_md5 "$work/b")" ] || { echo "p = $p: the answers differ" >&2; exit 1; }
    fi
  done
done
[ -n "${EACH:-}" ] && cat "$work/times" # one line per new p: seconds, server CPU ticks, bytes, md5
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "new p ($(wc -l < "$work/times") asked): median $(cut -d' ' -f1 "$work/times" | median) s," \
  "server CPU median $(( $(cut -d' ' -f2 "$work/times" | median) * 1000 / $(getconf CLK_TCK) )) ms," \
  "answer median $(cut -d' ' -f3 "$work/times" | median) bytes, answers $(cut -d' ' -f4 "$work/times" | tr '\n' ' ' | md5sum | cut -c1-8)"
echo "breakpoints in the list: $(python3 -c 'import json; print(len(json.load(open("'"$work/full"'"))["breakpoints"]))')"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
