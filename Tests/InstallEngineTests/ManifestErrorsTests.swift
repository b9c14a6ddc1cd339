import InstallEngine
import Testing

@Suite("Manifest error output: what installtop validate prints")
struct ManifestErrorsTests {
    private func error(_ line: Int, _ column: Int, _ message: String) -> ManifestError {
        ManifestError(file: "site.yaml", line: line, column: column, message: message)
    }

    @Test func oneErrorIsFileLineColumnMessage() {
        #expect(error(12, 5, "no jobs").description == "site.yaml:12:5: no jobs")
    }

    @Test func errorsAreSortedByPositionOnePerLineWithoutRepeats() {
        let errors = ManifestErrors([
            error(10, 2, "c"), error(2, 9, "b"), error(2, 3, "a"), error(10, 2, "d"), error(2, 3, "a"),
        ])
        #expect(errors.description == """
            site.yaml:2:3: a
            site.yaml:2:9: b
            site.yaml:10:2: c
            site.yaml:10:2: d
            """)
        #expect(errors.countLine == "4 errors")
        #expect(ManifestErrors([error(1, 1, "x")]).countLine == "1 error")
    }

    @Test func theSuccessLineCountsJobsAndUpdates() throws {
        let one = try ManifestLoader.load(
            yaml: "jobs:\n  - name: J\n    updates:\n      - {id: u, install: x}\n", path: "one.yaml")
        #expect(one.validationSummary == "one.yaml: OK — 1 job, 1 update")
        let three = try ManifestLoader.load(
            yaml: """
                jobs:
                  - name: A
                    updates: [{id: a, install: x}, {id: b, install: x}]
                  - name: B
                    updates: [{id: c, install: x}]
                  - name: C
                    updates: [{id: d, install: x}, {id: e, install: x}]
                """,
            path: "dir/three.yaml")
        #expect(three.validationSummary == "dir/three.yaml: OK — 3 jobs, 5 updates")
    }

    @Test func theThrownErrorsPrintTheWayValidateShowsThem() {
        let thrown = #expect(throws: ManifestErrors.self) {
            try ManifestLoader.load(yaml: "jobs:\n  - name: a\n    reboot: no\n", path: "m.yaml")
        }
        #expect(thrown?.description == """
            m.yaml:2:5: job `a` has no updates
            m.yaml:3:13: expected never, always or may; got the boolean `no`
            """)
        #expect(thrown?.countLine == "2 errors")
    }
}
