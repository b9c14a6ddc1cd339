#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Reads a manifest file (or another YAML file installtop checks the same way: a patch policy)
/// as UTF-8 text, turning every failure into a positioned error.
public enum ManifestSourceFile {
    // MARK: - Reading

    /// The file's text. Throws one error about the whole file when it cannot be read (`no such
    /// file`, or the OS error: `Permission denied`, `Is a directory`), or one at the first byte
    /// that is not UTF-8. `noun` names the file in the messages (`the policy is not valid UTF-8 text`).
    public static func text(ofFile path: String, noun: String = "manifest") throws(ManifestErrors) -> String {
        var code: Int32 = 0
        guard let bytes = readBytes(path, errorCode: &code) else {
            let message = code == ENOENT ? "no such file" : "cannot read the \(noun): \(String(cString: strerror(code)))"
            throw ManifestErrors([ManifestError(file: path, message: message)])
        }
        guard bytes.count <= ManifestLimits.maximumFileSize else {
            throw ManifestErrors([ManifestError(
                file: path, line: 1, column: 1,
                message: "the \(noun) is larger than \(ManifestLimits.maximumFileSize / 1024 / 1024) MiB, the most installtop reads")])
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let position = firstInvalidUTF8(in: bytes)
        throw ManifestErrors([
            ManifestError(
                file: path, line: position.line, column: position.column,
                message: "the \(noun) is not valid UTF-8 text")
        ])
    }

    // MARK: - Bytes

    /// A manifest is small, so it is read whole. `nil` with `errorCode` set to `errno` on failure.
    private static func readBytes(_ path: String, errorCode: inout Int32) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            errorCode = errno
            return nil
        }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                errorCode = errno
                return nil
            }
            contents += chunk[..<count]
            // Past the limit, what was read is enough for the loader to refuse it (a manifest
            // that is /dev/zero must not fill the memory first).
            if contents.count > ManifestLimits.maximumFileSize { return contents }
        }
    }

    private static func firstInvalidUTF8(in bytes: [UInt8]) -> SourcePosition {
        var position = SourcePosition.start
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            position.advance(past: scalar)
        }
        return position
    }
}
