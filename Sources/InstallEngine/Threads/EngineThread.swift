import CPosixSpawn
import Glibc

/// Starts the engine's own threads: plain pthreads, named for htop and `ps -L`, with every
/// signal blocked (signals are for the program's own threads: the CLI turns SIGINT into an
/// abort), detached, so nothing joins them. Outside the engine too: a thread that must not
/// take the CLI's signals is started here.
public enum EngineThread {
    /// Starts a thread named `name` (at most 15 characters are kept) that runs `body`.
    /// - Returns: why it could not be started (no threads left), `nil` when it runs.
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> SystemError? {
        final class Start {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            cps_name_current_thread(start.name)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            pthread_sigmask(SIG_BLOCK, &allSignals, nil)
            start.body()
            return nil
        }, context)
        guard code == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            return SystemError(code: code)
        }
        return nil
    }
}

extension EngineThread {
    /// `start`, for a thread the program cannot go on without (a server's loop, a link's
    /// reader, a helper the caller waits for): when no thread can be started, the program ends
    /// saying so, as it would have on the next allocation.
    public static func detach(named name: String, _ body: @escaping @Sendable () -> Void) {
        if let error = start(named: name, body) {
            fatalError("installtop: cannot start a thread (\(name)): \(error)")
        }
    }
}
