#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers

/// What `installtop watch` shows until the first job appears: that it waits for installs, who
/// holds dpkg's lock now (as the kind whose database it is says, `EngineHost.lockHolder`), and,
/// without hooks, the one command that makes installs visible.
enum WatchNote {
    static func text(files: HookFiles, administrativeDirectory: String) -> String {
        var parts = ["watching for installs"]
        if let pid = EngineHost.lockHolder(administrativeDirectory: administrativeDirectory), pid > 0 {
            parts.append("dpkg's lock is held by \(LockHolder(pid: pid)?.description ?? "pid \(pid)")")
        }
        let installed = (try? String(contentsOfFile: files.aptFile, encoding: .utf8))?.contains(HookFiles.marker) ?? false
        if !installed { parts.append("no hooks: run `installtop hooks install` to see installs others start") }
        return parts.joined(separator: " · ")
    }
}
