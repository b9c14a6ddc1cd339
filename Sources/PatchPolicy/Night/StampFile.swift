#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import TextBasics

/// The file a night's stamp lives in, replaced atomically: the new stamp is written to a file
/// beside it, flushed to disk, then renamed over it, so a crash at any point leaves either the
/// old stamp or the new one, never a torn one.
public struct StampFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Why a stamp could not be written or read, with the OS's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Replaces the file with `stamp`. Throws `Failure` when any step fails; the old stamp is
    /// then still in place.
    public func write(_ stamp: NightStamp) throws {
        let bytes = try stamp.encoded()
        let temporary = "\(path).\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            // The rename must not reach the disk before the stamp's bytes do.
            return fsync(descriptor) == 0
        }
        let writeError = errno
        close(descriptor)
        guard ok else {
            unlink(temporary)
            errno = writeError
            throw failure("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let renameError = errno
            unlink(temporary)
            errno = renameError
            throw failure("cannot replace \(path)")
        }
        // The rename itself is durable only once the folder is.
        let parent = PathText.parent(of: path)
        let folder = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// The stamp in the file; `nil` when there is none. Throws `Failure` when the file cannot be
    /// read or holds no stamp (a night must not guess what it did).
    public func read() throws -> NightStamp? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if access(path, F_OK) != 0, errno == ENOENT { return nil }
            throw failure("cannot read \(path)")
        }
        do {
            return try NightStamp.decoded(from: data)
        } catch {
            throw Failure(description: "\(path) holds no night stamp: \(error)")
        }
    }

    private func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
