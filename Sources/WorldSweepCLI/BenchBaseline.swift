import Foundation
import WorldSweepRun

/// Saved bench figures to compare later runs with (`bench --save-baseline NAME`, `--baseline
/// NAME`; criterion's baselines are the model): bench.json kept as DIR/baselines/NAME.json.
enum BenchBaseline {
    /// DIR/baselines/NAME.json, for a NAME that is a plain file name.
    static func path(name: String, in directory: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
        guard !name.isEmpty, name.allSatisfy(allowed.contains), !name.hasPrefix(".") else {
            throw BadInput("baseline name '\(name)': use letters, digits, '_', '-' and '.' (it names DIR/baselines/NAME.json)")
        }
        return "\(directory)/baselines/\(name).json"
    }

    static func load(name: String, in directory: String) throws -> BenchResult {
        let file = try path(name: name, in: directory)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BadInput("--baseline \(name): no \(file) (save one with --save-baseline \(name) --out \(directory))")
        }
        do {
            return try JSONDecoder().decode(BenchResult.self, from: data)
        } catch {
            throw BadInput("\(file): not a bench result (\(DecodingMessage.text(error)))")
        }
    }

    /// Writes the result (without its own baseline comparison) and returns the path.
    static func save(_ result: BenchResult, name: String, in directory: String) throws -> String {
        let file = try path(name: name, in: directory)
        var plain = result
        plain.baseline = nil
        for k in plain.engines.indices { plain.engines[k].baseline = nil }
        do {
            try FileManager.default.createDirectory(atPath: "\(directory)/baselines", withIntermediateDirectories: true)
            try AtomicFile.write(plain.json() + "\n", to: file)
        } catch {
            throw RunFailure("cannot save the baseline \(file): \(plainText(error))")
        }
        return file
    }
}

/// Where a baseline came from, shown beside the comparison.
struct BaselineSource: Codable, Equatable {
    var name: String
    var date: String
    var build: String
    var cpu: String?
}

/// One figure's baseline: its median and range, the ratio of the medians and a verdict.
struct BaselineFigure: Codable, Equatable {
    enum Verdict: String, Codable { case faster, slower, withinNoise = "within noise", noSpread = "—" }

    var worldTicksPerSecond: Double
    var minWorldTicksPerSecond: Double?
    var maxWorldTicksPerSecond: Double?
    /// This run's median over the baseline's.
    var ratio: Double
    var verdict: Verdict

    /// "faster" / "slower" only when the min … max ranges of both (3 runs or more each) do not
    /// overlap: with timings that spread ±25 % between identical runs, medians alone decide nothing.
    init(current: BenchResult.EngineRow, baseline: BenchResult.EngineRow) {
        worldTicksPerSecond = baseline.worldTicksPerSecond
        minWorldTicksPerSecond = baseline.minWorldTicksPerSecond
        maxWorldTicksPerSecond = baseline.maxWorldTicksPerSecond
        ratio = current.worldTicksPerSecond / baseline.worldTicksPerSecond
        guard current.runs >= 3, baseline.runs >= 3,
              let lo = current.minWorldTicksPerSecond, let hi = current.maxWorldTicksPerSecond,
              let baseLo = baseline.minWorldTicksPerSecond, let baseHi = baseline.maxWorldTicksPerSecond else {
            verdict = .noSpread
            return
        }
        verdict = lo > baseHi ? .faster : hi < baseLo ? .slower : .withinNoise
    }
}

extension BenchResult {
    /// Fills in each row's baseline figure (rows the baseline lacks keep none).
    mutating func compare(with saved: BenchResult, name: String) {
        baseline = BaselineSource(name: name, date: saved.machine.date, build: saved.machine.build, cpu: saved.machine.cpu)
        for k in engines.indices {
            let r = engines[k]
            engines[k].baseline = saved.engines.first { $0.engine == r.engine && $0.threads == r.threads && $0.worlds == r.worlds }
                .map { BaselineFigure(current: r, baseline: $0) }
        }
    }
}
