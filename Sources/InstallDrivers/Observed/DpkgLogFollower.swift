import Glibc

/// Reads what dpkg appends to its log since the last read, never the whole file again: it keeps
/// the file open at an offset, reads the rest of a rotated file (renamed by logrotate while dpkg
/// still writes to it) before it turns to the new one, starts over after a truncation, and keeps
/// a line without its newline until the rest comes.
struct DpkgLogFollower {
    let path: String
    private var descriptor: Int32 = -1
    private var inode: ino_t = 0
    private var offset: off_t = 0
    private var partial: [UInt8] = []
    /// The last bytes before `offset`, as read: other bytes there mean the file was cut and
    /// written again between two reads.
    private var tail: [UInt8] = []

    /// Follows `path` from `startingAt` bytes before its end (0: only what comes next). A file
    /// that does not exist yet is followed from its start once it appears.
    init(path: String, startingAt backlog: off_t = 0) {
        self.path = path
        if reopen() { offset = max(0, size(descriptor) - backlog) }
        if backlog > 0 && offset > 0 { skipToLineStart() }
        rememberTail()
    }

    /// The complete lines appended since the last call.
    mutating func read() -> [Substring] {
        var info = stat()
        if descriptor < 0 {
            guard reopen() else { return [] }
        } else if stat(path, &info) == 0, info.st_ino != inode {
            // Rotated: what the old file got before dpkg turned to the new one comes first.
            var result = lines(readToEnd())
            close()
            if reopen() { result += lines(readToEnd()) }
            return result
        }
        if size(descriptor) < offset || !tailIsUnchanged() {
            // Truncated in place (logrotate's copytruncate), maybe written again since: what is
            // there now is new.
            offset = 0
            partial = []
            tail = []
        }
        return lines(readToEnd())
    }

    /// Drops the descriptor.
    mutating func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    private mutating func reopen() -> Bool {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        var info = stat()
        fstat(descriptor, &info)
        inode = info.st_ino
        offset = 0
        partial = []
        tail = []
        return true
    }

    private mutating func rememberTail() {
        guard descriptor >= 0, offset > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: Int(min(16, offset)))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset - off_t($0.count)) }
        tail = count == bytes.count ? bytes : []
    }

    private func tailIsUnchanged() -> Bool {
        guard !tail.isEmpty else { return true }
        var bytes = [UInt8](repeating: 0, count: tail.count)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset - off_t(tail.count)) }
        return count == tail.count && bytes == tail
    }

    private func size(_ descriptor: Int32) -> off_t {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info.st_size : 0
    }

    private mutating func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            offset += off_t(count)
            bytes += buffer[0..<count]
        }
        if !bytes.isEmpty { tail = Array((tail + bytes).suffix(16)) }
        return bytes
    }

    /// After a start in the middle of the file: reading begins after the first newline at or
    /// after the byte before the start, so a cut line is not read.
    private mutating func skipToLineStart() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var position = offset - 1
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, position) }
            guard count > 0 else { break }
            if let newline = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                offset = position + off_t(newline) + 1
                return
            }
            position += off_t(count)
        }
        offset = position
    }

    private mutating func lines(_ bytes: [UInt8]) -> [Substring] {
        let text = partial + bytes
        guard let last = text.lastIndex(of: UInt8(ascii: "\n")) else {
            partial = text
            return []
        }
        partial = Array(text[(last + 1)...])
        return String(decoding: text[...last], as: UTF8.self).split(separator: "\n")
    }
}
