extension SceneFile {
    /// Why some value of this scene is outside its key's rule (the rules the parser, `--set` and
    /// sweeps apply), or nil when every value is one the engine's arithmetic carries. A file that
    /// parsed passes by construction; a scene made in code skips the parser, so the runner asks
    /// this once per scene and fails its worlds rather than run numbers past the engine's limits.
    public func ruleProblem() -> String? {
        for name in items.map(\.name) + behaviors.map(\.name) {
            guard let table = keyTable(of: name) else { continue }
            for (key, rule) in table {
                let path = "\(name).\(key)"
                guard case .success(let parameter) = resolve(path) else { continue }
                let value = value(of: parameter)
                // An unset range reads as ±infinity: no limit, not a value.
                if key.hasPrefix("range."), value.isInfinite { continue }
                if let problem = rule.problem(value, for: "'\(path)'") { return problem }
            }
        }
        return nil
    }
}

extension SceneFile {
    /// The rules between an attachment's keys, as the parser checks them in the file: a range's
    /// min ≤ max and a non-zero sliding axis. `path` (a key just set) names the refusal.
    func checkRelations(ofBehavior index: Int, path: String) throws(SceneError) {
        guard case .attachment(let a) = behaviors[index].kind else { return }
        if let r = a.range, r.minimum > r.maximum {
            throw SceneError(path: sourcePath, at: location(ofEntityIn: path),
                             "expected 'range' min ≤ max for '\(path)', got [\(formatNumber(r.minimum)), \(formatNumber(r.maximum))]")
        }
        if let axis = a.axis, axis.dx == 0 && axis.dy == 0 {
            throw SceneError(path: sourcePath, at: location(ofEntityIn: path),
                             "expected a non-zero 'axis' of translation for '\(path)', got [0, 0]")
        }
    }
}
