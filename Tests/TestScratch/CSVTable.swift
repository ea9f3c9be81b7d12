import Foundation

/// A CSV file as worldsweep writes it (no quoting: it never writes a comma inside a cell): its
/// header, its rows, and columns read by name.
public struct CSVTable: Sendable {
    public let header: [String]
    public let rows: [[String]]

    public init(text: String) {
        let lines = text.split(separator: "\n")
        let split = { (l: Substring) in l.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        header = lines.first.map(split) ?? []
        rows = lines.dropFirst().map(split)
    }

    public init(path: String) throws {
        self.init(text: try String(contentsOfFile: path, encoding: .utf8))
    }

    /// The cells of the column headed `name` (precondition: there is one).
    public func column(_ name: String) -> [String] {
        guard let k = header.firstIndex(of: name) else { preconditionFailure("no column '\(name)' in \(header)") }
        return rows.map { $0[k] }
    }

    /// The column's cells as numbers (an empty cell is NaN).
    public func numbers(_ name: String) -> [Double] { column(name).map { Double($0) ?? .nan } }

    /// Each row as its cells by column name.
    public var records: [[String: String]] { rows.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) } }

    /// The column's mean.
    public func mean(_ name: String) -> Double {
        let values = numbers(name)
        return values.reduce(0, +) / Double(values.count)
    }
}

extension Scratch {
    /// Writes `text` to a file `name` in a fresh scratch directory tagged `tag`; returns its path.
    public static func file(_ text: String, named name: String, tag: String) throws -> String {
        let path = directory(tag) + "/\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
