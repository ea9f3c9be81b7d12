/// The metrics of one file: the built-in ones and those written in its `measure:` section. What
/// reads a run's columns by name (the report, the tune evaluator) asks it, not the built-in table
/// alone: a written metric's name is the file's.
public struct MetricCatalog: Sendable, Hashable {
    /// The file's written metrics, in file order.
    public let written: [MetricDeclaration]
    private let writtenByName: [String: MetricDeclaration]

    public init(written: [MetricDeclaration]) {
        self.written = written
        writtenByName = Dictionary(written.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// A file without written metrics.
    public static let builtIn = MetricCatalog(written: [])

    /// Every metric, built-in first, in column order within an item.
    public var all: [MetricDeclaration] { MetricDeclaration.builtIn + written }

    /// The metric named `key` (`rest_time`, a written metric's name), nil for any other.
    public func named(_ key: some StringProtocol) -> MetricDeclaration? {
        MetricDeclaration.named(key) ?? (written.isEmpty ? nil : writtenByName[String(key)])
    }

    /// The time metric a never-share key counts (`never_rest` → rest_time), nil for any other.
    public func counted(byNever key: some StringProtocol) -> MetricDeclaration? {
        if let d = MetricDeclaration.counted(byNever: key) { return d }
        return written.first { $0.censoring.neverKey.map { $0 == key } ?? false }
    }

    /// Whether worlds can lack a value of `column` (`ITEM.KEY`: the key after the first dot,
    /// whole; a partner's `ITEM.contacts.PARTNER` never).
    public func canBeMissing(_ column: String) -> Bool {
        guard let dot = column.firstIndex(of: ".") else { return false }
        return named(column[column.index(after: dot)...])?.isCounted ?? false
    }
}
