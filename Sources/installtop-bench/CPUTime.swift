import Glibc

/// This process's CPU time (user + system) so far, in seconds. Benchmarks print it beside wall
/// time because on a shared machine the wall time depends on the load and CPU time does not.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
