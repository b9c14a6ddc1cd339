import APTTestSupport
import Foundation
import Testing

/// `installtop apt …` through the real binary, in a private apt root (APT_CONFIG): the plan, the
/// refusals, the confirmation off a terminal and a whole transaction in JSON. The host's
/// packages are never touched (fingerprinted).
@Suite("installtop apt", .serialized)
struct APTCommandTests {
    private func root(_ packages: [TestPackage]) throws -> APTTestRoot {
        let apt = try APTTestRoot()
        try apt.publish(packages)
        return apt
    }

    private let lab = TestPackage.appAndRebootingKernel

    @Test("--json: one update per package with versions, bars that never go down, the job at 100 %, reboot only where asked")
    func installInJSON() async throws {
        let host = HostPackageFingerprint()
        let apt = try root(lab)
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(
            ["apt", "install", "lab-app", "lab-kernel", "--yes", "--json", "--no-history", "--apt-config", apt.configuration], in: folder)

        #expect(result.status == 4, "every package installed and one asked for a reboot; stderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(updates.map { $0["id"] as? String } == ["lab-base", "lab-app", "lab-kernel"], "apt's order: dependencies first")
        #expect(updates.map { $0["title"] as? String } == ["lab-base 1.0", "lab-app 1.0", "lab-kernel 1.0"])
        var last: [Int: Double] = [:]
        for event in events where event.name == "progress" {
            let index = try #require(event.index)
            // A change of the job's status text (apt's downloads) comes on the current update,
            // before it started or reported a percent.
            guard let percent = event.double("updatePercent") else {
                #expect(event.fields.keys.contains("jobMessage") || last[index] == nil, "update \(index) lost its percent: \(event)")
                continue
            }
            #expect(percent >= last[index, default: 0], "update \(index)'s bar went down: \(event)")
            last[index] = percent
        }
        let completed = events.filter { $0.name == "update.completed" }
        #expect(completed.count == 3)
        #expect(completed.allSatisfy { $0.string("result") == "succeeded" }, "\(completed)")
        #expect(completed.filter { $0.bool("rebootRequired") == true }.map { $0.string("id") } == ["lab-kernel"])
        let job = try #require(events.last { $0.name == "job.completed" })
        #expect(job.string("result") == "succeeded" && job.bool("rebootRequired") == true)
        let jobPercents = events.filter { $0.name == "progress" }.compactMap { $0.double("jobPercent") }
        #expect(jobPercents == jobPercents.sorted(), "the job's percent never goes down")
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-app", "lab-base", "lab-kernel"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Off a terminal without --yes: the plan in apt's shape, nothing run, exit 1")
    func planWithoutYes() async throws {
        let host = HostPackageFingerprint()
        let apt = try root(lab)
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let database = folder.file("history.sqlite3")
        let result = try await installtop(["apt", "install", "lab-app", "--apt-config", apt.configuration, "--history-db", database], in: folder)

        #expect(result.status == 1)
        // Nothing recorded: the history was not even opened.
        let history = try await installtop(["history", "--history-db", database, "--json"], in: folder)
        #expect(history.stdout.isEmpty && history.stderr.contains("no install history yet"), "\(history.stdout) \(history.stderr)")
        #expect(result.stdout.contains("The following packages will be INSTALLED:\n  lab-base 1.0\n  lab-app 1.0\n"), "\(result.stdout)")
        #expect(result.stdout.contains("2 to install"))
        #expect(result.stderr.contains("--yes"))
        #expect(try apt.states().isEmpty, "nothing was installed")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Off a terminal: a removal and the upgrade of an Essential package are explicit in the plan")
    func planMarksRemovalsAndEssential() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.chronyShape()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["apt", "install", "lab-chrony", "--apt-config", apt.configuration], in: folder)

        #expect(result.status == 1)
        #expect(result.stdout.contains("The following packages will be upgraded:\n  lab-core 1.0 → 2.0 [essential]\n"), "\(result.stdout)")
        #expect(result.stdout.contains("The following packages will be REMOVED:\n  lab-timesyncd 1.0 (remove)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("WARNING: this upgrades an Essential package: lab-core.\n"), "\(result.stdout)")
        #expect(result.stdout.contains("1 to install, 1 to upgrade, 1 to remove"), "\(result.stdout)")
        #expect(try apt.states()["lab-timesyncd"]?.status == "ii", "nothing was run")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Refusals: an unknown package, a missing --apt-config and a locked database, exit 2; nothing to do, exit 0")
    func refusals() async throws {
        let host = HostPackageFingerprint()
        let apt = try root(lab)
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let unknown = try await installtop(["apt", "install", "no-such-package", "--yes", "--apt-config", apt.configuration], in: folder)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("E: Unable to locate package no-such-package"), "\(unknown.stderr)")

        // A configuration that is not there: apt would only warn and act on this system's
        // packages; installtop refuses before apt runs.
        let typo = folder.file("no-such-apt.conf")
        let missing = try await installtop(["apt", "install", "lab-app", "--yes", "--plain", "--apt-config", typo], in: folder)
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("the apt configuration \(typo) does not exist (apt would read this system's own configuration instead"),
                "\(missing.stderr)")

        let nothing = try await installtop(["apt", "upgrade", "--yes", "--apt-config", apt.configuration], in: folder)
        #expect(nothing.status == 0, "\(nothing.stderr)")
        #expect(nothing.stdout.contains("Nothing to upgrade"))

        // dpkg's lock, held by another process the way apt holds it (fcntl); it says so by
        // creating a marker once it holds the lock.
        let marker = folder.file("locked")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c", "import fcntl,sys,time; f=open(sys.argv[1],'w'); fcntl.lockf(f, fcntl.LOCK_EX); open(sys.argv[2],'w').close(); time.sleep(120)",
            apt.root + "/var/lib/dpkg/lock-frontend", marker,
        ]
        try holder.run()
        defer {
            // SIGKILL: the test runner's children may inherit a mask that blocks SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        try await waitUntil("the lock to be held") { FileManager.default.fileExists(atPath: marker) }
        let locked = try await installtop(["apt", "install", "lab-app", "--yes", "--apt-config", apt.configuration], in: folder)
        #expect(locked.status == 2)
        #expect(locked.stderr.contains("Could not get lock") && locked.stderr.contains("process \(holder.processIdentifier)"), "\(locked.stderr)")
        #expect(try apt.states().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
