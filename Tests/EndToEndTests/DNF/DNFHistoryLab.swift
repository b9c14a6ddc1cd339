import APTTestSupport
import Foundation
import InstallDrivers
import Testing

/// A root of lab rpms and a test folder whose history database records the runs: what the
/// tests of dnf runs' history and undo stand on. `remove()` deletes both.
struct DNFHistoryLab {
    let root: PrivateDNFRoot
    let folder: TestFolder
    var database: String { folder.file("history.sqlite3") }

    init(_ recipes: [RPMPackageRecipe] = DNFTestLab.first) throws {
        root = try DNFEndToEnd.lab(recipes)
        do {
            folder = try TestFolder()
        } catch {
            root.remove()
            throw error
        }
    }

    func remove() {
        root.remove()
        folder.remove()
    }

    /// `installtop dnf ARGUMENTS --yes --json` in the root, recorded in the database.
    func dnf(_ arguments: [String]) async throws -> RunResult {
        try await EndToEndTests.installtop(["dnf"] + arguments + ["--yes", "--json", "--history-db", database]
                                           + DNFEndToEnd.rootArguments(root), in: folder)
    }

    /// `installtop ARGUMENTS --history-db DATABASE` as it is (no root named).
    func installtop(_ arguments: [String]) async throws -> RunResult {
        try await EndToEndTests.installtop(arguments + ["--history-db", database], in: folder)
    }

    /// `history --jobs --json`: the runs, newest first.
    func runs() async throws -> [[String: Any]] {
        try await installtop(["history", "--jobs", "--json"]).jsonObjects()
    }
}
