#!/usr/bin/env bash
# Checks that pandas (and polars, when installed) reads a run's worlds.csv, points.csv, partners.csv,
# partner_points.csv and summary.json's point tables with no clean-up (and a one-replica run's files), and
# that filtering on a grid value as written in the sweep file finds its rows (issue 18.6). Needs
# pandas; without it, says so and exits 0, so CI may call it unconditionally. The Swift tests
# (DataFilesTests) check the same properties without pandas.
# Then recomputes the report's findings on twin-drop and radial-gravity (scripts/check-report-pandas.py).
#
#   scripts/check-pandas.sh          (PYTHON and WORLDSWEEP_BIN override the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
if ! "$python" -c 'import pandas' 2>/dev/null; then
    echo "check-pandas: skipped (pandas is not installed for $python)"
    exit 0
fi
if [ -z "${WORLDSWEEP_BIN:-}" ]; then
    swift build -c release --product worldsweep >/dev/null
    WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/sweep.yaml" <<'YAML'
name: pandas-check
world: {bounds: [320, 568], duration: 2}
items:
  top:    {center: [60, 30],  size: [50, 50]}
  bottom: {center: [220, 50], size: [50, 50]}
behaviors:
  fall: {type: gravity, items: [top, bottom]}
  walls:
    type: collision
    items: [top, bottom]
    reference_bounds: true
    boundaries:
      ledge: {from: [0, 468], to: [320, 468]}
  bouncy: {type: item, items: [bottom], elasticity: 0.9}
  shove:  {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}
sweep:
  parameters:
    bouncy.elasticity: {linspace: [0.1, 0.9, 5]}
    shove.magnitude:   {range: [0, 0.7, 0.1]}
  seed: 4
  replicas: 3
  jitter: {top.center: [2, 2]}
YAML
"$WORLDSWEEP_BIN" run "$tmp/sweep.yaml" --out "$tmp/run" --quiet >/dev/null
# The same sweep with one replica per point: worlds.csv is its per-point table (no points.csv).
sed 's/replicas: 3/replicas: 1/' "$tmp/sweep.yaml" >"$tmp/one.yaml"
"$WORLDSWEEP_BIN" run "$tmp/one.yaml" --out "$tmp/one" --quiet >/dev/null
"$python" - "$tmp/run" "$tmp/one" <<'PY'
import json, os, sys
import pandas as pd
run = sys.argv[1]
one = sys.argv[2]
worlds = pd.read_csv(f"{run}/worlds.csv")
points = pd.read_csv(f"{run}/points.csv")
partners = pd.read_csv(f"{run}/partners.csv")
pairs = pd.read_csv(f"{run}/partner_points.csv")
failures = []
def check(ok, what):
    if not ok: failures.append(what)
# No clean-up: every column is numeric (an empty cell is NaN, not text).
# partners.csv and partner_points.csv are long tables: `item` and `partner` are names, the rest numbers.
for name, df, names in [("worlds.csv", worlds, []), ("points.csv", points, []), ("partners.csv", partners, ["item", "partner"]),
                        ("partner_points.csv", pairs, ["item", "partner"])]:
    text = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    check(text == names, f"{name}: columns read as text: {text}, expected {names}")
check(len(worlds) == 5 * 8 * 3, f"worlds.csv has {len(worlds)} rows, expected 120")
check(len(points) == 5 * 8, f"points.csv has {len(points)} rows, expected 40")
check(list(partners.columns) == ["world", "item", "partner", "contacts"], f"partners.csv columns {list(partners.columns)}")
check((partners["contacts"] > 0).all() and partners["world"].isin(worlds["world"]).all(), "partners.csv: rows of real contacts of real worlds")
# A grid value as written finds its rows: 0.3 (0.30000000000000004 in binary arithmetic), 0.7, 0.3 of linspace.
for column, value, per_point in [("shove.magnitude", 0.3, 5), ("shove.magnitude", 0.7, 5), ("bouncy.elasticity", 0.3, 8)]:
    check(len(worlds[worlds[column] == value]) == per_point * 3, f"worlds.csv: {column} == {value} finds {len(worlds[worlds[column] == value])} rows")
    check(len(points[points[column] == value]) == per_point, f"points.csv: {column} == {value} finds {len(points[points[column] == value])} rows")
