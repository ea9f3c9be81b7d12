#include "CPUFeatures.h"

int worldsweep_cpu_runs_haswell_code(void) {
#if defined(__x86_64__)
    // The compiler's cpuid reader also checks that the OS enabled the AVX state (XGETBV), which
    // reading /proc/cpuinfo's flags would not; every feature the haswell target may emit is asked.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
        && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("f16c")
        && __builtin_cpu_supports("lzcnt") && __builtin_cpu_supports("movbe") && __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}
