import InstallEngine
import Testing
@testable import installtop

/// `status --host/--hosts`'s document and text, from host statuses made by hand.
@Suite("HostsStatusReport: status across hosts")
struct HostsStatusReportTests {
    @Test("--json is one document: each host in order, reachable ones with jobs exactly as local status --json's, unreachable ones with error")
    func json() {
        let statuses: [HostStatus] = [
            .reachable(host: "web1", QueueModel()),
            .unreachable(host: "web2", reason: "ssh: connect to host 10.0.0.2 port 22: Connection refused"),
        ]
        #expect(HostsStatusReport.json(statuses) == #"{"hosts":[{"host":"web1","reachable":true,"jobs":[]},"#
            + #"{"host":"web2","reachable":false,"error":"ssh: connect to host 10.0.0.2 port 22: Connection refused"}]}"#)
        #expect(StatusReport.json(QueueModel()) == #"{"jobs":"# + StatusReport.jobsJSON(QueueModel()) + "}")
        #expect(HostsStatusReport.json([]) == #"{"hosts":[]}"#)
    }

    @Test("text: a section per host, the local text unchanged inside it, unreachable hosts with their reason")
    func text() {
        let sanitizer = TextEnvironment.sanitizer
        let text = HostsStatusReport.text([
            .reachable(host: "web1", QueueModel()),
            .unreachable(host: "web2", reason: "installtop bridge: no engine at /run/installtop.sock"),
        ], sanitizer: sanitizer)
        #expect(text == "== web1 ==\n" + StatusReport.text(QueueModel(), sanitizer: sanitizer)
            + "\n== web2 ==\nunreachable: installtop bridge: no engine at /run/installtop.sock\n")
    }
}
