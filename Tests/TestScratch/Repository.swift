import Foundation

/// The repository's folder, found from this file's path (Tests/TestScratch/Repository.swift), so
/// tests read Sweeps/, docs/ and Tests/ fixtures whatever the working directory `swift test` runs in.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relative` (e.g. "Sweeps/twin-drop.yaml") in the repository.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}
