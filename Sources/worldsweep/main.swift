import WorldSweepCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(WorldSweepCommand.execute(Array(CommandLine.arguments.dropFirst())))
