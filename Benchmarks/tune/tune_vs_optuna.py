#!/usr/bin/env python3
"""worldsweep tune against Optuna (TPE and its CMA-ES sampler) on the tune seed problems.

Every Optuna trial is evaluated by the project's own engine: the sweep file with the trial's
values written in (its `tune:` section removed) runs through `worldsweep run`, replicas and
jitter included, and the trial's value is read from worlds.csv, exactly as tune reads its worlds.
A problem is met when every target is within its tolerance (the curve: within RMS_GOAL pt), the
same test applied to tune's own evaluations (search.json). Reported per problem: worlds evaluated
and wall time until met, medians over seeds.

    python3 -m venv .venv && .venv/bin/pip install optuna
    swift build -c release
    .venv/bin/python Benchmarks/tune/tune_vs_optuna.py --seeds 3 --trials 80

Wall time for tune is from the command's start (process start and file parsing included) to the
progress line of the generation that met the target.

Optuna runs two ways: one `worldsweep run` process per trial (its process start, parse and files
are in every trial), and batched, as a user pairing Optuna with this engine would: ask a generation
of trials (the CMA-ES sampler's default population for the dimension, for both samplers), run them
as one zip sweep, tell the results (`--batch-only` skips the per-process runs).
"""
import argparse, csv, json, os, shutil, statistics, subprocess, sys, tempfile, time

import optuna
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RMS_GOAL = 0.25
PROBLEMS = ["tune-bounce.yaml", "tune-snap.yaml", "tune-bounces.yaml", "tune-spring-curve.yaml"]


def binary():
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True)
    return os.path.join(out.stdout.strip(), "worldsweep")


def spec_of(path):
    with open(path) as f:
        return yaml.safe_load(f)


def wants_of(doc):
    """[(item, column, target, within)] and the curve (or None)."""
    tune = doc["tune"]
    wants = []
    for metric, want in (tune.get("want") or {}).items():
        item, column = metric.split(".", 1)
        wants.append((item, column, float(want["target"]), float(want["within"])))
    return wants, tune.get("curve")


def met_by_means(means, wants, curve_error=None):
    if wants and any(m is None or abs(m - t) > w for m, (_, _, t, w) in zip(means, wants)):
        return False
    return curve_error is None or curve_error <= RMS_GOAL


