import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder the server shows, and the one way a request's path becomes a file in it: a path
/// that climbs out (`..`), names a hidden file, or reaches outside through a symbolic link is
/// refused, so the server reads only what lies under the folder. It never writes there.
public struct RunsFolder: Sendable {
    /// The folder as given, for messages and commands.
    public let shown: String
    /// Its real path (links resolved), the prefix every served file's real path must have.
    public let real: String

    public init(_ path: String) throws(ServeError) {
        guard let resolved = realpath(path, nil) else {
            throw ServeError(.notFound, "\(path): no such folder (give the folder your runs are in, default runs/)")
        }
        defer { free(resolved) }
        let real = String(cString: resolved)
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ServeError(.notFound, "\(path): not a folder")
        }
        self.shown = path
        self.real = real
    }

    /// The real path of `relative` (slash-separated, already percent-decoded) under the folder,
    /// or a refusal: a 400 for a path that could not be under it, a 403 for a link leading out, a
    /// 404 for nothing there.
    public func resolve(_ relative: String) throws(ServeError) -> String {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard relative.utf8.count <= Self.longestPath, parts.count <= 32 else {
            throw ServeError(.uriTooLong, "path longer than \(Self.longestPath) bytes or 32 folders")
        }
        for part in parts where part == ".." || part == "." || part.hasPrefix(".") || part.contains("\0") || part.contains("\\") {
            throw ServeError(.badRequest, "path part '\(part.prefix(40))' is not allowed (no '..', '.', hidden names or backslashes)")
        }
        let joined = parts.isEmpty ? real : real + "/" + parts.joined(separator: "/")
        guard let resolved = realpath(joined, nil) else {
            throw ServeError(.notFound, "\(relative): not in \(shown)")
        }
        defer { free(resolved) }
        let target = String(cString: resolved)
        guard target == real || target.hasPrefix(real + "/") else {
            throw ServeError(.forbidden, "\(relative): a link leading out of \(shown)")
        }
        return target
    }

    /// `resolve` of a path that must be a folder.
    public func folder(_ relative: String) throws(ServeError) -> String {
        let path = try resolve(relative)
        guard Self.kind(path) == .folder else { throw ServeError(.notFound, "\(relative): not a run folder in \(shown)") }
        return path
    }

    /// A real path under the folder written relative to it ("" for the folder itself).
    public func relative(_ path: String) -> String {
        path == real ? "" : String(path.dropFirst(real.count + 1))
    }

    public static let longestPath = 1024

    public enum Kind: Equatable { case file, folder, link, other }

    /// What is at `path`, not following a final link; nil when nothing is.
    public static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Size and modification time (seconds since 1970) of a plain file or folder; nil otherwise.
    public static func stamp(_ path: String) -> (size: Int, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let t = info.st_mtimespec
        #else
        let t = info.st_mtim
        #endif
        return (Int(info.st_size), Double(t.tv_sec) + Double(t.tv_nsec) / 1e9)
    }

    /// A file's bytes, refused past `limit` bytes (the server holds no more than that per request).
    public static func bytes(_ path: String, limit: Int) throws(ServeError) -> [UInt8] {
        guard let (size, _) = stamp(path), kind(path) != .folder else { throw ServeError(.notFound, "no file \(path)") }
        guard size <= limit else { throw ServeError(.contentTooLarge, "\(path) is \(size) bytes, over the \(limit)-byte limit") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ServeError(.forbidden, "cannot read \(path)") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }

    /// A file's text (UTF-8, replacing bad bytes), or nil when absent or too large.
    public static func text(_ path: String, limit: Int = 16 << 20) -> String? {
        (try? bytes(path, limit: limit)).map { String(decoding: $0, as: UTF8.self) }
    }
}
