#ifndef WORLDSWEEP_CPU_FEATURES_H
#define WORLDSWEEP_CPU_FEATURES_H

/// 1 when this CPU (and its operating system, which must save the wide registers) runs code built
/// with `-target-cpu haswell`: AVX, AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE, POPCNT. 0 otherwise,
/// and always 0 off x86_64.
int worldsweep_cpu_runs_haswell_code(void);

#endif
