#!/usr/bin/env bash
# Builds worldsweep-serve (release; its own package, Serve/, so that demo.sh's build of worldsweep
# stays as fast as before) and starts it: `scripts/serve.sh [FOLDER] [--host H] [--port P]`
# (default runs/ on http://127.0.0.1:8080/). Once built, `worldsweep serve` finds it too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --package-path Serve --product worldsweep-serve
exec "$(swift build -c release --package-path Serve --show-bin-path)/worldsweep-serve" "$@"
