import Foundation

/// Two columns of a run's worlds.csv against each other, for the replay page's chart (a click on a
/// dot replays that world): `[world, x, y]` per world, at most `maxPoints` (every k-th world past that).
enum WorldsTable {
    static let maxPoints = 20_000, maxBytes = 512 << 20

    static func json(_ query: Query, folder: RunsFolder) throws(ServeError) -> String {
        let dir = try folder.folder(try query.required("run"))
        guard let (size, _) = RunsFolder.stamp(dir + "/worlds.csv") else {
            throw ServeError(.notFound, "no worlds.csv in this run yet")
        }
        guard size <= maxBytes else { throw ServeError(.contentTooLarge, "worlds.csv is \(size) bytes, over the \(maxBytes)-byte limit of the chart") }
        guard let text = RunsFolder.text(dir + "/worlds.csv", limit: maxBytes) else { throw ServeError(.notFound, "cannot read worlds.csv") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard !lines.isEmpty else { throw ServeError(.notFound, "worlds.csv is empty") }
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let x = query.first("x") ?? header.dropFirst(3).first ?? "world"
        let y = query.first("y") ?? header.first { $0.hasSuffix(".bounce1") } ?? header.last ?? "world"
        guard let xi = header.firstIndex(of: x), let yi = header.firstIndex(of: y), let wi = header.firstIndex(of: "world") else {
            throw ServeError(.badRequest, "worlds.csv has no column '\(x)' or '\(y)'")
        }
        let stride = max(1, (lines.count + maxPoints - 1) / maxPoints)
        var out = JSONOut()
        out.raw("{\"x\":"); out.string(x); out.raw(",\"y\":"); out.string(y)
        out.raw(",\"columns\":[" + header.map(JSONOut.quoted).joined(separator: ",") + "]")
        out.raw(",\"every\":\(stride),\"points\":[")
        var first = true
        for (k, line) in lines.enumerated() where k % stride == 0 {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == header.count, let w = Int(cells[wi]), let a = Double(cells[xi]), let b = Double(cells[yi]) else { continue }
            out.raw(first ? "[" : ",[")
            out.raw("\(w),"); out.number(a); out.raw(","); out.number(b); out.raw("]")
            first = false
        }
        out.raw("]}")
        return out.text
    }
}
