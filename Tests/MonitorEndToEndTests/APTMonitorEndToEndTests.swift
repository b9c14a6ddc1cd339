import APTTestSupport
import Foundation
import Testing

/// `installtop apt install` in a real terminal (tmux), in a private apt root: the plan as the
/// job awaiting a yes, the per-package bars, and the safe abort that lets the running package
/// finish. The host's packages are never touched (fingerprinted).
@Suite("installtop apt in the monitor", .serialized)
struct APTMonitorEndToEndTests {
    /// `installtop apt install PACKAGES` in tmux (`history`: its options, none by default); the
    /// exit status goes to `rc` in `folder`.
    private func start(_ packages: String, apt: APTTestRoot, in folder: EndToEndFolder, history: String = "--no-history") throws -> TmuxSession {
        let binary = try EndToEndFolder.binary()
        return try TmuxSession(width: 110, height: 30, home: folder.url, command:
            "'\(binary)' apt install \(packages) \(history) --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: "rc")); sleep 3600")
    }

    @Test("The plan waits for y, then every package has its own bar and ends installed")
    func confirmAndInstall() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-app", depends: "lab-base", postinst: "sleep 1"),
            TestPackage(name: "lab-tool"),
        ])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let tmux = try start("lab-app lab-tool", apt: apt, in: folder)
        defer { tmux.close() }

        let question = try #require(await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-app lab-tool") })
        #expect(question.contains("awaiting yes"))
        #expect(question.contains("lab-base 1.0") && question.contains("lab-app 1.0") && question.contains("lab-tool 1.0"))
        #expect(try apt.states().isEmpty, "nothing runs before the yes")
        tmux.send("y")
        let done = try #require(await tmux.waitForScreen("every package installed") { screen in
            screen.components(separatedBy: "installed").count - 1 >= 3 && screen.contains("succeeded")
        })
        for package in ["lab-base 1.0", "lab-app 1.0", "lab-tool 1.0"] {
            let row = done.split(separator: "\n").first { $0.contains(package) && $0.contains("100%") }
            #expect(row != nil, "\(package) has a full bar of its own:\n\(done)")
        }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try apt.states().filter { $0.value.status == "ii" }.count == 3)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("The question shows the removal and the Essential upgrade for what they are, and the counts whole")
    func questionShowsRemovalAndEssential() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.chronyShape()
        defer { apt.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let tmux = try start("lab-chrony", apt: apt, in: folder)
        defer { tmux.close() }

        let question = try #require(await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-chrony") })
        #expect(question.contains("1 to install, 1 to upgrade, 1 to remove"), "\(question)")
        #expect(question.contains("upgrades an Essential package: lab-core"), "\(question)")
        #expect(question.contains("− remove    lab-timesyncd 1.0"), "\(question)")
        #expect(question.contains("↑ upgrade   lab-core 1.0 → 2.0 essential"), "\(question)")
        #expect(question.contains("+ install   lab-chrony 1.0"), "\(question)")
        tmux.send("n")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(try apt.states()["lab-timesyncd"]?.status == "ii", "nothing ran")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("n runs nothing and records nothing: the monitor ends, exit 1 as apt-get's no, no history row, dpkg's database untouched")
    func declineRunsNothing() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let database = folder.path("history.sqlite3")
        let tmux = try start("lab-base", apt: apt, in: folder, history: "--history-db '\(database)'")
        defer { tmux.close() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-base") }
        tmux.send("n")
        // No q: a no ends it, as it ends apt-get.
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        let said = await tmux.waitForScreen("the line saying why nothing ran") { $0.contains("not run: its plan was declined") }
        #expect(said?.contains("aborted") == false, "\(said ?? "")")
        #expect(try apt.states().isEmpty)
        let history = try await InstalltopChild.run(["history", "--history-db", database, "--json"], in: folder)
        #expect(history.status == 0 && history.stdout.isEmpty, "no row, aborted or other: \(history.stdout) \(history.stderr)")
    }

    @Test("Abort during a slow preinst: that package finishes, the rest are not started, dpkg is consistent")
    func abortLetsThePackageFinish() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            // Held until the test has seen the stop taken: a fixed pause could end first under load.
            TestPackage(name: "lab-slow", preinst: """
                touch "$DPKG_ROOT/run/slow-started"
                while [ ! -e "$DPKG_ROOT/run/slow-release" ]; do sleep 0.05; done
                """),
            TestPackage(name: "lab-next", depends: "lab-slow"),
        ])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let tmux = try start("lab-next", apt: apt, in: folder)
        defer { tmux.close() }
        // Released on every path out, before the session closes, so dpkg never waits forever.
        let release = { _ = FileManager.default.createFile(atPath: apt.root + "/run/slow-release", contents: nil) }
        defer { release() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-next") }
        tmux.send("y")
        #expect(await EndToEndFolder.eventually { FileManager.default.fileExists(atPath: apt.root + "/run/slow-started") })
        tmux.send("a")
        await tmux.waitForScreen("the abort question") { $0.contains("Abort") }
        tmux.send("y")
        let stopping = await tmux.waitForScreen("the package finishing first") { $0.contains("stopping after") }
        #expect(stopping != nil)
        release()
        // lab-next reads aborted as soon as the stop is taken, and the job completes only after
        // lab-slow, the pending triggers and the restart scan: a `q` before the header says
        // nothing runs asks whether to quit with a job running, and no exit would come.
        await tmux.waitForScreen("the job aborted") { $0.contains("aborted") && $0.contains("0 running") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil }, "\(tmux.capture())")
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        let states = try apt.states()
        #expect(states["lab-slow"]?.status == "ii", "the running package finished: \(states)")
        #expect(states["lab-next"] == nil, "the next one never started: \(states)")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
