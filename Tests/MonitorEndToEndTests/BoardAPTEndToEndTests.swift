import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The grouped board (`installtop attach --host …` in tmux, from the controller namespace) over
/// namespace test hosts whose engines run apt: jobs submitted to each host's `installtop serve`,
/// a raw `apt-get` observed through the hooks, one board for all of them; an abort from the
/// board at a package boundary; an engine stopped by SIGSTOP while the others go on.
/// Every root is private (`BoardAPTHosts`); each lab-b postinst waits at its root's gate, so
/// what the test looks at is still running when it looks.
@Suite("The grouped board with apt end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct BoardAPTEndToEndTests {
    @Test("four hosts: the apt jobs of h1 and h2 and h3's raw apt-get (observed) on one board with their packages, h4 idle; status --json across the hosts equals each host's own; all end succeeded")
    func fourHostsWithAPT() async throws {
        let hosts = try BoardAPTHosts(count: 4)
        defer { hosts.tearDown() }
        try await Self.startWork(hosts)
        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 40)
        defer { tmux.close() }

        let board = await tmux.waitForScreen("three hosts installing, h4 idle") { screen in
            screen.contains("4 hosts · 1 idle · 3 installing") && BoardScreen.row("h1", in: screen).contains("Lab of h1")
                && BoardScreen.row("h2", in: screen).contains("Lab of h2")
                && BoardScreen.row("h3", in: screen).contains("apt-get install -y") && BoardScreen.isIdle("h4", in: screen)
        }
        #expect(board != nil)

        // Each job selected in turn: its packages, each with its own row and bar; lab-a
        // installed, lab-b at its gate in dpkg's configure phase, the rest waiting.
        tmux.send("Home")
        for (host, title, last) in [(1, "Lab of h1", "lab-c"), (2, "Lab of h2", "lab-d"), (3, "apt-get install -y lab-c", "lab-c")] {
            if host > 1 { tmux.send("Down") }
            let selected = await tmux.waitForScreen("h\(host)'s job selected with its packages") { screen in
                screen.contains("┌ h\(host): \(title)") && BoardScreen.line(with: "lab-a 1.0", in: screen).contains("100%")
                    && BoardScreen.line(with: "lab-b 1.0", in: screen).contains("configuring") && screen.contains("\(last) 1.0")
            }
            #expect(selected != nil)
        }

        let mismatch = try await Self.statusAcrossHostsDiffers(hosts)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let jobs = try (1...4).map { try hosts.fleet.ownJobs(onHost: $0) }
        #expect(jobs.map { $0.map { $0["state"] as? String } } == [["running"], ["running"], ["running"], []], "\(jobs)")

        for host in 1...3 { hosts.openGate(onHost: host) }
        let done = await tmux.waitForScreen("the three jobs succeeded, h4 still idle") { screen in
            (1...3).allSatisfy { BoardScreen.row("h\($0)", in: screen).contains("succeeded") } && BoardScreen.isIdle("h4", in: screen)
                && !screen.contains("installing")
        }
        #expect(done != nil)
        let aptGet = hosts.aptGetResult(onHost: 3)
        #expect(aptGet.status == 0, "\(aptGet.output)")
        for (host, packages) in [(1, ["lab-a", "lab-b", "lab-c"]), (2, ["lab-a", "lab-b", "lab-c", "lab-d"]), (3, ["lab-a", "lab-b", "lab-c"])] {
            let installed = try hosts.root(host).states().filter { $0.value.status == "ii" && $0.value.version == "1.0" }.keys.sorted()
            #expect(installed == packages, "h\(host)")
        }
        #expect(try hosts.root(4).states().isEmpty)
        try await Self.quit(tmux, folder: hosts.folder)
    }

    @Test("abort from the board (the question names h2) stops h2's apt job after the package it is in: those installed, the rest not started, dpkg consistent; h1's job and h3's apt-get go on and succeed")
    func abortAtAPackageBoundary() async throws {
        // lab-b waits in its preinst: lab-a is unpacked, lab-c and lab-d not begun.
        let hosts = try BoardAPTHosts(count: 3, gateInPreinst: true)
        defer { hosts.tearDown() }
        try await Self.startWork(hosts)
        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 40)
        defer { tmux.close() }
        await tmux.waitForScreen("three hosts installing") { $0.contains("3 hosts · 3 installing") }

        tmux.send("Home")
        tmux.send("Down")
        await tmux.waitForScreen("h2's job selected") { $0.contains("┌ h2: Lab of h2") }
        tmux.send("a")
        await tmux.waitForScreen("the question naming h2") { $0.contains("Abort Lab of h2") && $0.contains("on h2?") }
        tmux.send("y")
        // The stop is taken while lab-b's preinst waits: lab-b is unpacked, dpkg is given no
        // further archive, and apt configures lab-a and lab-b; nothing after them starts.
        #expect(await EndToEndFolder.eventually { (try? hosts.fleet.ownJobs(onHost: 2).first?["state"] as? String) == "aborting" },
                "h2's engine took the abort: \((try? hosts.fleet.ownJobs(onHost: 2)) ?? [])")
        await tmux.waitForScreen("h2's package finishing first") { $0.contains("stopping after this package") }
        hosts.openGate(onHost: 2)
        #expect(await EndToEndFolder.eventually { (try? hosts.fleet.ownJobs(onHost: 2).first?["state"] as? String) == "aborted" })
        let updates = try #require(try hosts.fleet.ownJobs(onHost: 2).first?["updates"] as? [[String: Any]])
        let results = updates.map { "\($0["id"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
        #expect(results.prefix(2) == ["lab-a succeeded", "lab-b succeeded"], "\(results)")
        #expect(results.count == 4 && !results.dropFirst(2).contains { $0.hasSuffix("succeeded") }, "\(results)")
        await tmux.waitForScreen("h2's job aborted on the board, h1 and h3 installing") { screen in
            BoardScreen.row("h2", in: screen).contains("aborted") && screen.contains("3 hosts · 1 idle · 2 installing")
        }
        let states = try hosts.root(2).states()
        #expect(states.filter { $0.value.status == "ii" && $0.value.version == "1.0" }.keys.sorted() == ["lab-a", "lab-b"], "\(states)")
        #expect(states["lab-c"] == nil && states["lab-d"] == nil, "the rest never started: \(states)")
        #expect(try hosts.root(2).audit().isEmpty)

        // Untouched: still at their gates, then on to the end.
        #expect(try hosts.fleet.ownJobs(onHost: 1).first?["state"] as? String == "running")
        #expect(try hosts.fleet.ownJobs(onHost: 3).first?["state"] as? String == "running")
        #expect(hosts.aptGetResult(onHost: 3).status == nil, "h3's apt-get runs on")
        hosts.openGate(onHost: 1)
        hosts.openGate(onHost: 3)
        await tmux.waitForScreen("h1 and h3 succeeded") { screen in
            BoardScreen.row("h1", in: screen).contains("succeeded") && BoardScreen.row("h3", in: screen).contains("succeeded")
                && BoardScreen.row("h2", in: screen).contains("aborted")
        }
        #expect(await EndToEndFolder.eventually { hosts.aptGetResult(onHost: 3).status != nil })
        #expect(hosts.aptGetResult(onHost: 3).status == 0, "\(hosts.aptGetResult(onHost: 3).output)")
        for host in [1, 3] {
            #expect(try hosts.fleet.ownJobs(onHost: host).first?["state"] as? String == "succeeded")
            let installed = try hosts.root(host).states().filter { $0.value.status == "ii" && $0.value.version == "1.0" }.keys.sorted()
            #expect(installed == ["lab-a", "lab-b", "lab-c"], "h\(host)")
            #expect(try hosts.root(host).audit().isEmpty)
        }
        try await Self.quit(tmux, folder: hosts.folder)
    }

    @Test("h1's engine stopped (SIGSTOP): the board goes on, h2's job is seen completing, h1 is marked stale within seconds with what it last said (its link up, its engine silent: no answer); after SIGCONT h1 is current again")
    func stoppedEngine() async throws {
        let hosts = try BoardAPTHosts(count: 3)
        defer { hosts.tearDown() }
        #expect(await hosts.waitUntilServing())
        try hosts.submitInstall("lab-c", onHost: 1, name: "Lab of h1")
        try hosts.submitInstall("lab-c", onHost: 2, name: "Lab of h2")
        #expect(await EndToEndFolder.eventually { hosts.gateReached(onHost: 1) && hosts.gateReached(onHost: 2) })
        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 40)
        defer { tmux.close() }
        await tmux.waitForScreen("h1 and h2 installing, h3 idle") { screen in
            screen.contains("3 hosts · 1 idle · 2 installing") && BoardScreen.row("h1", in: screen).contains("Lab of h1")
                && BoardScreen.row("h2", in: screen).contains("Lab of h2")
        }

        let engine = hosts.engines[0].pid
        kill(engine, SIGSTOP)
        // Before the teardown (defers run last first), which must reach a running engine.
        defer { kill(engine, SIGCONT) }
        #expect(await EndToEndFolder.eventually { Self.isStopped(engine) })
        hosts.openGate(onHost: 1)
        hosts.openGate(onHost: 2)
        let seen = await tmux.waitForScreen("h2's job completing while h1's engine is stopped", timeout: .seconds(180)) { screen in
            BoardScreen.row("h2", in: screen).contains("succeeded")
        }
        #expect(seen != nil)
        // h1's apt-get finishes without its engine; h1's link is up but its engine says nothing:
        // the board marks it stale (the heartbeat's question goes unanswered), keeping what h1
        // said last.
        #expect(await EndToEndFolder.eventually { (try? hosts.root(1).states()["lab-c"]?.status) == "ii" })
        let stale = await tmux.waitForScreen("h1 stale, not answering", timeout: .seconds(60)) { screen in
            BoardScreen.row("h1", in: screen).contains("no answer for") && screen.contains("3 hosts · 2 idle · 1 unreachable")
        }
        #expect(stale != nil)
        tmux.send("Home")
        await tmux.waitForScreen("h1's last known job, stale") { BoardScreen.line(with: "┌ h1: Lab of h1", in: $0).contains(" · stale ") }

        kill(engine, SIGCONT)
        await tmux.waitForScreen("h1 current again: its job succeeded") { screen in
            BoardScreen.row("h1", in: screen).contains("succeeded") && screen.contains("3 hosts · 3 idle")
        }
        #expect(try hosts.fleet.ownJobs(onHost: 1).first?["state"] as? String == "succeeded")
        try await Self.quit(tmux, folder: hosts.folder)
    }

    @Test("serve --watch-group reached over ssh as a member who is not root (in a passwd and group private to h1's mount namespace) with the default bridge, which finds the machine's engine: the board shows h1's job and its end, an abort from it is refused with the engine's reason, status --json --host agrees with h1's own")
    func watcherOverSSH() async throws {
        let copies = try OtherUserExecutables(copying: [try EndToEndFolder.binary()], uid: uid_t(Self.watcherUID), gid: gid_t(Self.watcherGID))
        defer { copies.remove() }
        let hosts = try BoardAPTHosts(count: 1, serveArguments: ["--watch-group", String(Self.watcherGID)])
        defer { hosts.tearDown() }
        try Self.addWatcher(onHost: 1, of: hosts)
        #expect(getpwnam(Self.watcher) == nil, "the machine's own passwd has no \(Self.watcher)")
        try #require(await hosts.waitUntilServing(), "\(hosts.engines.map(\.stderr))")
        try hosts.submitInstall("lab-c", onHost: 1, name: "Lab of h1")
        #expect(await EndToEndFolder.eventually { hosts.gateReached(onHost: 1) })
        let destination = "\(Self.watcher)@h1"
        // No --socket: a watcher without an engine of their own reaches the machine's.
        let bridge = copies.path("installtop")

        let mismatch = try await Self.statusAcrossHostsDiffers(hosts, as: [destination], remoteBinary: bridge)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let tmux = try BoardScreen.attach([destination], fleet: hosts.fleet, folder: hosts.folder, remoteBinary: bridge, width: 160, height: 40)
        defer { tmux.close() }
        await tmux.waitForScreen("h1's job, seen by the watcher") { screen in
            screen.contains("1 host · 1 installing") && BoardScreen.row(destination, in: screen).contains("Lab of h1")
        }
        tmux.send("Home")
        await tmux.waitForScreen("h1's job selected") { $0.contains("┌ \(destination): Lab of h1") }
        tmux.send("a")
        await tmux.waitForScreen("the question naming the host") { $0.contains("Abort Lab of h1") && $0.contains("on \(destination)?") }
        tmux.send("y")
        await tmux.waitForScreen("the engine's reason") { $0.contains("\(destination): abort refused: uid \(Self.watcherUID) watches this engine") }
        #expect(try hosts.fleet.ownJobs(onHost: 1).first?["state"] as? String == "running", "the refused abort changed nothing")
        hosts.openGate(onHost: 1)
        await tmux.waitForScreen("h1's job succeeded, seen by the watcher") { BoardScreen.row(destination, in: $0).contains("succeeded") }
        #expect(try hosts.root(1).states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-a", "lab-b", "lab-c"])
        try await Self.quit(tmux, folder: hosts.folder)
    }

    // MARK: - Helpers

    /// The user the watcher test logs in as, in no passwd but host h1's private one.
    private static let watcher = "itopwatch"
    private static let watcherUID = 64998
    private static let watcherGID = 64999

    /// Gives host `host`'s mount namespace (only: the machine's files stay as they are) its own
    /// /etc/passwd and /etc/group, copies of the machine's with `watcher` added in the group
    /// `watcherGID`, bound over the originals there. The fleet's sshd takes the user's key from
    /// the fleet's AuthorizedKeysFile, in the fleet's run folder, as it does root's.
    private static func addWatcher(onHost host: Int, of hosts: BoardAPTHosts) throws {
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let group = try String(contentsOfFile: "/etc/group", encoding: .utf8)
        try hosts.folder.write("h\(host)-passwd", passwd + "\(watcher):x:\(watcherUID):\(watcherGID)::/tmp:/bin/sh\n")
        try hosts.folder.write("h\(host)-group", group + "\(watcher):x:\(watcherGID):\n")
        let mounted = try hosts.fleet.run(onHost: host, """
            mount --bind '\(hosts.folder.path("h\(host)-passwd"))' /etc/passwd && mount --bind '\(hosts.folder.path("h\(host)-group"))' /etc/group \
              && id \(watcher)
            """)
        guard mounted.status == 0 else { throw EndToEndError("h\(host): no private passwd: \(mounted.stdout)\(mounted.stderr)") }
    }


    /// Waits for the engines, then starts the work: an apt job on h1 (`lab-c`: three packages)
    /// and on h2 (`lab-d`: four), a raw `apt-get install -y lab-c` on h3 seen through the hooks;
    /// returns once each waits at its gate.
    private static func startWork(_ hosts: BoardAPTHosts) async throws {
        try #require(await hosts.waitUntilServing(), "\(hosts.engines.map(\.stderr))")
        try hosts.submitInstall("lab-c", onHost: 1, name: "Lab of h1")
        try hosts.submitInstall("lab-d", onHost: 2, name: "Lab of h2")
        try hosts.startObservedAptGet(["install", "-y", "lab-c"], onHost: 3)
        let reached = await EndToEndFolder.eventually { (1...3).allSatisfy { hosts.gateReached(onHost: $0) } }
        try #require(reached, "every lab-b postinst at its gate; h3's apt-get: \(hosts.aptGetResult(onHost: 3))")
    }

    /// Asks `status --json --host …` across every host from the controller (as `names`, h1's
    /// first; `h1`… by default) until, for each host, its jobs equal what the host's own
    /// `status --json` says just before and just after (the two agreeing): nil then, else the
    /// last difference after 180 s. The hosts run `REMOTEBINARY bridge` (the built installtop
    /// unless `remoteBinary` names a copy another user can run).
    private static func statusAcrossHostsDiffers(_ hosts: BoardAPTHosts, as names: [String]? = nil,
                                                 remoteBinary: String? = nil) async throws -> String? {
        let binary = try EndToEndFolder.binary()
        let names = names ?? hosts.names
        let deadline = ContinuousClock.now + .seconds(180)
        var difference = ""
        repeat {
            let before = try (1...hosts.roots.count).map { try hosts.fleet.ownJobs(onHost: $0) as NSArray }
            let across = try hosts.fleet.runInController([binary, "status", "--json"] + names.flatMap { ["--host", $0] }
                                                         + ["--ssh-config", hosts.fleet.sshConfigPath, "--remote-command", "\(remoteBinary ?? binary) bridge"])
            let after = try (1...hosts.roots.count).map { try hosts.fleet.ownJobs(onHost: $0) as NSArray }
            let document = try? JSONSerialization.jsonObject(with: Data(across.stdout.utf8)) as? [String: Any]
            let entries = document?["hosts"] as? [[String: Any]] ?? []
            if across.status != 0 || entries.map({ $0["host"] as? String }) != names {
                difference = "status --host exited \(across.status): \(across.stdout)\(across.stderr)"
            } else if before != after {
                difference = "a host's jobs moved while asked: \(before) then \(after)"
            } else if let host = entries.indices.first(where: { entries[$0]["reachable"] as? Bool != true || (entries[$0]["jobs"] as? NSArray) != before[$0] }) {
                difference = "h\(host + 1): \(entries[host]) against its own \(before[host])"
            } else {
                return nil
            }
            try await Task.sleep(for: .milliseconds(200))
        } while ContinuousClock.now < deadline
        return difference
    }

    /// Whether process `pid` is stopped (state `T` in /proc/PID/stat).
    private static func isStopped(_ pid: pid_t) -> Bool {
        ProcessStat.state(of: pid) == "T"
    }

    /// `q` (nothing runs: no question), then the board's exit status 0.
    private static func quit(_ tmux: TmuxSession, folder: EndToEndFolder) async throws {
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil }, "\(tmux.capture())")
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")
    }
}
