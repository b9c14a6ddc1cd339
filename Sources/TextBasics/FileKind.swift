#if canImport(Glibc)
import Glibc
#endif

/// What a path names, following symbolic links as `FileManager.fileExists(atPath:isDirectory:)`
/// did, without Foundation's `ObjCBool`.
public enum FileKind: Sendable, Hashable {
    case folder
    /// A file, a device, a socket: anything but a folder.
    case other

    /// The kind of what `path` names; `nil` when nothing is there (or it cannot be reached).
    public static func of(_ path: String) -> FileKind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR ? .folder : .other
    }
}
