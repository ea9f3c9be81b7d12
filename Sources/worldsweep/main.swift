import CPUFeatures
import WorldSweep
import WorldSweepCLI
import WorldSweepRun
#if canImport(WorldSweepRunAVX2)
import WorldSweepRunAVX2
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Two compilations of the engine's modules live in this binary (Package.swift): the portable one
// and, on x86_64, an AVX2 one; the commands and the report are built once and run worlds through
// the `EngineCode` given here. The AVX2 one runs when the CPU has it; WORLDSWEEP_CPU=portable or
// avx2 forces one (to compare them on one machine), auto or unset chooses. Results are the same bits.
LaneIntegrator.endBLASThreadPool()
let arguments = Array(CommandLine.arguments.dropFirst())
let cpuHasAVX2 = worldsweep_cpu_runs_haswell_code() != 0
#if canImport(WorldSweepRunAVX2)
let avx2Built = true
#else
let avx2Built = false
#endif

func refuse(_ message: String) -> Never {
    let line = Array("worldsweep: error: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

let request = getenv("WORLDSWEEP_CPU").map { String(cString: $0) } ?? ""
let useAVX2: Bool
switch request {
case "", "auto": useAVX2 = avx2Built && cpuHasAVX2
case "portable": useAVX2 = false
case "avx2":
    // Decided at build time: a `guard avx2Built` would leave unreachable code (a warning) in
    // builds without the AVX2 copy.
    #if canImport(WorldSweepRunAVX2)
    guard cpuHasAVX2 else { refuse("WORLDSWEEP_CPU=avx2, but this CPU lacks AVX2 (or FMA, BMI2, F16C, MOVBE)") }
    useAVX2 = true
    #else
    refuse("WORLDSWEEP_CPU=avx2, but this build has no AVX2 engine (it is built on x86_64 only)")
    #endif
default: refuse("WORLDSWEEP_CPU must be auto, portable or avx2, not '\(request)'")
}

#if canImport(WorldSweepRunAVX2)
if useAVX2 { exit(WorldSweepCommand.execute(arguments, engineCode: WorldSweepRunAVX2.RunEngineCode.self)) }
#endif
exit(WorldSweepCommand.execute(arguments, engineCode: WorldSweepRun.RunEngineCode.self))
