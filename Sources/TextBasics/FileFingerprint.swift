#if canImport(Glibc)
import Glibc
#endif

/// What a file looked like at one moment: absent, or its inode, size and modification time.
/// Two different fingerprints of one path mean the file appeared, went, or was changed or
/// replaced (a new file renamed over it): what the engine compares around an update for its
/// reboot marker, and the board's night follower between two looks at a stamp.
public struct FileFingerprint: Sendable, Equatable {
    /// Whether the file existed.
    public let exists: Bool
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int
    private let modifiedNanoseconds: Int

    /// Reads the file at `path` now. An unreadable path counts as absent.
    public init(path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            exists = true
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = info.st_mtim.tv_sec
            modifiedNanoseconds = info.st_mtim.tv_nsec
        } else {
            exists = false
            inode = 0
            size = 0
            modifiedSeconds = 0
            modifiedNanoseconds = 0
        }
    }

    /// True when the file exists now and differs from `earlier` (it appeared or changed).
    public func appearedOrChanged(since earlier: FileFingerprint) -> Bool {
        exists && self != earlier
    }
}
