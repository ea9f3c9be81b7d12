import ArgumentParser
import Foundation
import WorldSweep
import WorldSweepRun
import WorldSweepScene

// The comma-separated options (--worlds, --threads, --engines), checked before anything is measured.
extension BenchCommand {
    /// A comma-separated list of positive whole numbers, in order, duplicates dropped.
    static func counts(_ text: String, name: String, limit: ClosedRange<Int> = CommandLineLimits.benchWorlds) throws -> [Int] {
        // A whole number outside the range (however large) is named as such, not as unusable text.
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let digits = part.hasPrefix("-") ? part.dropFirst() : Substring(part)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
            if Int(part).map({ !limit.contains($0) }) ?? true {
                throw BadInput("\(name) must be from \(limit.lowerBound) to \(limit.upperBound), got \(TextPosition.shown(part))")
            }
        }
        return try list(text, name: name) { Int($0).flatMap { limit.contains($0) ? $0 : nil } }
    }

    /// The engines named in `text`: `single`, `batched` (one per integrator), or `batched-simd` /
    /// `batched-blas`; in order, duplicates dropped.
    static func engines(_ text: String, integrators: [LaneIntegrator]) throws -> [SweepEngine] {
        let named = try list(text, name: "--engines") { part -> [SweepEngine]? in
            switch part {
            case "single", "single-world": return [.single]
            case "batched": return integrators.map { .batched($0) }
            default:
                guard part.hasPrefix("batched-"), let i = LaneIntegrator(rawValue: String(part.dropFirst(8))) else { return nil }
                return [.batched(i)]
            }
        }
        var out: [SweepEngine] = []
        for e in named.flatMap({ $0 }) where !out.contains(e) { out.append(e) }
        return out
    }

    /// Parses every comma-separated item of `text`, in order, duplicates dropped; an empty list or
    /// item, or one `parse` rejects, is bad input.
    static func list<T: Equatable>(_ text: String, name: String, _ parse: (String) -> T?) throws -> [T] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.allSatisfy(\.isEmpty) { throw BadInput("\(name): the list is empty") }
        var values: [T] = []
        for part in parts {
            guard !part.isEmpty, let v = parse(part) else { throw BadInput("\(name): cannot use '\(TextPosition.shown(part))' in '\(TextPosition.shown(text))'") }
            if !values.contains(v) { values.append(v) }
        }
        return values
    }
}
