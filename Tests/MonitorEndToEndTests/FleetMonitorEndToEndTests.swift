import FleetTestSupport
import Foundation
import Testing

/// `installtop ansible` in a real terminal (tmux) against test hosts in network namespaces: the
/// fleet as the jobs pane, each host's tasks as its updates, the header counting hosts.
@Suite("installtop ansible in the monitor", .serialized)
struct FleetMonitorEndToEndTests {
    @Test("The monitor opens at once and says it checks the playbook while --list-hosts runs; the hosts follow")
    func checkingThePlaybook() async throws {
        let hosts = try FleetTestHosts(count: 1)
        defer { hosts.tearDown() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: try heldCheckCommand(hosts, folder))
        defer { tmux.close() }

        let checking = await tmux.waitForScreen("the monitor saying it checks the playbook") { screen in
            screen.contains("┌ Jobs") && screen.contains("checking the playbook site.yml")
        }
        #expect(checking != nil, "\(tmux.capture())")
        try folder.write("release", "")
        let board = await tmux.waitForScreen("the host done") { $0.contains("1 host") && $0.contains("1 done") }
        #expect(board?.contains("checking the playbook") == false, "\(board ?? tmux.capture())")
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(tmux.capture())")
    }

    @Test("q while the playbook is checked quits, and the playbook never runs")
    func quitWhileChecking() async throws {
        let hosts = try FleetTestHosts(count: 1)
        defer { hosts.tearDown() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: try heldCheckCommand(hosts, folder))
        defer { tmux.close() }

        await tmux.waitForScreen("the monitor saying it checks the playbook") { $0.contains("┌ Jobs") && $0.contains("checking the playbook") }
        tmux.send("q")
        await tmux.waitForScreen("the monitor closed") { !$0.contains("┌ Jobs") }
        try folder.write("release", "")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("ran") == nil, "the playbook ran after q: \(folder.read("ran") ?? "")")
    }

    @Test("A playbook Ansible refuses, in the monitor: a failed job says why; after q, Ansible's words on stderr and exit 2")
    func refusedPlaybook() async throws {
        let toolchain = try AnsibleToolchain.locate()
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        try folder.write("broken.yml", "- name: Broken\n  hosts: all\n  tasks: [unclosed\n")
        let command = "ANSIBLE_HOME='\(folder.path("ansible-home"))' '\(try EndToEndFolder.binary())' ansible '\(folder.path("broken.yml"))'"
            + " -i localhost, --ansible-playbook '\(toolchain.playbook)' --no-history; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: command)
        defer { tmux.close() }

        await tmux.waitForScreen("the refusal as a failed job") { $0.contains("┌ Jobs") && $0.contains("driver") && $0.contains("failed") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(tmux.capture())")
        // The summary's reason (on indented lines) and stderr, on the normal screen.
        let screen = tmux.capture().replacingOccurrences(of: "\n    ", with: " ")
        #expect(screen.contains("refused the playbook") && screen.contains("installtop: ansible: nothing was run:"), "\(tmux.capture())")
    }

    @Test("The 4-host board: one job per host, its tasks with their results, the hosts counted in the header")
    func fourHostBoard() async throws {
        let hosts = try FleetTestHosts(count: 4)
        defer { hosts.tearDown() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
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
                - name: Configure
                  command: /bin/true
            """)
        let environment = try hosts.environmentWithAnsible()
        let variables = environment.sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }.joined(separator: " ")
        let command = hosts.controllerCommand(["env"]).map { "'\($0)'" }.joined(separator: " ")
            + " \(variables) '\(try EndToEndFolder.binary())' ansible '\(folder.path("site.yml"))' -i '\(hosts.inventoryPath)' --no-history; "
            + "\(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: command)
        defer { tmux.close() }

        // "0 running" alone also matches the board before any host starts.
        let board = try #require(await tmux.waitForScreen("every host done") { screen in
            screen.contains("4 hosts") && screen.contains("0 running") && (screen.contains("3 done") || screen.contains("4 done"))
        })
        for host in ["h1", "h2", "h3", "h4"] { #expect(board.contains(host), "\(host) is a job on the board:\n\(board)") }
        #expect(board.contains("3 done") || board.contains("4 done"), "\(board)")
        #expect(board.contains("failed"), "the header counts failed hosts:\n\(board)")
        #expect(board.contains("Install") && board.contains("Configure"), "the selected host's tasks:\n\(board)")
        // h2's task failed and it stopped: it reads failed, not "with errors".
        #expect(board.split(separator: "\n").contains { $0.contains("h2") && $0.contains("failed 1/3") }, "\(board)")
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // The summary names each job's host once, on a line above its rows, and says why the
        // run exits 1.
        let summary = try #require(await tmux.waitForScreen("the summary") { $0.contains("exit 1:") })
        let lines = summary.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let h2Job = lines.firstIndex { $0.hasPrefix("job ") && $0.hasSuffix(" h2") }
        let h2Rows = h2Job.map { start in lines[(start + 1)...].prefix { !$0.hasPrefix("job ") } }
        let h2Index = h2Rows?.firstIndex { $0.hasPrefix("Break h2 ") }
        let h2 = h2Index.map { lines[$0] }
        // The reason is on the indented line below the row.
        let h2Reason = h2Index.flatMap { lines.indices.contains($0 + 1) ? summary.split(separator: "\n")[$0 + 1] : nil }
        #expect(h2?.contains("failed") == true && h2Reason?.hasPrefix("    ") == true && h2Reason?.contains("exit status 1") == true, "\(summary)")
        #expect(lines.contains { $0.hasPrefix("UPDATE ") && $0.contains("RESULT") && !$0.contains("EXIT") },
                "a task has no exit status of its own: no EXIT column: \(summary)")
    }

    // MARK: - Helpers

    /// Writes a one-task playbook and an `ansible-playbook` whose check (`--list-hosts`) waits
    /// for a file `release` in `folder`, so the check lasts as long as the test needs; a run of
    /// the playbook itself is noted in `ran`. Returns the shell command that runs installtop
    /// with them and writes its exit status to `rc`.
    private func heldCheckCommand(_ hosts: FleetTestHosts, _ folder: EndToEndFolder) throws -> String {
        try folder.write("site.yml", """
            - name: Patch
              hosts: all
              gather_facts: false
              tasks:
                - name: Install
                  command: /bin/true
            """)
        try folder.write("ansible-playbook", """
            #!/bin/sh
            case " $* " in
                *" --list-hosts "*) while [ ! -e '\(folder.path("release"))' ]; do sleep 0.05; done ;;
                *) echo "$*" >> '\(folder.path("ran"))' ;;
            esac
            exec ansible-playbook "$@"
            """, executable: true)
        let environment = try hosts.environmentWithAnsible()
        let variables = environment.sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }.joined(separator: " ")
        return hosts.controllerCommand(["env"]).map { "'\($0)'" }.joined(separator: " ")
            + " \(variables) '\(try EndToEndFolder.binary())' ansible '\(folder.path("site.yml"))' -i '\(hosts.inventoryPath)'"
            + " --ansible-playbook '\(folder.path("ansible-playbook"))' --no-history; \(folder.exitStatus(to: "rc")); sleep 3600"
    }
}
