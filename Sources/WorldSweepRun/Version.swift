/// The version this build reports (`worldsweep --version`, run records, report footers).
public enum WorldSweepVersion {
    public static let current = "0.15.0"
}
