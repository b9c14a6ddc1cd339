import FleetTestSupport
import Foundation

/// The lab's history read back through the built installtop, for the tests of this target.
extension SSHDTweakLab {
    /// The lab's folder as this target's tests name one (removed by the lab, not by it).
    var testFolder: TestFolder { TestFolder(existing: folder) }

    /// `installtop history --jobs --json`: the runs, newest first.
    func runs() async throws -> [[String: Any]] {
        try await installtop(["history", "--jobs", "--json", "--history-db", database], in: testFolder).jsonObjects()
    }
}
