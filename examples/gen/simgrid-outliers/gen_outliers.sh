#!/bin/sh
# SimGrid 3.32 SMPI runs with one injected perturbation each, for `ocelotl outliers` (issue 29, item 3;
# Debian bookworm: apt-get install libsimgrid-dev pkg-config g++): the stencil of
# shared/traces/gen/simgrid-smpi on its generated platform, slowed with its knobs (PF_SLOW: a host's
# speed, PF_UPLINK: a site's uplink bandwidth), at 48 and 256 ranks. The test OutliersSimGridTest
# reads the gzipped traces from ocelotl-app/src/test/resources/outliers/.
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
# (A slowed uplink on a 2-site platform deadlocks SimGrid 3.32 at start-up: every platform here has 3 sites or more.)
# Each size also runs unperturbed (out*_base): the control the test holds the perturbed runs against
# (what the overview shows in [1, 2) s when nothing is slowed there).
# 48 ranks on 3 sites x 2 cabinets x 4 dual-core hosts, 120 iterations (3.8 s unperturbed).
export PF_SITES=3 PF_CABINETS=2 PF_HOSTS=4 PF_CORES=2
run out48_base 48 120 4096 1024 10
(export PF_SLOW="lyon-c2-3 1.0 2.0 0.2"; run out48_slow 48 120 4096 1024 10)
(export PF_UPLINK="nancy 1.0 2.0 0.002"; run out48_uplink 48 120 4096 1024 10)
# 256 ranks on 4 sites x 4 cabinets x 8 dual-core hosts, 120 iterations (3.9 s unperturbed).
export PF_SITES=4 PF_CABINETS=4 PF_HOSTS=8 PF_CORES=2
run out256_base 256 120 4096 1024 10
(export PF_SLOW="grenoble-c3-5 1.0 2.0 0.2"; run out256_slow 256 120 4096 1024 10)
(export PF_UPLINK="lyon 1.0 2.0 0.002"; run out256_uplink 256 120 4096 1024 10)
