import Foundation
import Hummingbird
import Logging

/// `worldsweep serve`: the server's set-up and its one responder. Every request passes the same
/// gate: GET or HEAD only, no body, a bounded URI, and (on loopback) a Host header naming this
/// machine, so a web page elsewhere cannot reach the server through a rebound name.
public enum ServeApp {
    public static let maxURI = 4096

    /// Runs until Ctrl-C or SIGTERM. `ready` hears the address once the server listens.
    public static func run(_ options: ServeOptions, ready: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let folder = try RunsFolder(options.folder)
        let site = Site(folder: folder, catalog: RunCatalog(folder: folder, liveWindow: options.liveWindow),
                        loopbackOnly: options.loopbackOnly, verbose: options.verbose)
        var logger = Logger(label: "worldsweep-serve")
        logger.logLevel = .warning
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in await site.respond(request) },
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil, reuseAddress: true),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let host = options.host.contains(":") ? "[\(options.host)]" : options.host
                ready("http://\(host):\(port)/")
            },
            logger: logger)
        try await app.runService()
    }
}

/// What the server answers, request by request.
final class Site: Sendable {
    let folder: RunsFolder
    let catalog: CatalogCache
    let loopbackOnly: Bool
    let verbose: Bool
    let heavy = Gate(running: 2, waiting: 32)
    let streams = Gate(running: 64, waiting: 0)

    init(folder: RunsFolder, catalog: RunCatalog, loopbackOnly: Bool, verbose: Bool) {
        self.folder = folder
        self.catalog = CatalogCache(catalog)
        self.loopbackOnly = loopbackOnly
        self.verbose = verbose
    }

    func respond(_ request: Request) async -> Response {
        let line = "\(request.method.rawValue) \(String(request.uri.description.prefix(200)))"
        do {
            let response = try await route(request)
            if verbose { Log.line("\(response.status.code) \(line)") }
            return response
        } catch let error as ServeError {
            Log.line("\(error.status.code) \(line): \(error.message)")
            return Reply.text(error.message + "\n", status: error.status)
        } catch {
            Log.line("500 \(line): \(error)")
            return Reply.text("internal error: \(error)\n", status: .internalServerError)
        }
    }

    private func route(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw ServeError(.methodNotAllowed, "only GET and HEAD are served (the server never changes a run)")
        }
        guard request.uri.description.utf8.count <= ServeApp.maxURI else {
            throw ServeError(.uriTooLong, "the URI is over \(ServeApp.maxURI) bytes")
        }
        if let length = request.headers[.contentLength], length != "0" {
            throw ServeError(.contentTooLarge, "a request carries no body here (Content-Length \(length.prefix(20)))")
        }
        if request.headers[.transferEncoding] != nil {
            throw ServeError(.contentTooLarge, "a request carries no body here (Transfer-Encoding)")
        }
        if loopbackOnly {
            let host = request.head.authority.map { Self.hostName($0) } ?? ""
            guard ["127.0.0.1", "localhost", "[::1]", "::1"].contains(host) || host.hasPrefix("127.") else {
                throw ServeError(.forbidden, "Host '\(host.prefix(80))' is not this machine (the server listens on loopback only)")
            }
        }
        let path = try Query.decode(request.uri.path)
        let query = try Query(request.uri.query ?? "")
        switch path {
        case "/": return Reply.html(Pages.catalog(folder: folder.shown))
        case "/api/runs": return Reply.json(try await catalog.json())
        case "/api/events": return try await events("runs") { [catalog] in try await catalog.json() }
        case "/tune": return Reply.html(Pages.tune(run: try query.required("run")))
        case "/api/tune": return Reply.json(try await heavy.run { [folder, catalog] in
            try TuneLive.json(run: try query.required("run"), folder: folder, catalog: catalog.catalog) })
        case "/api/tune/events":
            let run = try query.required("run")
            // Refused before the stream starts when the folder holds no search.
            _ = try await heavy.run { [folder, catalog] in try TuneLive.json(run: run, folder: folder, catalog: catalog.catalog) }
            return try await events("tune") { [folder, catalog] in
                try await Offload.run { try TuneLive.json(run: run, folder: folder, catalog: catalog.catalog) }
            }
        case "/replay": return Reply.html(Pages.replay(run: try query.required("run")))
        case "/api/sweep": return Reply.json(try await heavy.run { [folder] in try SweepInfo.json(run: try query.required("run"), folder: folder) })
        case "/api/worlds": return Reply.json(try await heavy.run { [folder] in try WorldsTable.json(query, folder: folder) })
        case "/api/replay": return Reply.json(try await heavy.run { [folder] in try Replay.json(try query.replayRequest(), folder: folder) })
        case "/compare": return Reply.html(try await heavy.run { [folder] in try Compare.html(query, folder: folder) })
        case "/favicon.ico": throw ServeError(.notFound, "no icon")
        default:
            guard path.hasPrefix("/files/") else { throw ServeError(.notFound, "no page \(path.prefix(200))") }
            return try Reply.file(try folder.resolve(String(path.dropFirst("/files/".count))), head: request.method == .head)
        }
    }

    /// Server-sent events: `next()` (the catalog, or one tune's search) whenever it changes,
    /// checked each second, as `event: NAME`; a comment every 15 s keeps the line open; a stream
    /// ends after an hour (the browser reconnects). A failing `next()` ends it.
    private func events(_ name: String, _ next: @escaping @Sendable () async throws -> String) async throws -> Response {
        let ticket = try await streams.enter()
        let body = ResponseBody { writer in
            defer { ticket.leave() }
            var last = "", quiet = 0
            for _ in 0..<3_600 {
                let json = try await next()
                if json != last {
                    try await writer.write(ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n"))
                    last = json
                    quiet = 0
                } else {
                    quiet += 1
                    if quiet % 15 == 0 { try await writer.write(ByteBuffer(string: ": waiting\n\n")) }
                }
                try await Task.sleep(nanoseconds: 1_000_000_000)
            }
            try await writer.finish(nil)
        }
        var headers = Reply.safety
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: body)
    }

    static func hostName(_ header: String) -> String {
        if header.hasPrefix("[") { return String(header.prefix { $0 != "]" }) + "]" }
        return String(header.split(separator: ":", maxSplits: 1).first ?? "")
    }
}

/// The catalog computed at most once a second, however many pages and streams ask.
final class CatalogCache: @unchecked Sendable {
    let catalog: RunCatalog
    private let lock = NSLock()
    private var made: (time: Double, json: String)?

    init(_ catalog: RunCatalog) { self.catalog = catalog }

    func json() async throws -> String {
        try await Offload.run { [self] in
            lock.lock(); defer { lock.unlock() }
            let now = Date().timeIntervalSince1970
            if let made, now - made.time < 0.9 { return made.json }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = String(decoding: try encoder.encode(catalog.entries()), as: UTF8.self)
            made = (now, json)
            return json
        }
    }
}

/// One line per refused request (and per request with --verbose) on stderr.
enum Log {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data("worldsweep-serve: \(text.replacingOccurrences(of: "\n", with: " "))\n".utf8))
    }
}
