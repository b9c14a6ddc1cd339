#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Writes an asciicast v2 recording as it happens: the header when created, then one line per
/// event, each written to the file at once (no buffer to lose when the process or the link
/// dies; what is on disk is always whole lines but perhaps the last).
///
/// Output is text: bytes are decoded with `UTF8StreamDecoder`, so a character split between two
/// reads is written whole and bytes that are not UTF-8 become U+FFFD; the JSON stays valid
/// whatever the program wrote. Not thread-safe: one writer per recording, on one thread.
public final class AsciicastWriter {
    /// Why the recording could not be made or went on no more.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let path: String
    private var descriptor: Int32
    private var decoder = UTF8StreamDecoder()
    /// The first error met while writing; later events are dropped.
    public private(set) var failure: Failure?

    /// Creates `path` (mode 0600; never an existing file, never through a symbolic link) and
    /// writes `header`.
    /// - Throws: `Failure` naming the file and the system's reason.
    public init(path: String, header: AsciicastHeader) throws(Failure) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        writeLine(header.jsonLine)
        if let failure { throw failure }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Records `bytes` a program wrote, `time` seconds after the recording began. A character
    /// cut at the end waits for the next call; bytes that make no text yet write nothing.
    public func output<Bytes: Collection<UInt8>>(_ bytes: Bytes, at time: Double) {
        let text = decoder.decode(bytes)
        guard !text.isEmpty else { return }
        writeLine(AsciicastEvent(time: time, code: .output, data: text).jsonLine)
    }

    /// Records that the terminal became `columns` × `rows`.
    public func resize(columns: Int, rows: Int, at time: Double) {
        writeLine(AsciicastEvent(time: time, code: .resize, data: "\(columns)x\(rows)").jsonLine)
    }

    /// Writes what is left of a cut character (as U+FFFD) and closes the file.
    public func finish(at time: Double) {
        let rest = decoder.finish()
        if !rest.isEmpty { writeLine(AsciicastEvent(time: time, code: .output, data: rest).jsonLine) }
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    private func writeLine(_ line: String) {
        guard failure == nil, descriptor >= 0 else { return }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
                return
            }
            offset += count
        }
    }
}
