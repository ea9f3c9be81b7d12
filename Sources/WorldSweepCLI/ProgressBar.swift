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
    private let started = DispatchTime.now()
    private var lastDraw: UInt64 = 0
    private var startDone: Int?
    private var drawn = false

    init(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = !quiet && isatty(2) == 1 && environment["TERM"] != "dumb"
    }

    func update(done: Int, total: Int) {
        guard enabled else { return }
        if startDone == nil { startDone = done }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        let elapsed = Double(now - started.uptimeNanoseconds) / 1e9
        let rate = elapsed > 0 ? Double(done - (startDone ?? 0)) / elapsed : 0
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let width = 24
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var line = "[\(bar)] \(done)/\(total) worlds"
        if rate > 0 {
            line += String(format: "  %.0f worlds/s", rate)
            line += "  ETA " + Self.duration(Double(total - done) / rate)
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
