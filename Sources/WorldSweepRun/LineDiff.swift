/// The lines two texts differ in (for `compare`: two runs' sweep.yaml), as a unified diff's body:
/// `-` lines only in A, `+` lines only in B, each hunk led by `@@ A's line, B's line`.
public enum LineDiff {
    /// Above this many lines a side is too long for the quadratic table; the caller just says
    /// the files differ.
    public static let maximumLines = 4_000

    /// Nil when the texts are equal or too long to diff.
    public static func lines(_ a: String, _ b: String) -> [String]? {
        guard a != b else { return nil }
        let x = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard x.count <= maximumLines, y.count <= maximumLines else { return nil }
        // Longest common subsequence lengths of every pair of suffixes.
        var common = [[Int32]](repeating: [Int32](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                common[i][j] = x[i] == y[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var out: [String] = []
        var i = 0, j = 0, inHunk = false
        while i < x.count || j < y.count {
            if i < x.count, j < y.count, x[i] == y[j] {
                i += 1; j += 1; inHunk = false
                continue
            }
            if !inHunk { out.append("@@ A line \(i + 1), B line \(j + 1)"); inHunk = true }
            // A's line first where either way keeps as much in common, as diff prints them.
            if i < x.count, j == y.count || common[i + 1][j] >= common[i][j + 1] {
                out.append("-" + x[i]); i += 1
            } else {
                out.append("+" + y[j]); j += 1
            }
        }
        return out
    }
}
