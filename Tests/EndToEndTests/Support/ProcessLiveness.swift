import Foundation
import Glibc
import TestProcessSupport

/// Whether process `pid` is gone: `kill(pid, 0)` fails with ESRCH, or it is a zombie waiting
/// for a parent that does not reap (a container's init may not), which no signal reaches.
/// Only for the test's own children, whose ids nobody else can take before they are reaped;
/// any other process is asked through its `ProcessIdentity`.
func processIsGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) == -1, errno == ESRCH { return true }
    guard let state = ProcessStat.state(of: pid) else { return true }
    return state == "Z"
}

/// The live (non-zombie) processes whose environment holds `marker`: everything a test's
/// installtop started inherits it, so after the run this lists what was left behind.
/// Processes of other users (unreadable environments) are skipped.
func liveProcesses(withEnvironmentMarker marker: String) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let needle = Data(marker.utf8)
    return entries.compactMap { pid_t($0) }.filter { pid in
        guard pid != getpid(),
              let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return environment.range(of: needle) != nil && !processIsGone(pid)
    }
}

/// Whether the process `identity` names is gone (ended, or a zombie nobody reaps).
func processIsGone(_ identity: ProcessIdentity) -> Bool {
    !identity.isRunning
}

/// The process whose id a test script wrote into `file` (written atomically with `mv`), once it
/// is there, identified at once (its id alone could later name another process).
func pidWritten(to file: String, timeout: Duration = .seconds(180)) async throws -> ProcessIdentity {
    func read() -> pid_t? {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    try await waitUntil("a pid in \(file)", timeout: timeout) { read() != nil }
    guard let pid = read() else { throw EndToEndError.conditionNotMet("a pid in \(file)") }
    return ProcessIdentity(pid: pid)
}
