import Foundation
import HTTPTypes
import Hummingbird
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Responses, each with the same safety headers: no sniffing of types, no referrer, and a policy
/// that lets a page load nothing from outside the server (the reports are self-contained).
enum Reply {
    static var safety: HTTPFields {
        var h = HTTPFields()
        h[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        h[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        h[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'"
        return h
    }

    static func make(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = safety
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func text(_ s: String, status: HTTPResponse.Status = .ok) -> Response { make(s, type: "text/plain; charset=utf-8", status: status) }
    static func html(_ s: String) -> Response { make(s, type: "text/html; charset=utf-8") }
    static func json(_ s: String) -> Response { make(s, type: "application/json") }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "md": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8",
        "json": "application/json", "yaml": "text/plain; charset=utf-8", "txt": "text/plain; charset=utf-8",
        "sum": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
    ]

    /// A plain file under the folder, streamed in 256 KiB pieces (the server holds one at a time).
    static func file(_ path: String, head: Bool) throws(ServeError) -> Response {
        guard RunsFolder.kind(path) == .file, let (size, _) = RunsFolder.stamp(path) else {
            throw ServeError(.notFound, "\(path.split(separator: "/").last ?? ""): not a file")
        }
        let ext = path.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        var headers = safety
        headers[.contentType] = types[ext] ?? "application/octet-stream"
        headers[.cacheControl] = "no-cache"
        if head { headers[.contentLength] = String(size); return Response(status: .ok, headers: headers) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ServeError(.forbidden, "cannot read that file") }
        let body = ResponseBody(contentLength: size) { writer in
            defer { close(fd) }
            var left = size
            var chunk = [UInt8](repeating: 0, count: 256 << 10)
            while left > 0 {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, min($0.count, left)) }
                guard n > 0 else { break }
                try await writer.write(ByteBuffer(bytes: chunk[0..<n]))
                left -= n
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
