import FleetTestSupport
import Foundation
import Testing
import TestProcessSupport

/// `installtop ansible` through the real binary against test hosts in network namespaces, each
/// with its own sshd (Documentation/FLEET-FACTS.md): hosts as jobs, tasks as updates, failures, skips, unreachable
/// hosts, reboots per host, forks, serial batches, the free strategy (a host done before the
/// others), several plays, includes, handlers, the safe stop at a task boundary, the forced
/// one, and refusals. Every fleet is torn down, also when a test fails (`FleetTestHosts.deinit`).
@Suite("installtop ansible across test hosts", .serialized)
struct FleetTests {
    /// installtop run inside the controller namespace, where the hosts are reachable.
    private func ansible(_ arguments: [String], hosts: FleetTestHosts, in folder: TestFolder) throws -> InstalltopProcess {
        let command = hosts.controllerCommand([try InstalltopBinary.path(), "ansible"] + arguments)
        return try InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0],
                                     environment: try hosts.environmentWithAnsible())
    }

    private func run(_ arguments: [String], hosts: FleetTestHosts, in folder: TestFolder) async throws -> RunResult {
        try await finish(ansible(arguments, hosts: hosts, in: folder))
    }

    /// A play is hung when its events stop, not when it is slow (see `AnsiblePlay`).
    private func finish(_ process: InstalltopProcess) async throws -> RunResult {
        try await process.finish(timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
    }

    /// The job of each host by name, from `job.queued`.
    private func jobs(_ events: [JSONEvent]) -> [String: Int] {
        Dictionary(events.filter { $0.name == "job.queued" }.compactMap { event in event.job.map { (event.string("name") ?? "", $0) } },
                   uniquingKeysWith: { first, _ in first })
    }

    private func completions(_ events: [JSONEvent], job: Int?) -> [String: JSONEvent] {
        Dictionary(events.filter { $0.name == "update.completed" && $0.job == job }.map { ($0.string("id") ?? "", $0) },
                   uniquingKeysWith: { first, _ in first })
    }

    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    @Test("A 4-host play: a failing host, a skipped task, an unreachable host and a host asking for a reboot")
    func fourHostPlay() async throws {
        let hosts = try FleetTestHosts(count: 4)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        _ = try hosts.run(onHost: 4, "touch /run/reboot-required")
        try hosts.stopSSHD(host: 3)
        try folder.write("site.yml", """
            - name: Patch
              hosts: all
              gather_facts: false
              tasks:
                - name: Install
                  command: /bin/true
                - name: Break h2
                  command: /bin/false
                  when: inventory_hostname == 'h2'
                - name: Never
                  command: /bin/true
                  when: false
                - name: Reboot check
                  stat: {path: /run/reboot-required}
                  register: marker
            """)
        let result = try await run(["site.yml", "-i", hosts.inventoryPath, "--json", "--no-history"], hosts: hosts, in: folder)
        #expect(result.status == 1, "a failed host makes exit 1; stderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let byHost = jobs(events)
        #expect(byHost.keys.sorted() == ["h1", "h2", "h3", "h4"], "\(byHost)")

        let h1 = completions(events, job: byHost["h1"])
        #expect(h1["Install"]?.string("result") == "succeeded")
        #expect(h1["Break h2"]?.bool("skipped") == true && h1["Never"]?.bool("skipped") == true)
        #expect(h1["Reboot check"]?.bool("rebootRequired") != true, "h1 has no marker: the controller's /run says nothing")

        let h2 = completions(events, job: byHost["h2"])
        #expect(h2["Break h2"]?.string("result") == "failed")
        #expect(h2["Never"]?.string("result") == "aborted" && h2["Never"]?.string("reason") == "not started: host failed", "\(h2)")
        #expect(h2["Reboot check"]?.string("hResult") == "0x8024000B")

        let h3 = completions(events, job: byHost["h3"])
        #expect(h3["Install"]?.string("result") == "failed")
        #expect(h3["Install"]?.string("reason")?.hasPrefix("unreachable") == true, "\(h3)")
        #expect(h3["Reboot check"]?.string("reason") == "not started: host unreachable")

        let h4 = completions(events, job: byHost["h4"])
        #expect(h4["Reboot check"]?.bool("rebootRequired") == true)
        let h4Job = events.last { $0.name == "job.completed" && $0.job == byHost["h4"] }
        #expect(h4Job?.bool("rebootRequired") == true && h4Job?.string("result") == "succeeded")
        let others = events.filter { $0.name == "job.completed" && $0.job != byHost["h4"] }
        #expect(others.allSatisfy { $0.bool("rebootRequired") == false })
    }

    @Test("forks 2: the third and fourth hosts start only when a fork is free; serial 2: every host planned at once, the second batch after the first")
    func forksAndSerial() async throws {
        let hosts = try FleetTestHosts(count: 4)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("forks.yml", """
            - hosts: all
              gather_facts: false
              tasks:
                - name: Work
                  command: sleep 1
            """)
        let forks = try await run(["forks.yml", "-i", hosts.inventoryPath, "--json", "--no-history", "--", "--forks", "2"],
                                  hosts: hosts, in: folder)
        #expect(forks.status == 0, "\(forks.stderr)")
        let forkEvents = try forks.jsonEvents()
        let forkJobs = jobs(forkEvents)
        // A fork frees after `sleep 1`: the later hosts' start times show they waited for one
        // (that the board never shows more running than forks is AnsibleForksTests').
        func startTime(_ host: String) -> Date? {
            forkEvents.first { $0.name == "job.started" && $0.job == forkJobs[host] }?.string("time").flatMap(Self.date)
        }
        let first = try #require(startTime("h1"))
        for host in ["h3", "h4"] {
            let start = try #require(startTime(host))
            #expect(start.timeIntervalSince(first) >= 0.9, "\(host) waited for a fork: \(start.timeIntervalSince(first)) s")
        }

        try folder.write("serial.yml", """
            - hosts: all
              gather_facts: false
              serial: 2
              tasks:
                - name: Work
                  command: /bin/true
            """)
        let serial = try await run(["serial.yml", "-i", hosts.inventoryPath, "--json", "--no-history"], hosts: hosts, in: folder)
        #expect(serial.status == 0, "\(serial.stderr)")
        let events = try serial.jsonEvents()
        let byHost = jobs(events)
        #expect(byHost.count == 4, "every host of the play, not only the first batch: \(byHost)")
        let lastQueued = try #require(events.lastIndex { $0.name == "job.queued" })
        let firstStarted = try #require(events.firstIndex { $0.name == "job.started" })
        #expect(lastQueued < firstStarted, "the whole plan before anything runs")
        let firstBatchDone = events.indices.filter { events[$0].name == "job.completed" && [byHost["h1"], byHost["h2"]].contains(events[$0].job) }
        let secondBatchStarts = events.indices.filter { events[$0].name == "job.started" && [byHost["h3"], byHost["h4"]].contains(events[$0].job) }
        #expect(firstBatchDone.count == 2 && secondBatchStarts.allSatisfy { $0 > firstBatchDone.max()! }, "\(events.map(\.name))")
    }

    @Test("strategy free and two plays: every host runs on, each play's hosts are jobs of their own")
    func freeAndTwoPlays() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("two.yml", """
            - name: First
              hosts: all
              gather_facts: false
              strategy: free
              tasks:
                - name: One
                  command: /bin/true
                - name: Two
                  command: /bin/true
            - name: Second
              hosts: h1
              gather_facts: false
              tasks:
                - name: Three
                  command: /bin/true
            """)
        let result = try await run(["two.yml", "-i", hosts.inventoryPath, "--json", "--no-history"], hosts: hosts, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.jsonEvents()
        #expect(jobs(events).keys.sorted() == ["h1 · First", "h1 · Second", "h2 · First"])
        #expect(events.filter { $0.name == "update.completed" }.count == 5)
        #expect(events.filter { $0.name == "job.completed" }.allSatisfy { $0.string("result") == "succeeded" })
    }

    @Test("include_tasks: the include stands for the tasks it includes, shows them running, and fails with them")
    func includedTasks() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("more.yml", """
            - name: Inner one
              command: /bin/true
            - name: Inner break h2
              command: /bin/false
              when: inventory_hostname == 'h2'
            """)
        try folder.write("site.yml", """
            - name: Patch
              hosts: all
              gather_facts: false
              tasks:
                - name: Before
                  command: /bin/true
                - name: More
                  include_tasks: more.yml
                - name: After
                  command: /bin/true
            - name: Last
              hosts: all
              gather_facts: false
              tasks:
                - name: Only an include
                  include_tasks: more.yml
            """)
        let result = try await run(["site.yml", "-i", hosts.inventoryPath, "--json", "--json-logs", "--no-history"], hosts: hosts, in: folder)
        #expect(result.status == 1, "h2 failed in an included task; stderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let byHost = jobs(events)

        let h1 = completions(events, job: byHost["h1 · Patch"])
        #expect(h1["More"]?.string("result") == "succeeded", "\(byHost) \(h1)")
        let status = events.last { $0.name == "progress" && $0.job == byHost["h1 · Patch"] && $0.int("index") == 1 }?.string("message")
        #expect(status == "changed", "an included task changed something: the include did")
        #expect(h1["After"]?.string("result") == "succeeded")
        let h1More = events.firstIndex { $0.name == "update.completed" && $0.job == byHost["h1 · Patch"] && $0.string("id") == "More" }
        let h1After = events.firstIndex { $0.name == "update.started" && $0.job == byHost["h1 · Patch"] && $0.string("id") == "After" }
        #expect(h1More != nil && h1After != nil && h1More! < h1After!, "the include ends before the next task starts")
        // "More" is the second task: its log names each task it includes, as Ansible does.
        let logged = events.filter { $0.name == "log" && $0.job == byHost["h1 · Patch"] && $0.int("index") == 1 }.compactMap { $0.string("line") }
        #expect(logged.contains("TASK [Inner one]"), "\(logged)")

        let h2 = completions(events, job: byHost["h2 · Patch"])
        #expect(h2["More"]?.string("result") == "failed", "\(h2)")
        #expect(h2["More"]?.string("reason")?.contains("Inner break h2") == true, "the reason names the included task: \(h2["More"]?.string("reason") ?? "")")
        #expect(h2["After"]?.string("result") == "aborted" && h2["After"]?.string("reason") == "not started: host failed")

        // A play that is only an include: its host is not done before the included tasks are.
        let h1Last = completions(events, job: byHost["h1 · Last"])
        #expect(h1Last["Only an include"]?.string("result") == "succeeded", "\(byHost) \(h1Last)")
        let h1LastJob = events.last { $0.name == "job.completed" && $0.job == byHost["h1 · Last"] }
        #expect(h1LastJob?.string("result") == "succeeded")
        // Ansible leaves h2 out of the later play: never reached, not failed (and no abort).
        let h2Last = completions(events, job: byHost["h2 · Last"])["Only an include"]
        #expect(h2Last?.string("result") == "aborted" && h2Last?.string("mark") == "notReached", "\(h2Last.map(String.init(describing:)) ?? "none")")
    }

    @Test("Handlers are one update of a play that has them: a failing handler fails it and the host; none notified is skipped")
    func handlers() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("site.yml", """
            - name: Patch
              hosts: all
              gather_facts: false
              tasks:
                - name: Configure
                  command: /bin/true
                  notify: Restart
              handlers:
                - name: Restart
                  command: /bin/false
                  when: inventory_hostname == 'h2'
            - name: Quiet
              hosts: h1
              gather_facts: false
              tasks:
                - name: Look
                  command: /bin/true
                  changed_when: false
                  notify: Never restart
              handlers:
                - name: Never restart
                  command: /bin/true
            - name: Flush
              hosts: h1
              gather_facts: false
              tasks:
                - name: Steps
                  include_tasks: steps.yml
              handlers:
                - name: Note
                  command: /bin/true
            """)
        // Handlers flushed in the middle of an include: the include goes on after them.
        try folder.write("steps.yml", """
            - name: Step one
              command: /bin/true
              notify: Note
            - meta: flush_handlers
            - name: Step two
              command: /bin/false
            """)
        let result = try await run(["site.yml", "-i", hosts.inventoryPath, "--json", "--json-logs", "--no-history"], hosts: hosts, in: folder)
        #expect(result.status == 1, "h2's handler failed; stderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let byHost = jobs(events)
        let planned = events.first { $0.name == "job.queued" && $0.job == byHost["h1 · Patch"] }
        #expect((planned?.fields["updates"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["Configure", "Handlers"])

        let h1 = completions(events, job: byHost["h1 · Patch"])
        #expect(h1["Handlers"]?.string("result") == "succeeded", "\(byHost) \(h1)")
        let logged = events.filter { $0.name == "log" && $0.job == byHost["h1 · Patch"] && $0.int("index") == 1 }.compactMap { $0.string("line") }
        #expect(logged.contains("RUNNING HANDLER [Restart]"), "\(logged)")
        let h2 = completions(events, job: byHost["h2 · Patch"])
        #expect(h2["Handlers"]?.string("result") == "failed" && h2["Handlers"]?.string("reason")?.hasPrefix("Restart: ") == true, "\(h2)")
        // WUA's rule: a job where some updates succeeded and one failed succeeded with errors.
        #expect(events.last { $0.name == "job.completed" && $0.job == byHost["h2 · Patch"] }?.string("result") == "succeededWithErrors")

        let quiet = completions(events, job: byHost["h1 · Quiet"])
        #expect(quiet["Handlers"]?.bool("skipped") == true && quiet["Handlers"]?.string("reason") == "no handler was notified", "\(quiet)")
        #expect(events.last { $0.name == "job.completed" && $0.job == byHost["h1 · Quiet"] }?.string("result") == "succeeded")

        let flush = completions(events, job: byHost["h1 · Flush"])
        #expect(flush["Steps"]?.string("result") == "failed" && flush["Steps"]?.string("reason")?.hasPrefix("Step two: ") == true, "\(flush)")
        let steps = events.filter { $0.name == "log" && $0.job == byHost["h1 · Flush"] && $0.int("index") == 0 }.compactMap { $0.string("line") }
        #expect(steps.contains("TASK [Step one]") && steps.contains("TASK [Step two]"), "\(steps)")
        let flushed = events.filter { $0.name == "log" && $0.job == byHost["h1 · Flush"] && $0.int("index") == 1 }.compactMap { $0.string("line") }
        #expect(flushed.contains("RUNNING HANDLER [Note]"), "\(flushed)")
    }

    @Test("strategy free: a host whose tasks and handlers are done is done while another host still works")
    func freeStrategyHostDoneEarly() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let release = folder.file("release")
        try folder.write("free.yml", """
            - hosts: all
              gather_facts: false
              strategy: free
              tasks:
                - name: Work
                  shell: if [ {{ inventory_hostname }} = h2 ]; then while [ ! -e \(release) ]; do sleep 0.1; done; fi
                  notify: Restart
              handlers:
                - name: Restart
                  command: /bin/true
            """)
        let process = try ansible(["free.yml", "-i", hosts.inventoryPath, "--json", "--json-logs", "--no-history"], hosts: hosts, in: folder)
        // h2 works until released, so only h1 can be done before.
        let doneWhileOtherWorks = await eventually { process.stdout.contains("\"event\":\"job.completed\"") }
        try folder.write("release", "")
        let result = try await finish(process)
        #expect(doneWhileOtherWorks, "h1 was not done while h2 worked: \(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.jsonEvents()
        let byHost = jobs(events)
        let firstDone = events.first { $0.name == "job.completed" }
        #expect(firstDone?.job == byHost["h1"] && firstDone?.string("result") == "succeeded", "\(byHost) \(String(describing: firstDone?.fields))")
        for host in ["h1", "h2"] {
            #expect(completions(events, job: byHost[host])["Handlers"]?.string("result") == "succeeded", "\(host)")
            let logged = events.filter { $0.name == "log" && $0.job == byHost[host] && $0.int("index") == 1 }.compactMap { $0.string("line") }
            #expect(logged.contains("RUNNING HANDLER [Restart]"), "\(host): \(logged)")
        }
    }

    @Test("Abort stops at the task boundary: the running task finishes on every host, nothing new starts, nothing is left on a host")
    func abortAtBoundary() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let release = folder.file("release")
        try folder.write("long.yml", """
            - hosts: all
              gather_facts: false
              tasks:
                - name: Long
                  shell: touch /run/long-started; while [ ! -e \(release) ]; do sleep 0.1; done; echo finished
                - name: Next
                  command: touch /run/next-ran
            """)
        let process = try ansible(["long.yml", "-i", hosts.inventoryPath, "--json", "--no-history"], hosts: hosts, in: folder)
        try await waitUntil("the long task to run on both hosts") {
            hosts.everyHostHas("/run/long-started")
        }
        kill(process.pid, SIGINT)
        try await process.waitForOutput("stopping after this task")
        try folder.write("release", "")
        let result = try await finish(process)
        #expect(result.status == 3, "\(result.stderr)")
        let events = try result.jsonEvents()
        let long = events.filter { $0.name == "update.completed" && $0.string("id") == "Long" }
        #expect(long.count == 2 && long.allSatisfy { $0.string("result") == "succeeded" }, "the running task kept its result: \(long)")
        let next = events.filter { $0.name == "update.completed" && $0.string("id") == "Next" }
        #expect(next.count == 2 && next.allSatisfy { $0.string("result") == "aborted" && $0.string("hResult") == "0x8024000B" }, "\(next)")
        for host in [1, 2] {
            #expect(try hosts.run(onHost: host, "test -e /run/next-ran").status != 0, "nothing new started on h\(host)")
            // The bracket keeps pgrep from finding the shell that runs it.
            #expect(try hosts.run(onHost: host, "pgrep -f 'long-starte[d]'").status != 0, "no task left running on h\(host)")
        }
    }

    @Test("A second abort interrupts ansible-playbook: the tasks in flight are cut, each on its host")
    func forcedAbort() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let release = folder.file("release")
        // Whatever happens, the tasks on the hosts may end.
        defer { _ = try? folder.write("release", "") }
        try folder.write("long.yml", """
            - hosts: all
              gather_facts: false
              tasks:
                - name: Long
                  shell: touch /run/long-started; while [ ! -e \(release) ]; do sleep 0.1; done
                - name: Next
                  command: /bin/true
            """)
        let process = try ansible(["long.yml", "-i", hosts.inventoryPath, "--json", "--no-history"], hosts: hosts, in: folder)
        try await waitUntil("the long task to run on both hosts") {
            hosts.everyHostHas("/run/long-started")
        }
        kill(process.pid, SIGINT)
        try await process.waitForOutput("stopping after this task")
        kill(process.pid, SIGINT)
        let result = try await finish(process)
        #expect(result.status == 3, "\(result.stderr)")
        let events = try result.jsonEvents()
        let long = events.filter { $0.name == "update.completed" && $0.string("id") == "Long" }
        #expect(long.count == 2 && long.allSatisfy { $0.string("result") == "aborted" && $0.string("hResult") == "0x80242008" }, "\(long)")
        #expect(long.allSatisfy { $0.string("reason")?.contains("cut") == true }, "the reason says the task was cut: \(long)")
    }

    @Test("Ansible's refusals exit 2 with its own words and show nothing as running")
    func refusals() async throws {
        let hosts = try FleetTestHosts(count: 1)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("bad.yml", "- hosts: all\n  tasks:\n    - command: /bin/true\n   broken: [\n")
        let syntax = try await run(["bad.yml", "-i", hosts.inventoryPath, "--json"], hosts: hosts, in: folder)
        #expect(syntax.status == 2 && syntax.stderr.contains("YAML"), "\(syntax.stderr)")
        #expect(syntax.stdout.isEmpty, "nothing shown as running")
        try folder.write("ok.yml", "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: /bin/true\n")
        let noHost = try await run(["ok.yml", "-i", hosts.inventoryPath, "--limit", "nosuch", "--json"], hosts: hosts, in: folder)
        #expect(noHost.status == 2 && noHost.stderr.contains("no hosts"), "\(noHost.stderr)")
        let missing = try await run(["ok.yml", "--ansible-playbook", "/nonexistent/ansible-playbook"], hosts: hosts, in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("not an executable"), "\(missing.stderr)")
    }
}
