#!/usr/bin/env bash
# WorldSweep beside Box2D 2.4.1 on the twin-drop sweep, in one run: interleaved rounds of
# `worldsweep bench` (single-world and batched engines) and the Box2D peer
# (box2d_twin_drop.cpp, scalar, one world at a time per thread), each measurement itself the
# median of 3 timed runs; prints every round and then, per thread count, the medians over rounds
# and the ratios to Box2D.
#
#   Benchmarks/peers/bench.sh [--rounds N] [--worlds N] [--threads LIST]    (defaults 3, 768, 1,2)
#
# Installs Debian's libbox2d-dev when missing (needs root or sudo), builds the peer with g++ -O2
# into .build-peers/, and the release worldsweep (WORLDSWEEP_BIN overrides).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=3 worlds=768 threads=1,2
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --worlds) worlds="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        *) echo "usage: Benchmarks/peers/bench.sh [--rounds N] [--worlds N] [--threads LIST]" >&2; exit 2 ;;
    esac
done

. Benchmarks/peers/build-peer.sh
build_peer box2d_twin_drop -pthread

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for r in $(seq 1 "$rounds"); do
    for t in ${threads//,/ }; do
        "$WORLDSWEEP_BIN" bench --worlds "$worlds" --threads "$t" --engines single,batched-simd \
            --integrator simd --kernel-work 128 --no-report --json |
            python3 -c 'import json,sys; [print(json.dumps(e)) for e in json.load(sys.stdin)["engines"]]' >>"$log"
        "$peer" --worlds "$worlds" --threads "$t" --runs 3 >>"$log"
        echo "peers: round $r, $t thread(s) done" >&2
    done
done
python3 - "$log" "$worlds" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"twin-drop, {sys.argv[2]} worlds x 300 ticks: world-ticks/s, each the median of 3 runs; the ratio")
print("to Box2D 2.4.1 is taken round by round (the peer's run right after), then the median of those")
print("engine          threads  world-ticks/s by round          median   x Box2D by round      median")
for t in sorted({r["threads"] for r in rows}):
    by = {}
    for r in rows:
        if r["threads"] == t:
            by.setdefault(r["engine"], []).append(r["worldTicksPerSecond"])
    peer = by["box2d-2.4.1"]
    for engine, values in by.items():
        ratios = [v / p for v, p in zip(values, peer)]
        print(f"{engine:15s} {t:7d}  {' '.join(f'{v / 1e3:.0f}k' for v in values):30s} {statistics.median(values) / 1e3:6.0f}k"
              f"   {' '.join(f'{x:.2f}' for x in ratios):20s} {statistics.median(ratios):6.2f}")
EOF
