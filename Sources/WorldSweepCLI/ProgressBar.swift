import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on stderr: worlds done/total, worlds per second, ETA. Drawn only when
/// stderr is a terminal and TERM is not `dumb` (and not with --quiet); redrawn at most 10× a second
/// with `\r` + `ESC[K`.
final class ProgressBar {
    let enabled: Bool
    private var lastDraw: UInt64 = 0
    private var rate = ProgressRate()
    private var drawn = false

    init(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = !quiet && isatty(2) == 1 && environment["TERM"] != "dumb"
    }

    func update(done: Int, total: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let estimate = rate.observe(done: done, total: total, at: now)
        guard done == total || now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let width = 24
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var line = "[\(bar)] \(done)/\(total) worlds"
        if let estimate {
            line += String(format: "  %.0f worlds/s", estimate.worldsPerSecond)
            line += "  ETA " + Self.duration(estimate.secondsLeft)
        }
        emit("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Clears the bar so later messages start on a clean line.
    func finish() {
        guard enabled, drawn else { return }
        emit("\r\u{1B}[K")
        drawn = false
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = Int(seconds.rounded())
        if s >= 3600 { return "\(s / 3600)h\(String(format: "%02d", (s % 3600) / 60))m" }
        if s >= 60 { return "\(s / 60)m\(String(format: "%02d", s % 60))s" }
        return "\(s)s"
    }

    private func emit(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Worlds per second and time left, from what this invocation has run since its first report:
/// the rows a resumed run kept, and the time spent reading them back, count for neither (they
/// made a 3-minute job's ETA start at 27 minutes).
struct ProgressRate {
    private var start: (nanoseconds: UInt64, done: Int)?

    /// Records a report; nil until there is a rate (the first report only starts the clock).
    mutating func observe(done: Int, total: Int, at nanoseconds: UInt64) -> (worldsPerSecond: Double, secondsLeft: Double)? {
        guard let start else {
            self.start = (nanoseconds, done)
            return nil
        }
        let elapsed = Double(nanoseconds &- start.nanoseconds) / 1e9
        let ran = done - start.done
        guard elapsed > 0, ran > 0 else { return nil }
        let perSecond = Double(ran) / elapsed
        return (perSecond, Double(total - done) / perSecond)
    }
}