# points.csv's means are the means of worlds.csv's rows of each point.
means = worlds.groupby("point")["bottom.y"].mean()
# worlds.csv prints Float values as their shortest text, which pandas reads as the nearest double,
# not the Float itself: the means agree to Float precision (~6e-8 relative), not bit for bit.
gap = (points.set_index("point")["bottom.y.mean"] - means).abs().max()
check(gap <= 1e-6 * means.abs().max(), f"points.csv bottom.y.mean differs from the mean of worlds.csv by {gap}")
# partners.csv's rows add up to each item's contacts (a world and item with no row: 0).
for item in ["top", "bottom"]:
    sums = partners[partners["item"] == item].groupby("world")["contacts"].sum().reindex(worlds["world"], fill_value=0)
    check((sums.values == worlds[f"{item}.contacts"].values).all(), f"partners.csv rows of {item} add up to {item}.contacts")
# partner_points.csv's means are the means of partners.csv's counts over each point's replicas.
counts = partners.merge(worlds[["world", "point"]], on="world").groupby(["point", "item", "partner"])["contacts"].sum() / 3
gap = (pairs.set_index(["point", "item", "partner"])["mean"] - counts).abs().max()
check(len(pairs) == len(counts) and gap <= 1e-9, f"partner_points.csv means differ from partners.csv's by {gap}")
# summary.json's point tables (pandas' "split" layout) are points.csv and partner_points.csv.
summary = json.load(open(f"{run}/summary.json"))
table = pd.DataFrame(summary["points"]["data"], columns=summary["points"]["columns"])
check(len(table) == len(points) and (table["bottom.y.mean"] == points["bottom.y.mean"]).all(), "summary.json points: bottom.y.mean is points.csv's")
check(table["bottom.y.count"].max() == 3, "summary.json points: counts up to the 3 replicas")
ptable = pd.DataFrame(summary["points"]["partners"]["data"], columns=summary["points"]["partners"]["columns"])
check(len(ptable) == len(pairs) and (ptable["mean"].values == pairs["mean"].values).all(), "summary.json partner table is partner_points.csv")
# One replica: no per-point files; summary.json says so once (replicas 1, points null).
lone = json.load(open(f"{one}/summary.json"))
check(lone["replicas"] == 1 and lone["points"] is None, "one replica: summary.json has replicas 1 and points null")
check(not os.path.exists(f"{one}/points.csv") and not os.path.exists(f"{one}/partner_points.csv"), "one replica: no points.csv or partner_points.csv")
check(len(pd.read_csv(f"{one}/worlds.csv")["point"].unique()) == 5 * 8, "one replica: worlds.csv has a row per point")
# polars too, when it is installed (as docs/data.md reads: every row before picking a type).
try:
    import polars as pl
except ImportError:
    pl = None
if pl is not None:
    pw = pl.read_csv(f"{run}/worlds.csv", infer_schema_length=None)
    pp = pl.read_csv(f"{run}/points.csv", infer_schema_length=None)
    check(pw.filter(pl.col("shove.magnitude") == 0.3).height == 15, "polars: worlds.csv shove.magnitude == 0.3")
    check(pp.filter(pl.col("bouncy.elasticity") == 0.3).height == 8, "polars: points.csv bouncy.elasticity == 0.3")
if failures:
    print("check-pandas: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"check-pandas: pandas {pd.__version__}" + (f" and polars {pl.__version__}" if pl else "") + f" read {len(worlds)} worlds, {len(points)} points; filters on written values found their rows")
PY
# The report's findings recomputed from worlds.csv by pandas on two example sweeps: partner contacts
# with their zeros, the change-point thresholds, the outcomes never reached and the never-shares.
for example in twin-drop radial-gravity; do
    "$WORLDSWEEP_BIN" run "Sweeps/$example.yaml" --out "$tmp/$example" --quiet >/dev/null
done
"$python" scripts/check-report-pandas.py "$tmp/twin-drop" "$tmp/radial-gravity"
