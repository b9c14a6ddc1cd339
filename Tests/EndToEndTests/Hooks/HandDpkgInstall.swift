import APTTestSupport
import Foundation
import Glibc

/// `dpkg -i` of local archives run by hand in `apt`'s private root (not through apt), left
/// running for the test to watch; the caller reaps it. The archives are copied under names
/// that are not `NAME_VERSION_ARCH.deb`, so nothing but dpkg's own lines says which packages
/// they hold.
enum HandDpkgInstall {
    /// Starts dpkg on `packages` (published in `apt` already), in order, as `FILE.deb` for each
    /// given file name. `statusLogger` is what the hooks' `--status-logger=` says, for dpkg run
    /// as their `dpkg.cfg.d` file would make it on the real root; `nil` for none.
    static func start(_ packages: [(recipe: TestPackage, file: String)], in apt: APTTestRoot, folder: TestFolder,
                      statusLogger: String?) throws -> SpawnedProcess {
        var archives: [String] = []
        for (recipe, file) in packages {
            let archive = folder.path + "/" + file + ".deb"
            try FileManager.default.copyItem(atPath: apt.repository + "/" + recipe.fileName, toPath: archive)
            archives.append(archive)
        }
        var arguments = ["--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg", "--log=\(apt.root)/var/log/dpkg.log",
                         "--force-script-chrootless"]
        if getuid() != 0 { arguments.append("--force-not-root") }
        if let statusLogger { arguments.append("--status-logger=\(statusLogger)") }
        return try SpawnedProcess(
            executable: "/usr/bin/dpkg", arguments: arguments + ["-i"] + archives,
            environment: ProcessInfo.processInfo.environment.merging(apt.environment) { _, new in new },
            workingDirectory: folder.path, stdoutPath: try folder.write("dpkg.out", ""), stderrPath: try folder.write("dpkg.err", ""))
    }

    /// The status logger the hooks' `apt.conf.d` file in `apt`'s root gives dpkg.
    static func hooksStatusLogger(in apt: APTTestRoot) throws -> String? {
        let text = try String(contentsOfFile: apt.root + "/etc/apt/apt.conf.d/99installtop-observe", encoding: .utf8)
        let prefix = "DPkg::Options:: \"--status-logger="
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }), line.hasSuffix("\";") else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(2))
    }
}
