import Foundation

/// Files under a folder that some process on this machine holds open (Linux: /proc/PID/fd):
/// a run writing its rows keeps them open, so it is running however long a chunk takes. Elsewhere
/// (and for shards on other nodes) the catalog falls back on how recently the rows changed.
enum OpenFiles {
    static func under(_ folder: String) -> Set<String> {
        var found = Set<String>()
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return found }
        let prefix = folder + "/"
        let own = String(getpid())   // the server reads files too; it writes none
        for pid in pids where pid.allSatisfy(\.isNumber) && pid != own {
            let fds = "/proc/\(pid)/fd"
            guard let list = try? FileManager.default.contentsOfDirectory(atPath: fds) else { continue }
            for fd in list.prefix(4096) {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + fd), target.hasPrefix(prefix) {
                    found.insert(target)
                }
            }
        }
        return found
    }
}
