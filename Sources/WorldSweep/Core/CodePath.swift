/// Which compilation of the engine is running: `portable` (the platform's baseline instructions:
/// SSE2 on x86-64) or `avx2`, the copy Package.swift compiles from the same sources for Haswell and
/// later CPUs, which `worldsweep` picks when the CPU has it (WORLDSWEEP_CPU=portable forces the
/// other). Both give the same results bit for bit; `bench` and summary.json say which one ran, so
/// a figure names the code that produced it.
public enum CodePath {
    #if WORLDSWEEP_AVX2
    public static let current = "avx2"
    #else
    public static let current = "portable"
    #endif
}
