import Foundation
import Glibc
import TestProcessSupport

/// Whether process `pid` is gone: `kill(pid, 0)` fails with ESRCH, or it is a zombie waiting
/// for a parent that does not reap (our init may not), which no signal can reach any more.
func processIsGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) == -1, errno == ESRCH { return true }
    guard let state = ProcessStat.state(of: pid) else { return true }
    return state == "Z"
}

/// The pid a test script wrote into `file`, once it is there (polls as `eventually` does).
func pidWritten(to file: String) async -> pid_t? {
    var pid: pid_t?
    _ = await eventually {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        return pid != nil
    }
    return pid
}
