import Foundation
import InstallDrivers

/// What `installtop watch` shows until the first job appears: that it waits for installs, who
/// holds dpkg's lock now, and, without hooks, the one command that makes installs visible.
enum WatchNote {
    static func text(files: HookFiles, administrativeDirectory: String) -> String {
        var parts = ["watching for installs"]
        if case .held(let pid) = DpkgLock.state(administrativeDirectory: administrativeDirectory), pid > 0 {
            parts.append("dpkg's lock is held by \(holder(pid))")
        }
        let installed = (try? String(contentsOfFile: files.aptFile, encoding: .utf8))?.contains(HookFiles.marker) ?? false
        if !installed { parts.append("no hooks: run `installtop hooks install` to see installs others start") }
        return parts.joined(separator: " · ")
    }

    /// `pid 812 (apt-get install nginx, root)`.
    static func holder(_ pid: Int32) -> String {
        let words = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "")
            .split(separator: "\0").map(String.init)
        let uid = ((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("Uid:") }?
            .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) }
        let user = uid.flatMap { getpwuid($0) }.flatMap { $0.pointee.pw_name }.map { String(cString: $0) } ?? uid.map(String.init) ?? "?"
        let command = words.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " ")
        return "pid \(pid) (\(command.isEmpty ? "?" : command), \(user))"
    }
}
