#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
    /// - Throws: why the folder or a file could not be written.
    public func helper() throws -> DNFHelper {
        try written.withLock { path in
            if let path { return DNFHelper(script: path + "/installtop-dnf.py") }
            let folder = FileManager.default.temporaryDirectory.path + "/installtop-dnf-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            for file in files { try Data(file.text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file.name)) }
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
