#!/usr/bin/env bash
# Sets up the machine, builds in release mode and runs the built-in example sweep: the two-view
# seed scene over elasticity, density and push magnitude (768 worlds). Prints where the report is.
#
# One binary for every x86-64 CPU: it holds the engine compiled twice, for baseline x86-64 and for
# AVX2 (Haswell and later), and runs the AVX2 code where the CPU has it; the same results bit for
# bit (no FMA contraction; the golden pins pass on both). WORLDSWEEP_CPU=portable forces the other.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build=(swift build -c release --product worldsweep)
"${build[@]}"
bin="$("${build[@]}" --show-bin-path)/worldsweep"
"$bin" validate Sweeps/twin-drop.yaml
"$bin" run Sweeps/twin-drop.yaml --out runs/twin-drop --force
