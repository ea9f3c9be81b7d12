// The run's errors, one type each whichever compilation of the run path threw them (Package.swift),
// so the commands (built once) tell them apart.

/// Errors writing or reading run files (exit code 1: the run failed).
public struct RunFileError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A mistake in how a run was asked for (exit 2): nothing to resume, a changed file, an unfinished run.
public struct RunInputError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
