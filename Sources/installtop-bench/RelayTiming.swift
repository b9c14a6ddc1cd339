import Glibc

/// `installtop-bench relay-timing FILE RELAY ARGS…`: runs the relay as the hooks would (stdin,
/// stdout and stderr passed on), then appends its user and system CPU seconds to FILE, so the
/// observe benchmark can sum what every relay of a transaction cost. Exits as the relay did.
/// It calls itself `sh` so the relay still finds apt or dpkg above it.
enum RelayTiming {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else { return 2 }
        // The relay walks up past shells to the process it serves: named `sh`, this one is passed by.
        let comm = open("/proc/self/comm", O_WRONLY | O_CLOEXEC)
        if comm >= 0 {
            _ = write(comm, "sh", 2)
            close(comm)
        }
        let file = arguments[0]
        let argv = Array(arguments.dropFirst())
        var pid: pid_t = 0
        var pointers = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        guard posix_spawn(&pid, argv[0], nil, nil, &pointers, environ) == 0 else { return 127 }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let line = "\(seconds)\n"
        let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            _ = line.withCString { write(descriptor, $0, strlen($0)) }
            close(descriptor)
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
