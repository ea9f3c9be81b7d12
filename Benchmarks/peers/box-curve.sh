#!/usr/bin/env bash
# How `worldsweep run`'s cost grows with the size of a world, beside Box2D 2.4.1 doing the same
# physics: W worlds of N boxes each, N × W about fixed, for N from 2 to 1 000, and one world of
# 1 000 boxes (on one thread and on two). W is N × W over N, rounded to the nearest world; N × W
# defaults to 8 192 (2 × 4 096 worlds, 8 × 1 024, … 1 000 × 8). The scene (written here for each N): N boxes of
# 10 × 10 pt, 100 a row on a 20 pt grid whose first row is at y = TOP (default 1 500), in
# 2 100 × 2 100 pt reference bounds, gravity, collisions between everything, elasticity 0.5,
# 300 ticks; W replicas of that one world (a sweep of one point). The peer,
# box2d_box_curve.cpp, steps the same W worlds one after another, plain Box2D (no bullets: time
# of impact against static bodies only, what UIKit's items do and WorldSweep runs).
#
#   Benchmarks/peers/box-curve.sh [--rounds R] [--sizes "2 8 32 128 512 1000"] [--total 8192] [--top 1500]
#
# Each measurement is one whole process's CPU time (user + sys, from wait4's rusage) and its wall
# time; rounds interleave every case; the ratio is the peer's time over `worldsweep run`'s in the
# same round (above 1: WorldSweep faster), and the table gives medians. The two-thread row of the
# one big world compares wall times (CPU time counts both threads). On a shared machine CPU time
# is the figure load inflates least; instruction counts (callgrind) are the steadier A/B measure.
#
# Builds the peer with g++ -O2 into .build-peers/ (installing libbox2d-dev when missing) and the
# release worldsweep (WORLDSWEEP_BIN overrides). WORLDSWEEP_BASE_BIN, when set, is timed in the
# same rounds as `base` (an A/B of two builds beside the peer).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=3 sizes="2 8 32 128 512 1000" total=8192 top=1500
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --sizes) sizes="$2"; shift 2 ;;
        --total) total="$2"; shift 2 ;;
        --top) top="$2"; shift 2 ;;
        *) echo "usage: Benchmarks/peers/box-curve.sh [--rounds R] [--sizes \"N ...\"] [--total N×W] [--top Y]" >&2; exit 2 ;;
    esac
done

. Benchmarks/peers/build-peer.sh
build_peer box2d_box_curve

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The scene for N boxes as W replicas.
scene() {
    python3 - "$1" "$2" "$top" >"$work/curve-$1-$2.yaml" <<'PY'
import sys
n, w, top = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
names = ", ".join(f"b{i}" for i in range(n))
print(f"name: box-curve-{n}x{w}")
print("world: {bounds: [2100, 2100], tick: 1/60, ticks: 300}")
print("items:")
for i in range(n):
    print(f"  b{i}: {{center: [{60 + 20 * (i % 100)}, {top + 20 * (i // 100):g}], size: [10, 10]}}")
print("behaviors:")
print(f"  fall: {{type: gravity, items: [{names}]}}")
print(f"  walls: {{type: collision, items: [{names}], mode: everything, reference_bounds: true}}")
print(f"  bouncy: {{type: item, items: [{names}], elasticity: 0.5}}")
print(f"sweep: {{parameters: {{bouncy.elasticity: [0.5]}}, replicas: {w}}}")
print("metrics: [final_state]")
PY
    echo "$work/curve-$1-$2.yaml"
}

# Runs a command once; appends its case, engine, CPU and wall time to the log (measure.py).
measure() { python3 Benchmarks/peers/measure.py "$@" >>"$work/log"; }

cases=()
for n in $sizes; do w=$(( (total + n / 2) / n )); cases+=("$n $(( w > 0 ? w : 1 ))"); done
cases+=("1000 1")
for r in $(seq 1 "$rounds"); do
    for c in "${cases[@]}"; do
        set -- $c
        file="$(scene "$1" "$2")"
        measure "$1x$2" worldsweep "$WORLDSWEEP_BIN" run "$file" --out "$work/run" --threads 1 --quiet --force
        if [ -n "${WORLDSWEEP_BASE_BIN:-}" ]; then
            measure "$1x$2" base "$WORLDSWEEP_BASE_BIN" run "$file" --out "$work/base" --threads 1 --quiet --force
        fi
        measure "$1x$2" box2d-2.4.1 "$peer" --boxes "$1" --worlds "$2" --top "$top"
        if [ "$2" = 1 ]; then
            measure "$1x$2" worldsweep-2-threads "$WORLDSWEEP_BIN" run "$file" --out "$work/run2" --threads 2 --quiet --force
        fi
    done
    echo "box-curve: round $r of $rounds done" >&2
done

python3 - "$work/log" "$rounds" "$top" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"box curve: W worlds of N boxes (first row at y = {sys.argv[3]} pt), 300 ticks, `worldsweep run --threads 1`")
print(f"against Box2D 2.4.1 plain; CPU seconds (user + sys) per process, median of {sys.argv[2]} interleaved rounds;")
print("x = the peer's time over worldsweep's in the same round (above 1: WorldSweep faster), median of rounds\n")
by = {}
for row in rows:
    by.setdefault(row["case"], {}).setdefault(row["engine"], []).append(row)
med = statistics.median
base = any("base" in e for e in by.values())
print("| items per world | worlds | worldsweep CPU s | Box2D 2.4.1 CPU s | × Box2D 2.4.1 |" + (" base CPU s | this ÷ base |" if base else ""))
print("|---:|---:|---:|---:|---:|" + ("---:|---:|" if base else ""))
for case, engines in by.items():
    n, w = case.split("x")
    ours, peer = engines["worldsweep"], engines["box2d-2.4.1"]
    x = med(p["cpu"] / o["cpu"] for p, o in zip(peer, ours))
    line = f"| {int(n):,} | {int(w):,} | {med(o['cpu'] for o in ours):.3f} | {med(p['cpu'] for p in peer):.3f} | {x:.2f}× |".replace(",", " ")
    if base:
        b = engines["base"]
        line += f" {med(o['cpu'] for o in b):.3f} | {med(o['cpu'] / q['cpu'] for o, q in zip(b, ours)):.2f}× |"
    print(line)
for case, engines in by.items():
    if "worldsweep-2-threads" in engines:
        one, two = engines["worldsweep"], engines["worldsweep-2-threads"]
        print(f"\none world of {case.split('x')[0]} boxes, wall seconds: one thread {med(o['wall'] for o in one):.3f}, "
              f"two threads {med(t['wall'] for t in two):.3f} (one ÷ two by round, median: {med(o['wall'] / t['wall'] for o, t in zip(one, two)):.2f}×)")
print("\nevery round (CPU s):")
for case, engines in by.items():
    for engine, runs in engines.items():
        print(f"  {case:10s} {engine:22s} " + " ".join(f"{r['cpu']:7.3f}" for r in runs))
PY
