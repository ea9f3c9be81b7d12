/// A position in a scene file: 1-based line and column (columns count Unicode scalars, as libyaml
/// does). Line 0 means "nowhere in the file", e.g. a `--set` override naming nothing in it.
public struct SceneLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let none = SceneLocation(line: 0, column: 0)

    public var description: String { "\(line):\(column)" }
}

/// Everything that can be wrong with a scene file (or with an override of it), always with the
/// place it was found so a user can jump there: `PATH:LINE:COLUMN: error: MESSAGE`.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The scene file as it was named to the loader.
    public var path: String
    public var line: Int
    public var column: Int
    /// What was expected and what was found, without the location prefix.
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = YAMLProblem.ourWords(message)
    }

    public init(path: String, at location: SceneLocation, _ message: String) {
        self.init(path: path, line: location.line, column: location.column, message: message)
    }

    public var location: SceneLocation { SceneLocation(line: line, column: column) }

    /// `PATH:LINE:COLUMN: error: MESSAGE`, or `PATH: error: MESSAGE` when no place in the file applies;
    /// always one line (control characters from the file or the path are shown escaped).
    public var description: String {
        let text = line > 0 ? "\(path):\(line):\(column): error: \(message)" : "\(path): error: \(message)"
        return TextPosition.oneLine(text)
    }
}

/// libyaml's own phrasings that name its internals, said in our words wherever a Yams error becomes a
/// SceneError (the line and column stay those libyaml reported).
enum YAMLProblem {
    /// libyaml's nesting limit (MAX_NESTING_LEVEL in its parser.c, which Yams leaves at its default).
    static let maximumNesting = 1000

    static func ourWords(_ message: String) -> String {
        // "Maximum nesting level reached, set with yaml_set_max_nest_level())" names a C function.
        guard message.contains("yaml_set_max_nest_level") else { return message }
        return "invalid YAML: lists and mappings are nested more than \(maximumNesting) levels deep here; "
            + "a scene file needs only a few levels"
    }
}

/// "did you mean 'x'?" for a misspelt key or name: the closest candidate within a small edit
/// distance, or nil when nothing is close enough to be a plausible typo.
func closestMatch(to word: String, in candidates: [String]) -> String? {
    let limit = max(1, min(3, word.count / 3))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(word.lowercased(), candidate.lowercased())
        if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.candidate
}

/// Levenshtein distance over Unicode scalars.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// `; did you mean 'x'?` or the empty string.
func suggestion(for word: String, in candidates: [String]) -> String {
    closestMatch(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
}
