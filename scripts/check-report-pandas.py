#!/usr/bin/env python3
# The report's findings recomputed from worlds.csv and partners.csv by pandas, independently of
# the Swift report, for finished grid runs (scripts/check-pandas.sh runs it on twin-drop and
# radial-gravity). Checked, each against what the page or importance.csv says:
#   - partner contacts count a pair never touched as 0: importance.csv's main-effect shares of each
#     ITEM.contacts.PARTNER equal a groupby of partners.csv reindexed on every world (zeros filled),
#     and the report's table counts every point for that row;
#   - thresholds: every "no effect up to x" / "then no further effect" of report.md is where the
#     change-point rule of docs/data.md ("Shape words") puts it on the groupby means, the outcomes
#     that never happen in their complete form (no bounce: 0; no rest: the run's length);
#   - never reached: the time columns empty in every world are exactly those report.md says no
#     world reaches, with the count of worlds; every never-share it states ("26 % of the worlds
#     never came to rest") is the share of empty cells.
# Exit 1, naming each disagreement.
#
#   scripts/check-report-pandas.py RUN_DIR...
import json, re, sys
import pandas as pd

failures = []
def check(ok, what):
    if not ok: failures.append(what)

def pct(x):
    """A share as the report writes it: "under 1 %", else whole percent."""
    return "under 1 %" if 0 < x < 0.005 else f"{round(100 * x):.0f} %"

def complete(worlds, column, run_length):
    """A metric's complete form: a bounce never made is 0, a time never reached the run's length,
    a never-share the share of empty time cells."""
    key = column.split(".", 1)[1]
    if key.startswith("never_"):
        time = column.split(".")[0] + "." + {"never_rest": "rest_time", "never_settle": "settle_time"}[key]
        return worlds[time].isna().astype(float)
    if re.fullmatch(r"bounce\d+", key): return worlds[column].fillna(0)
    if key in ("rest_time", "settle_time"): return worlds[column].fillna(run_length)
    return worlds[column]

def main_shares(y, worlds, parameters):
    """Functional ANOVA's main effects on a full grid: the variance of the mean at each value of a
    parameter over the variance of every world (points weighted alike: equal replicas)."""
    var = ((y - y.mean()) ** 2).mean()
    return {p: ((y.groupby(worlds[p]).mean() - y.mean()) ** 2).mean() / var for p in parameters}

def flat_run(ys, span):
    """docs/data.md's change point: how many leading means stay flat (1: none). The means up to
    value k spread by at most a twentieth of the range, and the step to the next is the largest
    against that spread of any such k, and at least 3 times it."""
    best, best_ratio = 1, 3.0
    lo = hi = ys[0]
    for k in range(1, max(1, len(ys) - 1)):
        lo, hi = min(lo, ys[k]), max(hi, ys[k])
        if hi - lo > 0.05 * span: break
        ratio = abs(ys[k + 1] - ys[k]) / max(hi - lo, 1e-12 * span)
        if ratio >= best_ratio: best, best_ratio = k + 1, ratio
    return best

def short(x):
    """A parameter value as the report writes it (three significant digits, no trailing zeros)."""
    return f"{x:.3g}"

