import Glibc

/// Runs `body` with posix_spawn attributes that give the child signals as a shell would: an
/// empty signal mask and default dispositions.
///
/// The test runner's threads block most signals and posix_spawn (like Foundation's Process)
/// passes the mask on. Without this, installtop would start with SIGINT, SIGTERM and SIGHUP
/// blocked, and a tmux server would wait forever for SIGCHLD and ignore kill-server.
public func withShellLikeSignals<Result>(_ body: (inout posix_spawnattr_t) throws -> Result) rethrows -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return try body(&attributes)
}
