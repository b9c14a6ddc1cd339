import Foundation
import InstallEngine
import RestartScan
import TerminalUI
import Testing

@testable import Monitor

/// The grouped board of `installtop attach --host …`, without a terminal: grouping by host,
/// the header's host counts, stale hosts, which host's engine a key's command is for.
@Suite("Monitor board")
struct MonitorBoardTests {
    /// A scenario on the board of `hosts`, all connected unless listed in `connecting`.
    private func board(_ hosts: [String], connecting: Set<String> = [], width: Int = 100, height: Int = 30) -> Scenario {
        var scenario = Scenario(width: width, height: height)
        _ = scenario.state.handle(.host(.hosts(hosts)))
        for host in hosts where !connecting.contains(host) {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
        }
        return scenario
    }

    /// Queues a job of `host` (its engine's number `remote`), as the link posts it: the origin,
    /// then the job. Board numbers go 1, 2, 3 … in the order of the calls, as `Scenario` gives them.
    @discardableResult
    private func queue(_ scenario: inout Scenario, on host: String, remote: Int, _ name: String, _ titles: [String] = ["jq"]) -> Int {
        let board = scenario.state.queue.jobs.map(\.id).max().map { $0 + 1 } ?? 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: host, job: remote))))
        let job = scenario.queue(name, titles)
        #expect(job == board)
        return job
    }

    /// A job a host's snapshot brings back: its board number, its number on the host, and
    /// whether it runs.
    private struct ReturningJob {
        var board: Int
        var remote: Int
        var name: String
        var titles = ["jq"]
        var running = true
    }

    /// `host`'s link lost, then found again, as the link posts it: unreachable, connecting,
    /// its queue replaced by a snapshot of `jobs` (each under the board number it had), the
    /// snapshot's end.
    private func reconnect(_ scenario: inout Scenario, _ host: String, jobs: [ReturningJob]) {
        unreachable(&scenario, host, "ssh: connect to host \(host) port 22: Connection refused", retryIn: 1)
        scenario.advance(1)
        _ = scenario.state.handle(.host(.connecting(host)))
        _ = scenario.state.handle(.host(.queueReplaced(host)))
        for job in jobs {
            _ = scenario.state.handle(.host(.jobOrigin(board: job.board, origin: JobOrigin(host: host, job: job.remote))))
            let updates = job.titles.enumerated().map { Update(id: "u\(job.board)-\($0.offset)", title: $0.element) }
            scenario.send(.jobQueued(JobDescriptor(id: job.board, name: job.name, operation: .install, updates: updates, stopOnFailure: false)))
            if job.running { scenario.startJob(job.board) }
        }
        _ = scenario.state.handle(.host(.queueShown(host)))
    }

    /// Host `host`'s row on the screen (`▸ web1 …`, `▾ web1 …`), up to the jobs pane's border.
    private func row(_ host: String, in screen: String) -> String {
        let line = screen.split(separator: "\n").first { $0.contains("▸ \(host) ") || $0.contains("▾ \(host) ") } ?? ""
        guard let start = line.firstIndex(where: { $0 == "▸" || $0 == "▾" }) else { return "" }
        let rest = line[line.index(after: start)...]
        return String(line[start...(rest.firstIndex(of: "│") ?? line.index(before: line.endIndex))])
    }

    private func unreachable(_ scenario: inout Scenario, _ host: String, _ reason: String, retryIn seconds: Double = 4) {
        _ = scenario.state.handle(.host(.unreachable(host, reason: reason, retryAt: scenario.now.addingTimeInterval(seconds))))
    }

    @Test("each host is one row with its current job; →/Space show its jobs under it; the header counts hosts")
    func groupingAndHostCounts() {
        var scenario = board(["web1", "web2", "web3", "web4", "web5"], connecting: ["web4", "web5"])
        let running = queue(&scenario, on: "web1", remote: 1, "Security updates", ["openssl", "curl"])
        let waiting = queue(&scenario, on: "web1", remote: 2, "Tools")
        let failing = queue(&scenario, on: "web2", remote: 1, "Kernel")
        scenario.startJob(running)
        scenario.startUpdate(running, 0)
        scenario.progress(running, 0, 50)
        scenario.run(failing, codes: [.failed])
        unreachable(&scenario, "web4", "ssh: connect to host 10.77.0.14 port 22: Connection refused")

        #expect(scenario.state.boardRows == [.host("web1"), .host("web2"), .host("web3"), .host("web4"), .host("web5")])
        #expect(scenario.state.currentJob(ofHost: "web1")?.id == running)
        let counts = scenario.state.hostCounts
        #expect(counts.total == 5 && counts.installing == 1 && counts.failed == 1 && counts.idle == 1
            && counts.unreachable == 1 && counts.connecting == 1, "\(counts)")
        let screen = scenario.screen()
        #expect(screen.contains("5 hosts · 1 connecting · 1 idle · 1 installing · 1 failed · 1 unreachable"), "\(screen)")
        #expect(screen.contains("web3 idle"), "\(screen)")
        #expect(screen.contains("web5 connecting…"), "\(screen)")
        #expect(screen.contains("web4 unreachable 0:00: ssh: connect"), "\(screen)")
        // web1's bar is its running job's (0.5 of its 2 updates), not a count over its queued job too.
        #expect(row("web1", in: screen).hasSuffix("25%│"), "\(screen)")

        scenario.press(.home, .right)
        #expect(scenario.state.boardRows.prefix(4) == [.host("web1"), .job(running), .job(waiting), .host("web2")])
        scenario.press(.down, .down)
        #expect(scenario.state.selectedJobID == waiting && scenario.state.selectedBoardRow == .job(waiting))
        scenario.press(.character(" "))
        #expect(scenario.state.selectedBoardRow == .host("web1"), "folding selects the host's row")
        #expect(scenario.state.selectedJobID == running, "which stands for its running job")
        #expect(scenario.state.keyHelp.contains { $0.keys == "→ ← Space" })
    }

    @Test("a host row's bar and percent are its current job's: the running one, else the newest queued, else the one completed last")
    func hostRowShowsItsCurrentJob() {
        var scenario = board(["web1", "web2"])
        // Issue 44: "web1 Slow rollout 0%" while its job was at 35 %, and a new job at 0/16 read 73 %.
        scenario.run(queue(&scenario, on: "web1", remote: 1, "Tools", ["jq", "curl", "vim", "git"]))
        let rollout = queue(&scenario, on: "web1", remote: 2, "Slow rollout", ["nginx"])
        scenario.startJob(rollout)
        scenario.startUpdate(rollout, 0)
        scenario.progress(rollout, 0, 35)
        var screen = scenario.screen()
        #expect(row("web1", in: screen).contains("Slow rollout") && row("web1", in: screen).hasSuffix(" 35%│"), "\(screen)")
        scenario.completeUpdate(rollout, 0, .succeeded)
        scenario.completeJob(rollout)
        let fleet = queue(&scenario, on: "web1", remote: 3, "Fleet patching", (1...16).map { "package \($0)" })
        scenario.startJob(fleet)
        scenario.startUpdate(fleet, 0)
        screen = scenario.screen()
        #expect(row("web1", in: screen).contains("Fleet patching") && row("web1", in: screen).hasSuffix("  0%│"), "\(screen)")

        // Nothing runs on web2: its newest queued job stands for it, then the one that completed
        // last, whatever their numbers.
        let first = queue(&scenario, on: "web2", remote: 1, "First asked")
        let second = queue(&scenario, on: "web2", remote: 2, "Asked last")
        #expect(scenario.state.currentJob(ofHost: "web2")?.id == second)
        #expect(row("web2", in: scenario.screen()).contains("Asked last"), "\(scenario.screen())")
        scenario.run(second)
        scenario.run(first)
        #expect(scenario.state.currentJob(ofHost: "web2")?.id == first, "completed after the other")
        #expect(row("web2", in: scenario.screen()).contains("First asked"), "\(scenario.screen())")
    }

    @Test("the selection stays on its host across the host's reconnect, another's, and a sort of the rows: the next key acts on that host")
    func selectionStaysOnItsHost() {
        var scenario = board(["web1", "web2", "web3"])
        let one = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let two = queue(&scenario, on: "web2", remote: 7, "Security updates", ["openssl", "curl"])
        for job in [one, two] { scenario.startJob(job) }
        scenario.press(.home, .down)
        #expect(scenario.state.selectedBoardRow == .host("web2"))

        // Issue 44: "after a host reconnected, the selection had moved to another host".
        reconnect(&scenario, "web2", jobs: [ReturningJob(board: two, remote: 7, name: "Security updates", titles: ["openssl", "curl"])])
        #expect(scenario.state.selectedBoardRow == .host("web2") && scenario.state.selectedJobID == two)
        scenario.press(.character("a"))
        #expect(scenario.screen().contains("Abort Security updates on web2?"), "\(scenario.screen())")
        scenario.press(.escape)

        // Another host coming back leaves it too.
        reconnect(&scenario, "web1", jobs: [ReturningJob(board: one, remote: 1, name: "Upgrade")])
        #expect(scenario.state.selectedBoardRow == .host("web2") && scenario.state.selectedJobID == two)

        // Rows sorted (hosts in another order): the same host stays selected, and ↓ goes to
        // the row under it in the new order.
        scenario.state.board?.hosts.reverse()
        #expect(scenario.state.boardRows == [.host("web3"), .host("web2"), .host("web1")])
        #expect(scenario.state.selectedBoardRow == .host("web2"))
        scenario.press(.down)
        #expect(scenario.state.selectedBoardRow == .host("web1") && scenario.state.selectedJobID == one)
    }

    @Test("a selected job row under an expanded host is selected again when its host's snapshot brings it back; the host stays expanded")
    func jobRowKeptAcrossReconnect() {
        var scenario = board(["web1", "web2"])
        let one = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let first = queue(&scenario, on: "web2", remote: 3, "Security updates")
        let second = queue(&scenario, on: "web2", remote: 4, "Tools")
        for job in [one, first] { scenario.startJob(job) }
        scenario.press(.end, .right, .down, .down)
        #expect(scenario.state.selectedBoardRow == .job(second))

        reconnect(&scenario, "web2", jobs: [ReturningJob(board: first, remote: 3, name: "Security updates"),
                                             ReturningJob(board: second, remote: 4, name: "Tools", running: false)])
        #expect(scenario.state.board?.expanded == ["web2"])
        #expect(scenario.state.selectedBoardRow == .job(second) && scenario.state.selectedJobID == second)

        // A job that did not come back (cleaned up while the host was away): its host's row.
        reconnect(&scenario, "web2", jobs: [ReturningJob(board: first, remote: 3, name: "Security updates")])
        #expect(scenario.state.selectedBoardRow == .host("web2") && scenario.state.selectedJobID == first)
    }

    @Test("following the work, the selection stays on its host's running job when that host's queue comes afresh")
    func followedWorkKeptAcrossReconnect() {
        var scenario = board(["web1", "web2"])
        let one = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let two = queue(&scenario, on: "web2", remote: 1, "Upgrade")
        for job in [one, two] { scenario.startJob(job) }
        scenario.press(.end, .character("f"))
        #expect(scenario.state.selection.followsWork && scenario.state.selectedBoardRow == .host("web2"))
        reconnect(&scenario, "web2", jobs: [ReturningJob(board: two, remote: 1, name: "Upgrade")])
        #expect(scenario.state.selectedBoardRow == .host("web2") && scenario.state.selectedJobID == two)
    }

    @Test("cleaning up a selected job row selects the next job of the same host, then its row; never another host's job")
    func cleanUpKeepsTheHost() {
        var scenario = board(["web1", "web2"])
        let done = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let other = queue(&scenario, on: "web2", remote: 1, "Upgrade")
        let tools = queue(&scenario, on: "web1", remote: 2, "Tools")
        scenario.run(done)
        scenario.run(tools)
        scenario.startJob(other)
        scenario.press(.home, .right, .down)
        #expect(scenario.state.selectedBoardRow == .job(done))
        scenario.send(.jobCleanedUp(job: done))
        #expect(scenario.state.selectedBoardRow == .job(tools), "\(String(describing: scenario.state.selectedBoardRow))")
        scenario.send(.jobCleanedUp(job: tools))
        #expect(scenario.state.selectedBoardRow == .host("web1"), "\(String(describing: scenario.state.selectedBoardRow))")
    }

    @Test("two hosts' job 1 are two jobs; a and its yes abort the selected host's job through its number on the board")
    func commandsGoToTheSelectedHostsJob() {
        var scenario = board(["web1", "web2"])
        let first = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let second = queue(&scenario, on: "web2", remote: 1, "Upgrade")
        scenario.startJob(first)
        scenario.startJob(second)
        scenario.press(.end)
        #expect(scenario.state.selectedBoardRow == .host("web2"))
        scenario.press(.character("a"))
        #expect(scenario.screen().contains("Abort Upgrade on web2?"))
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.abort(job: second, force: false))])
        #expect(scenario.state.status?.text == "Aborting Upgrade on web2; press a again to force it")
    }

    @Test("a lost host keeps its jobs, stale with their age and ssh's words; keys on them are refused; its queue comes back afresh")
    func staleHostAndComingBack() {
        var scenario = board(["web1", "web2"])
        let job = queue(&scenario, on: "web2", remote: 7, "Upgrade")
        scenario.startJob(job)
        scenario.press(.end)
        unreachable(&scenario, "web2", "ssh: connect to host 10.77.0.12 port 22: Connection refused", retryIn: 1)
        scenario.advance(65)
        #expect(scenario.state.staleAge(ofHost: "web2") == 65)
        #expect(scenario.state.queue.job(job) != nil, "its last known job stays")
        var screen = scenario.screen()
        #expect(screen.contains("web2 unreachable, stale 1:05: ssh: c"), "\(screen)")
        #expect(screen.contains("web2: Upgrade · stale 1:05 · install"), "the updates pane's title: \(screen)")
        #expect(scenario.state.nextTickTime != nil, "the ages count on")
        #expect(Scenario.commands(scenario.press(.character("a"))).isEmpty)
        #expect(scenario.state.status?.text.hasPrefix("web2 is unreachable: its jobs are as they were 1:05 ago") == true)

        // Tried again: still showing why until it answers.
        _ = scenario.state.handle(.host(.connecting("web2")))
        #expect(scenario.state.hostCounts.unreachable == 1)
        _ = scenario.state.handle(.host(.queueReplaced("web2")))
        #expect(scenario.state.queue.job(job) == nil, "the stale job goes; the snapshot brings what is there now")
        _ = scenario.state.handle(.host(.jobOrigin(board: job, origin: JobOrigin(host: "web2", job: 7))))
        scenario.send(.jobQueued(JobDescriptor(id: job, name: "Upgrade", operation: .install, updates: [Update(id: "u", title: "jq")], stopOnFailure: false)))
        #expect(scenario.state.staleAge(ofHost: "web2") == nil)
        #expect(scenario.state.selectedJobID == job, "the host's row shows its job again")
        screen = scenario.screen()
        #expect(!screen.contains("stale"), "\(screen)")
    }

    @Test("a host whose engine falls silent over a live link is stale, saying so, its keys refused, counted unreachable; it is current again when it answers")
    func silentHost() {
        var scenario = board(["web1", "web2"], width: 140)
        _ = scenario.state.handle(.host(.jobOrigin(board: 1, origin: JobOrigin(host: "web2", job: 3))))
        let advice = RestartAdvice(processes: [
            StaleProcess(pid: 20, command: "php-fpm", uid: 33, user: "www-data", owner: .service(unit: "php8.2-fpm.service"),
                         files: [StaleFile(path: "/usr/lib/x86_64-linux-gnu/libssl.so.3", change: .deleted)]),
        ])
        scenario.complete(advice: advice)
        let job = queue(&scenario, on: "web2", remote: 4, "Upgrade")
        scenario.startJob(job)
        scenario.press(.end)
        let lastHeard = scenario.now
        scenario.advance(6)
        _ = scenario.state.handle(.host(.silent("web2", since: lastHeard)))
        #expect(scenario.state.staleAge(ofHost: "web2") == 6)
        #expect(scenario.state.hostCounts.unreachable == 1)
        var screen = scenario.screen()
        #expect(row("web2", in: screen).contains("web2 no answer for 0:06, stale"), "\(screen)")
        #expect(screen.contains("web2: Upgrade · stale 0:06"), "the updates pane's title: \(screen)")
        #expect(scenario.state.nextTickTime != nil, "the age counts on")
        #expect(Scenario.commands(scenario.press(.character("a"))).isEmpty)
        #expect(scenario.state.status?.text.hasPrefix("web2 does not answer: its jobs are as they were 0:06 ago") == true)
        scenario.press(.character("R"))
        #expect(scenario.screen().contains("Restart 1 service on web2"), "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("y"))).isEmpty, "no restart job waits in a stopped engine")
        #expect(scenario.state.status?.text.hasPrefix("web2 does not answer") == true)
        scenario.advance(3)
        #expect(row("web2", in: scenario.screen()).contains("no answer for 0:09"))

        _ = scenario.state.handle(.host(.answersAgain("web2")))
        #expect(scenario.state.staleAge(ofHost: "web2") == nil && scenario.state.queue.job(job) != nil, "its jobs stay, current")
        screen = scenario.screen()
        #expect(!screen.contains("stale") && row("web2", in: screen).contains("Upgrade"), "\(screen)")

        // Silent, then its ssh fails: its jobs are as they were when it fell silent.
        _ = scenario.state.handle(.host(.silent("web2", since: scenario.now)))
        scenario.advance(10)
        unreachable(&scenario, "web2", "ssh: Connection to web2 closed by remote host.")
        #expect(scenario.state.staleAge(ofHost: "web2") == 10)

        // Only a connected host falls silent.
        var connecting = board(["db1"], connecting: ["db1"])
        _ = connecting.state.handle(.host(.silent("db1", since: connecting.now)))
        #expect(connecting.state.board?.host(named: "db1")?.link == .connecting)
    }

    @Test("a stale host's expanded job rows keep their status word whole beside the stale mark, at 120 and 80 columns",
          arguments: [(120, " stale 1:05"), (80, " stale")])
    func staleJobRowKeepsItsStatus(width: Int, mark: String) throws {
        var scenario = board(["web1", "web2"], width: width)
        let aborted = queue(&scenario, on: "web2", remote: 7, "Upgrade", ["jq", "curl", "vim"])
        let aborting = queue(&scenario, on: "web2", remote: 8, "Security updates", ["openssl"])
        scenario.startJob(aborted)
        scenario.startUpdate(aborted, 0)
        scenario.completeUpdate(aborted, 0, .succeeded)
        scenario.send(.jobAbortRequested(job: aborted, force: false))
        scenario.completeJob(aborted)
        scenario.startJob(aborting)
        scenario.startUpdate(aborting, 0)
        scenario.send(.jobAbortRequested(job: aborting, force: false))
        scenario.press(.end, .right)
        unreachable(&scenario, "web2", "ssh: connect to host 10.77.0.12 port 22: Connection refused", retryIn: 1)
        scenario.advance(65)
        let lines = scenario.render().lines
        let rows = lines.filter { $0.contains("⊘ Upgrade") || $0.contains("▶ Securit") }
        #expect(rows.count == 2, "\(lines.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("aborted 1/3") && $0.contains(mark) }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("aborting…") && $0.contains(mark) }, "\(rows.joined(separator: "\n"))")
        #expect(!rows.contains { $0.contains("ab stale") }, "\(rows.joined(separator: "\n"))")
    }

    @Test("a stale host with jobs: its row's age advances with the ticks alone, and its pane says ssh's words whole and how old its jobs are")
    func staleHostWithJobsSaysItWhole() throws {
        var scenario = board(["web1", "web2"], width: 100)
        let job = queue(&scenario, on: "web2", remote: 7, "Upgrade", ["jq", "curl"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.press(.end)
        let reason = "ssh: connect to host web2.example.internal port 22: Connection timed out during banner exchange"
        unreachable(&scenario, "web2", reason, retryIn: 30)
        scenario.advance(5)
        #expect(scenario.screen().contains("stale 0:05"), "\(scenario.screen())")
        // Ticks alone, no event from the host: the age goes on.
        for _ in 0..<60 { scenario.advance(1) }
        let screen = scenario.screen()
        #expect(screen.contains("stale 1:05"), "\(screen)")
        let unwrapped = screen.split(separator: "\n").map { $0.replacing(/[│┌┐└┘─]/, with: "") }.joined(separator: " ")
        let words = unwrapped.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(reason), "ssh's words whole in the selected stale host's pane:\n\(screen)")
    }

    @Test("a host with no job shows its link in the updates pane: ssh's words whole and the next try")
    func unreachableHostWithoutJobs() {
        var scenario = board(["db1"], connecting: ["db1"], width: 140)
        unreachable(&scenario, "db1", "ssh: connect to host 10.77.0.21 port 22: No route to host", retryIn: 8)
        let screen = scenario.screen()
        #expect(screen.contains("db1: unreachable for 0:00"), "\(screen)")
        #expect(screen.contains("ssh: connect to host 10.77.0.21 port 22: No route to host"), "\(screen)")
        #expect(screen.contains("next try in 8s"), "\(screen)")
        #expect(scenario.state.hostCounts.unreachable == 1)
    }

    @Test("a header too long for its row is cut with an ellipsis two columns before the restarts and reboots, never run into them")
    func headerKeepsItsSidesApart() {
        var scenario = board(["web-frontend-01", "web-frontend-02", "web-frontend-03"], width: 48)
        let advice = RestartAdvice(processes: [
            StaleProcess(pid: 20, command: "php-fpm", uid: 33, user: "www-data", owner: .service(unit: "php8.2-fpm.service"),
                         files: [StaleFile(path: "/usr/lib/x86_64-linux-gnu/libssl.so.3", change: .deleted)]),
        ])
        let board = scenario.state.queue.jobs.count + 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "web-frontend-02", job: 3))))
        scenario.complete(advice: advice)
        scenario.press(.character("M"))
        let header = String(scenario.render().lines[0])
        #expect(header.contains("… 1 with restarts") || header.contains("…  1 with restarts"), "\(header)")
        #expect(!header.contains("marked1") && !header.contains("idle1"), "\(header)")
    }

    @Test("R restarts the selected host's services through that host's engine, and the question names the host")
    func restartJobGoesToTheSelectedHost() {
        var scenario = board(["web1", "web2"])
        let advice = RestartAdvice(processes: [
            StaleProcess(pid: 20, command: "php-fpm", uid: 33, user: "www-data", owner: .service(unit: "php8.2-fpm.service"),
                         files: [StaleFile(path: "/usr/lib/x86_64-linux-gnu/libssl.so.3", change: .deleted)]),
        ])
        let board = scenario.state.queue.jobs.count + 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "web2", job: 3))))
        scenario.complete(advice: advice)
        #expect(scenario.state.hostCounts.servicesToRestart == 1)
        #expect(scenario.screen().contains("1 with restarts"))
        scenario.press(.home)
        scenario.press(.character("R"))
        #expect(scenario.state.overlay == nil, "web1 has no scan")
        scenario.press(.end, .character("R"))
        #expect(scenario.screen().contains("Restart 1 service on web2"), "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("y")))
            == [.submitOnHost(host: "web2", name: RestartJobPlan.jobName, updates: RestartJobPlan.updates(restarting: ["php8.2-fpm.service"]))])
    }

    @Test("the wait before trying an unreachable host again: 1 s doubling to 30 s, from 1 s again after a success")
    func retrySchedule() {
        var schedule = HostRetrySchedule()
        let waits = (1...8).map { _ in schedule.failed() }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        schedule.succeeded()
        #expect(schedule.failed() == .seconds(1))
    }

    @Test("a job awaiting yes on a host: the question names the host, y confirms it through the host's job; unreachable, y is refused")
    func confirmationOnAHost() {
        var scenario = board(["web1", "web2"])
        _ = scenario.state.handle(.host(.jobOrigin(board: 1, origin: JobOrigin(host: "web2", job: 4))))
        scenario.send(.jobQueued(JobDescriptor(id: 1, name: "apt install jq", operation: .install, updates: [Update(id: "jq", title: "jq")],
                                               stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
        #expect(scenario.screen().contains("Start apt install jq on web2?"), "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: 1))])

        var lost = board(["web2"])
        _ = lost.state.handle(.host(.jobOrigin(board: 1, origin: JobOrigin(host: "web2", job: 4))))
        lost.send(.jobQueued(JobDescriptor(id: 1, name: "apt install jq", operation: .install, updates: [Update(id: "jq", title: "jq")],
                                           stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
        unreachable(&lost, "web2", "ssh: connect to host web2 port 22: Connection refused")
        #expect(Scenario.commands(lost.press(.character("y"))).isEmpty)
        #expect(lost.state.status?.text.hasPrefix("web2 is unreachable") == true)
    }

    @Test("A aborts the selected host's jobs through its engine, not every host's")
    func abortAllIsTheSelectedHosts() {
        var scenario = board(["web1", "web2"])
        let first = queue(&scenario, on: "web1", remote: 1, "Upgrade")
        let second = queue(&scenario, on: "web1", remote: 2, "Tools")
        let other = queue(&scenario, on: "web2", remote: 1, "Upgrade")
        for job in [first, second, other] { scenario.startJob(job) }
        scenario.press(.home, .character("A"))
        #expect(scenario.screen().contains("Abort all 2 unfinished jobs on web1?"), "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.abort(job: first, force: false)), .command(.abort(job: second, force: false))])
        #expect(scenario.state.status?.text == "Aborting 2 jobs on web1; press A again to force")
    }
}
