import Foundation
import SQLiteStore
import InstallHistory
import Testing

/// dnf's own history database in a root, read only (`DNFHistoryTransaction`): what a dnf run
/// whose engine died says of dnf and rpm comes from it.
@Suite("DNFHistoryTransaction: dnf's history of installtop's transactions")
struct DNFHistoryTransactionTests {
    private let began = Date(timeIntervalSince1970: 1_795_836_379)

    @Test("dnf's history database is read as dnf wrote it: installtop's transactions since a time, their end and state")
    func readsDNFHistory() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/itop-dnf-history-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/var/lib/dnf", withIntermediateDirectories: true)
        #expect(DNFHistoryTransaction.helperTransactions(root: folder, since: began) == nil, "no history yet: nothing known")
        // libdnf's own table, as dnf 4 creates it, with a transaction of the host's dnf, an
        // older one of installtop's, a finished one, one left unfinished by a kill.
        let sql = """
            CREATE TABLE trans (id INTEGER PRIMARY KEY AUTOINCREMENT, dt_begin INTEGER NOT NULL, dt_end INTEGER, rpmdb_version_begin TEXT,
                rpmdb_version_end TEXT, releasever TEXT NOT NULL, user_id INTEGER NOT NULL, cmdline TEXT, state INTEGER NOT NULL, comment TEXT DEFAULT '');
            INSERT INTO trans (dt_begin, dt_end, releasever, user_id, cmdline, state) VALUES
                (1795836300, 1795836301, '1', 0, 'installtop install lab-old', 1),
                (1795836380, 1795836381, '1', 0, 'dnf install other', 1),
                (1795836381, 1795836383, '1', 0, 'installtop install lab-a', 2),
                (1795836390, 0, '1', 0, 'installtop upgrade', 0);
            """
        try SQLiteConnection(path: folder + "/var/lib/dnf/history.sqlite").execute(sql: sql)
        let read = try #require(DNFHistoryTransaction.helperTransactions(root: folder, since: began))
        #expect(read == [
            DNFHistoryTransaction(began: Date(timeIntervalSince1970: 1_795_836_381), ended: Date(timeIntervalSince1970: 1_795_836_383), state: .failed,
                                  commandLine: "installtop install lab-a"),
            DNFHistoryTransaction(began: Date(timeIntervalSince1970: 1_795_836_390), ended: nil, state: .unfinished, commandLine: "installtop upgrade"),
        ])
    }
}
