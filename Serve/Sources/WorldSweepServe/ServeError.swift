import Hummingbird

/// A refused request: its status (always a 4xx or 503) and one plain sentence, which is both the
/// reply's body and the server's one-line log.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.code) \(message)" }
}
