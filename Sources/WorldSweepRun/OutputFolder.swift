import Foundation
import WorldSweepScene
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder's safety rules: worldsweep never deletes or overwrites what it did not
/// write. Every name it writes must be absent or a plain file, and a folder holding results
/// without a run.json (or shards/) was written by something else. Problems are refusals (exit 2)
/// in one plain sentence, found before anything is created.
public enum OutputFolder {
    /// Every name a run, a shard or a merge writes in its folder.
    public static let names = ["run.json", "worlds.csv", "partners.csv", "summary.json", "done"] + reportNames + [
                               "report.md.tmp", "report.html.tmp", "importance.csv.tmp", "summary.points.tmp", "summary.partners.tmp", "run.json.tmp", "summary.json.tmp", "done.tmp",
                               "worlds.csv.tmp", "partners.csv.tmp", "rows.sum", "points.csv", "points.csv.tmp",
                               "partner_points.csv", "partner_points.csv.tmp",
                               "sweep.yaml", "sweep.yaml.tmp"]

    /// The report's files (WorldSweepReport writes them after a whole run or a merge).
    public static let reportNames = ["report.md", "report.html", "importance.csv"]

    /// Checks `directory` for a run to write into it (creating nothing).
    /// `ownMarker`: the file whose presence shows the folder is worldsweep's (run.json; for a
    /// merge, the shards/ folder).
    public static func check(_ directory: String, ownMarker: String = "run.json") throws {
        guard try checkUsable(directory) else { return }
        for name in names {
            guard let found = kind(of: "\(directory)/\(name)"), found != .file else { continue }
            throw RunInputError("\(directory)/\(name) is not a file worldsweep wrote; move it away or choose another --out")
        }
        if kind(of: "\(directory)/\(ownMarker)") == nil {
            // A run killed before its first rename leaves only its own temporary files (run.json.tmp):
            // they are ours and are written over, so such a folder starts afresh.
            for name in names where name != ownMarker && !name.hasSuffix(".tmp") && self.kind(of: "\(directory)/\(name)") != nil {
                throw RunInputError("\(directory) holds \(name) but no \(ownMarker), so worldsweep did not write it; "
                                    + "move it away or choose another --out")
            }
        }
    }

    /// Checks that `directory` is a folder worldsweep may write in, or one it may create (creating
    /// nothing); returns whether it exists. Every command that writes into an --out folder asks this
    /// first, so an unusable one is bad input (exit 2) before any work is done.
    @discardableResult
    public static func checkUsable(_ directory: String) throws -> Bool {
        guard !directory.isEmpty else { throw RunInputError("the output folder name is empty; give --out DIR") }
        // A name the file system cannot hold is refused before anything is made, not half-way.
        if let long = directory.split(separator: "/").first(where: { $0.utf8.count > 255 }) {
            throw RunInputError("the output folder name \(TextPosition.shown(directory)) is too long: a folder name of \(long.utf8.count) "
                                + "bytes, where the file system holds at most 255")
        }
        guard directory.utf8.count < 4096 else {
            throw RunInputError("the output folder path is \(directory.utf8.count) bytes long, more than the file system's 4095")
        }
        guard let existing = kind(of: directory) else {
            // Absent: its nearest existing ancestor must be a folder we may write in.
            try checkCreatable(directory)
            return false
        }
        guard existing == .folder else {
            throw RunInputError("\(directory) exists and is not a folder; give --out a folder name")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw RunInputError("cannot write in the output folder \(directory) (\(reason(errno)))")
        }
        return true
    }

    /// Creates `directory` (and missing parents), as `mkdir -p` does; one plain sentence on failure.
    public static func create(_ directory: String) throws {
        if kind(of: directory) == .folder { return }
        let up = parent(of: directory)
        if up != directory, kind(of: up) == nil { try create(up) }
        guard mkdir(directory, 0o755) == 0 || (errno == EEXIST && kind(of: directory) == .folder) else {
            throw RunInputError("cannot create the output folder \(directory) (\(reason(errno)))")
        }
    }

    enum Kind { case file, folder, other }

    /// Whether a folder is at `path` (links followed).
    public static func isFolder(_ path: String) -> Bool { kind(of: path) == .folder }

    /// What is at `path` (links followed), or nil when nothing is.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    private static func checkCreatable(_ directory: String) throws {
        var ancestor = parent(of: directory)
        while kind(of: ancestor) == nil { ancestor = parent(of: ancestor) }
        guard kind(of: ancestor) == .folder else {
            throw RunInputError("cannot create the output folder \(directory): \(ancestor) is not a folder")
        }
        guard access(ancestor, W_OK | X_OK) == 0 else {
            throw RunInputError("cannot create the output folder \(directory) (\(ancestor): \(reason(errno)))")
        }
    }

    /// The folder holding `path`: "." for a bare name, "/" for a name at the root. (Written out:
    /// Foundation's deletingLastPathComponent traps on some relative paths in release builds.)
    static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        return slash == p.startIndex ? "/" : String(p[..<slash])
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
