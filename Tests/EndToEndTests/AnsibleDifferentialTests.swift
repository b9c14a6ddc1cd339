import FleetTestSupport
import Foundation
import Testing

/// The differential harness (issue 20): each playbook of the corpus runs once with plain
/// `ansible-playbook` and once through `installtop ansible --json` on the same hosts (four
/// names with `ansible_connection=local`: no namespaces needed), and installtop's account must
/// agree with Ansible's own, per host (failed or not, the recap's failed, unreachable, skipped,
/// rescued and ignored counts, never reached), per task where Ansible printed a line for it
/// (ok, skipped, failed, ignored, unreachable), and in the exit status (zero or not). Every
/// disagreement is listed in the failure.
@Suite("installtop ansible agrees with ansible-playbook", .serialized)
struct AnsibleDifferentialTests {
    private static let hosts = ["web1", "web2", "web3", "web4"]

    @Test("The board agrees with Ansible's PLAY RECAP and task lines", arguments: DifferentialCase.corpus)
    func agrees(_ differential: DifferentialCase) async throws {
        let toolchain = try AnsibleToolchain.locate()
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try LocalAnsible.prepare(folder, hosts: Self.hosts, toolchain: toolchain)
        try folder.write("site.yml", differential.playbook)
        for (path, text) in differential.files {
            try FileManager.default.createDirectory(atPath: (folder.file(path) as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try folder.write(path, text)
        }

        let plain = try await FleetCommand.run([toolchain.playbook, folder.file("site.yml"), "-i", folder.file("hosts.ini")] + differential.arguments,
                                         environment: environment, timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
        let ansible = AnsibleTranscript(parsing: plain.stdout)
        #expect(!ansible.recap.isEmpty, "no PLAY RECAP from ansible-playbook: \(plain.stdout)\(plain.stderr)")

        let arguments = ["ansible", "site.yml", "-i", "hosts.ini", "--json", "--no-history"]
            + (differential.arguments.isEmpty ? [] : ["--"] + differential.arguments)
        let run = try await InstalltopProcess(arguments, in: folder, environment: environment)
            .finish(timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
        let board = try BoardAccount(run.jsonEvents())

        let disagreements = Self.compare(ansible: ansible, ansibleStatus: plain.status, board: board, installtopStatus: run.status)
        #expect(disagreements.isEmpty, """
            \(differential.name) (\(differential.proves)):
            \(disagreements.joined(separator: "\n"))
            --- ansible-playbook (exit \(plain.status)):
            \(plain.stdout)
            --- installtop (exit \(run.status)) stderr:
            \(run.stderr)
            """)
        // Facts gathered ran `rpm -q` (when rpm is installed) with the folder's home: its
        // database went there, not to the machine's /root/.rpmdb.
        if differential.playbook.contains("setup:"), access("/usr/bin/rpm", X_OK) == 0 {
            #expect(FileManager.default.fileExists(atPath: folder.file("home/.rpmdb")),
                    "rpm's database went elsewhere: \((FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.contains("rpm") })")
        }
    }

    @Test("The summary says a run was a check run exactly when Ansible says DRY RUN", arguments: [["--check"], ["-vC"], []])
    func checkRunSummary(_ arguments: [String]) async throws {
        let toolchain = try AnsibleToolchain.locate()
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try LocalAnsible.prepare(folder, hosts: ["web1"], toolchain: toolchain)
        try folder.write("site.yml", """
            - hosts: web
              gather_facts: false
              tasks:
                - name: Write a file
                  copy:
                    content: "x\\n"
                    dest: "{{ playbook_dir }}/never"
            """)
        let plain = try await FleetCommand.run([toolchain.playbook, folder.file("site.yml"), "-i", folder.file("hosts.ini")] + arguments,
                                               environment: environment, timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
        let run = try await InstalltopProcess(["ansible", "site.yml", "-i", "hosts.ini", "--plain", "--no-history"]
            + (arguments.isEmpty ? [] : ["--"] + arguments), in: folder, environment: environment)
            .finish(timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
        let dryRun = plain.stdout.contains("DRY RUN *")
        let said = run.stdout.contains("This was a check run (--check)")
        #expect(dryRun == said, "ansible-playbook \(arguments) says DRY RUN: \(dryRun); installtop's summary says a check run: \(said)\n\(run.stdout)")
    }

    static func compare(ansible: AnsibleTranscript, ansibleStatus: Int32, board: BoardAccount, installtopStatus: Int32) -> [String] {
        var problems: [String] = []
        if (ansibleStatus == 0) != (installtopStatus == 0) {
            problems.append("exit status: ansible-playbook \(ansibleStatus), installtop \(installtopStatus)")
        }
        for host in hosts {
            let tasks = board.tasks(of: host)
            guard let recap = ansible.recap[host] else {
                // Ansible never came to the host: nothing of it ran, and nothing failed.
                for task in tasks where task.result != "aborted" || task.startedAt != nil {
                    problems.append("\(host) is not in the recap (never reached), but installtop has \(task)")
                }
                for (job, result) in board.jobResults(of: host) where result != "aborted" {
                    problems.append("\(host) never reached: its job \(job) is \(result), not aborted")
                }
                continue
            }
            let counted = board.recap(of: host)
            // A failing run_once task fails every host of its batch: Ansible's recap counts the
            // failure only where it ran, and prints a line for that host only.
            let failedWithOthers = tasks.contains { task in
                task.failedElsewhere && ansible.results.contains { key, result in
                    key.task == task.title && key.host == Self.ranOn(task) && (key.play == task.play || task.play.isEmpty) && result == .failed
                }
            }
            for (name, mine, theirs) in [("failed", counted.failed, recap.failed), ("unreachable", counted.unreachable, recap.unreachable),
                                         ("skipped", counted.skipped, recap.skipped), ("rescued", counted.rescued, recap.rescued),
                                         ("ignored", counted.ignored, recap.ignored)] where mine != theirs {
                problems.append("\(host) \(name): recap \(theirs), installtop \(mine)")
            }
            // The corpus holds only constructs the board claims to know.
            for task in tasks where task.mark == "unknown" {
                problems.append("\(host) \(task.play) / \(task.title): installtop could not tell what Ansible did: \(task)")
            }
            if !recap.hostFailed && !failedWithOthers {
                // Never reached (a batch a play ended before) is no abort; what Ansible printed
                // lines for is held against them below.
                for task in tasks where task.result == "aborted" && task.mark != "notReached" && !(task.reason ?? "").contains("the play stopped") {
                    problems.append("\(host) did not fail, yet installtop aborted \(task)")
                }
                for (job, result) in board.jobResults(of: host) where result == "failed" {
                    problems.append("\(host) did not fail, yet its job \(job) is failed")
                }
            }
        }
        for (key, theirs) in ansible.results.sorted(by: { $0.key.description < $1.key.description }) {
            guard let task = board.task(key) else {
                if board.plans(key) { problems.append("\(key): Ansible says \(theirs.rawValue), installtop has no result") }
                continue
            }
            if task.asAnsibleSays != theirs { problems.append("\(key): Ansible says \(theirs.rawValue), installtop \(task)") }
            problems += Self.compareStatus(key, task, ansible: ansible)
        }
        problems += compareHandlers(ansible: ansible, board: board)
        problems += compareLeftOut(ansible: ansible, board: board)
        return problems
    }

    /// The host a run_once failure names ("failed on web1 (run_once): …").
    private static func ranOn(_ task: BoardAccount.Task) -> String {
        String((task.reason ?? "").dropFirst("failed on ".count).prefix { $0 != " " })
    }

    /// What the board said of a task while and after it ran, against Ansible's lines for it:
    /// a loop's items (`item 3/5: label`, in Ansible's order: JSON coalesces messages less than
    /// 50 ms apart, so some, even the last, may not be seen), where a delegated task
    /// ran, changed or not (`would change` in check mode), an async task's polls.
    static func compareStatus(_ key: AnsibleTaskKey, _ task: BoardAccount.Task, ansible: AnsibleTranscript) -> [String] {
        var problems: [String] = []
        if let labels = ansible.items[key] {
            let shown = task.messages.compactMap(ItemMessage.init)
            if shown.isEmpty { problems.append("\(key): Ansible ran items \(labels), installtop showed none: \(task.messages)") }
            for item in shown where item.total != labels.count || item.index > labels.count || labels[item.index - 1] != item.label {
                problems.append("\(key): installtop showed item \(item.index)/\(item.total) \(item.label), Ansible's items are \(labels)")
            }
            if zip(shown, shown.dropFirst()).contains(where: { $0.index >= $1.index }) {
                problems.append("\(key): installtop's items went back: \(task.messages)")
            }
        }
        if let polls = ansible.polls[key], polls > 0, !task.messages.contains(where: { $0.hasPrefix("polling ") }) {
            problems.append("\(key): Ansible polled \(polls) times, installtop showed no polling: \(task.messages)")
        }
        guard task.result == "succeeded", task.mark == nil, let status = task.status else { return problems }
        let checked = ansible.checkMode.contains(AnsibleTaskKey(play: key.play, task: key.task, host: ""))
        let word = ansible.changed.contains(key) ? (checked ? "would change" : "changed") : "ok"
        let expected = word + (ansible.delegates[key].map { " on \($0)" } ?? "")
        if status != expected { problems.append("\(key): Ansible's line means \"\(expected)\", installtop's status is \"\(status)\"") }
        return problems
    }

    /// Ansible leaves a host it failed out of later plays, even when its recap counts no failure
    /// for it (a failing run_once task fails the whole batch): a host Ansible printed lines for
    /// in one play and none for in a later play where others have lines must have a failed job
    /// in an earlier play on the board.
    static func compareLeftOut(ansible: AnsibleTranscript, board: BoardAccount) -> [String] {
        let playsWithLines = Set(ansible.results.keys.map(\.play))
        var problems: [String] = []
        for host in hosts {
            let jobs = board.plays(of: host)
            let hostPlays = Set(ansible.results.keys.filter { $0.host == host }.map(\.play))
            for (index, job) in jobs.enumerated() where index > 0 && !job.play.isEmpty
                && playsWithLines.contains(job.play) && !hostPlays.contains(job.play) {
                let earlier = jobs[..<index]
                guard earlier.contains(where: { hostPlays.contains($0.play) }) else { continue }
                // A job with a failed task is failed, or succeeded with errors when others succeeded.
                if !earlier.contains(where: { $0.result == "failed" || $0.result == "succeededWithErrors" }) {
                    problems.append("\(host): Ansible left it out of \(job.play), yet none of its earlier jobs failed: \(Array(earlier))")
                }
            }
        }
        return problems
    }

    /// A host ran handlers in a play on the board exactly where Ansible ran one: a play whose
    /// handlers Ansible ran on a host (its own, or those of a role an include brought) has a
    /// Handlers update on that host's job, and it ran.
    static func compareHandlers(ansible: AnsibleTranscript, board: BoardAccount) -> [String] {
        var problems: [String] = []
        for host in hosts {
            for task in board.tasks(of: host) where task.title == "Handlers" {
                let ran = task.result != "aborted" && task.mark != "skipped" && task.mark != "notReached"
                let theirs = ansible.handlersRan[task.play]?.contains(host) ?? (ansible.handlersRan.count == 1 && task.play.isEmpty
                    ? ansible.handlersRan.values.first?.contains(host) ?? false : false)
                if ran != theirs { problems.append("\(host) \(task.play) handlers: Ansible ran \(theirs ? "some" : "none"), installtop \(task)") }
            }
        }
        for (play, ran) in ansible.handlersRan.sorted(by: { $0.key < $1.key }) {
            for host in ran.sorted() where board.task(AnsibleTaskKey(play: play, task: "Handlers", host: host)) == nil {
                problems.append("\(host) \(play): Ansible ran handlers, installtop has no Handlers update for them")
            }
        }
        return problems
    }
}
