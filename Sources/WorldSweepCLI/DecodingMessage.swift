import Foundation

/// A JSON file that does not decode, said in our words: what is wrong and where, never the
/// decoder's type names, coding keys or debug descriptions.
enum DecodingMessage {
    static func text(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not readable JSON" }
        switch decoding {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "an unreadable value\(at(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "missing the key '\(key.stringValue)'\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "a value of the wrong kind\(at(context.codingPath))"
        @unknown default:
            return "not readable JSON"
        }
    }

    /// " at 'points.3.metrics'" (nothing at the top level).
    private static func at(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : " at '\(path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))'"
    }
}
