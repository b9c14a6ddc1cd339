import Glibc
import CPosixSpawn

/// What every child installtop spawns starts with (Documentation/CHILD-PROCESSES.md): default handling of
/// every signal, an empty signal mask, and a process group of its own, so a Ctrl-C meant for
/// installtop reaches installtop (which ends its children itself) and a stop can signal
/// everything a child started. Shared by `ChildSpawner` (updates and drivers) and
/// `PipedChild` (ssh).
enum ChildSpawnAttributes {
    /// Sets them on `attributes`; returns posix_spawn's error number, 0 when all were set.
    static func apply(to attributes: inout posix_spawnattr_t) -> Int32 {
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var setup = posix_spawnattr_setsigdefault(&attributes, &allSignals)
        if setup == 0 { setup = posix_spawnattr_setsigmask(&attributes, &noSignals) }
        if setup == 0 { setup = posix_spawnattr_setpgroup(&attributes, 0) }
        if setup == 0 {
            setup = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        }
        return setup
    }
}
