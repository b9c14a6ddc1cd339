import Glibc

/// Writes an exposition to `DIRECTORY/installtop.prom` so that a reader (node_exporter's
/// textfile collector, which reads every `*.prom` file of its directory at each scrape) sees
/// the old file or the new one, never a part: the text goes to a temporary file in the same
/// directory (`.installtop.prom.XXXXXX`, a name the collector skips), is synced to disk, made
/// mode 0644 (node_exporter runs as its own user) and renamed over the file; then the directory
/// is synced, so that a crash leaves one of the two whole.
public struct MetricsTextfileWriter: Sendable {
    /// The collector's directory.
    public let directory: String
    /// `installtop.prom`.
    public static let fileName = "installtop.prom"

    public init(directory: String) {
        self.directory = directory
    }

    /// The file the collector reads.
    public var path: String { directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName }

    /// Replaces the file with `text` at once.
    /// - Throws: `MetricsTextfileError` when the directory is missing or not writable, or the
    ///   disk is full; the file then keeps its last whole content, and no temporary file is left.
    public func write(_ text: String) throws(MetricsTextfileError) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            + Array(".\(Self.fileName).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("cannot write a file in \(directory)") }
        // Children are spawned with every other descriptor closed; this is only for others' forks.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func abandon(_ doing: String) -> MetricsTextfileError {
            let error = failure(doing)
            close(descriptor)
            unlink(temporary)
            return error
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw abandon("cannot write \(temporary)") }
            written += count
        }
        // mkostemp made it 0600; the collector reads it as another user.
        guard fchmod(descriptor, 0o644) == 0 else { throw abandon("cannot make \(temporary) readable") }
        guard fsync(descriptor) == 0 else { throw abandon("cannot sync \(temporary)") }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace \(path)")
            unlink(temporary)
            throw error
        }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private func failure(_ doing: String) -> MetricsTextfileError {
        MetricsTextfileError("\(doing): \(String(cString: strerror(errno)))")
    }
}
