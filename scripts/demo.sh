#!/usr/bin/env bash
# Sets up the machine, builds in release mode and runs the built-in example sweep: the two-view
# seed scene over elasticity, density and push magnitude (768 worlds). Prints where the report is.
#
# The build targets baseline x86-64 (SSE2), which runs everywhere. WORLDSWEEP_AVX2=1 builds for
# AVX2 (Haswell and later; refused on a CPU without it) into .build-avx2: the same results bit for
# bit (no FMA contraction; the golden pins pass on it), faster (docs/batched-engine.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build=(swift build -c release --product worldsweep)
if [ "${WORLDSWEEP_AVX2:-0}" = 1 ]; then
    if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
        echo "demo.sh: error: WORLDSWEEP_AVX2=1 but this CPU has no AVX2" >&2
        exit 2
    fi
    build+=(--scratch-path .build-avx2 -Xswiftc -target-cpu -Xswiftc haswell)
fi
"${build[@]}"
bin="$("${build[@]}" --show-bin-path)/worldsweep"
"$bin" validate Sweeps/twin-drop.yaml
"$bin" run Sweeps/twin-drop.yaml --out runs/twin-drop --force
