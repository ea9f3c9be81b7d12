extension SceneFile {
    /// Why some value of this scene is outside its key's rule (the rules the parser, `--set` and
    /// sweeps apply), or nil when every value is one the engine's arithmetic carries. A file that
    /// parsed passes by construction; a scene made in code skips the parser, so the runner asks
    /// this once per scene and fails its worlds rather than run numbers past the engine's limits.
    public func ruleProblem() -> String? {
        // By index, not by name: a name look-up per key made this quadratic in the items (a
        // 1 000-item scene spent more here than in parsing).
        func problem(_ target: ResolvedParameter.Target, _ name: String, _ table: [(key: String, rule: ValueRule)]) -> String? {
            for (key, rule) in table {
                let value = value(of: ResolvedParameter(target: target, key: key, rule: rule))
                // An unset range reads as ±infinity: no limit, not a value.
                if key.hasPrefix("range."), value.isInfinite { continue }
                if let problem = rule.problem(value, for: "'\(name).\(key)'") { return problem }
            }
            return nil
        }
        for (index, item) in items.enumerated() {
            if let found = problem(.item(index), item.name, Self.itemKeys) { return found }
        }
        for (index, behavior) in behaviors.enumerated() {
            if let found = problem(.behavior(index), behavior.name, keyTable(ofBehavior: behavior)) { return found }
        }
        return nil
    }
}

extension SceneFile {
    /// The rules between a behavior's keys, as the parser checks them in the file (an attachment's
    /// range min ≤ max, its non-zero sliding axis). `path` (a key just set) names the refusal.
    func checkRelations(ofBehavior index: Int, path: String) throws(SceneError) {
        if let problem = behaviors[index].kind.type.relationProblem(of: behaviors[index].kind, path: path) {
            throw SceneError(path: sourcePath, at: location(ofEntityIn: path), problem)
        }
    }
}
