#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization
import TextBasics

/// Files the executable embeds for a kind (Ansible's callback plugin, dnf's helper), written to a
/// private temporary folder (`$TMPDIR/PREFIX-PID-XXXXXXXX`, mode 0700) the first time a job
/// needs them, so that they work wherever the binary runs; `remove` deletes the folder. A file
/// whose name has folders (`installtop_dnf/items.py`, a module of dnf's helper) is written into
/// them, made as private as the folder.
public final class ShippedFilesFolder: Sendable {
    /// One embedded file: its path in the folder (`NAME`, or `SUBFOLDER/NAME`) and its text.
    public struct File: Sendable {
        public var name: String
        public var text: String

        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// What the folder holds, for the messages (`installtop's dnf helper`).
    private let what: String
    private let prefix: String
    private let files: [File]
    private let written = Mutex<String?>(nil)

    public init(_ what: String, prefix: String, files: [File]) {
        self.what = what
        self.prefix = prefix
        self.files = files
    }

    /// The folder, written now if it was not yet.
    /// - Throws: the folder that could not be written and why, in errno's words (Foundation's
    ///   errors print as NSCocoaErrorDomain dumps).
    public func path() throws(ShippedFilesFolderError) -> String {
        try written.withLock { path throws(ShippedFilesFolderError) -> String in
            if let path { return path }
            let folder = FileManager.default.temporaryDirectory.path + "/\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))"
            guard mkdir(folder, 0o700) == 0 else {
                throw ShippedFilesFolderError("cannot write \(what) into \(folder) (TMPDIR): " + String(cString: strerror(errno)))
            }
            do {
                for file in files {
                    let url = URL(fileURLWithPath: folder + "/" + file.name)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])
                    try Data(file.text.utf8).write(to: url)
                }
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw ShippedFilesFolderError("cannot write \(what) into \(folder) (TMPDIR): \(ErrorText.reason(error))")
            }
            path = folder
            return folder
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
