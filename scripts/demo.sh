#!/usr/bin/env bash
# Sets up the machine, builds in release mode and runs the built-in example sweep: the two-view
# seed scene over elasticity, density and push magnitude (768 worlds). Prints where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product worldsweep
bin="$(swift build -c release --show-bin-path)/worldsweep"
"$bin" validate Sweeps/twin-drop.yaml
"$bin" run Sweeps/twin-drop.yaml --out runs/twin-drop --force
