#!/bin/sh
# Regenerates examples/smpi_sizes.trace: SimGrid SMPI (3.32, Debian: apt-get install
# libsimgrid-dev) tracing the shared stencil on 4 ranks with message sizes displayed
# (--cfg=tracing/smpi/display-sizes:yes): each PajeStartLink carries its message's Size in
# bytes. The reference for the link-volume metric. Deterministic: simulated time only.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-$HERE/../../../../shared/traces/gen/simgrid-smpi}
[ -d "$SRC" ] || SRC=/work/shared/traces/gen/simgrid-smpi
OUT=${OUT:-$HERE/../..}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$SRC"/stencil.c "$SRC"/platform.cpp "$SRC"/hostfile.sh "$WORK"/
cd "$WORK"
smpicc -O2 -o stencil stencil.c
g++ -O1 -shared -fPIC -o libgridplatform.so platform.cpp $(pkg-config --cflags --libs simgrid)
export PF_SITES=2 PF_CABINETS=1 PF_HOSTS=2 PF_CORES=1
./hostfile.sh > hosts
smpirun -np 4 -platform ./libgridplatform.so -hostfile hosts -trace --cfg=tracing/smpi/display-sizes:yes \
    --cfg=smpi/simulate-computation:no --cfg=tracing/smpi/computing:yes -trace-file "$OUT/smpi_sizes.trace" \
    ./stencil 5 1024 256 10 > log 2>&1
grep -v xbt_cfg log | tail -1
