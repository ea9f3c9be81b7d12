/// A request's query, percent-decoded: `name=value` pairs, at most 64, a name given more than once
/// keeping every value (`set=a.b=1&set=c.d=2`).
struct Query: Sendable {
    var pairs: [(name: String, value: String)] = []

    init(_ text: String) throws(ServeError) {
        let parts = text.split(separator: "&", omittingEmptySubsequences: true)
        guard parts.count <= 64 else { throw ServeError(.badRequest, "more than 64 query parameters") }
        for part in parts {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((try Query.decode(String(halves[0]), plus: true), try Query.decode(halves.count > 1 ? String(halves[1]) : "", plus: true)))
        }
    }

    func first(_ name: String) -> String? { pairs.first { $0.name == name }?.value }
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    func required(_ name: String) throws(ServeError) -> String {
        guard let v = first(name), !v.isEmpty else { throw ServeError(.badRequest, "missing ?\(name)=") }
        return v
    }

    func integer(_ name: String) throws(ServeError) -> Int? {
        guard let text = first(name) else { return nil }
        guard let n = Int(text) else { throw ServeError(.badRequest, "\(name) must be a whole number, got '\(text.prefix(40))'") }
        return n
    }

    /// `run=PATH` and either `world=N` or one `set=NAME.KEY=VALUE` per swept value; `ticks=T` optional.
    func replayRequest() throws(ServeError) -> ReplayRequest {
        let run = try required("run")
        let ticks = try integer("ticks")
        if let world = try integer("world") {
            guard all("set").isEmpty else { throw ServeError(.badRequest, "give world=N or set=NAME.KEY=VALUE values, not both") }
            return ReplayRequest(run: run, world: .number(world), ticks: ticks)
        }
        var values: [String: Double] = [:]
        for item in all("set") {
            let kv = item.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let v = Double(kv[1]) else { throw ServeError(.badRequest, "set must be NAME.KEY=NUMBER, got '\(item.prefix(80))'") }
            values[String(kv[0])] = v
        }
        guard !values.isEmpty else { throw ServeError(.badRequest, "give world=N or set=NAME.KEY=VALUE") }
        return ReplayRequest(run: run, world: .values(values), ticks: ticks)
    }

    /// Percent-decoding (and `+` as a space in a query); malformed escapes and NUL are refused.
    static func decode(_ text: String, plus: Bool = false) throws(ServeError) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let u = text.utf8
        while i < u.endIndex {
            let b = u[i]
            if b == UInt8(ascii: "%") {
                let h = u.index(after: i)
                guard h < u.endIndex, u.index(after: h) < u.endIndex,
                      let hi = hex(u[h]), let lo = hex(u[u.index(after: h)]) else { throw ServeError(.badRequest, "a malformed %-escape") }
                bytes.append(hi << 4 | lo)
                i = u.index(h, offsetBy: 2)
                continue
            }
            bytes.append(plus && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i = u.index(after: i)
        }
        guard !bytes.contains(0), let s = String(validating: bytes, as: UTF8.self) else { throw ServeError(.badRequest, "not UTF-8, or a NUL byte") }
        return s
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }
}
