/// What `worldsweep serve` was asked for.
public struct ServeOptions: Sendable {
    public var folder = "runs"
    public var host = "127.0.0.1"
    public var port = 8080
    /// Seconds since a run's rows last changed within which it counts as running when no process
    /// on this machine holds them open (shards written on other nodes).
    public var liveWindow = 60.0
    /// Whether to log every request (refusals are always logged).
    public var verbose = false

    public init() {}

    /// `[FOLDER] [--host H] [--port P] [--live-window S] [--verbose]`.
    public init(arguments: [String]) throws(ServeError) {
        var rest = arguments[...]
        var folderGiven = false
        func value(_ flag: String) throws(ServeError) -> String {
            guard let v = rest.popFirst() else { throw ServeError(.badRequest, "\(flag) needs a value") }
            return v
        }
        while let arg = rest.popFirst() {
            switch arg {
            case "--host": host = try value(arg)
            case "--port":
                let text = try value(arg)
                guard let p = Int(text), (0...65535).contains(p) else { throw ServeError(.badRequest, "--port must be 0 to 65535, got '\(text)'") }
                port = p
            case "--live-window":
                let text = try value(arg)
                guard let s = Double(text), s > 0, s <= 86_400 else { throw ServeError(.badRequest, "--live-window must be 0 to 86400 seconds, got '\(text)'") }
                liveWindow = s
            case "--verbose": verbose = true
            default:
                guard !arg.hasPrefix("-"), !folderGiven else { throw ServeError(.badRequest, "unknown argument '\(arg)' (usage: worldsweep serve [FOLDER] [--host H] [--port P])") }
                folder = arg
                folderGiven = true
            }
        }
    }

    /// Whether the server listens on this machine only.
    public var loopbackOnly: Bool { ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.") }
}
