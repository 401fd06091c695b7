#!/bin/sh
# Regenerates examples/topology.trace: SimGrid's platform tracing of a small platform file with
# explicit routes (platform.xml: 6 hosts, 7 links, 15 routes) and a token ring over its hosts.
# Debian: apt-get install python3-simgrid (3.32). Deterministic: simulated time only.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../..}
cd "$HERE"
/usr/bin/python3 ring.py platform.xml 20 --cfg=tracing:yes --cfg=tracing/platform:yes \
    --cfg=tracing/platform/topology:yes --cfg=tracing/actor:yes --cfg=tracing/uncategorized:yes \
    --cfg=tracing/filename:"$OUT/topology.trace" 2>&1 | grep -v xbt_cfg || true
