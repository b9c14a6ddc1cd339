import FleetTestSupport
import Foundation
import Testing

/// `--forks` on the board (issue 20, item 4): Ansible tells of a task's start as it hands the
/// task to a free worker, often before its results thread has read the result of the task the
/// worker ran before; the plugin holds such a start until that result is read, so the board
/// never shows more tasks running than forks.
@Suite("installtop ansible shows no more tasks running than --forks")
struct AnsibleForksTests {
    @Test("8 local hosts, 4 short tasks, --forks 2: at no event are more than 2 tasks running, and every start is told")
    func neverMoreThanForks() async throws {
        let toolchain = try AnsibleToolchain.locate()
        let folder = try TestFolder()
        defer { folder.remove() }
        let hosts = (1...8).map { "web\($0)" }
        let environment = try LocalAnsible.prepare(folder, hosts: hosts, toolchain: toolchain)
        try folder.write("site.yml", """
            - hosts: web
              gather_facts: false
              tasks:
                - {name: One, command: /bin/true}
                - {name: Two, command: /bin/true}
                - {name: Three, command: /bin/true}
                - {name: Four, command: /bin/true}
            """)
        let run = try await InstalltopProcess(["ansible", "site.yml", "-i", "hosts.ini", "--json", "--no-history", "--", "--forks", "2"],
                                              in: folder, environment: environment)
            .finish(timeout: AnsiblePlay.ceiling, silentFor: AnsiblePlay.silence)
        #expect(run.status == 0, "\(run.stderr)")
        var running: Set<String> = []
        var most = 0
        var starts = 0
        for event in try run.jsonEvents() {
            let key = "\(event.job ?? -1)/\(event.index ?? -1)"
            switch event.name {
            case "update.started":
                starts += 1
                running.insert(key)
            case "update.completed":
                running.remove(key)
            default:
                continue
            }
            most = max(most, running.count)
        }
        #expect(most <= 2, "\(most) tasks running at once with --forks 2")
        #expect(starts == 32, "every host's every task started: \(starts)")
    }
}
