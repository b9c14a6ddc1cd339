import Foundation
import Glibc
import Synchronization

/// The dnf helper (embedded in the executable, `DNFHelperFiles`) written to a private temporary
/// folder the first time a job needs it, the way Ansible's plugin is; `remove` deletes it.
public final class DNFHelperFolder: Sendable {
    private let files: [DNFHelperFile]
    private let written = Mutex<String?>(nil)

    /// `files` must hold `installtop-dnf.py`.
    public init(files: [DNFHelperFile]) {
        self.files = files
    }

    /// The helper, written now if it was not yet.
    /// - Throws: `DNFPlanError` naming the folder that could not be written, and why.
    public func helper() throws(DNFPlanError) -> DNFHelper {
        try written.withLock { path throws(DNFPlanError) -> DNFHelper in
            if let path { return DNFHelper(script: path + "/installtop-dnf.py") }
            let folder = FileManager.default.temporaryDirectory.path + "/installtop-dnf-\(getpid())-\(UUID().uuidString.prefix(8))"
            // mkdir itself, for errno's words: Foundation's errors print as NSCocoaErrorDomain dumps.
            guard mkdir(folder, 0o700) == 0 else {
                throw DNFPlanError(kind: "other", message: "cannot write installtop's dnf helper into \(folder) (TMPDIR): "
                                       + String(cString: strerror(errno)))
            }
            do {
                for file in files { try Data(file.text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file.name)) }
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw DNFPlanError(kind: "other", message: "cannot write installtop's dnf helper into \(folder) (TMPDIR): \(error.localizedDescription)")
            }
            path = folder
            return DNFHelper(script: folder + "/installtop-dnf.py")
        }
    }

    /// Deletes the folder, if it was written.
    public func remove() {
        written.withLock { path in
            if let folder = path { try? FileManager.default.removeItem(atPath: folder) }
            path = nil
        }
    }
}
