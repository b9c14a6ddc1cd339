import Foundation
import Glibc

/// A history folder whose lock is held here, as another installtop holding it would: a run
/// session waits for it (up to 10 s) before it handles signals itself and takes apt's lines
/// over, while apt and dpkg go on. That wait is the window the apt `--yes` tests work in.
final class HeldHistoryLock {
    /// The database to give installtop (`--history-db`), in the locked folder.
    let databasePath: String
    private var descriptor: Int32

    /// Creates `history/` in `folder` and locks it.
    init(in folder: TestFolder) throws {
        let historyFolder = folder.file("history")
        try FileManager.default.createDirectory(atPath: historyFolder, withIntermediateDirectories: false)
        databasePath = historyFolder + "/history.sqlite3"
        descriptor = open(historyFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw EndToEndError.conditionNotMet("locking \(historyFolder): \(reason)")
        }
    }

    /// Lets the session have the lock; nothing the second time.
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }
}