for run in sys.argv[1:]:
    summary = json.load(open(f"{run}/summary.json"))
    worlds = pd.read_csv(f"{run}/worlds.csv")
    importance = pd.read_csv(f"{run}/importance.csv")
    report = open(f"{run}/report.md").read()
    parameters = summary["parameters"]
    run_length = summary["run"]["seconds"]
    checked = {"partner": 0, "threshold": 0, "never": 0}

    # Partner contacts with their zeros.
    try:
        partners = pd.read_csv(f"{run}/partners.csv")
    except FileNotFoundError:
        partners = pd.DataFrame(columns=["world", "item", "partner", "contacts"])
    for metric in sorted(set(importance.metric)):
        parts = metric.split(".")
        if len(parts) != 3 or parts[1] != "contacts": continue
        item, partner = parts[0], parts[2]
        pair = partners[(partners["item"] == item) & (partners["partner"] == partner)]
        y = pair.set_index("world")["contacts"].reindex(worlds["world"], fill_value=0).astype(float)
        y.index = worlds.index
        if y.var() == 0: continue
        shares = main_shares(y, worlds, parameters)
        rows = importance[(importance.metric == metric) & (importance.kind == "main")].set_index("term")["share"]
        for p, share in shares.items():
            check(abs(rows.get(p, 0) - share) <= 1e-9,
                  f"{run}: importance.csv {metric} {p} {rows.get(p, 0):.6f}, pandas with zeros {share:.6f}")
        # The old defect: without the untouched worlds the shares differ (so this check can fail).
        touched = worlds["world"].isin(pair["world"])
        if not touched.all() and touched.sum() > 1:
            dropped = main_shares(y[touched], worlds[touched], parameters)
            differs = any(abs(dropped[p] - shares[p]) > 1e-3 for p in parameters)
            check(differs, f"{run}: {metric}: dropping untouched worlds gives the same shares; the check cannot tell")
        row = re.search(r"^\| " + re.escape(metric) + r" \(count\) \|.*\| (\d+) \|$", report, re.M)
        points = summary["run"]["sweepPoints"]
        if row: check(int(row.group(1)) == points, f"{run}: report table {metric} counts {row.group(1)} points of {points}")
        checked["partner"] += 1

    # Thresholds: each "METRIC against PARAM (…): no effect up to X" (and the secondary "PARAM n % (…)")
    # and "… by X, then no further effect".
    for line in report.splitlines():
        m = re.match(r"^- \**([\w.-]+) (?:\([^)]*\) )?against ([\w.-]+) \(\d+ % of its variation\): (.*)$", line)
        if not m: continue
        metric, first, rest = m.groups()
        claims = [(first, rest.split(";")[0])]
        claims += [(p, words) for p, words in re.findall(r"; ([\w.-]+) (?:\d+ %|under 1 %) \(([^)]*)\)", rest) if p in parameters]
        if metric not in worlds.columns and metric.split(".")[1] not in ("never_rest", "never_settle"): continue
        y = complete(worlds, metric, run_length)
        for p, words in claims:
            means = y.groupby(worlds[p]).mean().sort_index()
            xs, ys = list(means.index), list(means.values)
            span = max(ys) - min(ys)
            if span <= 0: continue
            head, tail = flat_run(ys, span), flat_run(ys[::-1], span)
            said = re.search(r"no effect up to ([-\d.e]+)", words)
            if said:
                check(2 <= head < len(ys) - 1 and short(xs[head - 1]) == said.group(1),
                      f"{run}: {metric} against {p}: report says no effect up to {said.group(1)}, pandas' means give "
                      + (short(xs[head - 1]) if head >= 2 else "no flat start") + f" ({', '.join(f'{v:.3g}' for v in ys)})")
                checked["threshold"] += 1
            said = re.search(r"by ([-\d.e]+), then no further effect|up to ([-\d.e]+), then no further effect", words)
            if said:
                value = said.group(1) or said.group(2)
                check(2 <= tail < len(ys) - 1 and short(xs[len(ys) - tail]) == value,
                      f"{run}: {metric} against {p}: report says no further effect from {value}, pandas' means give "
                      + (short(xs[len(ys) - tail]) if tail >= 2 else "no flat end"))
                checked["threshold"] += 1

    # Never reached: time columns empty in every world, and the never-shares the findings state.
    times = [c for c in worlds.columns if c.endswith(".rest_time") or c.endswith(".settle_time")]
    empty = sorted(c for c in times if worlds[c].isna().all())
    said = re.search(r"In all (\d+) worlds .*?: ([\w., -]+) ha(?:s|ve) no value in any world", report)
    if empty:
        check(said is not None, f"{run}: {', '.join(empty)} empty in every world, and the report does not say so")
        if said:
            named = sorted(n.strip() for n in said.group(2).replace(" and ", ", ").split(","))
            check(named == empty and int(said.group(1)) == len(worlds),
                  f"{run}: report says {said.group(0)!r}; pandas: {len(worlds)} worlds, empty in all: {empty}")
    else:
        check(said is None, f"{run}: report says {said.group(0) if said else ''!r}, but every time column has a value")
    checked["never"] += len(empty)
    for line in report.splitlines():
        m = re.match(r"^- \**([\w.-]+) (?:\([^)]*\) )?against ", line)
        if not m or m.group(1) not in times: continue
        share = re.search(r"(under 1 %|\d+ %) of the worlds never (?:came to rest|settled)", line)
        if share:
            actual = worlds[m.group(1)].isna().mean()
            check(share.group(1) == pct(actual), f"{run}: {m.group(1)}: report says {share.group(1)} never, pandas {pct(actual)}")
            checked["never"] += 1
    print(f"{run}: pandas recomputed {checked['partner']} partner-contact splits, {checked['threshold']} thresholds, "
          f"{checked['never']} never-reached outcomes and shares")
if failures:
    print("check-report-pandas: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
