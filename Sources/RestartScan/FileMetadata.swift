import Glibc

/// The few system calls the scan makes: directory listings, `stat`, `readlink`, and reading
/// `/proc` files and small system files (`etc/passwd`, pid files under `run/`). Nothing here
/// opens a file a scanned process runs.
enum FileMetadata {
    /// The device and inode a path leads to.
    struct Identity: Hashable {
        var major: UInt32
        var minor: UInt32
        var inode: UInt64
    }

    /// The names in a folder, without `.` and `..`; empty when it cannot be read.
    static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The identity `path` leads to now (following symbolic links); `nil` when nothing is there.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let device = UInt64(info.st_dev)
        // glibc's gnu_dev_major/minor, which Swift does not import (they are macros).
        let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
        let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
        return Identity(major: major, minor: minor, inode: UInt64(info.st_ino))
    }

    /// When `path` was last modified, in seconds since the epoch; `nil` when it is gone.
    static func modified(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// The owner of `path`; `nil` when it is gone.
    static func owner(of path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_uid
    }

    /// The target of a symbolic link, or the `errno` that refused it.
    static func link(_ path: String) -> Result<String, Errno> {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 16)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                readlink(path, $0, pointer.count)
            }
        }
        guard count >= 0 else { return .failure(Errno(code: errno)) }
        return .success(String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// The whole content of a (`/proc`) file, or the `errno` that refused it.
    static func contents(_ path: String, into buffer: inout [UInt8]) -> Errno? {
        buffer.removeAll(keepingCapacity: true)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return Errno(code: errno) }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return Errno(code: errno)
            }
            if count == 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The content of a small text file; `nil` when it cannot be read.
    static func text(_ path: String) -> String? {
        var buffer: [UInt8] = []
        guard contents(path, into: &buffer) == nil else { return nil }
        return String(decoding: buffer, as: UTF8.self)
    }
}
