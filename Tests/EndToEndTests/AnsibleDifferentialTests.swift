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
                                         environment: environment, timeout: .seconds(180))
        let ansible = AnsibleTranscript(parsing: plain.stdout)
        #expect(!ansible.recap.isEmpty, "no PLAY RECAP from ansible-playbook: \(plain.stdout)\(plain.stderr)")

        let arguments = ["ansible", "site.yml", "-i", "hosts.ini", "--json", "--no-history"]
            + (differential.arguments.isEmpty ? [] : ["--"] + differential.arguments)
        let run = try await InstalltopProcess(arguments, in: folder, environment: environment).finish(timeout: .seconds(180))
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
            for (name, mine, theirs) in [("failed", counted.failed, recap.failed), ("unreachable", counted.unreachable, recap.unreachable),
                                         ("skipped", counted.skipped, recap.skipped), ("rescued", counted.rescued, recap.rescued),
                                         ("ignored", counted.ignored, recap.ignored)] where mine != theirs {
                problems.append("\(host) \(name): recap \(theirs), installtop \(mine)")
            }
            if !recap.hostFailed {
                for task in tasks where task.result == "aborted" && !(task.reason ?? "").contains("the play stopped") {
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
        }
        return problems
    }
}
