import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Final files are written whole: `NAME.tmp`, fsync, rename over `NAME` (a `StagedFile` placed
/// at once).
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        try StagedFile(data, to: path).place()
    }

    public static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }
}

/// A file written whole now and put in place later: its bytes go to `NAME.tmp` at once (so a
/// folder that takes no file fails here, where the caller can say so), and `place` syncs it and
/// renames it over `NAME`, as `AtomicFile.write` does in one go. The fsync is what takes time
/// (most of all a new folder's first files), and `place` can run beside other work.
public final class StagedFile: @unchecked Sendable {
    public let path: String
    private let tmp: String

    public init(_ data: Data, to path: String) throws {
        self.path = path
        tmp = path + ".tmp"
        let out = try AppendFile(path: tmp, truncate: true)
        try out.append(data)
        out.close()
    }

    /// Syncs the bytes and renames them into place.
    public func place() throws {
        let fd = open(tmp, O_WRONLY)
        guard fd >= 0 else { throw RunFileError("cannot open \(tmp) to sync it: \(String(cString: strerror(errno)))") }
        defer { _ = posixClose(fd) }
        guard fsync(fd) == 0 else { throw RunFileError("cannot sync \(tmp): \(String(cString: strerror(errno)))") }
        guard rename(tmp, path) == 0 else { throw RunFileError("cannot rename \(tmp) to \(path): \(String(cString: strerror(errno)))") }
    }
}

/// Work started on another thread now and waited for later, its error rethrown by `wait`.
public final class BackgroundWork: @unchecked Sendable {
    private let group = DispatchGroup()
    private var error: Error?
    private var waited = false

    public init(_ work: @escaping @Sendable () throws -> Void) {
        DispatchQueue.global().async(group: group) { [self] in
            do { try work() } catch { self.error = error }
        }
    }

    /// Waits for the work (at once if it is done) and rethrows its error, the first time only.
    public func wait() throws {
        guard !waited else { return }
        group.wait()
        waited = true
        if let error { throw error }
    }
}

/// A file opened for appending with plain POSIX writes (what is written survives a kill -9).
public final class AppendFile {
    private var fd: Int32
    public let path: String
    /// Bytes appended through this handle, and how many of them the kernel was asked to start
    /// writing to the disk (`startWriteback`).
    private var appended = 0, writebackStarted = 0
    /// Past this many bytes appended since the last start, writeback of them is started.
    private static let writebackStep = 1 << 20

    /// Whether the kernel is asked to start writing as the file grows (files the run syncs).
    private let startsWriteback: Bool

    public init(path: String, truncate: Bool, startsWriteback: Bool = true) throws {
        self.path = path
        self.startsWriteback = startsWriteback
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0), 0o644)
        guard fd >= 0 else { throw RunFileError("cannot open \(path) for writing: \(String(cString: strerror(errno)))") }
    }

    deinit { close() }

    public func append(_ text: String) throws {
        var text = text
        try text.withUTF8 { try append(UnsafeRawBufferPointer($0)) }
    }

    public func append(_ data: Data) throws {
        try data.withUnsafeBytes { try append($0) }
    }

    public func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    private func append(_ raw: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < raw.count {
            let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw RunFileError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        appended += raw.count
        if startsWriteback && appended - writebackStarted >= Self.writebackStep {
            startWriteback(fd, from: writebackStarted, count: appended - writebackStarted)
            writebackStarted = appended
        }
    }

    public func sync() throws {
        guard fsync(fd) == 0 else { throw RunFileError("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    public func close() {
        if fd >= 0 { _ = posixClose(fd); fd = -1 }
    }
}

#if canImport(Glibc)
private let posixWrite = Glibc.write
private let posixClose = Glibc.close
#elseif canImport(Darwin)
private let posixWrite = Darwin.write
private let posixClose = Darwin.close
#endif

/// Asks the kernel to start writing bytes appended to an open file (Linux's sync_file_range with
/// SYNC_FILE_RANGE_WRITE; it waits for nothing). The closing fsync then finds them on their way
/// instead of waiting on the path to the report. `start` is relative to the bytes this handle
/// appended, which begin where the file began when opened for a fresh run; on a resumed run the
/// hint may name the wrong bytes, which costs nothing but the hint. Elsewhere, nothing.
/// Returns whether the kernel took the hint.
@discardableResult
func startWriteback(_ fd: Int32, from start: Int, count: Int) -> Bool {
    #if os(Linux)
    return syncFileRange?(fd, Int64(start), Int64(count), 2 /* SYNC_FILE_RANGE_WRITE */) == 0
    #else
    return false
    #endif
}

#if os(Linux)
/// sync_file_range, looked up at run time: the Glibc module leaves out what needs _GNU_SOURCE.
private let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
}()
#endif

/// Cuts a file to `length` bytes (dropping rows that did not survive a kill).
func truncateFile(_ path: String, to length: Int) throws {
    guard truncate(path, off_t(length)) == 0 else { throw RunFileError("cannot truncate \(path): \(String(cString: strerror(errno)))") }
}

/// FNV-1a of a file's bytes, to tell whether a resumed run still has the same file.
func fingerprint(_ data: Data) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in data { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return String(h, radix: 16)
}
