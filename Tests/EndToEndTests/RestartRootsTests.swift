import Foundation
import Glibc
import TestProcessSupport
import Testing

/// `installtop restarts --json` (rule 32) from the host and from inside a chroot, over processes
/// of both roots that map libraries of the same paths: the host's copies and the chroot's own,
/// on one device. Each process is judged by its own root's files; another root's processes are
/// listed apart, never as this root's. Root only (chroot, mount namespaces).
@Suite("installtop restarts across roots", .serialized, .enabled(if: PrivateRoot.available))
struct RestartRootsTests {
    /// Replaces `path` as dpkg does: the new content goes to `path.dpkg-new`, renamed over `path`.
    private func replaceLikeDpkg(_ path: String) throws {
        try FileManager.default.copyItem(atPath: path, toPath: path + ".dpkg-new")
        #expect(rename(path + ".dpkg-new", path) == 0)
    }

    /// The pids in the document's `processes` and `otherRoots`, and each listed process by pid.
    private struct Listing {
        var processes: [Int32: [String: Any]] = [:]
        var otherRoots: [Int32: [String: Any]] = [:]

        init(_ result: RunResult) throws {
            let document = try #require(try result.jsonObjects().first)
            for (member, keep) in [("processes", true), ("otherRoots", false)] {
                for process in document[member] as? [[String: Any]] ?? [] {
                    guard let pid = (process["pid"] as? NSNumber)?.int32Value else { continue }
                    if keep { processes[pid] = process } else { otherRoots[pid] = process }
                }
            }
        }

        func files(_ process: [String: Any]?) -> [String] {
            (process?["files"] as? [[String: Any]] ?? []).compactMap { file in
                (file["path"] as? String).map { $0 + " " + (file["change"] as? String ?? "") }
            }
        }
    }

    @Test("a file replaced in the host root but not in the chroot's: each root lists its own stale processes and only those")
    func hostAndChroot() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let jail = try PrivateRoot(at: folder.file("jail"))
        defer { jail.remove() }
        // Three libraries, each at the same path in the host's root and in the chroot's.
        let library = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path
        let kept = folder.file("kept.so.1")
        let hostReplaced = folder.file("host-replaced.so.1")
        let jailReplaced = folder.file("jail-replaced.so.1")
        for path in [kept, hostReplaced, jailReplaced] {
            try FileManager.default.copyItem(atPath: library, toPath: path)
            try jail.copy(library, to: path)
        }
        let hostKept = try PreloadingSleeper(preloading: kept)
        defer { hostKept.stop() }
        let hostStale = try PreloadingSleeper(preloading: hostReplaced)
        defer { hostStale.stop() }
        let jailKept = try jail.sleeper(preloading: hostReplaced)
        defer { jailKept.stop() }
        let jailStale = try jail.sleeper(preloading: jailReplaced)
        defer { jailStale.stop() }
        #expect(await eventually {
            hostKept.maps(kept) && hostStale.maps(hostReplaced) && jailKept.maps(jail.path + hostReplaced) && jailStale.maps(jail.path + jailReplaced)
        })
        try replaceLikeDpkg(hostReplaced)
        try replaceLikeDpkg(jail.path + jailReplaced)

        let fromHost = try await installtop(["restarts", "--json"], in: folder)
        let inside = try jail.command(running: try InstalltopBinary.path(), ["restarts", "--json"])
        let fromJail = try await InstalltopProcess(inside.arguments, in: folder, executable: inside.executable).finish(timeout: .seconds(60))

        #expect(fromHost.status == 1, "stderr: \(fromHost.stderr)")
        let host = try Listing(fromHost)
        #expect(host.files(host.processes[hostStale.pid]) == [hostReplaced + " deleted"], "\(fromHost.stdout)")
        #expect(host.otherRoots[jailStale.pid]?["root"] as? String == jail.path, "\(fromHost.stdout)")
        #expect(host.files(host.otherRoots[jailStale.pid]) == [jailReplaced + " deleted"])
        for pid in [hostKept.pid, jailKept.pid] {
            #expect(host.processes[pid] == nil && host.otherRoots[pid] == nil, "\(pid): \(fromHost.stdout)")
        }
        #expect(host.processes[jailStale.pid] == nil)

        #expect(fromJail.status == 1, "stderr: \(fromJail.stderr)")
        let inJail = try Listing(fromJail)
        #expect(inJail.files(inJail.processes[jailStale.pid]) == [jailReplaced + " deleted"], "\(fromJail.stdout)")
        #expect(inJail.otherRoots[hostStale.pid]?["root"] as? String == "/", "\(fromJail.stdout)")
        #expect(inJail.files(inJail.otherRoots[hostStale.pid]) == [hostReplaced + " deleted"])
        // Seen from the chroot, the host's kept.so.1 is another file at a path the chroot has too.
        for pid in [hostKept.pid, jailKept.pid] {
            #expect(inJail.processes[pid] == nil && inJail.otherRoots[pid] == nil, "\(pid): \(fromJail.stdout)")
        }
        #expect(inJail.processes[hostStale.pid] == nil)
    }
}
