#!/usr/bin/env bash
# Sets up the machine and runs every test: the house rules (scripts/house-rules.sh), the Slurm integration test (a private single-node
# cluster; skipped with a message when not root), the golden outputs (every example sweep's
# worlds.csv and first-world traces, bit for bit, from the release build), the pandas/polars
# reads of a run's CSV files (skipped with a message without pandas), the fuzz suite (300 seeded
# cases of mutated sweep files and command lines: no crash, hang or raw message; about half a
# minute), then the unit and command tests, then `worldsweep serve`'s package (Serve/: its tests
# and, where Chromium and Node are, the browser check).
#
# It first says what it would install and where; WORLDSWEEP_NO_INSTALL=1 installs nothing (the
# build then needs libopenblas-dev and pkg-config already there; the Slurm and pandas checks skip
# with a message when their tools are missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/house-rules.sh

# What this run would install, before anything is: the build's apt packages, Slurm and munge
# (root only: the Slurm test needs root anyway), pandas from PyPI.
plan=()
for p in libopenblas-dev pkg-config; do
    dpkg -s "$p" >/dev/null 2>&1 || plan+=("$p (apt-get, system-wide; the build needs it)")
done
if [ "$(id -u)" -eq 0 ] && { ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; }; then
    plan+=("slurm-wlm and munge (apt-get, system-wide; the Slurm test)")
fi
python3 -c 'import pandas' 2>/dev/null || plan+=("pandas (python3 -m pip install, into $(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null || echo "python3's site-packages"); the CSV check)")
if [ ${#plan[@]} -eq 0 ]; then
    echo "test.sh: nothing to install"
elif [ "${WORLDSWEEP_NO_INSTALL:-}" = 1 ]; then
    echo "test.sh: WORLDSWEEP_NO_INSTALL=1: installing nothing; missing:"; printf '  %s\n' "${plan[@]}"
else
    echo "test.sh: will install (WORLDSWEEP_NO_INSTALL=1 to skip):"; printf '  %s\n' "${plan[@]}"
fi
source scripts/setup.sh
swift build
scripts/slurm/test-slurm.sh "$(swift build --show-bin-path)/worldsweep"
scripts/golden.sh
# pandas from PyPI when missing, so the check runs for real (it says so and skips if that fails).
if [ "${WORLDSWEEP_NO_INSTALL:-}" != 1 ]; then
    python3 -c 'import pandas' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pandas \
        || echo "test.sh: could not install pandas; check-pandas will skip"
fi
WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep" scripts/check-pandas.sh
python3 scripts/fuzz/fuzz.py --bin "$(swift build --show-bin-path)/worldsweep" --cases 300 --seed 1
swift test
# worldsweep serve: its own package (Serve/), its tests, then the browser check where Chromium and
# Node are (screenshots to a scratch folder; scripts/serve-browser.sh writes docs/' own).
swift build --package-path Serve --build-tests
swift test --package-path Serve --skip-build
if command -v node >/dev/null 2>&1 && { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }; then
    shots="$(mktemp -d)"
    scripts/serve-browser.sh --bin "$(swift build --show-bin-path)/worldsweep" \
        --serve "$(swift build --package-path Serve --show-bin-path)/worldsweep-serve" --out "$shots"
    rm -rf "$shots"
else
    echo "test.sh: no Chromium or Node: the browser check of worldsweep serve skips"
fi
