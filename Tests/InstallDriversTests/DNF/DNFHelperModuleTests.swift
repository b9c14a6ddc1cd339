import APTTestSupport
import Foundation
import Testing

/// The dnf helper's modules (`Sources/InstallDrivers/DNF/Helper/installtop_dnf/`) tested on their
/// own by pytest (`Tests/DNFHelperTests/`, with stand-ins for dnf's and rpm's bindings), under the
/// system's python3, the one that runs the helper; pytest is Debian's python3-pytest, which
/// `Scripts/install-prerequisites test` installs.
@Suite("dnf: the helper's modules under pytest")
struct DNFHelperModuleTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every pytest test of Tests/DNFHelperTests passes")
    func pytest() async throws {
        let folder = Self.root.appending(path: "Tests/DNFHelperTests").path
        // No __pycache__ beside the modules or the tests, and no .pytest_cache: the worktree stays
        // as it is (the embedding skips __pycache__ all the same).
        // Off the concurrency pool: pytest takes up to minutes on a loaded machine.
        let result = try await TestCommand.runOnOwnThread(
            ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--color=no", folder],
            environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        #expect(result.status == 0, "pytest failed (status \(result.status)):\n\(result.stdout)\(result.stderr)")
        // A collection that found nothing exits 5; one that ran says how many passed.
        #expect(result.stdout.contains(" passed"), "pytest ran no test:\n\(result.stdout)")
    }
}
