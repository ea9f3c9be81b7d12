#!/usr/bin/env bash
# One big world beside Box2D 2.4.1, in one run: Benchmarks/box-pile-1000.yaml (1 000 boxes, one
# world, 300 ticks) through `worldsweep run` (the whole command: reading the file, the engine, the
# outputs and the report) and through the Box2D peer (box2d_box_pile.cpp), in interleaved rounds;
# prints every round and then the medians and the ratios, taken round by round.
#
#   Benchmarks/peers/box-pile.sh [--rounds N] [--boxes N]     (defaults 5, 1000)
#
# Each measurement is the process's CPU time (user + sys, from wait4's rusage) as well as its wall
# time: on a shared machine CPU time is the figure that load does not inflate. The peer is timed
# from its own process the same way (one run of the pile per process, as `run` is one process),
# once with Box2D's default continuous collision (time of impact against static bodies only, what
# UIKit's items do and WorldSweep runs) and once with every box a bullet (time of impact between
# boxes too: more work than the scene asks, issue 29's first measurement).
#
# Installs Debian's libbox2d-dev when missing (needs root or sudo), builds the peer with g++ -O2
# into .build-peers/, and the release worldsweep (WORLDSWEEP_BIN overrides). WORLDSWEEP_BASE_BIN, when
# set, is timed in the same rounds as `worldsweep-base` (an A/B of two builds beside the peer).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=5 boxes=1000
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --boxes) boxes="$2"; shift 2 ;;
        *) echo "usage: Benchmarks/peers/box-pile.sh [--rounds N] [--boxes N]" >&2; exit 2 ;;
    esac
done

. Benchmarks/peers/build-peer.sh
build_peer box2d_box_pile

scene=Benchmarks/box-pile-1000.yaml
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$boxes" != 1000 ]; then
    # The same pile with fewer boxes: the first N items, in every behavior's list.
    python3 - "$scene" "$boxes" >"$work/pile.yaml" <<'PY'
import re, sys
text, n = open(sys.argv[1]).read(), int(sys.argv[2])
out = []
for line in text.splitlines():
    m = re.match(r"  b(\d+): \{center", line)
    if m and int(m.group(1)) >= n:
        continue
    out.append(re.sub(r"items: \[[^\]]*\]", "items: [" + ", ".join(f"b{i}" for i in range(n)) + "]", line))
print("\n".join(out))
PY
    scene="$work/pile.yaml"
fi

# Runs a command once; prints its engine, CPU and wall time (measure.py; one case here).
measure() { python3 Benchmarks/peers/measure.py pile "$@"; }

log="$work/log"
for r in $(seq 1 "$rounds"); do
    measure worldsweep-run "$WORLDSWEEP_BIN" run "$scene" --out "$work/run" --threads 1 --quiet --force >>"$log"
    if [ -n "${WORLDSWEEP_BASE_BIN:-}" ]; then
        measure worldsweep-base "$WORLDSWEEP_BASE_BIN" run "$scene" --out "$work/base" --threads 1 --quiet --force >>"$log"
    fi
    measure box2d-2.4.1 "$peer" --boxes "$boxes" --runs 1 >>"$log"
    measure box2d-2.4.1-bullets "$peer" --boxes "$boxes" --runs 1 --bullets >>"$log"
    echo "box-pile: round $r done" >&2
done
python3 - "$log" "$boxes" <<'EOF2'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"box pile, {sys.argv[2]} boxes, one world, 300 ticks (fewer once every box sleeps), one thread")
print("seconds of CPU (user + sys) and of wall per process, by round; the ratio is the peer's time over")
print("`worldsweep run`'s in the same round (above 1: worldsweep faster), then the median of those")
by = {}
for row in rows:
    by.setdefault(row["engine"], []).append(row)
ours = by["worldsweep-run"]
for measure in ("cpu", "wall"):
    print(f"\n{measure}:")
    for engine, runs in by.items():
        values = [x[measure] for x in runs]
        line = f"  {engine:20s} {' '.join(f'{v:6.3f}' for v in values)}   median {statistics.median(values):6.3f}"
        if engine != "worldsweep-run":
            ratios = [p[measure] / o[measure] for p, o in zip(runs, ours)]
            line += f"   x by round {' '.join(f'{x:.2f}' for x in ratios)}   median {statistics.median(ratios):.2f}"
        print(line)
EOF2
