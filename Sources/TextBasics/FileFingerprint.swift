import Glibc

/// What the reboot marker file looked like at one moment: absent, or its identity and times.
/// Two different fingerprints taken before and after an update mean the update touched it.
struct RebootMarker: Equatable {
    private let exists: Bool
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int
    private let modifiedNanoseconds: Int

    /// Reads the marker at `path` now. An unreadable path counts as absent.
    init(path: String) {
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

    /// True when the marker exists now and differs from `earlier` (it appeared or changed).
    func appearedOrChanged(since earlier: RebootMarker) -> Bool {
        exists && self != earlier
    }
}
