#!/usr/bin/env bash
# Sets up the machine, builds in release mode and runs the built-in example: the two-view scene
# traced tick by tick with its contact events.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product worldsweep
bin="$(swift build -c release --show-bin-path)/worldsweep"
mkdir -p runs/twin-drop
"$bin" validate Sweeps/twin-drop.yaml
"$bin" trace Sweeps/twin-drop.yaml --ticks 300 > runs/twin-drop/trace.csv
"$bin" trace Sweeps/twin-drop.yaml --ticks 300 --events > runs/twin-drop/events.csv
cat runs/twin-drop/events.csv
echo "Trace written to runs/twin-drop/trace.csv, events to runs/twin-drop/events.csv"
