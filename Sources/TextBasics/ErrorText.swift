#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong, said in a message's words: the system's reason for a file operation that
/// failed (`/var/lib/x: Permission denied`), an error's own description otherwise. Replaces
/// `localizedDescription`, which Foundation gives through its localization tables and ICU.
public enum ErrorText {
    /// `error` as a reason: for a file operation's error, the path it names and the system's
    /// `strerror` text of the errno under it (`/a/b: No such file or directory`); for an errno,
    /// its `strerror` text; for any other error, its description.
    public static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return text(of: posix.code.rawValue) }
        guard let cocoa = error as? CocoaError else { return String(describing: error) }
        return (cocoa.filePath.map { $0 + ": " } ?? "") + (systemReason(error) ?? fallback(for: cocoa.code))
    }

    /// The system's `strerror` text of the errno under `error` (`Permission denied`), without a
    /// path: for an errno, and for a file operation's error that carries one; `nil` otherwise.
    public static func systemReason(_ error: any Error) -> String? {
        if let posix = error as? POSIXError { return text(of: posix.code.rawValue) }
        guard let underlying = (error as? CocoaError)?.underlying as? POSIXError else { return nil }
        return text(of: underlying.code.rawValue)
    }

    private static func text(of errno: Int32) -> String {
        String(cString: strerror(errno))
    }

    private static func fallback(for code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return text(of: ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return text(of: EACCES)
        case .fileWriteFileExists: return text(of: EEXIST)
        case .fileWriteOutOfSpace: return text(of: ENOSPC)
        case .fileWriteVolumeReadOnly: return text(of: EROFS)
        default: return "file error \(code.rawValue)"
        }
    }
}
