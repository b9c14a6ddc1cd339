import Foundation
import Glibc

/// The processes of a kill-matrix case's transaction, found from the maintainer script that
/// waits at the kill point up to the installtop that started them.
enum APTKillProcesses {
    /// apt-get and dpkg of the transaction whose maintainer script is `script`: its parent, and
    /// the apt-get among that one's ancestors, each checked to descend from installtop (`root`).
    static func transaction(of script: pid_t, under root: pid_t) throws -> (aptGet: pid_t, dpkg: pid_t) {
        var chain: [(pid: pid_t, command: String)] = []
        var pid = script
        while pid > 1, pid != root, let (parent, command) = parentAndCommand(of: pid) {
            chain.append((pid, command))
            pid = parent
        }
        if chain.isEmpty { throw EndToEndError.conditionNotMet("the waiting script (pid \(script)) to still run: it had ended already") }
        guard pid == root, chain.count >= 3, chain[1].command == "dpkg",
              let aptGet = chain.dropFirst(2).first(where: { $0.command == "apt-get" }) else {
            throw EndToEndError.conditionNotMet("the script's chain up to installtop (\(root)) to be dpkg, then apt-get: \(chain)")
        }
        return (aptGet.pid, chain[1].pid)
    }

    /// `/proc/PID/stat`'s parent and command name; `nil` once the process is gone.
    private static func parentAndCommand(of pid: pid_t) -> (pid_t, String)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
        return (parent, String(text[text.index(after: open)..<close]))
    }
}
