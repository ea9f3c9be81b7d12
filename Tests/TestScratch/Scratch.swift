import Foundation

/// Scratch space for tests. Every path lies under one directory per test process, which is
/// removed when the process exits, so repeated test runs leave nothing behind in the temporary
/// directory (a killed run leaves one directory, named after its process id).
public enum Scratch {
    /// `<temporary directory>/worldsweep-tests-<pid>`, made on first use.
    public static let root: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("worldsweep-tests-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: path)   // a stale one from a reused pid
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return path
    }()

    /// A fresh path under `root` whose name starts with `tag`; made as a directory if `create`,
    /// otherwise nothing exists there yet (for commands that must make it themselves).
    public static func directory(_ tag: String, create: Bool = true) -> String {
        let path = "\(root)/\(tag)-\(UUID().uuidString)"
        if create { try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        return path
    }
}
