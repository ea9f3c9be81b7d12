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
