import Foundation
import WorldSweepCLI
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real server, started as its own process on a free loopback port over a runs folder, and
/// a raw HTTP client (paths are sent exactly as written: no client tidies `..` away).
final class ServerProcess {
    let process = Process()
    let port: Int
    let errors = Pipe()

    init(folder: String, extra: [String] = []) throws {
        process.executableURL = Self.binary
        process.arguments = [folder, "--port", "0", "--live-window", "3"] + extra
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The first line names the address: "worldsweep serve: http://127.0.0.1:PORT/ (...)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let piece = output.fileHandleForReading.availableData
            guard !piece.isEmpty else { break }
            line += piece
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
              let port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast()) else {
            process.terminate()
            throw XCTSkip("the server did not start: \(text)")
        }
        self.port = port
    }

    /// The server binary beside the test bundle (`swift build --build-tests` builds both).
    static var binary: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("worldsweep-serve")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Repository.root.appendingPathComponent("Serve/.build/debug/worldsweep-serve")
    }

    /// Resident memory of the server process (kB), from /proc.
    var residentKB: Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    func stop() -> String {
        process.terminate()
        process.waitUntilExit()
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func get(_ path: String, headers: [String] = [], body: String? = nil, method: String = "GET") throws -> HTTPReply {
        try HTTPClient.request(port: port, method: method, path: path, headers: headers, body: body)
    }

    func json(_ path: String) throws -> Any {
        let reply = try get(path)
        XCTAssertEqual(reply.status, 200, "\(path): \(reply.text)")
        return try JSONSerialization.jsonObject(with: Data(reply.body))
    }

    func runs() throws -> [[String: Any]] { try json("/api/runs") as? [[String: Any]] ?? [] }
}

struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum HTTPClient {
    /// One request on its own connection (`Connection: close`), read to the end, chunked bodies joined.
    static func request(port: Int, method: String = "GET", path: String, headers: [String] = [], body: String? = nil,
                        timeout: Int = 120) throws -> HTTPReply {
        let fd = try connect(port: port, timeout: timeout)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.lowercased().hasPrefix("host:") }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        head += headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n"
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        head += "\r\n" + (body ?? "")
        try send(fd, head)
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return try parse(data)
    }

    static func connect(port: Int, timeout: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else { close(fd); throw ClientError("cannot connect to port \(port)") }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }   // the server may close early on a refused request
            sent += n
        }
    }

    static func parse(_ data: [UInt8]) throws -> HTTPReply {
        guard let end = find(data, Array("\r\n\r\n".utf8)) else { throw ClientError("no reply head in \(data.count) bytes") }
        let head = String(decoding: data[0..<end], as: UTF8.self).split(separator: "\r\n")
        guard let first = head.first, first.split(separator: " ").count >= 2, let status = Int(first.split(separator: " ")[1]) else {
            throw ClientError("bad status line")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            let kv = line.split(separator: ":", maxSplits: 1)
            if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
        }
        var body = Array(data[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while let lineEnd = find(Array(data[i...]), Array("\r\n".utf8)) {
            let size = Int(String(decoding: data[i..<(i + lineEnd)], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
            i += lineEnd + 2
            if size == 0 || i + size > data.count { break }
            out += data[i..<(i + size)]
            i += size + 2
        }
        return out
    }

    static func find(_ data: [UInt8], _ needle: [UInt8]) -> Int? {
        guard data.count >= needle.count else { return nil }
        for i in 0...(data.count - needle.count) where data[i] == needle[0] && Array(data[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

struct ClientError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

enum Repository {
    /// The repository's root (this file is Serve/Tests/WorldSweepServeTests/ServerHarness.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var twinDrop: String { root.appendingPathComponent("Sweeps/twin-drop.yaml").path }

    /// A scratch folder for one test, removed by the caller.
    static func scratch() -> String {
        let path = NSTemporaryDirectory() + "serve-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The example sweep cut down to `worlds` worlds (elasticity × push), as a run's command line.
func smallSweep(elasticities: [Double], pushes: [Double]) -> [String] {
    [Repository.twinDrop, "--sweep", "bouncy.elasticity=" + elasticities.map { "\($0)" }.joined(separator: ","),
     "--sweep", "bouncy.density=1", "--sweep", "shove.magnitude=" + pushes.map { "\($0)" }.joined(separator: ",")]
}

/// Runs `worldsweep ARGS` in this process and checks it succeeded.
func worldsweep(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(WorldSweepCommand.execute(arguments), 0, "worldsweep \(arguments.joined(separator: " "))", file: file, line: line)
}
