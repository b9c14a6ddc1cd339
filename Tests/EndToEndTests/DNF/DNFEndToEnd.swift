import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing
import TestProcessSupport

/// What the dnf end-to-end suites share: a private installroot publishing lab rpms, the
/// arguments that name it, results by update, and the processes a test looks for.
enum DNFEndToEnd {
    /// A root whose repository holds `recipes`; throws when a tool is missing (the test is
    /// then skipped with its reason).
    static func lab(_ recipes: [RPMPackageRecipe] = DNFTestLab.first) throws -> PrivateDNFRoot {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf")
        do { try root.publish(recipes) } catch {
            root.remove()
            throw error
        }
        return root
    }

    static func rootArguments(_ root: PrivateDNFRoot) -> [String] {
        ["--installroot", root.root, "--releasever", root.releaseVersion]
    }

    /// Each update's last result, by id.
    static func completed(_ events: [JSONEvent]) -> [String: String] {
        Dictionary(events.filter { $0.name == "update.completed" }.compactMap { event in event.string("id").map { ($0, event.string("result") ?? "?") } },
                   uniquingKeysWith: { _, last in last })
    }

    /// Whether `pid` runs (a zombie no longer does).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = ProcessStat.state(of: pid) else { return false }
        return state != "Z"
    }

    /// The first child of `parent` whose command line contains `text`.
    static func child(of parent: pid_t, running text: String) -> pid_t? {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.first { pid in
            guard let fields = ProcessStat.fields(in: "/proc/\(pid)"), fields.count > 2, Int32(fields[1]) == parent,
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: command, as: UTF8.self).contains(text)
        }
    }

    /// `rpm -V NAME` in `root`: what differs from what rpm installed (empty when nothing does,
    /// or when the package is not installed: then it says so).
    static func verified(_ root: PrivateDNFRoot, _ name: String) -> String {
        let result = SystemCommand.run(["/usr/bin/rpm", "--root", root.root, "--dbpath", "/var/lib/rpm", "-V", name])
        return result.stdout + result.stderr
    }
}
