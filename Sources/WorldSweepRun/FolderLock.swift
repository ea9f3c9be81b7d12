import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One process at a time in an output folder: an advisory `flock` on `DIR/.worldsweep.lock`, taken
/// by run, tune, resume and merge before they read or write anything there. The kernel drops the
/// lock when its descriptor closes, however the process ends (kill -9 included), so a lock file
/// left behind is never stale: the next process takes it. The file stays empty, so two run folders
/// still compare byte for byte.
public final class FolderLock {
    public static let fileName = ".worldsweep.lock"

    private var descriptor: Int32
    private let directory: String
    /// The folders this lock created (the innermost first): removed again at release while they
    /// hold nothing but the lock, so a command refused after taking it leaves no folder behind.
    private let created: [String]

    /// Takes the lock of `directory`, creating the folder (and its parents) first; a folder another
    /// process holds is refused in one sentence (exit 2).
    public init(_ directory: String) throws {
        try OutputFolder.checkUsable(directory)
        var missing: [String] = []
        var folder = directory
        while OutputFolder.kind(of: folder) == nil {
            missing.append(folder)
            let up = OutputFolder.parent(of: folder)
            if up == folder { break }
            folder = up
        }
        do { try OutputFolder.create(directory) } catch {
            for folder in missing { rmdir(folder) }   // only the empty folders this call made
            throw error
        }
        self.directory = directory
        created = missing
        let path = "\(directory)/\(Self.fileName)"
        if let found = OutputFolder.kind(of: path), found != .file {
            throw RunInputError("\(path) is not a file worldsweep wrote; move it away or choose another --out")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RunInputError("cannot write in the output folder \(directory) (\(OutputFolder.reason(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = OutputFolder.reason(errno)
            close(fd)
            for folder in created where rmdir(folder) != 0 { break }
            throw RunInputError(busy ? "\(directory) is in use by another worldsweep process (a run, tune or merge there has "
                                + "not finished); wait for it, or give another --out"
                                : "cannot lock the output folder \(directory) (\(reason))")
        }
        descriptor = fd
    }

    /// Gives the lock up now (it is also given up when the object goes, or the process ends).
    public func release() {
        guard descriptor >= 0 else { return }
        if !created.isEmpty, (try? FileManager.default.contentsOfDirectory(atPath: directory)) == [Self.fileName] {
            unlink("\(directory)/\(Self.fileName)")
            for folder in created where rmdir(folder) != 0 { break }
        }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