def trial_file(doc, values, folder):
    """The file with the trial's values at their keys and no tune section, as JSON."""
    d = json.loads(json.dumps(doc))
    for path, value in values.items():
        name, key = path.split(".", 1)
        section = "behaviors" if name in (d.get("behaviors") or {}) else "items"
        d[section][name][key] = value
    d.pop("tune")
    path = os.path.join(folder, "trial.json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def curve_rms(ws, doc, values, folder, csv_path):
    """The curve error of one world without jitter, from `worldsweep trace --set` (as tune measures it)."""
    item = doc["tune"]["curve"]["item"]
    src = trial_file(doc, values, folder)
    out = subprocess.run([ws, "trace", src], capture_output=True, text=True, check=True).stdout.splitlines()
    tick = 1 / 60
    states = {}
    for row in out[1:]:
        cells = row.split(",")
        if cells[2] == item:
            states[int(cells[0])] = (float(cells[3]), float(cells[4]))
    with open(csv_path) as f:
        samples = [(float(r["time"]), float(r["x"]), float(r["y"])) for r in csv.DictReader(f)]
    total = 0.0
    for t, x, y in samples:
        k = int(round(t / tick))
        sx, sy = states.get(k, (None, None)) if k > 0 else (None, None)
        if sx is None:
            return float("inf")
        total += (sx - x) ** 2 + (sy - y) ** 2
    return (total / len(samples)) ** 0.5


def run_optuna(ws, path, sampler_name, seed, trials):
    doc = spec_of(path)
    wants, curve = wants_of(doc)
    params = doc["tune"]["parameters"]
    replicas = (doc.get("sweep") or {}).get("replicas", 1)
    folder = tempfile.mkdtemp(prefix="optuna-")
    state = {"worlds": 0, "met_worlds": None, "met_time": None}
    start = time.perf_counter()

    def objective(trial):
        values = {}
        for p, spec in params.items():
            if isinstance(spec, list):
                spec = {"min": spec[0], "max": spec[1]}
            values[p] = trial.suggest_float(p, spec["min"], spec["max"], log=bool(spec.get("log", False)))
        if curve:
            err = curve_rms(ws, doc, values, folder, os.path.join(os.path.dirname(path), curve["csv"]))
            state["worlds"] += 1
            score, met = err, met_by_means([], [], err)
        else:
            src = trial_file(doc, values, folder)
            out = os.path.join(folder, "run")
            subprocess.run([ws, "run", src, "--out", out, "--force", "--quiet"], capture_output=True, check=True)
            with open(os.path.join(out, "worlds.csv")) as f:
                rows = list(csv.DictReader(f))
            state["worlds"] += len(rows)
            means = []
            for item, column, _, _ in wants:
                cells = [r[f"{item}.{column}"] for r in rows]
                means.append(None if any(c == "" for c in cells) else sum(map(float, cells)) / len(cells))
            score = sum(1e6 if m is None else ((m - t) / w) ** 2 for m, (_, _, t, w) in zip(means, wants))
            met = met_by_means(means, wants)
        if met and state["met_worlds"] is None:
            state["met_worlds"] = state["worlds"]
            state["met_time"] = time.perf_counter() - start
            trial.study.stop()
        return score

    sampler = optuna.samplers.TPESampler(seed=seed) if sampler_name == "tpe" else optuna.samplers.CmaEsSampler(seed=seed)
    study = optuna.create_study(sampler=sampler)
    study.optimize(objective, n_trials=trials)
    shutil.rmtree(folder, ignore_errors=True)
    return state["met_worlds"], state["met_time"], state["worlds"]


def means_by_point(rows, wants, points):
    """Per point of a run's worlds.csv, the wanted metrics' means over its replicas (None where a
    replica lacks one), as tune reads a point's worlds."""
    by_point = [[] for _ in range(points)]
    for r in rows:
        by_point[int(r["point"])].append(r)
    out = []
    for worlds in by_point:
        means = []
        for item, column, _, _ in wants:
            cells = [r[f"{item}.{column}"] for r in worlds]
            means.append(None if not cells or any(c == "" for c in cells) else sum(map(float, cells)) / len(cells))
        out.append(means)
    return out


def run_optuna_batched(ws, path, sampler_name, seed, trials, batch):
    """Optuna as a user pairing it with this engine would batch it: ask a generation of `batch`
    trials, run them as one zip sweep (one `worldsweep run` per generation, the file's replicas
    and jitter), tell every result. Like tune, a generation's worlds are spent before any of its
    results is known: met counts the worlds and time to the end of the generation that met."""
    doc = spec_of(path)
    wants, curve = wants_of(doc)
    if curve:
        return None   # a curve needs each world's trajectory, which `run` does not write
    params = doc["tune"]["parameters"]
    sweep = dict(doc.get("sweep") or {})
    folder = tempfile.mkdtemp(prefix="optuna-batch-")
    sampler = optuna.samplers.TPESampler(seed=seed) if sampler_name == "tpe" else optuna.samplers.CmaEsSampler(seed=seed)
    study = optuna.create_study(sampler=sampler)
    worlds, met_worlds, met_time, asked = 0, None, None, 0
    start = time.perf_counter()
    while asked < trials and met_worlds is None:
        generation = [study.ask() for _ in range(min(batch, trials - asked))]
        asked += len(generation)
        values = []
        for trial in generation:
            v = {}
            for p, spec in params.items():
                if isinstance(spec, list):
                    spec = {"min": spec[0], "max": spec[1]}
                v[p] = trial.suggest_float(p, spec["min"], spec["max"], log=bool(spec.get("log", False)))
            values.append(v)
        d = json.loads(json.dumps(doc))
        d.pop("tune")
        d["sweep"] = {k: w for k, w in sweep.items() if k not in ("kind", "parameters", "samples")}
        d["sweep"]["kind"] = "zip"
        d["sweep"]["parameters"] = {p: [v[p] for v in values] for p in params}
        src = os.path.join(folder, "generation.json")
        with open(src, "w") as f:
            json.dump(d, f)
        out = os.path.join(folder, "run")
        subprocess.run([ws, "run", src, "--out", out, "--force", "--quiet"], capture_output=True, check=True)
        with open(os.path.join(out, "worlds.csv")) as f:
            rows = list(csv.DictReader(f))
        worlds += len(rows)
        met = False
        for trial, means in zip(generation, means_by_point(rows, wants, len(generation))):
            study.tell(trial, sum(1e6 if m is None else ((m - t) / w) ** 2 for m, (_, _, t, w) in zip(means, wants)))
            met = met or met_by_means(means, wants)
        if met:
            met_worlds, met_time = worlds, time.perf_counter() - start
    shutil.rmtree(folder, ignore_errors=True)
    return met_worlds, met_time, worlds


def batch_size(path):
    """Trials per generation: the CMA-ES sampler's default population for the dimension,
    4 + floor(3 ln d), the same for both samplers."""
    import math
    d = len(spec_of(path)["tune"]["parameters"])
    return 4 + int(3 * math.log(d))


def run_tune(ws, path, seed):
    doc = spec_of(path)
    wants, curve = wants_of(doc)
    folder = tempfile.mkdtemp(prefix="tune-")
    # The seed problem with this search seed (written next to it so its curve path still resolves).
    src = os.path.join(os.path.dirname(path), f".bench-{seed}-{os.path.basename(path)}")
    head, tune = open(path).read().split("\ntune:\n", 1)
    tune = "".join(l + "\n" for l in tune.splitlines() if not l.startswith("  seed:"))
    with open(src, "w") as f:
        f.write(head + "\ntune:\n" + tune + f"  seed: {seed}\n")
    # Each generation prints one progress line on stderr when its worlds are done: the time that
    # line arrives is the time the search knew that generation's results.
    start = time.perf_counter()
    process = subprocess.Popen([ws, "tune", src, "--out", folder, "--force"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    arrivals = [time.perf_counter() - start for line in process.stderr if line.startswith("generation ")]
    process.wait()
    os.remove(src)
    with open(os.path.join(folder, "search.json")) as f:
        generations = json.load(f)["generations"]
    # A generation runs as one batch: the target is met when the generation holding it is done.
    worlds, met_worlds, met_time = 0, None, None
    for g, generation in enumerate(generations):
        worlds += sum(e["replicas"] for e in generation)
        if met_worlds is None and any(met_by_means(e["means"], wants, e.get("curveError")) for e in generation):
            met_worlds, met_time = worlds, arrivals[g]
    shutil.rmtree(folder, ignore_errors=True)
    return met_worlds, met_time, worlds


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=80)
    ap.add_argument("--problems", nargs="*", default=PROBLEMS)
    ap.add_argument("--bin", default=None, help="the worldsweep binary (default: the release build's)")
    ap.add_argument("--batch-only", action="store_true", help="tune and the batched Optuna runs only")

    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    ws = args.bin or binary()
    print("| problem | method | worlds until met (median) | wall s until met (median) | met in |")
    print("|---|---|---:|---:|---:|")
    for name in args.problems:
        path = os.path.join(ROOT, "Sweeps", name)
        rows = {"tune": [], "optuna-tpe": [], "optuna-cmaes": [], "optuna-tpe batched": [], "optuna-cmaes batched": []}
        batch = batch_size(path)
        for seed in range(1, args.seeds + 1):
            rows["tune"].append(run_tune(ws, path, seed))
            if not args.batch_only:
                rows["optuna-tpe"].append(run_optuna(ws, path, "tpe", seed, args.trials))
                rows["optuna-cmaes"].append(run_optuna(ws, path, "cmaes", seed, args.trials))
            rows["optuna-tpe batched"].append(run_optuna_batched(ws, path, "tpe", seed, args.trials, batch))
            rows["optuna-cmaes batched"].append(run_optuna_batched(ws, path, "cmaes", seed, args.trials, batch))
        for method, results in rows.items():
            if not results:
                continue
            if any(r is None for r in results):
                print(f"| {name} | {method} | n/a | n/a | (a curve needs each world's trajectory: one `trace` per trial) |", flush=True)
                continue
            met = [r for r in results if r[0] is not None]
            w = median([r[0] for r in met])
            t = median([r[1] for r in met])
            print(f"| {name} | {method} | {w if w is not None else '–'} | {f'{t:.2f}' if t is not None else '–'} | "
                  f"{len(met)}/{len(results)} seeds |", flush=True)


if __name__ == "__main__":
    main()
