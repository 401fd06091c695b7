#!/bin/sh
# Pairs of SimGrid 3.32 SMPI runs for `ocelotl compare` (Debian bookworm: apt-get install libsimgrid-dev pkg-config g++):
# the same stencil on the same platform, once as it is and once perturbed with the knobs of
# shared/traces/gen/simgrid-smpi (PF_SLOW: a host's speed, PF_UPLINK: a site's uplink bandwidth).
# Deterministic (smpi/simulate-computation:no): the same run twice writes the same trace.
# Writes into $OUT (default: out/ beside this script); SRC = the folder of stencil.c, platform.cpp, hostfile.sh.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-$HERE/../../../../shared/traces/gen/simgrid-smpi}
OUT=${OUT:-$HERE/out}
mkdir -p "$OUT" && cp "$SRC"/stencil.c "$SRC"/platform.cpp "$SRC"/hostfile.sh "$OUT"/ && cd "$OUT"
smpicc -O2 -o stencil stencil.c
g++ -O1 -shared -fPIC -o libgridplatform.so platform.cpp $(pkg-config --cflags --libs simgrid)
COMMON="--cfg=smpi/simulate-computation:no --cfg=tracing/smpi/computing:yes -trace -trace-grouped -trace-resource"
run() { # name np iters n halo check  (PF_* exported by the caller)
  ./hostfile.sh > "$1.hosts"
  smpirun -np "$2" -platform ./libgridplatform.so -hostfile "$1.hosts" \
      -trace-file "$1.trace" $COMMON ./stencil "$3" "$4" "$5" "$6" > "$1.log" 2>&1
  grep -v xbt_cfg "$1.log" | tail -1
  gzip -9nf "$1.trace"
}
# Small pairs (tests): 16 ranks on 2 sites x 2 cabinets x 4 hosts.
export PF_SITES=2 PF_CABINETS=2 PF_HOSTS=4 PF_CORES=1
run cmp_base 16 120 4096 1024 10
run cmp_base_again 16 120 4096 1024 10
(export PF_SLOW="nancy-c2-3 1.0 2.0 0.2"; run cmp_slow 16 120 4096 1024 10)
# (A slowed uplink on this 2-site platform deadlocks SimGrid 3.32 at start-up: the uplink pair is a 4-site one.)
# Uplink pair (tests): 16 ranks on 4 sites x 2 cabinets x 2 hosts, site nancy's uplink at 0.2% during [1, 2) s.
export PF_SITES=4 PF_CABINETS=2 PF_HOSTS=2 PF_CORES=1
run cmp_uplink_base 16 120 4096 1024 10
(export PF_UPLINK="nancy 1.0 2.0 0.002"; run cmp_uplink 16 120 4096 1024 10)
# The bundled trace's size (cost): 64 ranks on 4 sites x 2 cabinets x 4 dual-core hosts, 300 iterations,
# as examples/smpi_perturbed.trace.gz without its perturbations, with the slowed host alone, with the slowed uplink alone.
if [ "${BIG:-0}" = 1 ]; then
export PF_SITES=4 PF_CABINETS=2 PF_HOSTS=4 PF_CORES=2
run big_base 64 300 4096 4096 10
(export PF_SLOW="lyon-c1-2 3.0 5.0 0.2"; run big_slow 64 300 4096 4096 10)
(export PF_UPLINK="nancy 8.0 9.0 0.002"; run big_uplink 64 300 4096 4096 10)
fi
