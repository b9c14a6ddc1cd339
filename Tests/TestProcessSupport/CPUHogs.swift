import Foundation
import Glibc

/// Busy shell loops that load every core while a test runs, so it meets the scheduling a loaded
/// CI machine gives (apt's two pipes then run ahead of each other). `stop()` kills each by its
/// pid and reaps it; call it on every path out (`defer`).
public final class CPUHogs {
    private var processes: [Process] = []

    /// Starts `count` loops (one per core by default, at least one).
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        for _ in 0..<max(1, count) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while :; do :; done"]
            do {
                try process.run()
            } catch {
                stop()
                throw error
            }
            processes.append(process)
        }
    }

    /// Kills every loop by its pid and waits for it; safe to call twice.
    public func stop() {
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
        processes = []
    }
}
