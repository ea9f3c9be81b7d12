#!/usr/bin/env bash
# The house rules a machine can check (see ARCHITECTURE.md, "House rules"), over the Swift sources
# (Sources/ and Serve/Sources/) and the tests (Tests/, Serve/Tests/):
#   - every Swift source and test file is under 400 lines;
#   - no source comment cites an issue number (history goes to docs/journal.md);
#   - one file writes an HTML doctype (Sources/WorldSweepResults/HTMLPage.swift, the page shell);
#   - memory is allocated (`.allocate(`) only in the store type, Sources/WorldSweep/Core/Columns.swift;
#   - ARCHITECTURE.md stays a map: under 25 000 bytes, no line over 300 characters.
# Prints each breach as FILE:LINE: what; exit 1 if there is any.
#
#   scripts/house-rules.sh
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
breach() { echo "$1"; status=1; }
roots="Sources Serve/Sources"
tests="Tests $( [ -d Serve/Tests ] && echo Serve/Tests)"

while IFS= read -r f; do
    n=$(wc -l <"$f")
    [ "$n" -lt 400 ] || breach "$f:$n: $n lines (files stay under 400; split by concept)"
done < <(find $roots $tests -name '*.swift' | sort)

while IFS=: read -r f line _; do
    breach "$f:$line: a comment cites an issue (say why in the comment; history goes to docs/journal.md)"
done < <(grep -rnE --include='*.swift' '//.*\b[Ii]ssues? #?[0-9]+' $roots || true)

shell=Sources/WorldSweepResults/HTMLPage.swift
while IFS=: read -r f line _; do
    [ "$f" = "$shell" ] || breach "$f:$line: writes a doctype (pages are written on $shell)"
done < <(grep -rniF --include='*.swift' '<!DOCTYPE' $roots || true)

store=Sources/WorldSweep/Core/Columns.swift
while IFS=: read -r f line _; do
    [ "$f" = "$store" ] || breach "$f:$line: allocates memory (columns are made by Columns, $store)"
done < <(grep -rnF --include='*.swift' '.allocate(' $roots || true)

map=ARCHITECTURE.md
size=$(wc -c <"$map")
[ "$size" -lt 25000 ] || breach "$map: $size bytes (the map stays under 25 000; detail goes to docs/)"
while IFS=: read -r line _; do
    breach "$map:$line: a line over 300 characters (wrap it)"
done < <(awk 'length > 300 { print FNR ":" }' "$map")

[ $status -eq 0 ] && echo "house rules: ok"
exit $status
